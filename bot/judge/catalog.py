"""The judges' documents the bot serves: what each is called, what its headings look like, how to find its PDF on
Wizards' rules-documents page, and how its text becomes a :class:`~bot.documents.Document`.

A third document (the JAR) is one more :class:`Spec` here: the machinery around it is the same, its versions kept
on a shelf of their own in ``judge-docs/`` as the MTR's and the IPG's are.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from bot.documents import (
    Document,
    DocumentFormatError,
    Layout,
    PdfVersion,
    Shelf,
    clean_lines,
    effective_date,
    split_sections,
)

# Wizards' page that links the current PDF of each document (JUDGE_DOCS_URL may name another).
RULES_DOCUMENTS_PAGE = "https://wpn.wizards.com/en/rules-documents"
# Where every version of the judges' documents is kept in the data folder: judge-docs/mtr-2025-11-10.json.
FOLDER = "judge-docs"
IPG_PENALTIES = frozenset({"No Penalty", "Warning", "Game Loss", "Match Loss", "Disqualification"})
IPG_PARTS = frozenset({"Definition", "Examples", "Philosophy", "Additional Remedy", "Upgrade", "Downgrade"})


@dataclass(frozen=True)
class Spec:
    key: str  # "mtr": the command, the file names
    short: str  # "MTR"
    title: str
    layout: Layout
    # The file name of its PDF as the page links it ("MTG_MTR_2025_Nov10_EN.pdf").
    file_re: re.Pattern[str]
    # A complete copy has at least this many sections (chapters and appendices included).
    min_sections: int

    @property
    def shelf(self) -> Shelf:
        """Where its versions are kept: one JSON file per effective date, ``judge-docs/<key>-<YYYY-MM-DD>.json``."""
        return Shelf(FOLDER, self.key, ".json")


MTR = Spec(
    "mtr",
    "MTR",
    "Magic Tournament Rules",
    Layout(),
    re.compile(r"MTG_MTR_[A-Za-z0-9_\-]*?_EN(?:-\d+)?\.pdf", re.IGNORECASE),
    60,
)
IPG = Spec(
    "ipg",
    "IPG",
    "Magic Infraction Procedure Guide",
    # An infraction's heading reads "2.2. Game Play Error — Looking at Extra Cards", its penalty under it.
    Layout(part_titles=IPG_PARTS, badges=IPG_PENALTIES, badged=re.compile("—")),
    re.compile(r"MTG_IPG_[A-Za-z0-9_\-]*?_EN(?:-\d+)?\.pdf", re.IGNORECASE),
    25,
)
SPECS: dict[str, Spec] = {spec.key: spec for spec in (MTR, IPG)}


def parse_pages(spec: Spec, pages: list[str], url: str, source: str = "") -> Document:
    """A document from the text of its PDF's pages; raises :class:`DocumentFormatError` when it is not one."""
    lines = clean_lines(pages, spec.layout.headings)
    effective = effective_date("\n".join(lines[:60]))
    if effective is None:
        raise DocumentFormatError(f'no "Effective <date>" on its first page: is this the {spec.title}?')
    sections = split_sections(lines, spec.layout)
    if not sections:
        raise DocumentFormatError(f"no numbered sections: is this the {spec.title}?")
    return Document(spec.key, spec.title, effective, url, sections, source=source)


def read_version(spec: Spec, path: Path, data: bytes | None = None) -> Document:
    """A version kept of ``spec``'s document (its bytes may be given); raises :class:`DocumentFormatError` when the
    file is not one, or ``OSError``."""
    stored = PdfVersion.decode(Path(path).read_bytes() if data is None else data)
    return parse_pages(spec, stored.pages, stored.url, source=f"downloaded {stored.downloaded}")
