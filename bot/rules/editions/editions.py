"""The Comprehensive Rules editions the bot knows: every full rules text kept in a folder, in date order.

An edition is dated by the "These rules are effective as of" line, not by its file name. Excerpts,
files that do not parse and a second copy of an edition already found are left out, each with a reason.
"""

from __future__ import annotations

import hashlib
import logging
import os
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from bot.documents import parse_long_date
from bot.rules.text import Document, RulesFormatError, parse_bytes

log = logging.getLogger(__name__)

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


@dataclass(frozen=True, slots=True)
class Skipped:
    path: Path
    reason: str


def effective_date(document: Document) -> date | None:
    """The edition's date from "These rules are effective as of November 8, 2024."."""
    return parse_long_date(document.effective) if document.effective else None


def rules_files(folder: Path) -> list[Path]:
    """The ``.txt`` files directly in ``folder``, by name (a missing folder has none)."""
    try:
        return sorted(path for path in Path(folder).iterdir() if path.suffix.lower() == ".txt" and path.is_file())
    except FileNotFoundError:
        return []


def file_identity(paths: Iterable[Path]) -> tuple[tuple[str, int, int], ...]:
    """What changes when any of ``paths`` is added, removed, replaced or rewritten (stat only, no reading)."""
    out = []
    for path in paths:
        try:
            stat = os.stat(path)
        except OSError:
            continue
        out.append((str(Path(path).resolve()), stat.st_size, stat.st_mtime_ns))
    return tuple(sorted(out))


def _read(path: Path) -> bytes:
    if path.stat().st_size > MAX_BYTES:
        raise RulesFormatError(f"larger than {MAX_BYTES // (1024 * 1024)} MB")
    return path.read_bytes()


def read_edition(path: Path, data: bytes | None = None) -> Edition:
    """One file (whose bytes may be given) as an edition; raises ``RulesFormatError`` (or ``OSError``) when it is
    not a full edition."""
    path = Path(path)
    data = _read(path) if data is None else data
    document = parse_bytes(data)
    if document.is_excerpt:
        raise RulesFormatError("an excerpt, not a full edition")
    effective = effective_date(document)
    if effective is None:
        raise RulesFormatError("no 'These rules are effective as of' date")
    return Edition(effective, path, document, hashlib.sha256(data).hexdigest())


def load_editions(paths: Iterable[Path]) -> tuple[list[Edition], list[Skipped]]:
    """The editions in ``paths`` in date order, one per date, and the files left out with why."""
    by_date: dict[date, Edition] = {}
    skipped: list[Skipped] = []
    seen: set[Path] = set()
    digests: set[str] = set()
    for path in paths:
        resolved = Path(path).resolve()
        if resolved in seen:
            continue
        seen.add(resolved)
        try:
            data = _read(Path(path))
            # The same text kept twice (the current download and its kept edition) is read once.
            digest = hashlib.sha256(data).hexdigest()
            if digest in digests:
                continue
            digests.add(digest)
            edition = read_edition(path, data)
        except (OSError, RulesFormatError) as error:
            skipped.append(Skipped(Path(path), str(error)))
            log.info("Not a rules edition, left out of the history: %s (%s)", path, error)
            continue
        kept = by_date.get(edition.effective)
        if kept is not None:
            if kept.digest != edition.digest:
                skipped.append(Skipped(Path(path), f"another text of the {edition.label} edition ({kept.path.name})"))
            continue
        by_date[edition.effective] = edition
    return [by_date[day] for day in sorted(by_date)], skipped
