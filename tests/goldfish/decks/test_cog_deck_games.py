"""A saved deck in /goldfish start, simulate and odds: the deck option's autocomplete (saved decks with their counts,
then the presets), a saved deck named like a preset, odds filled from the main deck, and what a game from a small
deck or a Commander deck says as it starts."""

from __future__ import annotations

from tests.goldfish.cog_support import game_of
from tests.goldfish.decks.cog_support import GAVI, text_of


async def test_the_deck_option_offers_saved_decks_with_their_counts_then_the_presets(simcord_env, channel, alice, bob):
    await alice.slash(channel, "deck save", name="slide", decklist="4 Street Wraith, 36 Swamp")
    await alice.slash(
        channel, "deck save", name="Gavi", decklist="Commander: Gavi, Nest Warden, 4 Street Wraith, 56 Plains"
    )

    offered = await alice.autocomplete(channel, "goldfish start", "deck", "")
    assert [(c["name"], c["value"]) for c in offered][:3] == [
        ("Gavi — 60 main · 1 commander", "Gavi"),
        ("slide — 40 main", "slide"),
        ("landcycling — Landcycling ramp (G/W) (preset)", "preset:landcycling"),
    ]
    assert len(offered) == 5
    assert [c["value"] for c in await alice.autocomplete(channel, "goldfish simulate", "deck", "gavi")][0] == "Gavi"
    assert all(c["value"].startswith("preset:") for c in await bob.autocomplete(channel, "goldfish start", "deck", ""))

    # A saved deck named like a preset is the player's own; the preset is still there as offered.
    mine = await alice.slash(channel, "goldfish start", deck="slide", seed=1)
    assert mine.response.content.startswith("Deck ready: slide (40 cards).")
    assert (await game_of(simcord_env, channel, alice)).deck_name == "slide"
    await alice.slash(channel, "goldfish end")
    preset = await alice.slash(channel, "goldfish start", deck="preset:slide", seed=1)
    assert not preset.ephemeral and preset.response.embeds  # the table itself: a preset says nothing first
    assert (await game_of(simcord_env, channel, alice)).deck_name == "Astral Slide (W/R cycling)"


async def test_odds_take_copies_and_size_from_a_saved_main_deck(simcord_env, channel, alice):
    await alice.slash(channel, "deck save", name="Wraiths", decklist="4 Street Wraith, 36 Swamp, SB: 3 Flame Jet")

    odds = await alice.slash(channel, "goldfish odds", deck="Wraiths", card="street wraith", turns=3)
    assert odds.response.embeds[0].title == "At least 1 of Street Wraith (4) in 40 cards"
    cards = await alice.autocomplete(channel, "goldfish odds", "card", "", deck="Wraiths")
    assert [c["value"] for c in cards] == ["Street Wraith", "Swamp"]  # the main deck's, never the sideboard's

    preset = await alice.slash(channel, "goldfish odds", deck="preset:slide", card="Astral Slide")
    assert preset.response.embeds[0].title == "At least 1 of Astral Slide (4) in 60 cards"
    missing = await alice.slash(channel, "goldfish odds", deck="Wraiths", card="Flame Jet")
    assert text_of(missing) == "Wraiths has no card called “Flame Jet”."
    alone = await alice.slash(channel, "goldfish odds", card="Street Wraith")
    assert "Name both `deck:` and `card:`" in text_of(alone)


async def test_a_small_deck_says_when_its_library_runs_out_and_a_commander_where_it_is(simcord_env, channel, alice):
    await alice.slash(channel, "deck save", name="Eight", decklist="8 Plains")

    started = await alice.slash(channel, "goldfish start", deck="eight", play_first=False, seed=1)

    assert started.response.content.splitlines() == [
        "Deck ready: Eight (8 cards).",
        "Library 1: you draw from an empty library on turn 2 (121.4).",
    ]
    await alice.slash(channel, "goldfish end")
    gavi = await alice.slash(channel, "goldfish start", decklist=GAVI.replace("\n", "; "), seed=1)
    assert gavi.response.content.splitlines()[1:] == [
        "Commander: Gavi, Nest Warden, in the command zone: not modelled, the game plays the library."
    ]
    game = await game_of(simcord_env, channel, alice)
    assert len(game.zones.library) + len(game.zones.hand) == 60  # the commander is not shuffled in
