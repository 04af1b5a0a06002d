"""Cutting a document's cleaned lines into numbered sections, by what its headings look like (:class:`Layout`).

The text of a section can hold lines that look like headings ("1. Match points" in a list of tiebreakers), so a
heading is taken only where it can be one: numbers go up one at a time (chapter 3, then 3.1, 3.2 … then chapter
4), a title is short and in title case, and when the document has a table of contents, only the numbers it lists
are headings.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.documents.model import Part, Section
from bot.documents.pdftext import LEADER_RE, paragraphs, width

# Small words a title leaves in lower case ("Definition of Penalties").
MINOR_WORDS = frozenset("a an and as at by for from in into of on or the to with".split())
# Small capitals come out of some PDFs as a capital and the rest apart: "D EFINITION OF P ENALTIES".
SMALL_CAPS_RE = re.compile(r"\b([A-Z]) (?=[A-Z]{2,}\b)")


@dataclass(frozen=True)
class Layout:
    """What a document's headings look like; each pattern's groups are the number and the title."""

    chapter: re.Pattern[str] = re.compile(r"^(\d{1,2})\.\s+(\S.*)$")
    section: re.Pattern[str] = re.compile(r"^(\d{1,2}\.\d{1,2})\.?\s+(\S.*)$")
    appendix: re.Pattern[str] = re.compile(r"^Appendix\s+([A-Z])\s*[—–:-]\s*(\S.*)$", re.IGNORECASE)
    # Lines that title the parts of a section ("Definition", "Philosophy").
    part_titles: frozenset[str] = frozenset()
    # Lines that, right under (or at the end of) the heading of a section whose title matches ``badged``, state a
    # fact about it (the IPG's penalty).
    badges: frozenset[str] = frozenset()
    badged: re.Pattern[str] = re.compile(r"(?!)")
    max_title: int = 90

    @property
    def headings(self) -> frozenset[str]:
        """The lines that head a part of a section or state its badge: never a page's running header."""
        return self.part_titles | self.badges


def title_text(title: str) -> str:
    """A heading's title as a reader expects it: small capitals joined, capitals as title case."""
    title = " ".join(SMALL_CAPS_RE.sub(r"\1", title).split())
    if not title.isupper():
        return title
    words = title.lower().split()
    return " ".join(w if i and w in MINOR_WORDS else w[:1].upper() + w[1:] for i, w in enumerate(words))


def _looks_like_title(title: str, layout: Layout) -> bool:
    """Short, not a sentence, and every longer word capitalised (titles are in title case; list items are not)."""
    if len(title) > layout.max_title or title.endswith((".", ",", ";")):
        return False
    return all(w[:1].isupper() or not w[:1].isalpha() or w.lower() in MINOR_WORDS for w in title.split() if len(w) > 3)


class _Reader:
    """The headings met so far, to tell which next line may be a heading."""

    def __init__(self, layout: Layout, contents: dict[str, str]) -> None:
        self.layout = layout
        self.contents = contents
        self.chapter = 0
        self.section = 0
        self.appendix = ""

    def heading(self, line: str) -> tuple[str, str, str] | None:
        """The number, title and badge of the heading ``line`` is, or None."""
        layout = self.layout
        if LEADER_RE.search(line):
            return None
        for pattern, check in (
            (layout.section, self._section),
            (layout.chapter, self._chapter),
            (layout.appendix, self._appendix),
        ):
            match = pattern.match(line)
            if match is None:
                continue
            number, title = match.group(1), title_text(match.group(2))
            badge = (
                next((b for b in layout.badges if title.endswith(f" {b}")), "") if layout.badged.search(title) else ""
            )
            title = title[: -len(badge)].strip() if badge else title
            if not _looks_like_title(title, layout) or not self._listed(number, title):
                continue
            if check(number):
                # The table of contents has the title as it is read (the heading may be in small capitals).
                return number, self.contents.get(number, title), badge
        return None

    def _listed(self, number: str, title: str) -> bool:
        """Whether the contents, if any, list ``number`` with a title that starts as ``title`` does."""
        if not self.contents:
            return True
        listed = self.contents.get(number)
        return listed is not None and listed.split()[0].lower() == title.split()[0].lower()

    def _chapter(self, number: str) -> bool:
        if self.appendix or int(number) != self.chapter + 1:
            return False
        self.chapter, self.section = int(number), 0
        return True

    def _section(self, number: str) -> bool:
        chapter, section = (int(part) for part in number.split("."))
        if self.appendix:
            return False
        if chapter == self.chapter and section == self.section + 1:
            self.section = section
            return True
        if chapter == self.chapter + 1 and section == 1:  # the chapter's own heading was lost
            self.chapter, self.section = chapter, 1
            return True
        return False

    def _appendix(self, letter: str) -> bool:
        expected = chr(ord(self.appendix) + 1) if self.appendix else "A"
        if not self.chapter or letter != expected:
            return False
        self.appendix = letter
        return True


def contents_of(lines: list[str], layout: Layout) -> dict[str, str]:
    """The table of contents: every heading listed with a page number ("3.8 Game Markers ..... 18")."""
    found: dict[str, str] = {}
    for line in lines:
        if not LEADER_RE.search(line):
            continue
        entry = LEADER_RE.sub("", line).strip()
        for pattern in (layout.section, layout.chapter, layout.appendix):
            if match := pattern.match(entry):
                found.setdefault(match.group(1), title_text(match.group(2)))
                break
    return found


def split_sections(lines: list[str], layout: Layout) -> list[Section]:
    """The document's sections in order, each with its badge and its parts cut into paragraphs."""
    reader = _Reader(layout, contents_of(lines, layout))
    heads: list[tuple[str, str, str, list[str]]] = []
    for line in lines:
        found = reader.heading(line)
        if found is not None:
            heads.append((*found, []))
        elif heads and not LEADER_RE.search(line):
            heads[-1][3].append(line)
    full = width(line for *_head, body in heads for line in body)
    return [_section(number, title, badge, body, layout, full) for number, title, badge, body in heads]


def _section(number: str, title: str, badge: str, body: list[str], layout: Layout, full: int) -> Section:
    if not badge and layout.badged.search(title) and body and body[0] in layout.badges:
        badge, body = body[0], body[1:]
    parts: list[tuple[str, list[str]]] = [("", [])]
    for line in body:
        if line in layout.part_titles:
            parts.append((line, []))
        else:
            parts[-1][1].append(line)
    kept = [Part(name, tuple(paragraphs(lines, full))) for name, lines in parts if lines or name]
    return Section(number, title, kept, badge)
