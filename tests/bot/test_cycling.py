"""Cycling abilities read from real Scryfall card objects (CR 702.29)."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from bot.cycling import (
    CyclingCost,
    abilities_in_text,
    cycling_abilities,
    has_cycling,
    mana_symbols,
    matches_search,
)
from tests.data import SCRYFALL_CARDS


@pytest.fixture(scope="module")
def cards() -> dict[str, dict]:
    with SCRYFALL_CARDS.open(encoding="utf-8") as handle:
        return {card["name"]: card for card in map(json.loads, handle)}


def test_702_29_every_real_card_yields_its_printed_abilities(cards):
    counts = Counter(ability.keyword for card in cards.values() for ability in cycling_abilities(card))
    # Counted independently from the printed keyword lines of the 247 objects.
    assert counts == {
        "Cycling": 202,
        "Basic landcycling": 11,
        "Plainscycling": 5,
        "Forestcycling": 5,
        "Mountaincycling": 4,
        "Swampcycling": 4,
        "Islandcycling": 4,
        "Wizardcycling": 2,
        "Slivercycling": 1,
    }
    assert sum(has_cycling(card) for card in cards.values()) == 233


def test_702_29_every_mana_cost_round_trips_to_its_symbols(cards):
    for card in cards.values():
        for ability in cycling_abilities(card):
            if ability.cost.is_mana:
                assert "{" + "}{".join(ability.cost.mana) + "}" == ability.cost.text.upper(), card["name"]
                assert ability.cost.text in card["oracle_text"], card["name"]


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("Street Wraith", ["Cycling—Pay 2 life"]),
        ("Edge of Autumn", ["Cycling—Sacrifice a land"]),
        ("Sanctum Plowbeast", ["Plainscycling {2}", "Islandcycling {2}"]),
        ("Ash Barrens", ["Basic landcycling {1}"]),
        ("Step Through", ["Wizardcycling {2}"]),
        ("Blast from the Past", ["Cycling {1}{R}"]),
    ],
)
def test_702_29_named_cards(cards, name, expected):
    assert [str(ability) for ability in cycling_abilities(cards[name])] == expected


def test_702_29a_non_mana_costs_are_understood(cards):
    wraith = cycling_abilities(cards["Street Wraith"])[0].cost
    assert (wraith.life, wraith.mana, wraith.is_mana) == (2, (), False)
    autumn = cycling_abilities(cards["Edge of Autumn"])[0].cost
    assert autumn.sacrifice == "land"


def test_702_29e_typecycling_searches_for_its_type(cards):
    plowbeast = cycling_abilities(cards["Sanctum Plowbeast"])
    assert [a.search for a in plowbeast] == ["Plains", "Island"]
    assert all(a.is_typecycling for a in plowbeast)
    basic = cycling_abilities(cards["Ash Barrens"])[0]
    assert matches_search(cards["Forest"], basic.search)
    assert not matches_search(cards["Ash Barrens"], basic.search)
    assert matches_search(cards["Plains"], "Plains")
    assert not matches_search(cards["Island"], "Plains")


def test_hybrid_and_x_costs():
    (hybrid,) = abilities_in_text("Cycling {W/U} ({W/U}, Discard this card: Draw a card.)")
    assert hybrid.cost.mana == ("W/U",) and hybrid.cost.mana_value == 1
    (x_cost,) = abilities_in_text("Cycling {X}{1}{U}")
    assert x_cost.cost.has_x and x_cost.cost.mana_value == 2
    assert mana_symbols("{2}{g/w}") == ("2", "G/W")


def test_text_that_only_mentions_cycling_is_not_an_ability(cards):
    assert cycling_abilities(cards["Fluctuator"]) == []
    assert abilities_in_text("Each land card in your hand has cycling {2}.") == []


def test_a_card_tagged_only_landcycling_by_scryfall_still_counts_as_cycling():
    card = {"name": "Test", "keywords": ["Landcycling", "Basic landcycling"], "oracle_text": ""}
    assert has_cycling(card)


def test_abilities_on_each_face_of_a_double_faced_card():
    card = {
        "layout": "modal_dfc",
        "card_faces": [
            {"name": "Front", "type_line": "Creature — Wizard", "oracle_text": "Flying\nCycling {2}"},
            {"name": "Back", "type_line": "Land", "oracle_text": "Swampcycling {1}{B}"},
        ],
    }
    assert [(str(a), a.face) for a in cycling_abilities(card)] == [
        ("Cycling {2}", "Front"),
        ("Swampcycling {1}{B}", "Back"),
    ]
    assert matches_search(card, "Wizard")


def test_unknown_non_mana_cost_is_kept_verbatim():
    (ability,) = abilities_in_text("Cycling—Exile a card from your graveyard.")
    assert ability.cost == CyclingCost(text="Exile a card from your graveyard")
