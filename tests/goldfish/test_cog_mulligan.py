"""The mulligan screen through discord.py (simcord): no noise on the hand before the game starts, and a mulligan
that can't be taken back (CR 103.5: a player sees one hand at a time)."""

from __future__ import annotations

from tests.goldfish.cog_support import SLIDE_FULL, controls, game_of, hand_field


async def test_before_a_hand_is_kept_the_hand_lines_give_costs_and_no_reasons(simcord_env, channel, alice):
    message = (await alice.slash(channel, "goldfish start", deck="slide", seed=SLIDE_FULL)).response

    lines = hand_field(message).splitlines()
    assert len(lines) == 7
    assert not [line for line in lines if "(" in line.replace("(effect not modelled)", "")]
    assert "• **Renewed Faith** — Cycling {1}{W}; cast {2}{W}" in lines
    assert "Keep a hand" not in hand_field(message)

    after = (await alice.click(message, label="Mulligan")).response
    assert "Keep a hand" not in hand_field(after) and len(hand_field(after).splitlines()) == 7


async def test_a_mulligan_cannot_be_undone_103_5(simcord_env, channel, alice):
    message = (await alice.slash(channel, "goldfish start", deck="slide", seed=SLIDE_FULL)).response
    await alice.click(message, label="Mulligan")
    second_hand = [card.name for card in (await game_of(simcord_env, channel)).zones.hand]

    assert "Undo" not in {c.get("label") for c in controls(message)}
    refused = await alice.slash(channel, "goldfish undo")

    assert refused.ephemeral
    said = refused.response.content
    assert said == "A mulligan can't be undone: you have seen the new hand, so keep it or mulligan again."
    game = await game_of(simcord_env, channel)
    assert game.player.mulligans == 1 and [card.name for card in game.zones.hand] == second_hand
    assert not simcord_env.errors


async def test_keeping_after_a_mulligan_can_be_undone_back_to_the_same_hand(simcord_env, channel, alice):
    message = (await alice.slash(channel, "goldfish start", deck="slide", seed=SLIDE_FULL)).response
    await alice.click(message, label="Mulligan")
    await alice.click(message, label="Keep (bottom 1)")
    seen = sorted(card.name for card in (await game_of(simcord_env, channel)).zones.hand)
    select = next(c for c in controls(message) if c["custom_id"].startswith("gf:bottom:"))
    await alice.select(message, [select["options"][0]["value"]], custom_id=select["custom_id"])

    await alice.click(message, label="Undo")

    game = await game_of(simcord_env, channel)
    assert game.phase == "mulligan" and game.player.mulligans == 1
    assert sorted(card.name for card in game.zones.hand) == seen
