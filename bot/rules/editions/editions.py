"""The Comprehensive Rules editions: a rules text read as a full edition, dated by its contents.

An edition is dated by the "These rules are effective as of" line, not by its file name. Excerpts, files that do
not parse and a second text of an edition already found are left out of a history, each with a reason (the reading
of every version, one per date, is :func:`bot.documents.read_all`'s).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from bot.documents import Skipped, parse_long_date, read_all
from bot.rules.text import Document, RulesFormatError, parse_bytes

# A rules text is about 1 MB (UTF-16 editions about 2 MB); a larger file is not one.
MAX_BYTES = 20 * 1024 * 1024


class NoEditionsError(Exception):
    """No full Comprehensive Rules edition could be read from the places given."""


@dataclass(frozen=True, slots=True)
class Edition:
    effective: date
    path: Path
    document: Document
    digest: str

    @property
    def label(self) -> str:
        """The edition as the history names it: its effective date, 2024-11-08."""
        return self.effective.isoformat()


def effective_date(document: Document) -> date | None:
    """The edition's date from "These rules are effective as of November 8, 2024."."""
    return parse_long_date(document.effective) if document.effective else None


def rules_files(folder: Path) -> list[Path]:
    """The ``.txt`` files directly in ``folder``, by name (a missing folder has none)."""
    try:
        return sorted(path for path in Path(folder).iterdir() if path.suffix.lower() == ".txt" and path.is_file())
    except FileNotFoundError:
        return []


def read_edition(path: Path, data: bytes | None = None) -> Edition:
    """One file (whose bytes may be given) as an edition; raises ``RulesFormatError`` (or ``OSError``) when it is
    not a full edition."""
    path = Path(path)
    if data is None:
        if path.stat().st_size > MAX_BYTES:
            raise RulesFormatError(f"larger than {MAX_BYTES // (1024 * 1024)} MB")
        data = path.read_bytes()
    document = parse_bytes(data)
    if document.is_excerpt:
        raise RulesFormatError("an excerpt, not a full edition")
    effective = effective_date(document)
    if effective is None:
        raise RulesFormatError("no 'These rules are effective as of' date")
    return Edition(effective, path, document, hashlib.sha256(data).hexdigest())


def edition_date(path: Path) -> date:
    """The effective date of the edition in ``path``; raises when it is not a full, dated edition."""
    return read_edition(path).effective


def load_editions(paths: Iterable[Path]) -> tuple[list[Edition], list[Skipped]]:
    """The editions in ``paths`` in date order, one per date, and the files left out with why."""
    return read_all(paths, read_edition, MAX_BYTES)
