"""Write the outline of a judges' document bundled with the bot (bot/data/judge/<doc>-outline.json).

Usage: python scripts/make_judge_outline.py {mtr,ipg} COPY --url OFFICIAL_PDF --source "where COPY came from"
       python scripts/make_judge_outline.py {mtr,ipg} --check

COPY is the document's PDF, or the HTML that pdftohtml makes of it (text placed by position on each page, as
some public mirrors keep it). It is read with the bot's own reader and parser, so the outline has exactly the
sections a download of the same version has. ``--check`` writes nothing: it reads the bundled outline as the
bot does and exits 1 when it is not a complete, dated outline.
"""

from __future__ import annotations

import argparse
import html
import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bot.documents import extract_pages  # noqa: E402
from bot.judge.catalog import SPECS, parse_pages  # noqa: E402
from bot.judge.outline import load_outline, outline_data, outline_path, outline_text  # noqa: E402

PAGE_RE = re.compile(r'<div id="page\d+-div"')
PLACED_RE = re.compile(r'<p style="position:absolute;top:(\d+)px;left:(\d+)px;[^"]*"[^>]*>(.*?)</p>', re.DOTALL)
# Pieces of one printed line stand within a few pixels of one height.
SAME_LINE_PX = 4


def pdftohtml_pages(text: str) -> list[str]:
    """Each page's lines from pdftohtml's HTML: the placed pieces of text grouped by height, left to right."""
    pages = []
    for page in PAGE_RE.split(text)[1:]:
        rows: dict[int, list[tuple[int, str]]] = {}
        for top, left, body in PLACED_RE.findall(page):
            piece = html.unescape(re.sub(r"<[^>]+>", "", re.sub(r"<br\s*/?>", " ", body)))
            row = next((known for known in rows if abs(known - int(top)) <= SAME_LINE_PX), int(top))
            rows.setdefault(row, []).append((int(left), piece))
        pages.append("\n".join("".join(piece for _left, piece in sorted(rows[row])) for row in sorted(rows)))
    return pages


def read_pages(path: Path) -> list[str]:
    data = path.read_bytes()
    return extract_pages(data) if data.startswith(b"%PDF") else pdftohtml_pages(data.decode("utf-8"))


def check(key: str) -> int:
    spec = SPECS[key]
    outline = load_outline(key)
    problems = []
    if outline.effective is None:
        problems.append("no effective date")
    if len(outline.sections) < spec.min_sections:
        problems.append(f"{len(outline.sections)} sections, fewer than {spec.min_sections}")
    if not outline.url.startswith("https://"):
        problems.append("no official link")
    print(
        f"{outline_path(key).name}: "
        + ("; ".join(problems) or f"{len(outline.sections)} sections, effective {outline.label}")
    )
    return 1 if problems else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("document", choices=sorted(SPECS))
    parser.add_argument("copy", type=Path, nargs="?", help="the document's PDF, or pdftohtml's HTML of it")
    parser.add_argument("--url", help="the official PDF's address")
    parser.add_argument("--source", help="where the copy came from (kept in the outline)")
    parser.add_argument("--check", action="store_true", help="only check the bundled outline")
    args = parser.parse_args(argv)
    if args.check:
        return check(args.document)
    if args.copy is None or not args.url or not args.source:
        parser.error("COPY, --url and --source are needed to write an outline")
    document = parse_pages(SPECS[args.document], read_pages(args.copy), args.url)
    text = outline_text(outline_data(document, args.source))
    path = outline_path(args.document)
    path.write_text(text, encoding="utf-8")
    print(f"wrote {path.name}: {len(document.sections)} sections, effective {document.label}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
