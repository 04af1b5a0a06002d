"""Answers from the judges' documents: numbers, names, short and former names, words, nonsense; the outline's notes;
a section's history across the versions kept."""

from __future__ import annotations

from datetime import date

import pytest

from bot.documents import answer_text as text
from bot.judge.catalog import IPG, MTR, parse_pages
from bot.judge.service import JudgeDocs, index_of
from bot.rules import NONE, SURE, UNSURE
from tests.judge.conftest import keep, newer

TODAY = date(2026, 11, 28)


@pytest.fixture
def outline(bot_config) -> JudgeDocs:
    return JudgeDocs.load(bot_config)


@pytest.fixture
def full(pages) -> JudgeDocs:
    from bot.config import Config

    return JudgeDocs(
        Config(),
        {
            "mtr": index_of(MTR, parse_pages(MTR, pages["mtr"], "https://media.wizards.com/mtr.pdf")),
            "ipg": index_of(IPG, parse_pages(IPG, pages["ipg"], "https://media.wizards.com/ipg.pdf")),
        },
    )


@pytest.mark.parametrize(
    ("query", "number"),
    [
        ("2.2", "2.2"),
        ("2-2", "2.2"),
        ("IPG 2.2", "2.2"),
        ("lec", "2.2"),
        ("L@EC", "2.2"),
        ("Looking at Extra Cards", "2.2"),
        ("hce", "2.3"),
        ("grv", "2.5"),
        ("FtMGS", "2.6"),
        ("cpv", "3.7"),
        ("usc minor", "4.1"),
        ("USC-Major", "4.2"),
        ("usc", "4"),
        ("appendix a", "A"),
        ("dec", "2.3"),
        ("pcv", "3.7"),
    ],
)
def test_ipg_sections_by_number_name_and_the_short_names_judges_use(outline, query, number):
    answer = outline.answer("ipg", query, today=TODAY)
    assert (answer.confidence, answer.target) == (SURE, number)


def test_a_split_infraction_answers_with_its_successors(outline):
    answer = outline.answer("ipg", "d/dlp", today=TODAY)
    assert answer.confidence == SURE
    assert [c.number for c in answer.cited] == ["3.4", "3.5"]
    assert text(answer).splitlines()[2] == "Deck/Decklist Problem was split into Decklist Problem and Deck Problem."


def test_a_merged_infraction_says_what_became_of_it_before_its_successor(full):
    answer = full.answer("ipg", "drawing extra cards", today=TODAY)
    assert answer.target == "2.3"
    assert text(answer).splitlines()[2:4] == [
        "Drawing Extra Cards was merged into Hidden Card Error.",
        "Penalty: Warning",
    ]


def test_the_outline_answers_number_title_and_link_says_once_the_text_is_not_loaded_and_that_it_may_be_old(outline):
    answer = outline.answer("mtr", "3.8", today=TODAY)
    shown = text(answer)
    assert shown.splitlines()[0] == "MTR 3.8 Game Markers"
    assert shown.count("The full text is not loaded yet") == 1
    assert "more than a year ago: it may be out of date" in shown
    assert "Online: https://media.wizards.com/ContentResources/WPN/MTG_MTR_2025_Nov10_EN.pdf" in shown
    assert shown.splitlines()[-1] == "Magic Tournament Rules, effective November 10, 2025 (outline)"
    young = outline.answer("mtr", "3.8", today=date(2026, 3, 1))
    assert "more than a year ago" not in text(young)


def test_words_answer_unsure_with_the_best_sections_paragraph_first(full):
    answer = full.answer("mtr", "can I take notes during my match", today=TODAY)
    assert answer.confidence == UNSURE
    assert answer.ranked()[0] == "2.11"
    assert answer.lead[0].text.startswith("Players are allowed to take written notes during a match")
    # The copy downloaded is the newest Wizards links, however old its date: no "may be out of date" note.
    assert "out of date" not in text(full.answer("ipg", "lec", today=TODAY))


def test_nonsense_too_long_and_empty_are_misses(full):
    assert full.answer("mtr", "zzqx blorf", today=TODAY).confidence == NONE
    long = full.answer("ipg", "penalty " * 100, today=TODAY)
    assert long.confidence == NONE and long.title == "That is too long to look up"
    assert full.answer("ipg", "   ", today=TODAY).title == "Nothing asked"


def test_history_shows_what_changed_in_a_section_between_the_versions_kept(bot_config, pages):
    keep(bot_config.data_dir, "mtr", pages["mtr"])
    changed = newer(pages["mtr"])
    keep(bot_config.data_dir, "mtr", changed, date(2026, 2, 27))
    service = JudgeDocs.load(bot_config)

    answer = service.answer("mtr", "history 3.8")

    lines = text(answer).splitlines()
    assert lines[0] == "MTR 3.8 Game Markers · history"
    assert lines[2] == "November 10, 2025 3.8 Game Markers"
    assert lines[3].startswith("February 27, 2026 reworded: ")
    assert "[-completely-]" in lines[3]
    assert lines[-1] == "Magic Tournament Rules: 2 versions kept, November 10, 2025 to February 27, 2026"
    unchanged = service.answer("mtr", "history 2.11")
    assert text(unchanged).splitlines()[3] == "February 27, 2026 unchanged"


@pytest.mark.parametrize(
    ("key", "query", "title"),
    [
        ("mtr", "MTR3.8", "MTR 3.8 Game Markers"),
        ("mtr", "mtr 3.8", "MTR 3.8 Game Markers"),
        ("mtr", "mtr: 3.8", "MTR 3.8 Game Markers"),
        ("mtr", "3,8", "MTR 3.8 Game Markers"),
        ("mtr", "§ 3.8", "MTR 3.8 Game Markers"),
        ("ipg", "IPG 3.2", "IPG 3.2 Tournament Error — Outside Assistance"),
        ("ipg", "ipg3,2", "IPG 3.2 Tournament Error — Outside Assistance"),
        ("mtr", "IPG 3.2", "IPG 3.2 Tournament Error — Outside Assistance"),  # the IPG's, whichever command
        ("ipg", "mtr 3.8", "MTR 3.8 Game Markers"),
    ],
)
def test_numbers_as_judges_type_them_are_section_numbers(outline, full, key, query, title):
    for docs in (outline, full):
        answer = docs.answer(key, query, today=TODAY)
        assert (answer.confidence, answer.title) == (SURE, title)


@pytest.mark.parametrize(
    ("key", "query", "title", "said"),
    [
        ("mtr", "99.9", "There is no section 99.9 in the MTR", "The MTR has chapters 1 to 10 and appendices A to F."),
        ("ipg", "2.9", "There is no section 2.9 in the IPG", "Chapter 2 runs from 2.1 to 2.6."),
        (
            "ipg",
            "appendix z",
            "There is no appendix Z in the IPG",
            "The IPG has chapters 1 to 4 and appendices A to B.",
        ),
        ("mtr", "702.29", "There is no section 702.29 in the MTR", "702.29 looks like a number of the Comprehensive"),
    ],
)
def test_a_number_naming_no_section_is_a_miss_that_says_so_with_or_without_the_text(
    outline, full, key, query, title, said
):
    with_text, without = full.answer(key, query, today=TODAY), outline.answer(key, query, today=TODAY)

    assert with_text.confidence == without.confidence == NONE
    assert with_text.title == without.title == title
    assert [line.text for line in with_text.lead] == [line.text for line in without.lead]
    assert with_text.lead[0].text.startswith(said)


@pytest.mark.parametrize(
    ("query", "penalty", "numbers"),
    [
        ("game loss", "Game Loss", ["3.1", "3.4"]),
        ("GL", "Game Loss", ["3.1", "3.4"]),
        ("infractions with a game loss", "Game Loss", ["3.1", "3.4"]),
        ("match loss", "Match Loss", ["3.2", "4.2", "4.3", "4.4"]),
        ("ML", "Match Loss", ["3.2", "4.2", "4.3", "4.4"]),
        ("Disqualification", "Disqualification", ["4.5", "4.6", "4.7", "4.8"]),
        ("what gets a DQ", "Disqualification", ["4.5", "4.6", "4.7", "4.8"]),
        ("no penalty", "No Penalty", ["2.1"]),
    ],
)
def test_a_penalty_lists_the_infractions_that_carry_it(outline, full, query, penalty, numbers):
    for docs in (outline, full):
        answer = docs.answer("ipg", query, today=TODAY)
        assert (answer.confidence, answer.title) == (SURE, f"IPG infractions · Penalty: {penalty}")
        assert [cited.number for cited in answer.cited] == numbers
        assert [choice.value for choice in answer.related] == numbers
        assert not any(penalty in choice.name for choice in answer.candidates)  # the title says it once


def test_every_warning_is_listed_not_only_the_first_five(full):
    answer = full.answer("ipg", "warning", today=TODAY)
    warned = [s.number for s in full.loaded["ipg"].document.sections if s.badge == "Warning"]
    assert len(warned) > 5 and [cited.number for cited in answer.cited] == warned
    assert [c.number for c in full.answer("ipg", "warnings", today=TODAY).cited] == warned


def test_a_section_that_fits_page_one_is_shown_whole_there_and_a_long_one_behind_next(full):
    from bot.documents import pages

    short = full.answer("ipg", "hce", today=TODAY)  # a Definition and a Philosophy: two paragraphs, about 800
    [page] = pages(short)
    assert [block.number for block in page.blocks] == ["Penalty:", "Definition:", "Philosophy:"]
    assert short.lines == [] and short.whole == ""
    long = full.answer("ipg", "lec", today=TODAY)
    assert long.whole == "IPG 2.2 in full" and len(pages(long)) > 1
    chapter = full.answer("ipg", "4", today=TODAY)  # its sections listed in the text, not again as "Related"
    [page] = pages(chapter)
    assert "Related" not in page.plain() and page.plain().count("4.8 ") == 1
    assert [choice.value for choice in chapter.parts][:2] == ["4.1", "4.2"] and chapter.related == []


def test_history_asked_with_the_word_last_and_of_one_version_kept(bot_config, pages):
    keep(bot_config.data_dir, "mtr", pages["mtr"])
    service = JudgeDocs.load(bot_config)

    last, first = service.answer("mtr", "3.8 history"), service.answer("mtr", "history 3.8")
    also = service.answer("mtr", "MTR 3.8 history")

    assert text(last) == text(first) == text(also)
    assert last.kind == "history"
    assert text(last).splitlines()[-1] == (
        "Magic Tournament Rules, effective November 10, 2025: only one version is kept so far"
    )
    assert "to November 10, 2025" not in text(last)
