"""Every version of a document the bot has downloaded, kept by its effective date, and the guard a new download
passes before it is kept.

A version is one JSON file, ``<key>-<YYYY-MM-DD>.json``: the text of each page as extracted (so that a better parser
reads old versions better too), the address it came from and when. It is written atomically
(:mod:`bot.runtime.atomic`): a download or a write cut short leaves at most a hidden temporary file, swept before
the next update. The newest version is the one answers come from; the older ones are what a section's history is
read from.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from bot.documents.model import Document, DocumentFormatError
from bot.runtime import remove_leftovers, store_atomically

VERSION_RE = re.compile(r"^(?P<key>[a-z]+)-(?P<day>\d{4}-\d{2}-\d{2})\.json$")
# A new version with fewer sections than this share of the last good one is refused (truncated, or misread).
KEEP_SHARE = 0.9
HTML_STARTS = (b"<!doctype", b"<html", b"<?xml", b"<head", b"<body")


def retry_delay(failures: int, first: float, most: float) -> float:
    """Seconds to wait after ``failures`` failed updates in a row: ``first``, then twice as long each time, up to
    ``most`` (a host that is down is asked less and less often, and never left for longer than ``most``)."""
    return min(most, first * 2 ** min(max(failures - 1, 0), 30))


class Refused(Exception):
    """A download the guard would not keep; ``str(e)`` is one line saying why."""


@dataclass(frozen=True, slots=True)
class Stored:
    """One kept version: its pages' text and where it came from."""

    path: Path
    effective: date
    pages: list[str]
    url: str
    downloaded: str  # ISO date


def check_pdf(data: bytes) -> None:
    """Refuse what is not a whole PDF: a web page, anything else, or a file cut short."""
    head = data[:1024].lstrip().lower()
    if head.startswith(HTML_STARTS):
        raise Refused("the download is a web page, not a PDF")
    if not data.startswith(b"%PDF-"):
        raise Refused("the download is not a PDF")
    if b"%%EOF" not in data[-2048:]:
        raise Refused(f"the PDF is cut short ({len(data):,} bytes, no end-of-file mark)")


def check_sections(document: Document, last: Document | None, minimum: int) -> None:
    """Refuse a parsed version with too few sections: fewer than ``minimum``, or under 90 % of the last good one."""
    count = len(document.sections)
    if count < minimum:
        raise Refused(f"only {count} sections found where a complete {document.title} has at least {minimum}")
    if last is not None and count < KEEP_SHARE * len(last.sections):
        raise Refused(
            f"only {count} sections found where the copy kept (effective {last.label}) has {len(last.sections)}"
        )


class Versions:
    """The versions of document ``key`` kept in ``folder``."""

    def __init__(self, folder: Path, key: str) -> None:
        self.folder = Path(folder)
        self.key = key

    def sweep(self) -> None:
        """Remove what interrupted writes left (hidden temporary files no writer holds)."""
        remove_leftovers(self.folder)

    def paths(self) -> list[Path]:
        """The kept versions, oldest first."""
        try:
            found = [
                path for path in self.folder.iterdir() if (m := VERSION_RE.match(path.name)) and m["key"] == self.key
            ]
        except FileNotFoundError:
            return []
        return sorted(found)

    def path_for(self, effective: date) -> Path:
        return self.folder / f"{self.key}-{effective.isoformat()}.json"

    def read(self, path: Path) -> Stored:
        """A kept version; raises :class:`DocumentFormatError` when the file is not one."""
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
            match = VERSION_RE.match(Path(path).name)
            return Stored(
                Path(path),
                date.fromisoformat(match["day"]),
                list(data["pages"]),
                data["url"],
                data.get("downloaded", ""),
            )
        except (OSError, ValueError, KeyError, TypeError) as error:
            raise DocumentFormatError(f"{Path(path).name} is not a kept version ({type(error).__name__})") from error

    def keep(self, effective: date, pages: list[str], url: str, downloaded: date) -> Path:
        """Write a version (replacing one of the same date) in one step."""
        path = self.path_for(effective)
        text = json.dumps({"url": url, "downloaded": downloaded.isoformat(), "pages": pages}, ensure_ascii=False)
        store_atomically(path, text.encode("utf-8"))
        return path
