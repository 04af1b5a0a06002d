"""A small subset of Scryfall's search syntax, answered from the local card data.

Understood: bare words (in the name), ``t:``/``type:``, ``o:``/``oracle:``, ``kw:``/``keyword:``,
``s:``/``set:``/``e:``, ``r:``/``rarity:``, ``c:``/``color:`` (cards of at least those colours),
``"quoted phrases"`` as values, and ``-`` before a term to exclude it; all terms must hold.
Anything else (``or``, parentheses, comparisons such as ``cmc<=3``) raises
:class:`UnsupportedQuery`, and the caller asks Scryfall's API instead.
"""

from __future__ import annotations

import re

from bot.carddb.names import normalise

MAX_TERMS = 20
COLOURS = {"w": "W", "u": "U", "b": "B", "r": "R", "g": "G"}
COLOUR_WORDS = {"white": "w", "blue": "u", "black": "b", "red": "r", "green": "g"}
TERM = re.compile(r'(?P<neg>-)?(?:(?P<key>[a-z]+):)?(?:"(?P<quoted>[^"]*)"|(?P<bare>[^\s"]+))', re.IGNORECASE)
KEYS = {
    "t": "type",
    "type": "type",
    "o": "oracle",
    "oracle": "oracle",
    "kw": "keyword",
    "keyword": "keyword",
    "s": "set",
    "set": "set",
    "e": "set",
    "r": "rarity",
    "rarity": "rarity",
    "c": "colour",
    "color": "colour",
}


class UnsupportedQuery(ValueError):
    """The local search cannot evaluate this query; Scryfall's API can."""


def _like(value: str) -> str:
    return "%" + value.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


def _clause(key: str | None, value: str) -> tuple[str, list[object]]:
    if key is None:
        norm = normalise(value)
        if not norm:
            raise UnsupportedQuery(f"cannot search for {value!r}")
        return "c.norm LIKE ? ESCAPE '\\'", [_like(norm)]
    kind = KEYS.get(key.lower())
    if kind == "type":
        return "c.type_line LIKE ? ESCAPE '\\'", [_like(value)]
    if kind == "oracle":
        return "c.oracle_text LIKE ? ESCAPE '\\'", [_like(value)]
    if kind == "keyword":
        return "c.keywords LIKE ? ESCAPE '\\'", [_like(f'"{value}"')]
    if kind == "set":
        return "c.set_code = ?", [value.lower()]
    if kind == "rarity":
        return "c.rarity = ?", [value.lower()]
    if kind == "colour":
        letters = COLOUR_WORDS.get(value.lower(), value.lower())
        if not letters or any(letter not in COLOURS for letter in letters):
            raise UnsupportedQuery(f"unknown colours {value!r}")
        return " AND ".join("c.colors LIKE ?" for _ in letters), [f'%"{COLOURS[letter]}"%' for letter in letters]
    raise UnsupportedQuery(f"the local search does not know {key}:")


def where(query: str) -> tuple[str, list[object]]:
    """The SQL condition (on table alias ``c``) and its parameters for ``query``."""
    text = query.strip()
    if not text:
        raise UnsupportedQuery("empty query")
    clauses: list[str] = []
    params: list[object] = []
    position = 0
    for match in TERM.finditer(text):
        if text[position : match.start()].strip():
            raise UnsupportedQuery(f"cannot read {text[position : match.start()]!r}")
        position = match.end()
        value = match["quoted"] if match["quoted"] is not None else match["bare"]
        if match["bare"] is not None and (value.lower() in ("or", "and") or re.search(r"[()<>=!]", value)):
            raise UnsupportedQuery(f"the local search does not understand {value!r}")
        clause, values = _clause(match["key"], value)
        clauses.append(f"NOT ({clause})" if match["neg"] else f"({clause})")
        params.extend(values)
    if text[position:].strip():
        raise UnsupportedQuery(f"cannot read {text[position:]!r}")
    if len(clauses) > MAX_TERMS:
        raise UnsupportedQuery("too many terms")
    return " AND ".join(clauses), params
