"""Decklists as people type them, through discord.py (simcord) with the card data imported: entries separated by
commas in one line (a Discord option holds no new line), names with commas of their own, and every unknown name
answered with what /card would suggest."""

from __future__ import annotations

import pytest

from tests.goldfish.cog_support import game_of, stored
from tests.support.layout_cards import fake_scryfall_with_layouts, imported_config


@pytest.fixture
def fake_scryfall(tmp_path):
    with fake_scryfall_with_layouts(tmp_path) as fake:
        yield fake


@pytest.fixture
def bot_config(data_dir, fake_scryfall):
    return imported_config(data_dir, fake_scryfall)


async def deck_of(simcord_env, channel) -> dict[str, int]:
    game = await game_of(simcord_env, channel)
    return {name: count for count, name in game.deck_entries}


async def test_entries_separated_by_commas_are_each_a_card(simcord_env, channel, alice):
    started = await alice.slash(channel, "goldfish start", decklist="20 Bloated Toad, 20 Forest", seed=3)

    assert started.response.content == "Deck ready: Custom deck (40 cards)."
    assert await deck_of(simcord_env, channel) == {"Bloated Toad": 20, "Forest": 20}


async def test_names_with_a_comma_of_their_own_stay_whole_among_commas(simcord_env, channel, alice):
    decklist = "4 Gavi, Nest Warden, 4x Esika, God of the Tree; 2 Bloated Toad,30 Forest"

    started = await alice.slash(channel, "goldfish start", decklist=decklist, seed=3)

    assert started.response.content == "Deck ready: Custom deck (40 cards)."
    assert await deck_of(simcord_env, channel) == {
        "Gavi, Nest Warden": 4,
        "Esika, God of the Tree // The Prismatic Bridge": 4,
        "Bloated Toad": 2,
        "Forest": 30,
    }


async def test_every_line_not_an_exact_name_is_listed_with_what_it_was_read_as_and_real_cards_are_not(
    simcord_env, channel, alice
):
    result = await alice.slash(
        channel, "goldfish start", decklist="4 Bloated Todd, 4 Forest, 4 Gavi Nest Wardn, 4 Zqxvwk, 24 Forest"
    )

    assert result.ephemeral
    lines = result.response.content.splitlines()
    # Every line that was not an exact name: the one-letter typos read as their cards, the nonsense offered nothing.
    assert lines[0] == "I couldn't find 1 card of that list, so nothing was used:"
    assert lines[1] == "• Bloated Todd: read as **Bloated Toad**"
    assert lines[2] == "• Gavi Nest Wardn: read as **Gavi, Nest Warden**"
    assert lines[3] == "• Zqxvwk: no card has that name"
    assert "Forest" not in result.response.content  # a real card is never called unknown
    assert await stored(simcord_env, channel) is None

    # The suggestion is the card /card shows for that name.
    card = await alice.slash(channel, "card", name="Bloated Todd")
    shown = [m for m in [card.response, *card.followups] if m is not None and m.embeds]
    assert shown and shown[0].embeds[0].title.startswith("Bloated Toad")
