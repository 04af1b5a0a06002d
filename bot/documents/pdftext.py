"""A PDF's text as lines a parser can read: what the layout added taken out again.

:func:`extract_pages` reads the PDF (hostile input: it runs in a child process with limits, see
:mod:`bot.judge.updater`). :func:`clean_lines` then removes what the page layout adds to the words: the running
headers and footers and the page numbers, words hyphenated across lines, typographic ligatures, soft hyphens and
odd spaces. :func:`paragraphs` joins the wrapped lines of a section back into paragraphs.
"""

from __future__ import annotations

import io
import re
from collections import Counter
from collections.abc import Collection, Iterable

# The MTR is about 60 pages and 150 KB of text: a PDF with far more is not one of these documents, and is not read
# to the end (its text would cross from the child process to the bot).
MAX_PAGES, MAX_TEXT = 400, 4 * 1024 * 1024
LIGATURES = str.maketrans(
    {"ﬀ": "ff", "ﬁ": "fi", "ﬂ": "fl", "ﬃ": "ffi", "ﬄ": "ffl", "ﬅ": "st", "ﬆ": "st", "\u00ad": "", "\u00a0": " "}
)
# A running header or footer stands among the first or last lines of a page.
EDGE_LINES = 3
# A line at the edge of this share of the pages (and of three at least) is a running header or footer.
RUNNING_SHARE = 0.4
PAGE_NUMBER_RE = re.compile(r"^(?:page\s+)?\d{1,3}(?:\s*(?:of|/)\s*\d{1,3})?$", re.IGNORECASE)
# A table of contents line: "3.8 Game Markers ........ 18".
LEADER_RE = re.compile(r"(?:\.\s?){4,}\s*\d+\s*$")
WORD_RE = re.compile(r"[A-Za-z]+(?:-[A-Za-z]+)*")
BULLET_RE = re.compile(r"^(?:[•●▪◦·\-–]\s|[A-Z]\.\s|\d{1,2}\.\s(?!\d))")
SENTENCE_END = tuple('.:;!?)"”')
# A wrapped line fills most of the column; a paragraph's last line is shorter.
FULL_LINE = 0.8


def extract_pages(data: bytes) -> list[str]:
    """Each page's text as the PDF lays it out (pypdf). Module-level, so that a child process can run it; raises
    ValueError for a PDF with more pages or text than any of these documents has."""
    from pypdf import PdfReader  # here: only the update's child process reads PDFs

    reader = PdfReader(io.BytesIO(data))
    if len(reader.pages) > MAX_PAGES:
        raise ValueError(f"{len(reader.pages)} pages, more than {MAX_PAGES}")
    pages: list[str] = []
    size = 0
    for page in reader.pages:
        pages.append(page.extract_text() or "")
        size += len(pages[-1])
        if size > MAX_TEXT:
            raise ValueError(f"more than {MAX_TEXT // (1024 * 1024)} MB of text")
    return pages


def _shape(line: str) -> str:
    """A line with its numbers blanked: "Page 3 of 40" and "Page 4 of 40" are the same running footer."""
    return re.sub(r"\d+", "#", " ".join(line.split())).lower()


def _running(pages: list[list[str]]) -> set[str]:
    """The shapes of the lines that stand at the top or bottom of many pages."""
    counts: Counter[str] = Counter()
    for lines in pages:
        edges = lines[:EDGE_LINES] + lines[-EDGE_LINES:]
        counts.update({_shape(line) for line in edges})
    needed = max(3, int(len(pages) * RUNNING_SHARE))
    return {shape for shape, count in counts.items() if count >= needed}


def _page_lines(page: str) -> list[str]:
    text = page.translate(LIGATURES)
    return [" ".join(line.split()) for line in text.splitlines() if line.strip()]


def clean_lines(pages: list[str], headings: Collection[str] = ()) -> list[str]:
    """The document's lines in order, without running headers, footers and page numbers, hyphenation undone. A line
    of ``headings`` (the titles of a section's parts, the penalties under its title) is never taken for a running
    header, however many pages it begins or ends."""
    split = [_page_lines(page) for page in pages]
    running = _running(split) - {_shape(line) for line in headings} if len(split) >= 3 else set()
    lines: list[str] = []
    for page in split:
        last = len(page) - 1
        for position, line in enumerate(page):
            at_edge = position < EDGE_LINES or last - position < EDGE_LINES
            if at_edge and (_shape(line) in running or PAGE_NUMBER_RE.match(line)):
                continue
            lines.append(line)
    return dehyphenate(lines)


def dehyphenate(lines: list[str]) -> list[str]:
    """Words broken across lines ("proce-" / "dure") joined again, on the first line. A word the document writes
    with its hyphen elsewhere, or whose second half is capitalised ("Two-" / "Headed"), keeps it."""
    known = Counter(word.lower() for line in lines for word in WORD_RE.findall(line))
    out: list[str] = []
    for line in lines:
        fragment = re.search(r"[A-Za-z]+-$", out[-1]) if out and not LEADER_RE.search(out[-1]) else None
        start = re.match(r"[A-Za-z]+", line)
        if fragment is None or start is None:
            out.append(line)
            continue
        first, second = fragment.group(0)[:-1], start.group(0)
        joined, hyphened = (first + second).lower(), f"{first}-{second}".lower()
        keep = second[0].isupper() or known[hyphened] > known[joined]
        word, _, rest = line.partition(" ")
        out[-1] = out[-1][:-1] + ("-" if keep else "") + word
        if rest:
            out.append(rest)
    return out


def width(lines: Iterable[str]) -> int:
    """How long a full line of the document is: the length most long lines reach (the 90th percentile)."""
    lengths = sorted(len(line) for line in lines)
    return lengths[int(len(lengths) * 0.9)] if lengths else 0


def paragraphs(lines: list[str], full: int) -> list[str]:
    """Wrapped lines joined into paragraphs: a paragraph ends at a line that ends a sentence short of the full
    width ``full``; a bullet or a lettered example ("A. …") starts a new one."""
    out: list[str] = []
    current = ""
    for line in lines:
        if current and BULLET_RE.match(line):
            out.append(current)
            current = ""
        current = f"{current} {line}" if current else line
        if line.endswith(SENTENCE_END) and len(line) < full * FULL_LINE:
            out.append(current)
            current = ""
    if current:
        out.append(current)
    return out
