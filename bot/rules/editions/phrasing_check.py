"""Whether every phrasing still names a rule, and where it went when an update renumbered the rules.

A phrasing is written for one edition's numbers. When the rules are updated, a rule may be renumbered (a new
keyword shifts those after it), rewritten in place, or removed. :func:`follow` aligns the edition the phrasings
were written for with the new one (:mod:`bot.rules.editions.align`: entries are followed by what they say, not by their
number) and says of each key whether it is kept, moved (and to what number) or gone; nothing is dropped
silently. ``scripts/check_phrasings.py`` prints it and, asked to, rewrites the keys that moved.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from bot.documents import Phrasing
from bot.rules.editions.align import Prepared, align
from bot.rules.text import Document

KEPT, MOVED, GONE, UNKNOWN = "kept", "moved", "gone", "unknown"


@dataclass(frozen=True, slots=True)
class Finding:
    """What became of one phrasing's key: ``number`` is its number in the newer edition ("" when gone)."""

    key: str
    status: str  # KEPT, MOVED, GONE or UNKNOWN (the key names no rule of the edition it was written for)
    number: str
    files: tuple[str, ...]

    def line(self) -> str:
        where = ", ".join(self.files)
        if self.status == MOVED:
            return f"{self.key} moved to {self.number} ({where})"
        if self.status == GONE:
            return f"{self.key} was removed from the rules: its phrasing names nothing now ({where})"
        if self.status == UNKNOWN:
            return f"{self.key} is no rule of the edition it was written for ({where})"
        return f"{self.key} kept"


def check(phrasings: Mapping[str, Phrasing], document: Document) -> list[Finding]:
    """Each key against one edition: kept when it names a rule of it, else unknown."""
    return [
        Finding(key, KEPT if document.get(key) is not None else UNKNOWN, key, phrasing.files)
        for key, phrasing in sorted(phrasings.items())
    ]


def follow(phrasings: Mapping[str, Phrasing], written_for: Document, newer: Document) -> list[Finding]:
    """Each key, written for the edition ``written_for``, followed into ``newer``."""
    old, new = Prepared.of(written_for), Prepared.of(newer)
    forward = align(old, new)
    position = {rule.number: i for i, rule in enumerate(written_for.entries)}
    found = []
    for key, phrasing in sorted(phrasings.items()):
        i = position.get(key)
        if i is None:
            found.append(Finding(key, UNKNOWN, "", phrasing.files))
        elif forward[i] < 0:
            found.append(Finding(key, GONE, "", phrasing.files))
        else:
            number = newer.entries[forward[i]].number
            found.append(Finding(key, KEPT if number == key else MOVED, number, phrasing.files))
    return found


def problems(findings: list[Finding]) -> list[Finding]:
    """The findings that need a person: keys naming no rule, or a removed one."""
    return [finding for finding in findings if finding.status in (GONE, UNKNOWN)]


KEY_LINE_RE = re.compile(r'^\[\s*"([^"]+)"\s*\]', re.MULTILINE)


def renumber(text: str, moves: Mapping[str, str]) -> str:
    """A phrasing file's text with the keys that moved written with their new numbers (all at once, so that two
    rules trading places keep their words)."""
    return KEY_LINE_RE.sub(lambda match: f'["{moves.get(match[1], match[1])}"]', text)


def rewrite(folder: Path, findings: list[Finding]) -> list[Path]:
    """The files of ``folder`` holding keys that moved, rewritten with the new numbers; the paths changed."""
    changed = []
    for path in sorted(folder.glob("*.toml")):
        moves = {f.key: f.number for f in findings if f.status == MOVED and path.name in f.files}
        if not moves:
            continue
        text = path.read_text(encoding="utf-8")
        path.write_text(renumber(text, moves), encoding="utf-8")
        changed.append(path)
    return changed
