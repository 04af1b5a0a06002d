"""``[[Card Name]]`` references in chat messages, outside code and quotes.

The shortcuts of Scryfall's own bot: ``[[!name]]`` the image only, ``[[$name]]`` prices,
``[[#name]]`` legality, ``[[name|SET]]`` and ``[[name|SET|NUMBER]]`` a printing, and
``[[?query]]`` the first results of a search in Scryfall's syntax.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MAX_REFERENCES = 5
MAX_NAME_LENGTH = 141  # the longest card name is about 140 characters

FENCED_CODE = re.compile(r"```.*?(?:```|\Z)", re.DOTALL)
INLINE_CODE = re.compile(r"`[^`\n]*`")
REFERENCE = re.compile(r"\[\[([^\[\]\n]{1,200})\]\]")
SET_CODE = re.compile(r"[a-z0-9]{2,6}")
COLLECTOR_NUMBER = re.compile(r"[a-z0-9★†-]{1,10}")
MODES = {"!": "image", "$": "prices", "#": "legality", "?": "search"}


@dataclass(frozen=True)
class CardReference:
    """``mode``: ``card`` (the compact card), ``image``, ``prices``, ``legality`` or ``search`` (then ``name``
    is the query)."""

    name: str
    set_code: str | None = None
    number: str | None = None
    mode: str = "card"

    @property
    def printing(self) -> bool:
        return self.set_code is not None


def visible_text(content: str) -> str:
    """The message without fenced or inline code and without quoted lines (``> ...``)."""
    content = FENCED_CODE.sub(" ", content)
    content = INLINE_CODE.sub(" ", content)
    kept = []
    for line in content.splitlines():
        stripped = line.lstrip()
        if stripped.startswith(">"):
            continue
        kept.append(line)
    return "\n".join(kept)


def find_references(content: str, limit: int = MAX_REFERENCES) -> list[CardReference]:
    """The first ``limit`` distinct references (``[[name]]``, ``[[!name]]``, ``[[name|set|number]]``...), in order."""
    found: list[CardReference] = []
    seen: set[tuple[str, str | None, str | None, str]] = set()
    for match in REFERENCE.finditer(visible_text(content)):
        if match.group(1).lstrip().startswith("?"):
            query = " ".join(match.group(1).lstrip()[1:].split())
            key = (query.lower(), None, None, "search")
            if query and key not in seen:
                seen.add(key)
                found.append(CardReference(query, mode="search"))
            if len(found) >= limit:
                break
            continue
        name, _, printing = match.group(1).partition("|")
        set_code, _, number = printing.partition("|")
        name = " ".join(name.split())
        mode = MODES.get(name[:1], "card")
        if mode != "card":
            name = name[1:].strip()
        set_code = set_code.strip().lower() or None
        number = number.strip().lower() or None
        if not name or len(name) > MAX_NAME_LENGTH:
            continue
        if set_code is not None and not SET_CODE.fullmatch(set_code):
            set_code = None
        if set_code is None or (number is not None and not COLLECTOR_NUMBER.fullmatch(number)):
            number = None
        key = (name.lower(), set_code, number, mode)
        if key in seen:
            continue
        seen.add(key)
        found.append(CardReference(name, set_code, number, mode))
        if len(found) >= limit:
            break
    return found
