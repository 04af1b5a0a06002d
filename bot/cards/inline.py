"""``[[Card Name]]`` references in chat messages, outside code and quotes."""

from __future__ import annotations

import re
from dataclasses import dataclass

MAX_REFERENCES = 5
MAX_NAME_LENGTH = 141  # the longest card name is about 140 characters

FENCED_CODE = re.compile(r"```.*?(?:```|\Z)", re.DOTALL)
INLINE_CODE = re.compile(r"`[^`\n]*`")
REFERENCE = re.compile(r"\[\[([^\[\]\n]{1,200})\]\]")


@dataclass(frozen=True)
class CardReference:
    name: str
    set_code: str | None = None


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
    """The first ``limit`` distinct ``[[name]]`` or ``[[name|set]]`` references, in order."""
    found: list[CardReference] = []
    seen: set[tuple[str, str | None]] = set()
    for match in REFERENCE.finditer(visible_text(content)):
        name, _, set_code = match.group(1).partition("|")
        name = " ".join(name.split())
        set_code = set_code.strip().lower() or None
        if not name or len(name) > MAX_NAME_LENGTH:
            continue
        if set_code is not None and not re.fullmatch(r"[a-z0-9]{2,6}", set_code):
            set_code = None
        key = (name.lower(), set_code)
        if key in seen:
            continue
        seen.add(key)
        found.append(CardReference(name, set_code))
        if len(found) >= limit:
            break
    return found
