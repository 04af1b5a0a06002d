"""A rule's history as an answer: word diffs, the numbers line, and the answers that say why there is none."""

from __future__ import annotations

import pytest

from bot.documents import answer_text as terminal_text
from bot.documents import word_diff
from bot.rules.editions.editions import rules_files
from bot.rules.editions.history import HistoryCache
from bot.rules.editions.history_text import (
    SHORT_TEXT,
    history_for,
    history_subject,
    is_history_query,
    parse_history_query,
)
from tests.data import CR_DIR


@pytest.fixture(scope="module")
def cache() -> HistoryCache:
    cache = HistoryCache()
    cache.get(rules_files(CR_DIR))
    return cache


def test_word_diff_marks_removed_and_added_words_with_a_few_words_of_context():
    old = "Fourth, the active player gets priority. (See rule 117, “Timing and Priority.”)"
    new = "Second, the active player gets priority. (See rule 117, “Timing and Priority.”)"
    diff, similarity = word_diff(old, new)
    assert diff == "[-Fourth,-] {+Second,+} the active player gets …"
    assert similarity > 0.8


def test_word_diff_ignores_quote_and_dash_styles_but_not_words():
    old = 'they don\'t trigger -- "becomes tapped" happens--they'
    new = "they don’t trigger — “becomes untapped” happens—they"
    diff, _ = word_diff(old, new, context=1)
    assert diff == '… “becomes [-tapped"-] {+untapped”+} happens …'


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("history 702.29", ("702.29", None)),
        ("History of 702.26 in 2009", ("702.26", "2009")),
        ("history 509.2 as of 2024-11-08", ("509.2", "2024-11-08")),
        ("history of cycling", (None, None)),
        ("history <@123> **702.29c**", ("702.29c", None)),
        ("history " + "x" * 6000, (None, None)),
    ],
)
def test_history_queries_name_a_number_and_maybe_an_edition(query, expected):
    assert is_history_query(query)
    assert parse_history_query(query) == expected


def test_history_subject_is_what_to_look_up_by_name():
    assert history_subject("history of cycling in 2013") == "cycling"
    assert not is_history_query("how does cycling work")


def test_the_answer_states_the_numbers_then_each_edition(cache):
    answer = history_for(cache, rules_files(CR_DIR), "702.29")

    assert answer.found and answer.kind == "history"
    assert answer.title == "History of 702.29 · Cycling"
    assert answer.lead[0].text == (
        "Numbers: 702.26 (2009-10-01) → 702.27 (2013-05-01) → 702.28 (2017-04-28, 2020-04-17) → "
        "702.29 (2022-11-18 to 2026-01-16)"
    )
    assert [line.number for line in answer.lines if line.number] == [
        "2009-10-01",
        "2013-05-01",
        "2017-04-28",
        "2020-04-17",
        "2022-11-18",
        "2024-11-08",
        "2026-01-16",
    ]
    text = terminal_text(answer)
    assert "• 702.28d added: “Some cards have abilities that trigger whenever a player “cycles or discards”" in text
    assert "2022-11-18 702.29 (was 702.28): renumbered" in text
    assert answer.url.endswith("#R70229")
    assert answer.edition.footer() == "Comprehensive Rules history: 7 editions, 2009-10-01 to 2026-01-16"


def test_509_2_shows_its_2024_11_08_rewording_old_and_new(cache):
    text = terminal_text(history_for(cache, rules_files(CR_DIR), "509.2"))
    assert "2024-11-08 509.2 (was 509.4)" in text
    assert "• 509.2 (was 509.4) reworded" in text
    assert "changes: [-Fourth,-] {+Second,+} the active player gets …" in text
    assert "was: “Fourth, the active player gets priority." in text
    assert "now: “Second, the active player gets priority." in text
    assert "Also numbered 509.2 in 2009-10-01 to 2022-11-18: “Second, for each attacking creature" in text
    assert "(removed in 2024-11-08)" in text


def test_long_texts_are_shortened_for_discord_and_whole_for_the_terminal(cache):
    index = cache.get(rules_files(CR_DIR))
    from bot.rules.editions.history_text import history_answer

    short = history_answer(index, "702.29").lines
    full = history_answer(index, "702.29", full=True).lines
    assert max(len(line.text) for line in short) <= SHORT_TEXT + 20
    assert max(len(line.text) for line in full) > SHORT_TEXT + 20


def test_a_removed_rule_says_when_it_went(cache):
    text = terminal_text(history_for(cache, rules_files(CR_DIR), "603.2e", "2024"))
    assert "Numbers: 603.2e (2022-11-18, 2024-11-08); removed in 2026-01-16" in text
    assert "2026-01-16 removed (it was 603.2e)" in text


def test_no_number_asks_which_rule(cache):
    answer = history_for(cache, rules_files(CR_DIR), None)
    assert not answer.found and answer.title == "Which rule?"


def test_an_unknown_number_says_which_editions_were_searched(cache):
    answer = history_for(cache, rules_files(CR_DIR), "999.99")
    assert not answer.found
    assert answer.title == "No rule 999.99 in the editions known"
    assert "2009-10-01 to 2026-01-16" in answer.lead[0].text


def test_an_edition_before_the_first_is_explained(cache):
    answer = history_for(cache, rules_files(CR_DIR), "702.29", "2001")
    assert not answer.found and answer.title == "No edition for 2001"
    assert "the oldest edition known is 2009-10-01" in answer.lead[0].text


def test_no_editions_kept_explains_how_history_grows(tmp_path):
    answer = history_for(HistoryCache(), rules_files(tmp_path), "702.29")
    assert not answer.found and answer.title == "No rules history yet"
    assert "Each edition the bot downloads is kept" in answer.lead[0].text
