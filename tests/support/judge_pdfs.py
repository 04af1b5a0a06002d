"""PDFs shaped like Wizards' MTR and IPG, written with fpdf2, for the tests and the benchmark.

The real PDFs can't be downloaded here, so these copy their shape: a title page with the effective date, a table of
contents with dot leaders and page numbers, numbered chapters and sections (the IPG's with their penalty on the next
line and their parts: Definition, Examples, Philosophy, Additional Remedy), a running header and a footer with the
page number on every page, words hyphenated across lines, and ligatures ("ﬁ") as some PDFs write them. The numbers,
titles and penalties are the bundled outline's; the sections kept in ``tests/data/judge`` have their real text, the
others a text made up from their title.
"""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import matplotlib
from fpdf import FPDF

from bot.judge.outline import outline_path
from tests.data import JUDGE_SECTIONS

FONT = Path(matplotlib.__file__).parent / "mpl-data" / "fonts" / "ttf" / "DejaVuSans.ttf"
TITLES = {"mtr": "MAGIC: THE GATHERING® TOURNAMENT RULES", "ipg": "MAGIC INFRACTION PROCEDURE GUIDE"}
FILES = {"mtr": "MTG_MTR_{:%Y_%b%d}_EN.pdf", "ipg": "MTG_IPG_{:%Y%b%d}_EN.pdf"}
COLUMN = 92  # characters a line holds
LINES = 52  # lines a page holds
MADE_UP = (
    "Players and tournament officials follow the procedures of this section for {topic} at every Rules "
    "Enforcement Level, unless the Head Judge announces otherwise before the tournament begins. A player who is "
    "unsure how {topic} applies should call a judge, who explains the procedure and any penalty that follows "
    "from it, and records what happened for the tournament's report."
)


def file_name(key: str, effective: date) -> str:
    return FILES[key].format(effective)


def real_sections(key: str) -> dict[str, dict]:
    data = json.loads(JUDGE_SECTIONS[key].read_text(encoding="utf-8"))
    return {section["number"]: section for section in data["sections"]}


def wrap(text: str, column: int = COLUMN) -> list[str]:
    """``text`` in lines of ``column`` characters, a long word that does not fit hyphenated across two."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        room = column - len(line) - (1 if line else 0)
        if len(word) <= room:
            line = f"{line} {word}" if line else word
            continue
        if room >= 4 and len(word) >= 8 and word.isalpha():
            cut = min(room - 1, len(word) - 3)
            lines.append(f"{line} {word[:cut]}-" if line else f"{word[:cut]}-")
            line = word[cut:]
            continue
        lines.append(line)
        line = word
    if line:
        lines.append(line)
    return lines


def section_lines(key: str, number: str, title: str, badge: str, real: dict | None, filler: int) -> list[str]:
    """A section as printed: its heading (the IPG's with a dot after the number), its penalty, its parts."""
    # Chapters read "3. Tournament Rules"; the MTR's sections "3.8 Game Markers", the IPG's "2.2. Game Play Error …".
    head = f"{number}. {title}" if key == "ipg" or "." not in number else f"{number} {title}"
    lines = ["", head] + ([badge] if badge else [])
    if real is not None:
        for part, paragraphs in real["parts"]:
            lines += [part] if part else []
            for paragraph in paragraphs:
                lines += wrap(paragraph)
        return lines
    topic = title.rsplit("—", 1)[-1].strip().lower()
    parts = ["Definition", "Philosophy"] if badge else [""]
    for part in parts:
        lines += [part] if part else []
        for _ in range(filler):
            lines += wrap(MADE_UP.format(topic=topic).replace("fi", "ﬁ"))
    return lines


def document_lines(key: str, effective: date, *, sections: int | None = None, filler: int = 1) -> list[str]:
    """The document's body lines (no page furniture): title, date, contents, then each section."""
    outline = json.loads(outline_path(key).read_text(encoding="utf-8"))["sections"]
    rows = outline[:sections] if sections is not None else outline
    real = real_sections(key)
    lines = [TITLES[key], f"Effective {effective:%B} {effective.day}, {effective.year}", "Contents"]
    for number, title, _badge in rows:
        dot = "." if key == "ipg" or "." not in number else ""
        label = f"Appendix {number}—{title}" if number.isalpha() else f"{number}{dot} {title}"
        lines.append(f"{label} {'.' * max(4, 70 - len(label))} {3 + rows.index([number, title, _badge]) // 2}")
    for number, title, badge in rows:
        if number.isalpha():
            lines += ["", f"Appendix {number}—{title}"] + wrap(MADE_UP.format(topic=title.lower()))
        else:
            lines += section_lines(key, number, title, badge, real.get(number), filler)
    return lines


def make_pdf(key: str, effective: date, *, sections: int | None = None, filler: int = 1) -> bytes:
    """The PDF: ``sections`` of the outline's (all by default), each made-up one ``filler`` paragraphs a part."""
    lines = document_lines(key, effective, sections=sections, filler=filler)
    header = f"{file_name(key, effective).removesuffix('.pdf')}-html.html"
    return write_pdf([lines[start : start + LINES] for start in range(0, len(lines), LINES)], header)


def write_pdf(pages: list[list[str]], header: str) -> bytes:
    """A PDF of these pages' lines, each page with the running ``header`` above and its number below."""
    pdf = FPDF(format="letter")
    pdf.add_font("DejaVu", fname=str(FONT))
    pdf.set_auto_page_break(False)
    for number, page in enumerate(pages, start=1):
        pdf.add_page()
        pdf.set_font("DejaVu", size=7)
        pdf.text(15, 10, header)
        pdf.set_font("DejaVu", size=9)
        for row, line in enumerate(page):
            pdf.text(15, 20 + row * 4.6, line)
        pdf.set_font("DejaVu", size=7)
        pdf.text(105, 270, str(number))
    return bytes(pdf.output())
