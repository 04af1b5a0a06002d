"""When the ranking can't tell two subrules of one rule apart, the whole rule leads (core, no Discord); and how the
cards' kinds and the question's ask point to sections and rules through learnt associations (card_learnt)."""

from __future__ import annotations

import pytest

from bot.rules.asking import questions
from bot.rules.asking.questions import sibling_choice, sure_answer, whole_of
from bot.rules.ranking.features import card_learnt, card_values, learnt_value
from bot.rules.ranking.ranker import FEATURES


def test_a_subrule_belongs_to_its_rule_and_a_rule_or_glossary_entry_to_nothing_704_5(full_index):
    assert whole_of(full_index, "704.5g") == "704.5"
    assert whole_of(full_index, "704.5") == ""
    assert whole_of(full_index, "Glossary: Trample") == ""


@pytest.mark.parametrize(
    ("keys", "chosen"),
    [
        (["704.5g", "704.5f", "603.2"], ["704.5", "704.5g", "704.5f", "603.2"]),  # two subrules of one rule
        (["704.5g", "704.5", "603.2"], ["704.5", "704.5g", "603.2"]),  # a subrule, then its own rule
        (["704.5g", "603.2", "704.5f"], ["704.5g", "603.2", "704.5f"]),  # the second is elsewhere: as ranked
        (["704.5", "704.5g"], ["704.5", "704.5g"]),  # the rule already leads
        (["Glossary: Trample", "702.19b"], ["Glossary: Trample", "702.19b"]),
        (["704.5g"], ["704.5g"]),
    ],
)
def test_the_whole_rule_leads_when_the_first_two_are_its_subrules_704_5(full_index, keys, chosen):
    assert sibling_choice(full_index, keys) == chosen


def test_the_evaluation_can_turn_the_whole_rule_off_704_5(full_index, monkeypatch):
    monkeypatch.setattr(questions, "SIBLINGS", False)
    assert sibling_choice(full_index, ["704.5g", "704.5f"]) == ["704.5g", "704.5f"]


def test_a_sure_whole_rule_leads_with_the_subrule_the_ranking_put_first_704_5g(full_index):
    answer = sure_answer(
        full_index, "what happens to a creature with lethal damage", ["704.5", "704.5g"], deciding="704.5g"
    )
    assert [cited.number for cited in answer.cited[:2]] == ["704.5", "704.5g"]
    assert answer.lead[-1].number == "704.5g"


ASSOCIATIONS = {
    "kind:dies trigger": ({"603": 3, "700": 1}, {"603.6": 2, "603.10": 2}),
    "ask:triggers": ({"603": 4}, {"603.2": 4}),
    "ward": ({"702": 5}, {"702.21": 5}),  # a word: the cards' tokens never read it
}


def test_the_cards_tokens_point_to_the_sections_and_rules_their_questions_were_answered_from_603():
    sections, rules = card_learnt(ASSOCIATIONS, ("kind:dies trigger", "ask:triggers"))
    assert set(sections) == {"603", "700"} and sections["603"] > sections["700"] > 0
    assert set(rules) == {"603.6", "603.10", "603.2"}
    # A token nobody learnt still counts in the share: it dilutes what the others say.
    diluted, _rules = card_learnt(ASSOCIATIONS, ("kind:dies trigger", "ask:triggers", "kind:never seen"))
    assert diluted["603"] < sections["603"]
    assert card_learnt(ASSOCIATIONS, ()) == ({}, {})


def test_a_row_s_learnt_value_is_its_section_s_and_its_rule_s_share_603_6a():
    learnt = ({"603": 0.5}, {"603.6": 0.25})
    # A row's ancestors as the entries hold them: itself, its rule, its section, its chapter.
    assert learnt_value(learnt, ("603.6a", "603.6", "603", "6")) == pytest.approx(0.75)
    assert learnt_value(learnt, ("603.2a", "603.2", "603", "6")) == pytest.approx(0.5)
    assert learnt_value(learnt, ("704.5g", "704.5", "704", "7")) == 0.0
    assert learnt_value(learnt, ("603", "6")) == 0.0  # a section's own heading: nothing learnt to weigh


def test_card_learnt_is_the_last_card_feature_and_zero_without_cards():
    assert FEATURES[-1] == "card_learnt"
    assert card_values(None, 0, ("603.6a", "603.6", "603", "6"))[-1] == 0.0
