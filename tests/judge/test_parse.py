"""The MTR's and IPG's PDFs cut into sections: every section of the outline, the real sections' text word for word,
the IPG's penalties and parts, list items not taken for headings."""

from __future__ import annotations

import json

import pytest

from bot.documents import DocumentFormatError, Layout, extract_pages, split_sections
from bot.judge.catalog import IPG, MTR, parse_pages
from bot.judge.outline import load_outline
from tests.data import JUDGE_SECTIONS
from tests.judge.conftest import IPG_DATE, MTR_DATE
from tests.support.judge_pdfs import write_pdf


@pytest.mark.parametrize("spec", [MTR, IPG], ids=["mtr", "ipg"])
def test_every_section_of_the_outline_is_found_with_its_title_and_penalty(spec, pages):
    document = parse_pages(spec, pages[spec.key], "u")
    outline = load_outline(spec.key)

    assert document.effective == {"mtr": MTR_DATE, "ipg": IPG_DATE}[spec.key]
    assert [(s.number, s.title, s.badge) for s in document.sections] == [
        (s.number, s.title, s.badge) for s in outline.sections
    ]


@pytest.mark.parametrize("spec", [MTR, IPG], ids=["mtr", "ipg"])
def test_the_real_sections_come_out_word_for_word_through_headers_page_breaks_and_hyphenation(spec, pages):
    document = parse_pages(spec, pages[spec.key], "u")
    for real in json.loads(JUDGE_SECTIONS[spec.key].read_text(encoding="utf-8"))["sections"]:
        section = document.get(real["number"])
        assert section.badge == real["badge"]
        # Where a paragraph ends depends on the page's width: the words, in order, do not.
        assert [[p.title, " ".join(p.paragraphs)] for p in section.parts] == [
            [title, " ".join(paragraphs)] for title, paragraphs in real["parts"]
        ], real["number"]


def test_ipg_2_2_has_its_penalty_and_its_parts():
    real = json.loads(JUDGE_SECTIONS["ipg"].read_text(encoding="utf-8"))["sections"][0]
    assert real["number"] == "2.2" and real["badge"] == "Warning"
    assert [title for title, _paragraphs in real["parts"]] == [
        "Definition",
        "Examples",
        "Philosophy",
        "Additional Remedy",
    ]


def test_numbered_list_items_inside_a_section_are_not_headings():
    lines = [
        "1. Tournament Rules",
        "1.1 Tiebreakers",
        "Players are ranked by:",
        "1. Match points",
        "2. Opponents' game-win percentage",
        "1.2 Format Categories",
        "Constructed and Limited.",
        "2. Communication",
        "Players must communicate clearly.",
    ]
    sections = split_sections(lines, Layout())
    assert [s.number for s in sections] == ["1", "1.1", "1.2", "2"]
    assert (
        " ".join(sections[1].paragraphs) == "Players are ranked by: 1. Match points 2. Opponents' game-win percentage"
    )


def test_small_capital_headings_read_as_titles():
    sections = split_sections(["1. G ENERAL P HILOSOPHY", "Text.", "1.1. D EFINITION OF P ENALTIES", "More."], Layout())
    assert [s.title for s in sections] == ["General Philosophy", "Definition of Penalties"]


def test_text_that_is_not_the_document_is_refused_in_one_line():
    with pytest.raises(DocumentFormatError, match='no "Effective <date>" on its first page: is this the Magic'):
        parse_pages(MTR, ["Lunch menu\nSoup of the day"], "u")
    with pytest.raises(DocumentFormatError, match="no numbered sections"):
        parse_pages(IPG, ["Effective May 1, 2026\nNothing numbered here."], "u")


def test_part_titles_and_penalties_at_the_top_of_many_pages_are_kept_as_headings():
    """A part title that begins page after page ("Upgrade", "Definition") repeats at the pages' edges as a running
    header does: it is a heading all the same, and its text stays its own part."""
    infractions = [row for row in load_outline("ipg").sections if row.number.startswith("2.") and row.badge][:5]
    first = ["MAGIC INFRACTION PROCEDURE GUIDE", "Effective September 23, 2024", "1. General Philosophy", "Text."]
    pages = [[*first, "2. Game Play Errors"]]
    for section in infractions:
        said = section.title.rsplit("—", 1)[-1].strip().lower()
        pages.append(
            [f"{section.number}. {section.title}", section.badge, "Definition", f"The definition of {said} is here."]
        )
        pages.append(["Upgrade", f"The upgrade of {said} is here.", "Philosophy", f"The philosophy of {said}."])
    extracted = extract_pages(write_pdf(pages, "MTG_IPG_2024Sep23_EN-html.html"))

    document = parse_pages(IPG, extracted, "u")

    assert [s.number for s in document.sections] == ["1", "2", *(s.number for s in infractions)]
    for section in infractions:
        found = document.get(section.number)
        said = section.title.rsplit("—", 1)[-1].strip().lower()
        assert found.badge == section.badge
        assert [(part.title, part.paragraphs) for part in found.parts] == [
            ("Definition", (f"The definition of {said} is here.",)),
            ("Upgrade", (f"The upgrade of {said} is here.",)),
            ("Philosophy", (f"The philosophy of {said}.",)),
        ]
