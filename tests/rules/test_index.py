"""Numbers, ranges, glossary terms, misses and autocomplete (core, no Discord)."""

from __future__ import annotations

import json

import pytest

from bot.documents import NONE, SURE
from bot.documents import answer_text as text
from bot.rules.asking.ask import lookup
from bot.rules.ranking.complete import MAX_CHOICES


def numbers(answer):
    return [line.number for line in answer.lines if line.number]


def test_702_29_from_the_bundled_excerpt_shows_702_29a_to_f_under_one_title(excerpt_index):
    answer = lookup(excerpt_index, "702.29")
    assert answer.confidence == SURE and answer.title == "702.29 Cycling"
    # The rule's own line is its title: it is not shown again under it.
    assert numbers(answer) == [f"702.29{c}" for c in "abcdef"]
    assert answer.edition.source == "excerpt" and answer.edition.date == "2026-01-16"


def test_704_5_shows_every_subrule_in_order_with_the_letter_gaps(full_index):
    answer = lookup(full_index, "704.5")
    assert numbers(answer) == ["704.5."] + [f"704.5{c}" for c in "abcdefghijkmnpqrstuvwxyz"]
    assert answer.title == "704.5 State-Based Actions"
    assert answer.edition.label == "January 16, 2026" and answer.edition.source == "full"


def test_a_subrule_shows_only_itself_702_29c(full_index):
    answer = lookup(full_index, "702.29c")
    assert numbers(answer) == ["702.29c"] and answer.title == "702.29c Cycling"


@pytest.mark.parametrize("query", ["rule 702.29C", " 702.29c. ", "CR 702.29c"])
def test_rule_number_spellings_are_understood(full_index, query):
    assert numbers(lookup(full_index, query)) == ["702.29c"]


def test_rule_heading_100_shows_all_its_rules_and_subrules(full_index):
    answer = lookup(full_index, "100")
    assert answer.kind == "rule" and answer.title == "100 General"
    shown = numbers(answer)
    assert shown[:3] == ["100.1.", "100.1a", "100.1b"]
    assert "100.7." in shown and "100.6b" in shown


def test_section_702_lists_its_rules_by_title(full_index):
    answer = lookup(full_index, "702")
    assert answer.kind == "section" and answer.title == "702 Keyword Abilities"
    listed = {line.number: line.text for line in answer.lines if line.number}
    assert listed["702.29."] == "Cycling"
    assert listed["702.2."] == "Deathtouch"
    assert not any(number.endswith("a") for number in listed)  # subrules are not listed


def test_single_digit_section_lists_its_rule_headings(full_index):
    answer = lookup(full_index, "7")
    assert [line.number for line in answer.lines][:3] == ["700.", "701.", "702."]


def test_examples_can_be_left_out_101_2(full_index):
    assert any(line.example for line in lookup(full_index, "101.2").lines)
    assert not any(line.example for line in lookup(full_index, "101.2", examples=False).lines)


def test_references_in_the_text_are_offered_to_open_121_4_points_to_704(full_index):
    answer = lookup(full_index, "121.4")
    assert [choice.value for choice in answer.related] == ["704"]


def test_a_range_shows_each_rule_once_704_5a_to_c(full_index):
    answer = lookup(full_index, "704.5a-c")
    assert numbers(answer) == ["704.5a", "704.5b", "704.5c"]
    assert [cited.number for cited in answer.cited] == ["704.5a", "704.5b", "704.5c"]


def test_glossary_term_cycling_leads_with_its_definition_and_702_29a(full_index):
    answer = lookup(full_index, "cycling")
    assert answer.kind == "glossary" and answer.title == "Cycling · 702.29"
    assert answer.lead[0].text.startswith("A keyword ability that lets a card be discarded and replaced")
    assert [line.number for line in answer.lead] == ["", "702.29a"]
    assert answer.target == "702.29" and answer.whole == "Rule 702.29 Cycling"
    # Behind Next: the whole rule, 702.29a included (it is only on page one as the deciding words).
    assert numbers(answer)[:2] == ["702.29a", "702.29b"]
    assert "702.29a" not in [choice.value for choice in answer.related]


def test_no_glossary_term_cites_a_rule_twice_or_relates_the_rule_its_title_names(full_index):
    # Every term of the full text: "Flash · 702.8" once listed "702.8. Flash" under Related.
    repeated = {}
    for entry in full_index.document.glossary:
        answer = lookup(full_index, entry.term)
        cited = [rule.number for rule in answer.cited]
        related = {choice.value for choice in answer.related}
        if len(cited) != len(set(cited)) or related & {answer.target}:
            repeated[entry.term] = cited
    assert len(full_index.document.glossary) > 700
    assert repeated == {}


def test_glossary_redirect_basic_landcycling_leads_to_typecycling(excerpt_index):
    answer = lookup(excerpt_index, "Basic Landcycling")
    assert answer.title.startswith("Typecycling")
    assert "Basic Landcycling" in answer.lead[0].text
    assert answer.lead[1].text.startswith("A variant of the cycling ability.")


def test_glossary_terms_ignore_case_and_hyphens(full_index):
    assert lookup(full_index, "state based ACTIONS").title == "State-Based Actions · 704"


def test_a_question_in_words_finds_typecycling(full_index):
    answer = lookup(full_index, "how does typecycling work?")
    assert answer.confidence == SURE and answer.title.startswith("Typecycling")


def test_search_for_an_empty_library_finds_121_4(full_index):
    answer = lookup(full_index, "draw from an empty library lose")
    assert answer.found and {"121.4", "704.5b"} & set(answer.ranked()[:3])


def test_unknown_number_999_99_is_a_quiet_miss_with_nothing_close(full_index):
    answer = lookup(full_index, "999.99")
    assert answer.confidence == NONE and answer.title == "No rule 999.99"
    assert answer.candidates == [] and answer.related == []


def test_missing_subrule_offers_its_rule_first_702_29z(full_index):
    answer = lookup(full_index, "702.29z")
    assert not answer.found and answer.candidates[0].value == "702.29"


@pytest.mark.parametrize(("typo", "meant"), [("702.299", "702.29"), ("121.44", "121.4")])
def test_a_mistyped_number_offers_its_longest_existing_prefix_first(full_index, typo, meant):
    answer = lookup(full_index, typo)
    assert not answer.found and answer.candidates[0].value == meant
    assert all(choice.value.split(".")[0] == meant.split(".")[0] for choice in answer.candidates)


@pytest.mark.parametrize("query", ["abc!!", "lol", "thanks!", "???"])
def test_a_miss_with_nothing_close_lists_nothing(full_index, query):
    answer = lookup(full_index, query)
    assert not answer.found and answer.candidates == [] and answer.related == []
    assert "rules update" not in text(answer) and "RULES_FILE" not in text(answer)


def test_6000_character_query_is_refused_clearly(full_index):
    answer = lookup(full_index, "cycling " * 749 + "cycling!")
    assert not answer.found
    assert "6,000 characters" in answer.lead[0].text
    assert len(answer.title) < 100 and answer.candidates == []


def test_autocomplete_numbers_by_prefix_702_2(full_index):
    choices = full_index.autocomplete("702.2")
    values = [choice.value for choice in choices]
    assert len(choices) == MAX_CHOICES
    assert values[:3] == ["702.2", "702.2a", "702.2b"]
    assert "702.29" in values
    assert all(value.startswith("702.2") for value in values)


@pytest.mark.parametrize("typed", ["", "7", "a", "702.", "x" * 6000, "state", "!!", "1" * 500])
def test_autocomplete_choices_respect_discord_limits(full_index, typed):
    choices = full_index.autocomplete(typed)
    assert len(choices) <= MAX_CHOICES
    assert all(0 < len(choice.name) <= 100 and 0 < len(choice.value) <= 100 for choice in choices)


def test_the_terminal_text_has_one_title_then_the_rule_then_where_to_read_it(full_index):
    shown = text(lookup(full_index, "121.4"))
    lines = shown.splitlines()
    assert lines[0] == "121.4 Drawing a Card" and shown.count("121.4 Drawing a Card") == 1
    assert lines[2].startswith("A player who attempts to draw a card from a library with no cards")
    assert "Online: https://yawgatog.com/resources/magic-rules/#R1214" in shown
    assert shown.endswith("Comprehensive Rules January 16, 2026")


def test_the_json_answer_names_the_confidence_the_rules_cited_and_the_edition(full_index):
    answer = lookup(full_index, "704.5j")
    data = json.loads(json.dumps(answer.to_json()))
    assert data["query"] == "704.5j" and data["confidence"] == "sure"
    assert data["rules"] == [{"number": "704.5j", "title": "State-Based Actions"}]
    assert data["cards"] == [] and data["edition"] == "2026-01-16" and data["source"] == "full"
