"""What a PDF's layout adds to its words, taken out again: running headers and footers, page numbers, hyphenation
across lines, ligatures; wrapped lines joined into paragraphs; a PDF far larger than the documents not read."""

from __future__ import annotations

import pytest
from fpdf import FPDF

from bot.documents import clean_lines, paragraphs, pdftext
from bot.documents.pdftext import dehyphenate

WORDS = "alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike".split()


def page(number: int) -> str:
    body = [f"{WORDS[(number + row) % len(WORDS)]} is on this page." for row in range(8)]
    return "\n".join(["MTG_MTR_2025_Nov10_EN-html.html", *body, f"Page {number} of 60"])


def test_running_headers_footers_and_page_numbers_are_removed_but_the_text_is_kept():
    pages = [page(n) for n in range(1, 6)] + ["The last page's text.\n6"]

    lines = clean_lines(pages)

    assert "MTG_MTR_2025_Nov10_EN-html.html" not in lines
    assert not any(line.startswith("Page ") for line in lines)
    assert "6" not in lines
    assert len(lines) == 5 * 8 + 1
    assert lines[0] == "bravo is on this page." and lines[-1] == "The last page's text."


def test_ligatures_soft_hyphens_and_no_break_spaces_become_plain_text():
    lines = clean_lines(["The ofﬁcial ﬂoor judge’s eﬀort\u00a0and re\u00adshuffle."])
    assert lines == ["The official floor judge’s effort and reshuffle."]


def test_a_word_hyphenated_across_lines_is_joined_and_a_hyphenated_word_keeps_its_hyphen():
    lines = dehyphenate(["the judge explains the proce-", "dure to both players in a Two-", "Headed Giant match;"])
    assert lines == ["the judge explains the procedure", "to both players in a Two-Headed", "Giant match;"]
    assert dehyphenate(["a game-", "winning play and a game-winning one"])[0] == "a game-winning"


def test_wrapped_lines_join_into_paragraphs_ending_short_of_the_full_width_and_bullets_start_their_own():
    lines = [
        "A player who is late to their seat at the start of a round receives a penalty, and",
        "the judge records it.",
        "A. A player arrives late.",
        "B. A player leaves before the",
        "match is over.",
    ]
    assert paragraphs(lines, full=84) == [
        "A player who is late to their seat at the start of a round receives a penalty, and the judge records it.",
        "A. A player arrives late.",
        "B. A player leaves before the match is over.",
    ]


def test_a_pdf_with_far_more_pages_than_any_document_is_not_read(monkeypatch):
    pdf = FPDF()
    for _ in range(5):
        pdf.add_page()
    monkeypatch.setattr(pdftext, "MAX_PAGES", 4)
    with pytest.raises(ValueError, match="5 pages, more than 4"):
        pdftext.extract_pages(bytes(pdf.output()))
