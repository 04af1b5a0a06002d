"""Lookup, glossary, search and autocomplete (core, no Discord)."""

from __future__ import annotations

import pytest

from bot.rules.index import MAX_CHOICES


def numbers(answer):
    return [line.number for line in answer.lines if line.number]


def test_702_29_from_the_bundled_excerpt_shows_702_29a_to_f_in_order(excerpt_index):
    answer = excerpt_index.lookup("702.29")
    assert answer.found and answer.title == "702.29. Cycling"
    assert numbers(answer) == ["702.29."] + [f"702.29{c}" for c in "abcdef"]
    assert answer.edition.startswith("bundled excerpt")


def test_704_5_shows_every_subrule_in_order_with_the_letter_gaps(full_index):
    answer = full_index.lookup("704.5")
    assert numbers(answer) == ["704.5."] + [f"704.5{c}" for c in "abcdefghijkmnpqrstuvwxyz"]
    assert answer.title == "Rule 704.5 · State-Based Actions"
    assert answer.edition == "effective as of January 16, 2026"


def test_a_subrule_shows_only_itself_702_29c(full_index):
    answer = full_index.lookup("702.29c")
    assert numbers(answer) == ["702.29c"]


@pytest.mark.parametrize("query", ["rule 702.29C", " 702.29c. ", "CR 702.29c"])
def test_rule_number_spellings_are_understood(full_index, query):
    assert numbers(full_index.lookup(query)) == ["702.29c"]


def test_rule_heading_100_shows_all_its_rules_and_subrules(full_index):
    answer = full_index.lookup("100")
    assert answer.kind == "rule"
    shown = numbers(answer)
    assert shown[:4] == ["100.", "100.1.", "100.1a", "100.1b"]
    assert "100.7." in shown and "100.6b" in shown


def test_section_702_lists_its_rules_by_title(full_index):
    answer = full_index.lookup("702")
    assert answer.kind == "section" and answer.title == "702. Keyword Abilities"
    listed = {line.number: line.text for line in answer.lines if line.number}
    assert listed["702.29."] == "Cycling"
    assert listed["702.2."] == "Deathtouch"
    assert not any(number.endswith("a") for number in listed)  # subrules are not listed


def test_single_digit_section_lists_its_rule_headings(full_index):
    answer = full_index.lookup("7")
    assert [line.number for line in answer.lines][:3] == ["700.", "701.", "702."]


def test_examples_can_be_left_out_101_2(full_index):
    assert any(line.example for line in full_index.lookup("101.2").lines)
    assert not any(line.example for line in full_index.lookup("101.2", examples=False).lines)


def test_references_in_the_text_are_listed_121_4_points_to_704(full_index):
    answer = full_index.lookup("121.4")
    assert [choice.value for choice in answer.references] == ["704"]


def test_glossary_term_cycling_points_to_702_29(full_index):
    answer = full_index.lookup("cycling")
    assert answer.kind == "glossary" and answer.title == "Glossary: Cycling"
    assert "702.29" in [choice.value for choice in answer.references]


def test_glossary_redirect_basic_landcycling_leads_to_typecycling(excerpt_index):
    answer = excerpt_index.lookup("Basic Landcycling")
    assert answer.title == "Glossary: Typecycling"
    assert "Basic Landcycling" in answer.intro
    assert answer.lines[0].text.startswith("A variant of the cycling ability.")


def test_glossary_terms_ignore_case_and_hyphens(full_index):
    assert full_index.lookup("state based ACTIONS").title == "Glossary: State-Based Actions"


def test_full_text_search_ranks_704_first_for_state_based_actions(full_index):
    hits = [choice.value for choice in full_index.search("state-based actions")]
    assert hits[0].startswith("704.")
    assert "State-Based Actions" in hits[:3]


def test_a_question_in_words_finds_typecycling(full_index):
    answer = full_index.lookup("how does typecycling work?")
    assert answer.kind == "search" and answer.title == "Glossary: Typecycling"
    assert "702.29f" in [choice.value for choice in answer.see_also]


def test_search_for_an_empty_library_finds_121_4(full_index):
    answer = full_index.lookup("draw from an empty library lose")
    assert answer.found and "121.4" in [answer.title.split()[1], *[c.value for c in answer.see_also]]


def test_unknown_number_999_99_is_not_found_with_the_nearest_rules(full_index):
    answer = full_index.lookup("999.99")
    assert not answer.found and answer.title == "No such rule: “999.99”"
    assert answer.see_also and all(choice.value.startswith("905.") for choice in answer.see_also)


def test_missing_subrule_suggests_its_rule_first_702_29z(full_index):
    answer = full_index.lookup("702.29z")
    assert not answer.found and answer.see_also[0].value == "702.29"


@pytest.mark.parametrize(("typo", "meant"), [("702.299", "702.29"), ("121.44", "121.4")])
def test_a_mistyped_number_suggests_its_longest_existing_prefix_first(full_index, typo, meant):
    answer = full_index.lookup(typo)
    assert not answer.found and answer.see_also[0].value == meant


def test_punctuation_only_query_is_not_found_without_error(full_index):
    answer = full_index.lookup("abc!!")
    assert not answer.found and "abc!!" in answer.title
    assert answer.see_also  # fuzzy suggestions from the glossary


def test_6000_character_query_is_refused_clearly(full_index):
    answer = full_index.lookup("cycling " * 749 + "cycling!")
    assert not answer.found
    assert "6,000 characters" in answer.lines[0].text
    assert len(answer.title) < 100
    assert answer.see_also and all("cycling" in choice.name.lower() for choice in answer.see_also)


def test_autocomplete_numbers_by_prefix_702_2(full_index):
    choices = full_index.autocomplete("702.2")
    values = [choice.value for choice in choices]
    assert len(choices) == MAX_CHOICES
    assert values[:3] == ["702.2", "702.2a", "702.2b"]
    assert "702.29" in values
    assert all(value.startswith("702.2") for value in values)


def test_autocomplete_terms_by_prefix_then_substring_then_fuzzy(full_index):
    values = [choice.value for choice in full_index.autocomplete("cycl")]
    assert values[0] == "Cycling"
    assert {"Typecycling", "Basic Landcycling", "702.29"} <= set(values)
    assert [choice.value for choice in full_index.autocomplete("cyclign")][0] == "Cycling"


@pytest.mark.parametrize("typed", ["", "7", "a", "702.", "x" * 6000, "state", "!!", "1" * 500])
def test_autocomplete_choices_respect_discord_limits(full_index, typed):
    choices = full_index.autocomplete(typed)
    assert len(choices) <= MAX_CHOICES
    assert all(0 < len(choice.name) <= 100 and 0 < len(choice.value) <= 100 for choice in choices)


def test_plain_text_answer_lists_related_rules(full_index):
    text = full_index.lookup("121.4").to_text()
    assert text.splitlines()[0] == "Rule 121.4 · Drawing a Card"
    assert "Related rules: 704" in text
    assert text.endswith("Comprehensive Rules effective as of January 16, 2026")
