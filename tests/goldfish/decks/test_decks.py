"""Preset decks, decklist parsing and resolving."""

from __future__ import annotations

import json

import pytest

from bot.cycling import cycling_abilities, has_cycling
from bot.goldfish.decks import parse_decklist, preset_decks, resolve_decklist
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


def test_decklist_parses_the_usual_forms():
    text = """Deck
    4 Flame Jet
    4x Street Wraith
    2 Sanctum Plowbeast (ALA) 180
    # a comment
    // another

    1 Lórien Revealed (LTR) 60 *F*
    Sideboard
    3 Naturalize
    """
    assert parse_decklist(text) == [
        (4, "Flame Jet", None, None),
        (4, "Street Wraith", None, None),
        (2, "Sanctum Plowbeast", "ala", "180"),
        (1, "Lórien Revealed", "ltr", "60"),
    ]


@pytest.mark.parametrize(
    ("text", "entries"),
    [
        ("4 Bloated Toad, 4 Forest", [(4, "Bloated Toad"), (4, "Forest")]),
        ("4 Bloated Toad,4x Forest;2 Island", [(4, "Bloated Toad"), (4, "Forest"), (2, "Island")]),
        (
            "1 Gisa, Glorious Resurrector, 1 Kozilek, the Great Distortion",
            [
                (1, "Gisa, Glorious Resurrector"),
                (1, "Kozilek, the Great Distortion"),
            ],
        ),
        ("1 Borrowing 100,000 Arrows, 3 Forest", [(1, "Borrowing 100,000 Arrows"), (3, "Forest")]),
        ("2 Bloated Toad (AKH) 160, 2 Forest\r\n1 Island", [(2, "Bloated Toad"), (2, "Forest"), (1, "Island")]),
    ],
)
def test_a_comma_before_a_count_separates_entries(text, entries):
    assert [(count, name) for count, name, *_ in parse_decklist(text)] == entries


def test_a_line_that_is_not_a_card_is_quoted_escaped():
    with pytest.raises(IllegalAction) as refused:
        parse_decklist("4 Forest\n**bold** <@123>")
    assert "\\*\\*bold\\*\\*" in str(refused.value) and "<@123>" not in str(refused.value)


def test_decklist_commander_header_and_sb_prefix():
    assert parse_decklist("Commander\n1 Gavi, Nest Warden\nDeck\n10 Island\nSB: 2 Negate") == [
        (1, "Gavi, Nest Warden", None, None),
        (10, "Island", None, None),
    ]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Flame Jet", "is not a card"),
        ("4 Flame Jet\nfour Island", "Entry 2"),
        ("0 Island", "at least 1"),
        ("", "no cards"),
        ("200 Island\n51 Swamp", "more than 250"),
    ],
)
def test_decklist_errors(text, message):
    with pytest.raises(IllegalAction, match=message):
        parse_decklist(text)


async def test_resolve_decklist_reports_unknown_names(scryfall):
    calls = []

    async def fetch_collection(identifiers):
        calls.append(identifiers)
        cards, missing = [], []
        for identifier in identifiers:
            name = identifier.get("name")
            match = next(
                (
                    c
                    for c in scryfall.values()
                    if c["name"] == name
                    or (
                        c["set"] == identifier.get("set")
                        and c["collector_number"] == identifier.get("collector_number")
                    )
                ),
                None,
            )
            (cards if match else missing).append(match or identifier)
        return cards, missing

    plowbeast = scryfall["Sanctum Plowbeast"]
    entries = [
        (4, "Street Wraith", None, None),
        (2, "Sanctum Plowbeast", plowbeast["set"], plowbeast["collector_number"]),
        (3, "Not A Real Card", None, None),
        (54, "Island", None, None),
    ]
    deck, unknown = await resolve_decklist(entries, fetch_collection)
    assert unknown == ["Not A Real Card"]
    assert deck.size() == 60 and "image_uris" not in deck.cards["Street Wraith"]
    assert calls[0][1] == {"set": plowbeast["set"], "collector_number": plowbeast["collector_number"]}
    game = Game.new(deck, seed=1)
    assert Game.from_dict(json.loads(json.dumps(game.to_dict())), preset_decks()).to_dict() == game.to_dict()
    with pytest.raises(IllegalAction, match="250"):
        await resolve_decklist([(251, "Island", None, None)], fetch_collection)


def test_new_game_refuses_an_empty_deck():
    with pytest.raises(IllegalAction):
        Game.new(Deck("empty", {}, []), seed=1)
