"""What changed in one section between the versions of a document kept, oldest first, as /rule shows a rule's
history: added, removed, renamed, renumbered, reworded (the words changed, ``[-old-]`` and ``{+new+}``).

A section is followed by its number; where a version has no section of that number (or another title under
it), by its title, so that an infraction moved from 3.5 to 3.4 is still the same infraction.
"""

from __future__ import annotations

from bot.documents.diff import word_diff
from bot.documents.model import Document, Section
from bot.documents.reply import Line
from bot.documents.search import normal


def _same(section: Section | None, title: str) -> bool:
    return section is not None and normal(section.title) == normal(title)


def follow(versions: list[Document], number: str) -> list[Section | None]:
    """The section in each version (None where it is absent), found by its title in the newest version that has
    it, else by number."""
    newest = next((v.get(number) for v in reversed(versions) if v.get(number) is not None), None)
    if newest is None:
        return [None] * len(versions)
    found: list[Section | None] = []
    for version in versions:
        by_number = version.get(number)
        if _same(by_number, newest.title):
            found.append(by_number)
            continue
        by_title = next((s for s in version.sections if _same(s, newest.title)), None)
        found.append(by_title or by_number)
    return found


def _text(section: Section) -> str:
    return " ".join(section.text().split())


def history_lines(versions: list[Document], number: str) -> list[Line]:
    """One line per version: what the section was or became in it."""
    lines: list[Line] = []
    before: Section | None = None
    for version, section in zip(versions, follow(versions, number), strict=True):
        when = version.label or "undated"
        if section is None:
            lines.append(Line("removed" if before is not None else "not in this version", when))
        elif before is None:
            first = not lines
            lines.append(Line(f"{section.heading()}{'' if first else ' (added)'}", when))
        else:
            changes = []
            if section.number != before.number:
                changes.append(f"renumbered {before.number} → {section.number}")
            if normal(section.title) != normal(before.title):
                changes.append(f"retitled “{before.title}” → “{section.title}”")
            if section.badge != before.badge:
                changes.append(f"penalty {before.badge or 'none'} → {section.badge or 'none'}")
            if _text(section) != _text(before) and version.full:
                diff, _ratio = word_diff(_text(before), _text(section))
                changes.append(f"reworded: {diff}")
            lines.append(Line("; ".join(changes) or "unchanged", when))
        before = section
    return lines
