"""A parsed search (:mod:`nodes`) compiled to one SQL condition with bound parameters.

The condition is on ``search_cards s``. A term about a face may hold on any face, the way Scryfall
matches ``t:creature t:instant`` on an adventure card: text terms look at every face's text (a line
each), numbers and costs at the card's front face or ``search_faces`` (the other faces of
multi-faced cards). Every value the user typed is a parameter; the SQL text is made only of this
module's own fragments.

A term the local copy cannot answer raises :class:`NeedsScryfall`; a term nobody knows is dropped
with a warning in Scryfall's words, and the rest is searched.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from bot.carddb.nicknames import resolve_nickname
from bot.carddb.query import regexp
from bot.carddb.query.colours import colour_condition, colour_mask, count_condition
from bot.carddb.query.grammar import NUMERIC_KEYS, QueryError
from bot.carddb.query.nodes import And, Name, Node, Not, Or, Query, Term, Value
from bot.carddb.query.vocab import (
    ALL_COLOURS,
    API_ONLY,
    COLOUR_BITS,
    COLOUR_NAMES,
    COLOURLESS_BIT,
    FLAG_BITS,
    FORMAT_ALIASES,
    IS_ALIASES,
    KEYS,
    LAYOUT_FLAGS,
    ORDERS,
    PRINTING_FLAGS,
    RARITIES,
)
from bot.text import normalise

Sql = tuple[str, list[object]]
NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d+)?|\.\d+)")
MANA_SYMBOL = re.compile(r"\{[^{}]+\}|\d+|[A-Za-z]")
# The keys of a card's legality in a format, each its own column of bits.
LEGALITIES = frozenset({"legal", "banned", "restricted"})
FACE_NUMBERS = {
    "power": "power",
    "toughness": "toughness",
    "loyalty": "loyalty",
    "defense": "defense",
    "powtou": "(power + toughness)",
    "mv": "cmc",
}
CARD_NUMBERS = {
    "power": "s.power",
    "toughness": "s.toughness",
    "loyalty": "s.loyalty",
    "defense": "s.defense",
    "powtou": "(s.power + s.toughness)",
    "mv": "s.cmc",
}
# Oracle text tables, joined to the card row by rowid only when a query reads them.
TEXT_TABLES = {"oracle": ("search_oracle", "o"), "tilde": ("search_tilde", "ot"), "full": ("search_full", "of")}
SQL_OPS = {":": "=", "=": "=", "!=": "<>", "<": "<", "<=": "<=", ">": ">", ">=": ">="}
EXTRA_WORDS = frozenset({"token", "emblem", "extra", "art_series", "double_faced_token", "tokens", "extras"})


class NeedsScryfall(QueryError):
    """The search uses something only Scryfall's API knows; ``what`` names it (``"printings"``)."""

    def __init__(self, message: str, what: str) -> None:
        super().__init__(message)
        self.what = what


@dataclass
class Compiled:
    where: str
    params: list[object]
    order: str
    warnings: list[str] = field(default_factory=list)
    extras: bool = False
    joins: set[str] = field(default_factory=set)  # TEXT_TABLES keys

    @property
    def source(self) -> str:
        """The FROM clause: the card rows and the text tables the condition reads."""
        joined = "".join(
            f" LEFT JOIN {TEXT_TABLES[key][0]} {TEXT_TABLES[key][1]} ON {TEXT_TABLES[key][1]}.rowid = s.rowid"
            for key in sorted(self.joins)
        )
        return f"search_cards s{joined}"


def _any_face(card: Sql, face: Sql) -> Sql:
    """``card`` on the front face (a column of ``s``) or ``face`` on any face of a multi-faced card."""
    sql = f"(coalesce({card[0]}, 0) OR s.rowid IN (SELECT card FROM search_faces WHERE {face[0]}))"  # noqa: S608
    return sql, [*card[1], *face[1]]


def _text(column: str, value: Value) -> Sql:
    if value.regex:
        regexp.check(value.text)
        # Literals every match contains are looked for first: the expression then runs on those rows only.
        filters = regexp.literal_filters(value.text)
        parts = ["(" + " OR ".join(f"coalesce(instr({column}, ?), 0) > 0" for _ in group) + ")" for group in filters]
        params: list[object] = [text for group in filters for text in sorted(group)]
        return " AND ".join([*parts, f"scry_regexp(?, {column})"]), [*params, value.text]
    return f"coalesce(instr({column}, ?), 0) > 0", [value.text.lower()]


_UNKNOWN = " isn't a search term I know"


def warning_sentence(warnings: Sequence[str], *, searched: bool = True) -> str:
    """What was left out of a search, as one sentence: the unknown terms named together, then the rest.

    ``"foo:bar and baz:qux aren't search terms I know, so I searched the rest."``; with ``searched=False`` (every
    term was unknown) the sentence says there was nothing to search instead.
    """
    unknown = [w.removesuffix(_UNKNOWN) for w in warnings if w.endswith(_UNKNOWN)]
    parts = [w for w in warnings if not w.endswith(_UNKNOWN)]
    if unknown:
        names = unknown[0] if len(unknown) == 1 else ", ".join(unknown[:-1]) + " and " + unknown[-1]
        verb = "isn't a search term" if len(unknown) == 1 else "aren't search terms"
        tail = "so I searched the rest" if searched else "so there was nothing to search"
        parts.insert(0, f"{names} {verb} I know, {tail}")
    return "; ".join(parts) + "." if parts else ""


class _Compiler:
    def __init__(self, formats: Mapping[str, int]) -> None:
        self.formats = formats
        self.warnings: list[str] = []
        self.extras = False
        self.joins: set[str] = set()

    def warn(self, text: str) -> None:
        if text not in self.warnings:
            self.warnings.append(text)

    def unknown(self, term: Term, what: str | None = None) -> None:
        if what is None:
            self.warn(f"{term.source} isn't a search term I know")
        else:
            self.warn(f"“{term.value.text}” isn't {what} I know, so {term.source} was ignored")

    # ------------------------------------------------------------------ tree

    def node(self, node: Node, positive: bool = True) -> Sql | None:
        if isinstance(node, Not):
            inner = self.node(node.node, not positive)
            return None if inner is None else (f"NOT ({inner[0]})", inner[1])
        if isinstance(node, And | Or):
            parts = [part for part in (self.node(child, positive) for child in node.nodes) if part is not None]
            if not parts:
                return None
            joiner = " AND " if isinstance(node, And) else " OR "
            return joiner.join(f"({sql})" for sql, _ in parts), [p for _, params in parts for p in params]
        if isinstance(node, Name):
            return self.name(node)
        return self.term(node, positive)

    def name(self, node: Name) -> Sql | None:
        value = node.value
        if node.exact:
            return "s.rowid IN (SELECT card FROM names WHERE norm = ?)", [normalise(value.text)]
        if value.regex:
            return _text("s.name", value)
        norm = normalise(value.text)
        if not norm:
            return ("instr(s.name, ?) > 0", [value.text.lower()]) if value.text else None
        nickname = resolve_nickname(value.text)
        if nickname is not None:  # "bob": Dark Confidant, and any name with "bob" in it
            return "(instr(s.norm, ?) > 0 OR s.rowid IN (SELECT card FROM names WHERE norm = ?))", [
                norm,
                normalise(nickname),
            ]
        return "instr(s.norm, ?) > 0", [norm]

    def term(self, term: Term, positive: bool) -> Sql | None:
        if term.key in API_ONLY:
            what = API_ONLY[term.key]
            raise NeedsScryfall(f"{term.source} asks about {what}, which only Scryfall's own search knows.", what)
        kind = KEYS.get(term.key)
        if kind is None:
            self.unknown(term)
            return None
        if positive and self._asks_for_extras(kind, term.value.text.lower()):
            self.extras = True
        if kind in NUMERIC_KEYS:
            return self._numeric(term, kind)
        if kind in LEGALITIES:
            return self._legal(term, kind)
        return getattr(self, f"key_{kind}")(term)

    @staticmethod
    def _asks_for_extras(kind: str, value: str) -> bool:
        if kind in ("is", "layout"):
            return value in EXTRA_WORDS
        return kind == "type" and ("token" in value or "emblem" in value)

    # ------------------------------------------------------------------ text keys

    def key_name(self, term: Term) -> Sql | None:
        return self.name(Name(term.value, exact=term.op == "="))

    def key_type(self, term: Term) -> Sql:
        return _text("s.types", term.value)

    def _oracle(self, table: str, value: Value) -> Sql:
        self.joins.add(table)
        return _text(f"{TEXT_TABLES[table][1]}.text", value)

    def key_oracle(self, term: Term) -> Sql:
        return self._oracle("tilde" if "~" in term.value.text else "oracle", term.value)

    def key_fulloracle(self, term: Term) -> Sql:
        return self._oracle("full", term.value)

    def key_keyword(self, term: Term) -> Sql:
        if term.value.regex:
            return _text("s.keywords", term.value)
        return "instr(s.keywords, ?) > 0", [f"\n{term.value.text.lower()}\n"]

    def key_mana(self, term: Term) -> Sql | None:
        symbols = [s if s.startswith("{") else "{" + s + "}" for s in MANA_SYMBOL.findall(term.value.text.upper())]
        if not symbols or term.value.regex:
            self.unknown(term, "a mana cost")
            return None
        if term.op == "=":
            return _any_face(("s.mana_cost = ?", ["".join(symbols)]), ("mana_cost = ?", ["".join(symbols)]))
        counts: dict[str, int] = {}
        for symbol in symbols:
            counts[symbol] = counts.get(symbol, 0) + 1
        params: list[object] = []
        for symbol, count in counts.items():
            params += [symbol, count * len(symbol)]
        each = "length({0}) - length(replace({0}, ?, '')) >= ?"
        return _any_face(
            (" AND ".join(each.format("s.mana_cost") for _ in counts), params),
            (" AND ".join(each.format("mana_cost") for _ in counts), params),
        )

    # ------------------------------------------------------------------ colours

    def _colour_sql(self, term: Term, column: str, default: str) -> Sql | None:
        if term.value.text.isdigit() and not term.value.regex:
            return count_condition(column, term.op, int(term.value.text))
        mask = colour_mask(term.value.text)
        if mask is None:
            self.unknown(term, "a colour")
            return None
        return colour_condition(column, term.op, mask, default)

    def key_produces(self, term: Term) -> Sql | None:
        text = term.value.text.lower()
        letters = COLOUR_NAMES.get(text, text)
        if term.value.regex or not letters or any(letter not in COLOUR_BITS and letter != "c" for letter in letters):
            self.unknown(term, "a kind of mana")
            return None
        mask = sum({COLOUR_BITS.get(letter, COLOURLESS_BIT) for letter in letters})
        return colour_condition("s.produces", term.op, mask, ">=", everything=ALL_COLOURS | COLOURLESS_BIT)

    def key_color(self, term: Term) -> Sql | None:
        return self._colour_sql(term, "s.colors", ">=")

    def key_identity(self, term: Term) -> Sql | None:
        return self._colour_sql(term, "s.identity", "<=")

    # ------------------------------------------------------------------ numbers

    def _numeric(self, term: Term, key: str) -> Sql | None:
        op = SQL_OPS[term.op]
        text = term.value.text.lower()
        other = KEYS.get(text)
        if other in NUMERIC_KEYS:
            return _any_face(
                (f"{CARD_NUMBERS[key]} {op} {CARD_NUMBERS[other]}", []),
                (f"{FACE_NUMBERS[key]} {op} {FACE_NUMBERS[other]}", []),
            )
        if key == "mv" and text in ("even", "odd") and term.op in (":", "="):
            return f"s.cmc = CAST(s.cmc AS INTEGER) AND CAST(s.cmc AS INTEGER) % 2 = {1 if text == 'odd' else 0}", []
        if not NUMBER.fullmatch(text) or term.value.regex:
            self.unknown(term, "a number")
            return None
        if key == "mv":
            return f"s.cmc {op} ?", [float(text)]
        value = float(text)
        return _any_face((f"{CARD_NUMBERS[key]} {op} ?", [value]), (f"{FACE_NUMBERS[key]} {op} ?", [value]))

    # ------------------------------------------------------------------ printing, legality, kinds

    def key_rarity(self, term: Term) -> Sql | None:
        rank = RARITIES.get(term.value.text.lower())
        if rank is None:
            self.unknown(term, "a rarity")
            return None
        return f"s.rarity {SQL_OPS[term.op]} ?", [rank]

    def key_set(self, term: Term) -> Sql:
        sql = "s.set_code = ?" if term.op != "!=" else "s.set_code != ?"
        return sql, [term.value.text.lower()]

    def key_layout(self, term: Term) -> Sql:
        return "s.layout = ?", [term.value.text.lower()]

    def _legal(self, term: Term, column: str) -> Sql | None:
        name = term.value.text.lower()
        bit = self.formats.get(FORMAT_ALIASES.get(name, name))
        if bit is None:
            self.unknown(term, "a format")
            return None
        return f"(s.{column} & ?) != 0", [bit]

    def key_is(self, term: Term) -> Sql | None:
        word = term.value.text.lower()
        word = IS_ALIASES.get(word, word)
        if word in PRINTING_FLAGS:
            message = f"{term.source} is about printings, which only Scryfall's own search knows."
            raise NeedsScryfall(message, "printings")
        if word == "token":
            return "(s.layout IN ('token', 'double_faced_token') OR s.extra = 'token')", []
        if word in LAYOUT_FLAGS:
            layouts = LAYOUT_FLAGS[word]
            return f"s.layout IN ({', '.join('?' * len(layouts))})", list(layouts)
        if word in FLAG_BITS:
            return "(s.flags & ?) != 0", [FLAG_BITS[word]]
        self.unknown(term, "an is: term")
        return None

    def key_not(self, term: Term) -> Sql | None:
        inner = self.key_is(term)
        return None if inner is None else (f"NOT ({inner[0]})", inner[1])


def _order(query: Query, compiler: _Compiler) -> str:
    key = query.directives.get("order", "name")
    if key not in ORDERS:
        compiler.warn(f"order:{key} isn't an order I know; sorted by name")
        key = "name"
    column, direction = ORDERS[key]
    wanted = query.directives.get("direction", "auto")
    if wanted in ("asc", "desc"):
        direction = wanted
    elif wanted != "auto":
        compiler.warn(f"direction:{wanted} isn't a direction I know (asc or desc)")
    return f"{column} IS NULL, {column} {direction.upper()}, s.norm, s.rowid"


def compile_query(query: Query, formats: Mapping[str, int]) -> Compiled:
    """The SQL condition on ``search_cards s`` for ``query``, its parameters, ORDER BY and warnings.

    ``formats``: each format the data knows and its bit in the legality masks.
    Raises :class:`NeedsScryfall` or :class:`QueryError`.
    """
    compiler = _Compiler(formats)
    unique = query.directives.get("unique", "cards")
    if unique in ("prints", "art"):
        raise NeedsScryfall(f"unique:{unique} lists printings, which only Scryfall's own search knows.", "printings")
    include = query.directives.get("include")
    if include == "extras":
        compiler.extras = True
    elif include is not None:
        compiler.warn(f"include:{include} isn't something I can include (include:extras is)")
    if query.root is None:
        raise QueryError("Give something to search for besides order: and direction:, e.g. t:creature.")
    compiled = compiler.node(query.root)
    if compiled is None:
        raise QueryError(warning_sentence(compiler.warnings, searched=False))
    where, params = compiled
    if not compiler.extras:
        where = f"s.extra IS NULL AND ({where})"
    order = _order(query, compiler)
    return Compiled(where, params, order, compiler.warnings, compiler.extras, compiler.joins)
