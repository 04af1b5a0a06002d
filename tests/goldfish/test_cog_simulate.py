"""/goldfish simulate and /goldfish odds through the real discord.py stack (simcord)."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.goldfish.practice.chart import PNG_SIGNATURE
from tests.goldfish.cog_support import fake_collection


@pytest.fixture
def cog(simcord_env):
    # The first simulation starts the worker processes and loads matplotlib in one of them: seconds of real time
    # that the deferred interaction allows (15 minutes), within the suite's ceiling for simcord's settle.
    return simcord_env.bot.get_cog("Goldfish")


def schema_option(env, command: str, name: str) -> dict:
    goldfish = next(c for c in env.bot.command_payload(None) if c["name"] == "goldfish")
    node = next(o for o in goldfish["options"] if o["name"] == command)
    return next(o for o in node["options"] if o["name"] == name)


async def test_simulate_defers_then_answers_with_a_table_and_a_png_chart(simcord_env, channel, alice, cog):
    result = await alice.slash(channel, "goldfish simulate", deck="two-colour", games=60, turns=6, seed=3)

    callbacks = [r for r in simcord_env.http_requests if r.path.endswith("/callback")]
    assert callbacks[0].json["type"] == 5  # deferred ("thinking…") before any game is played
    assert not result.ephemeral
    message = result.response
    embed = message.embeds[0]
    assert embed.title == "Odds of Drake Haven (U/B cycling)"
    assert "60 games of 6 turns on the play, seed 3" in embed.description
    table = embed.description.split("```")[1].strip().splitlines()
    assert table[0].split() == ["T", "Lands", "Payoff", "Cycled", "Died", "By"]
    assert max(len(line) for line in table) <= 36  # what a phone shows of a code block
    assert [line.split()[0] for line in table[1:]] == ["1", "2", "3", "4", "5", "6"]
    assert "Keep 2–5 lands" in next(f.value for f in embed.fields if f.name == "Policy")
    assert embed.image.url == "attachment://goldfish-odds.png"
    [attachment] = message.attachments
    assert attachment.filename == "goldfish-odds.png"
    png = await attachment.read()
    assert png.startswith(PNG_SIGNATURE) and len(png) > 10_000
    assert Image.open(io.BytesIO(png)).size[0] == 720  # twice a phone's 360 px: its text is measured there
    assert cog.simulations.chunks_run >= 2  # played in the worker processes
    assert not simcord_env.errors


async def test_simulate_gives_the_same_figures_for_the_same_seed_on_the_draw(simcord_env, channel, alice, cog):
    first = await alice.slash(channel, "goldfish simulate", deck="slide", games=40, turns=4, on_the_draw=True, seed=9)
    again = await alice.slash(channel, "goldfish simulate", deck="slide", games=40, turns=4, on_the_draw=True, seed=9)

    assert "on the draw, seed 9" in first.response.embeds[0].description
    assert first.response.embeds[0].description == again.response.embeds[0].description


async def test_simulate_a_custom_decklist_resolved_like_goldfish_start(simcord_env, channel, alice, cog):
    names = fake_collection(simcord_env)

    result = await alice.slash(
        channel, "goldfish simulate", decklist="4 Lightning Rift; 16 Secluded Steppe; 20 Plains", games=30, turns=5
    )

    assert result.response.embeds[0].title == "Odds of Custom deck"
    assert {"name": "Lightning Rift"} in names.calls[0]


async def test_simulate_refusals_are_private_and_clear(simcord_env, channel, alice, cog):
    fake_collection(simcord_env)

    both = await alice.slash(channel, "goldfish simulate", deck="slide", decklist="4 Plains")
    assert both.ephemeral and "not both" in both.response.content

    unknown = await alice.slash(channel, "goldfish simulate", deck="@everyone **bold**")
    assert unknown.ephemeral and "no preset has that name" in unknown.response.content
    assert "\\*\\*bold\\*\\*" in unknown.response.content
    assert not unknown.response.message.mention_everyone

    missing = await alice.slash(channel, "goldfish simulate", decklist="4 Flame Jetz; 4 Zqxvwk; 30 Plains", games=10)
    # Refused privately: no chart, nothing in the channel.
    assert missing.ephemeral
    lines = missing.response.content.splitlines()
    # Without a local copy of the card data, a typo is not read as a card (nothing to compare it with).
    assert lines[:3] == [
        "I couldn't find 2 cards of that list, so nothing was used:",
        "• Flame Jetz: no card has that name",
        "• Zqxvwk: no card has that name",
    ]
    assert not missing.response.embeds and not missing.response.attachments
    assert not simcord_env.errors


async def test_simulate_caps_games_and_turns_in_the_command_itself(simcord_env):
    assert schema_option(simcord_env, "simulate", "games")["max_value"] == 5000
    assert schema_option(simcord_env, "simulate", "games")["min_value"] == 1
    assert schema_option(simcord_env, "simulate", "turns")["max_value"] == 20


async def test_odds_gives_the_table_on_the_play_and_on_the_draw(simcord_env, channel, alice):
    result = await alice.slash(channel, "goldfish odds", copies=4, deck_size=60, wanted=1, turns=3)

    assert not result.ephemeral
    embed = result.response.embeds[0]
    assert embed.title == "At least 1 of 4 in 60 cards"
    table = embed.description.split("```")[1].strip().splitlines()
    assert table[0].split() == ["Turn", "Seen", "Play", "Draw"] and max(len(line) for line in table) <= 36
    assert "39.95%" in embed.description and "44.48%" in embed.description
    assert "103.8a" in embed.description


async def test_odds_refuses_more_copies_than_cards(simcord_env, channel, alice):
    result = await alice.slash(channel, "goldfish odds", copies=5, deck_size=4)
    assert result.ephemeral and "copies must be from 1 to the deck size (4)" in result.response.content

    wanted = await alice.slash(channel, "goldfish odds", copies=2, wanted=3)
    assert wanted.ephemeral and "from 1 to 2 of the 2 copies" in wanted.response.content
