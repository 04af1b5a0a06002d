"""The preset decks."""

from __future__ import annotations

import json

import pytest

from bot.cycling import cycling_abilities, has_cycling
from bot.goldfish.decks import preset_decks
from bot.goldfish.decks.presets import bundled_cards
from bot.goldfish.engine import Game, IllegalAction
from bot.goldfish.engine.model import Deck
from bot.goldfish.engine.scripts import MODELLED, unmodelled_text
from tests.data import SCRYFALL_CARDS


@pytest.fixture(scope="module")
def scryfall() -> dict[str, dict]:
    with SCRYFALL_CARDS.open(encoding="utf-8") as handle:
        return {card["name"]: card for card in map(json.loads, handle)}


@pytest.mark.parametrize("key", ["slide", "landcycling", "two-colour"])
def test_preset_deck_has_60_known_cards_whose_cycling_parses(key, scryfall):
    deck = preset_decks()[key]
    assert deck.size() == 60 and deck.key == key
    for _, name in deck.entries:
        assert name in scryfall, name
        card = deck.cards[name]
        for field in ("name", "type_line", "oracle_text", "id", "set", "collector_number"):
            assert card.get(field) == scryfall[name].get(field), (name, field)
        if has_cycling(scryfall[name]):
            assert cycling_abilities(card), name
        assert unmodelled_text(card) == [], name  # every ability about cycling in the presets is modelled
    payoffs = [name for _, name in deck.entries if name in MODELLED]
    assert payoffs


def test_bundled_data_holds_only_the_preset_cards():
    names = {name for deck in preset_decks().values() for _, name in deck.entries}
    assert set(bundled_cards()) == names


def test_new_game_refuses_an_empty_deck():
    with pytest.raises(IllegalAction):
        Game.new(Deck("empty", {}, []), seed=1)
