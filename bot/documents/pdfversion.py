"""A PDF document's version as its shelf keeps it, and the guard a download of one passes first.

A version is one JSON file: the text of each page as extracted (so that a better parser reads old versions better
too), the address it came from and the day it was downloaded. Before it is kept, the download must be a whole PDF,
and its text must hold as many sections as a complete copy has, and at least 90 % of the last good copy's; the
document names its minimum (:class:`bot.judge.Spec`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date

from bot.documents.model import Document, DocumentFormatError

# A new version with fewer sections than this share of the last good one is refused (truncated, or misread).
KEEP_SHARE = 0.9
HTML_STARTS = (b"<!doctype", b"<html", b"<?xml", b"<head", b"<body")


class Refused(Exception):
    """A download the guard would not keep; ``str(e)`` is one line saying why."""


@dataclass(frozen=True, slots=True)
class PdfVersion:
    """One kept version: its pages' text and where it came from."""

    pages: list[str]
    url: str
    downloaded: str = ""  # ISO date

    def encode(self) -> bytes:
        data = {"url": self.url, "downloaded": self.downloaded, "pages": self.pages}
        return json.dumps(data, ensure_ascii=False).encode("utf-8")

    @classmethod
    def decode(cls, data: bytes) -> PdfVersion:
        """A kept version's text; raises :class:`DocumentFormatError` when it is not one."""
        try:
            found = json.loads(data.decode("utf-8"))
            return cls([str(page) for page in found["pages"]], str(found["url"]), str(found.get("downloaded", "")))
        except (ValueError, KeyError, TypeError) as error:
            raise DocumentFormatError(f"not a kept version ({type(error).__name__})") from error

    def same_text(self, kept: bytes) -> bool:
        """Whether the version ``kept`` holds these pages (when it was downloaded does not count)."""
        try:
            return PdfVersion.decode(kept).pages == self.pages
        except DocumentFormatError:
            return False

    @classmethod
    def of(cls, pages: list[str], url: str, downloaded: date) -> PdfVersion:
        return cls(list(pages), url, downloaded.isoformat())


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
