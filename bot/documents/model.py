"""A document cut into numbered sections: the value types every document shares, whatever its numbering.

A section has a number ("3.8", "2", "A"), a title, and its text in parts: the text before any titled part, then
the parts a document names (the IPG's Definition, Examples, Philosophy …). A document is its sections in order,
its effective date and its official link; the bundled outline of a document is the same shape without the text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date, datetime

CHAPTER, SECTION, APPENDIX = "chapter", "section", "appendix"
# "Effective November 10, 2025" on the first page.
EFFECTIVE_RE = re.compile(r"Effective\s+([A-Z][a-z]+)\s+(\d{1,2}),?\s+(\d{4})")
# A document older than this may have been replaced: answers from it say so.
STALE_DAYS = 365


class DocumentFormatError(ValueError):
    """The text is not the document its parser reads (no sections, no date): one line says what is missing."""


def effective_date(text: str) -> date | None:
    """The first "Effective <Month> <day>, <year>" in ``text``."""
    match = EFFECTIVE_RE.search(text)
    if match is None:
        return None
    month, day, year = match.groups()
    return parse_long_date(f"{month} {day}, {year}")


def parse_long_date(text: str) -> date | None:
    """ "November 10, 2025" as a date (None for anything else): the dates every document is effective from."""
    try:
        return datetime.strptime(text, "%B %d, %Y").date()
    except ValueError:
        return None


def long_date(day: date | None) -> str:
    """November 10, 2025: how the documents write their dates."""
    return f"{day:%B} {day.day}, {day.year}" if day else ""


@dataclass(frozen=True, slots=True)
class Part:
    """Paragraphs under one title of a section ("" for the text before any titled part)."""

    title: str
    paragraphs: tuple[str, ...]


@dataclass(slots=True)
class Section:
    number: str  # "3.8", "3" (a chapter) or "A" (an appendix)
    title: str
    parts: list[Part] = field(default_factory=list)
    # A fact the document states with the title, shown with it: the IPG's penalty ("Warning").
    badge: str = ""
    order: int = 0

    @property
    def kind(self) -> str:
        if "." in self.number:
            return SECTION
        return CHAPTER if self.number.isdigit() else APPENDIX

    @property
    def parent(self) -> str | None:
        """The chapter a section belongs to ("3" for 3.8); None for chapters and appendices."""
        return self.number.split(".")[0] if "." in self.number else None

    @property
    def paragraphs(self) -> list[str]:
        return [paragraph for part in self.parts for paragraph in part.paragraphs]

    def text(self) -> str:
        """Every paragraph, part titles included, one a line: what is searched and compared."""
        lines: list[str] = []
        for part in self.parts:
            lines += ([part.title] if part.title else []) + list(part.paragraphs)
        return "\n".join(lines)

    def heading(self) -> str:
        """ "3.8 Game Markers", "Appendix B Time Limits"."""
        number = f"Appendix {self.number}" if self.kind == APPENDIX else self.number
        return f"{number} {self.title}".strip()


@dataclass
class Document:
    """One version of a document (or its outline, ``full`` False: numbers and titles only)."""

    key: str  # "mtr", "ipg"
    title: str  # "Magic: The Gathering Tournament Rules"
    effective: date | None
    url: str  # the official document (its PDF)
    sections: list[Section]
    full: bool = True
    source: str = ""  # where this copy came from, for /about and the outline
    by_number: dict[str, Section] = field(default_factory=dict, repr=False)
    children: dict[str, list[Section]] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        for order, section in enumerate(self.sections):
            section.order = order
            self.by_number.setdefault(section.number, section)
            if section.parent is not None:
                self.children.setdefault(section.parent, []).append(section)

    @property
    def label(self) -> str:
        return long_date(self.effective)

    def get(self, number: str) -> Section | None:
        return self.by_number.get(number)

    def is_stale(self, today: date) -> bool:
        """Whether the copy is more than a year old: a newer version may have replaced it."""
        return self.effective is None or (today - self.effective).days > STALE_DAYS

    def footer(self) -> str:
        """How an answer names the text it quotes: "Magic Tournament Rules, effective November 10, 2025"."""
        when = f", effective {self.label}" if self.effective else ""
        return f"{self.title}{when}" + ("" if self.full else " (outline)")


def is_under(number: str, ref: str) -> bool:
    """Whether section or rule ``number`` is ``ref`` or part of it (121.4 is under 121, 702.19c under 702.19)."""
    if number == ref:
        return True
    return (
        number.startswith(ref) and number[len(ref)] in ".abcdefghijklmnopqrstuvwxyz"
        if len(number) > len(ref)
        else False
    )
