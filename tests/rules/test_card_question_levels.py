"""The question set's card questions answered with their cards (core, no Discord): each part stays at its recorded
level, and the questions naming no card lose nothing to card data. The benchmark (bench_rules_eval.py) reports the
same figures with their intervals; the test part's misses are never printed, so that nobody tunes on them."""

from __future__ import annotations

import pytest

from tests.rules.question_cards import CardReport, FixtureCards, evaluate_cards, load_card_questions

# The questions naming cards, answered with card data: levels recorded when the cards were read into kinds of
# ability (update them only upward, or say why).
FLOORS = {
    "tune": {"hit@1": 0.509, "hit@3": 0.597, "sure precision": 0.928, "sure coverage": 0.088, "shown": 0.779},
    "test": {"hit@1": 0.283, "hit@3": 0.445, "sure precision": 0.75, "sure coverage": 0.054, "shown": 0.851},
}


@pytest.fixture(scope="module")
def scored(full_index) -> dict[str, CardReport]:
    """Each part's questions, answered without and with card data (once for the module)."""
    finder = FixtureCards(full_index)
    return {part: evaluate_cards(full_index, finder, load_card_questions(part)) for part in FLOORS}


@pytest.mark.parametrize("part", sorted(FLOORS))
def test_each_part_s_card_questions_stay_at_their_recorded_level(scored, part):
    found = scored[part]
    assert found.naming >= 60
    rates = found.reports["card data, naming cards"].rates()
    rates["shown"] = found.shown / found.naming
    below = {name: round(rates[name], 3) for name, floor in FLOORS[part].items() if rates[name] < floor}
    assert not below, f"the {part} part's card questions fell below their recorded level: {below}"


@pytest.mark.parametrize("part", sorted(FLOORS))
def test_questions_naming_no_card_lose_nothing_to_card_data(scored, part):
    found = scored[part]
    without = found.reports["no card data, naming no card"].rates()
    with_cards = found.reports["card data, naming no card"].rates()
    assert with_cards["hit@1"] >= without["hit@1"] and with_cards["hit@3"] >= without["hit@3"]
