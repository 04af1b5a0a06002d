"""Decklists of cards beyond the cycling sample, played through discord.py: real Scryfall objects of split,
adventure and flip cards (tests/data/scryfall/layouts.jsonl) and names typed without their accents."""

from __future__ import annotations

import pytest

from tests.goldfish.cog_support import fields, game_of
from tests.support.layout_cards import fake_scryfall_with_layouts, imported_config


@pytest.fixture
def fake_scryfall(tmp_path):
    with fake_scryfall_with_layouts(tmp_path) as fake:
        yield fake


@pytest.fixture
def bot_config(data_dir, fake_scryfall):
    return imported_config(data_dir, fake_scryfall)


async def kept_hand(actor, channel, decklist: str) -> str:
    started = await actor.slash(channel, "goldfish start", decklist=decklist, seed=3)
    table = next(m for m in [started.response, *started.followups] if m is not None and m.embeds)
    await actor.click(table, label="Keep")
    return next(value for name, value in fields(table).items() if name.startswith("Hand ("))


async def test_a_split_card_is_cast_for_one_half_not_both_709_3(simcord_env, channel, alice):
    hand = await kept_hand(alice, channel, "20 Life // Death; 20 Forest")

    # Life // Death costs {G} // {1}{B}: casting it from hand is casting Life, for {G}; Life's text is on its face,
    # and the engine does not model it.
    assert "• **Life // Death** — cast {G} (needs {G}) (effect not modelled)" in hand.splitlines()
    assert (await game_of(simcord_env, channel)).book["Life // Death"].cast_symbols == ("G",)


async def test_an_adventurer_is_cast_as_its_creature_715_3(simcord_env, guild, alice):
    hand = await kept_hand(alice, guild.create_text_channel("giants"), "20 Beanstalk Giant; 20 Forest")
    assert "• **Beanstalk Giant // Fertile Footsteps** — cast {6}{G} (needs {G} and 6 more mana)" in hand


async def test_a_hybrid_cost_no_land_can_pay_says_which_symbol_it_needs(simcord_env, channel, alice):
    hand = await kept_hand(alice, channel, "20 Invert // Invent; 20 Forest")
    # Not "needs 1 more mana", which a Forest would seem to pay.
    assert "• **Invert // Invent** — cast {U/R} (needs {U/R}) (effect not modelled)" in hand.splitlines()


async def test_decklist_names_typed_without_accents_or_as_printed_find_their_cards(simcord_env, channel, alice):
    started = await alice.slash(
        channel, "goldfish start", decklist="4 Troll of Khazad-dum; 4 Vedalken Æthermage; 4 Lorien Revealed; 28 Swamp"
    )
    assert started.response.content == "Deck ready: Custom deck (40 cards)."
    zones = (await game_of(simcord_env, channel)).zones
    names = {card.name for card in [*zones.library, *zones.hand]}
    assert {"Troll of Khazad-dûm", "Vedalken Aethermage", "Lórien Revealed"} <= names


async def test_a_card_typed_by_a_faces_name_is_played_or_cast_as_that_face_712_12(simcord_env, guild, alice):
    vale = guild.create_text_channel("vale")
    await kept_hand(alice, vale, "20 Tangled Florahedron; 20 Forest")
    # The modal double-faced card's back face, typed rather than picked: played as that land, not refused.
    await alice.slash(vale, "goldfish play", card="tangled vale")
    game = await game_of(simcord_env, vale)
    assert [game.permanent_name(p) for p in game.zones.battlefield] == ["Tangled Vale"]

    life = guild.create_text_channel("life")
    await kept_hand(alice, life, "20 Life // Death; 20 Forest")
    await alice.slash(life, "goldfish play", card="Forest")
    await alice.slash(life, "goldfish cast", card="life")  # a split card's half, by its own name
    assert [card.name for card in (await game_of(simcord_env, life)).zones.graveyard] == ["Life // Death"]


async def test_names_with_commas_in_a_list_of_cards_stay_whole(simcord_env, channel, alice):
    started = await alice.slash(channel, "goldfish start", decklist="30 Esika, God of the Tree; 10 Forest", seed=3)
    table = next(m for m in [started.response, *started.followups] if m is not None and m.embeds)
    await alice.click(table, label="Mulligan")
    hand = [card.name for card in (await game_of(simcord_env, channel)).zones.hand]
    assert hand.count("Esika, God of the Tree // The Prismatic Bridge") >= 1 and "Forest" in hand

    # "Esika, God of the Tree" is one card, not two names ("Esika", "God of the Tree") in a list split by commas.
    kept = await alice.slash(channel, "goldfish keep", bottom="esika, god of the tree")
    assert kept.response is None or "exactly" not in (kept.response.content or "")
    game = await game_of(simcord_env, channel)
    assert game.phase == "main" and len(game.zones.hand) == 6
    assert game.zones.library[-1].name == "Esika, God of the Tree // The Prismatic Bridge"
