"""Many players in one channel, through discord.py (simcord): a game of one's own beside everyone else's and the
channel's shared game; slash commands act on the caller's game, buttons on the game of their message, and a look
at someone else's game is private."""

from __future__ import annotations

import discord
import pytest

from bot.client import CycleBot
from tests.goldfish.cog_support import SLIDE_FULL, SLIDE_SIMPLE, controls, game_of, stored, table, updated


@pytest.fixture
def carol(simcord_env, guild):
    return guild.add_member(simcord_env.create_user("carol"))


async def start(actor, channel, **options):
    options.setdefault("deck", "slide")
    options.setdefault("seed", SLIDE_SIMPLE)
    result = await actor.slash(channel, "goldfish start", **options)
    assert not result.ephemeral, result.response.content  # no "Replace the game?": a game of one's own
    return result.response


def public(channel) -> list:
    return [m for m in channel.history() if not m.flags.ephemeral]


async def test_two_players_each_play_their_own_game_in_one_channel(simcord_env, channel, alice, bob):
    alices = await start(alice, channel)
    bobs = await start(bob, channel, seed=SLIDE_FULL)
    assert f"<@{bob.id}>'s game" in bobs.embeds[0].description

    # Slash commands act on the caller's own game.
    updated(await alice.slash(channel, "goldfish keep"), "Kept the hand")
    assert (await game_of(simcord_env, channel, alice)).phase == "main"
    assert (await game_of(simcord_env, channel, bob)).phase == "mulligan"
    # Buttons act on the game of their message.
    await bob.click(bobs, label="Mulligan")
    assert (await game_of(simcord_env, channel, bob)).player.mulligans == 1
    assert (await game_of(simcord_env, channel, alice)).player.mulligans == 0
    assert "Turn 1" in alices.embeds[0].description and "1 mulligan so far" in bobs.embeds[0].description

    # Someone else's buttons stay theirs.
    refused = await alice.click(bobs, label="Mulligan")
    assert refused.ephemeral and f"<@{bob.id}>'s goldfish game, so only they can play it" in refused.response.content
    assert (await game_of(simcord_env, channel, bob)).player.mulligans == 1
    assert not simcord_env.errors


async def test_anothers_status_of_someones_game_is_private(simcord_env, channel, alice, bob):
    await start(alice, channel)
    before = len(public(channel))

    looked = await bob.slash(channel, "goldfish status")

    assert looked.ephemeral and len(public(channel)) == before  # nothing re-posted for the channel
    assert looked.response.content.startswith(f"That is <@{alice.id}>'s game; start your own")
    assert f"<@{alice.id}>'s game" in looked.response.embeds[0].description
    assert controls(looked.response) == []  # a look, not a second table with live buttons
    hand = await bob.slash(channel, "goldfish hand")
    assert hand.ephemeral and hand.response.embeds[0].title.startswith("Hand (7)")

    own = await alice.slash(channel, "goldfish status")  # her own game: posted again, with its buttons
    assert not own.ephemeral and controls(own.response) and table(channel).id == own.response.id


async def test_status_by_a_player_without_a_game_names_every_game_here(simcord_env, channel, alice, bob, carol):
    tables = {}
    for player, seed in ((alice, SLIDE_SIMPLE), (bob, SLIDE_FULL), (carol, SLIDE_SIMPLE)):
        tables[player.id] = await start(player, channel, seed=seed)
    dave = channel.guild.add_member(simcord_env.create_user("dave"))
    before = len(public(channel))

    looked = await dave.slash(channel, "goldfish status")

    said = looked.response.content.split("\n")
    assert looked.ephemeral and len(public(channel)) == before
    assert said[0] == "There are 3 games here, none of them yours; start your own with `/goldfish start`."
    shown = looked.response.embeds[0].description  # the game played last, below the list
    [below] = [p for p in (alice, bob, carol) if f"<@{p.id}>'s game" in shown]
    assert said[1] == f"• <@{below.id}>'s, below"
    others = [p for p in (alice, bob, carol) if p is not below]
    link = f"https://discord.com/channels/{channel.guild.id}/{channel.id}/"
    assert sorted(said[2:]) == sorted(f"• <@{p.id}>'s: {link}{tables[p.id].id}" for p in others)
    callback = [r for r in simcord_env.http_requests if r.path.endswith("/callback")][-1]
    assert callback.json["data"]["allowed_mentions"] == {"parse": []}  # named, never pinged


async def test_a_shared_game_beside_own_games_takes_the_commands_of_players_without_one(
    simcord_env, channel, alice, bob, carol
):
    await start(carol, channel, shared=True)
    await start(alice, channel, seed=SLIDE_FULL)

    updated(await bob.slash(channel, "goldfish keep"), "Kept the hand")  # bob has none: the shared game
    assert (await game_of(simcord_env, channel, 0)).phase == "main"
    await alice.slash(channel, "goldfish mulligan")  # alice has her own
    assert (await game_of(simcord_env, channel, alice)).player.mulligans == 1
    assert (await game_of(simcord_env, channel, 0)).player.mulligans == 0

    # Ending: your own game, or as a moderator someone else's by name.
    refused = await bob.slash(channel, "goldfish end", player=alice)
    assert refused.ephemeral and "Manage Messages" in refused.response.content
    ended = await alice.slash(channel, "goldfish end")
    assert ended.response.content.startswith(f"Goldfish game ended by <@{alice.id}>")
    assert await stored(simcord_env, channel, alice) is None and await stored(simcord_env, channel, 0) is not None


def legacy_view(message) -> discord.ui.View:
    """The message's buttons with custom ids as they were before games were keyed by player (no ``~player``)."""
    view = discord.ui.View(timeout=None)
    for control in controls(message):
        if control.get("type") == 2:
            custom_id = control["custom_id"].split("~")[0]
            view.add_item(discord.ui.Button(label=control["label"], custom_id=custom_id))
    return view


async def test_a_button_from_before_games_were_keyed_by_player_acts_on_its_messages_game(
    simcord_env, channel, alice, bob, bot_config
):
    alices = await start(alice, channel)
    await alice.click(alices, label="Keep")  # saves the table's message with the game
    await start(bob, channel, seed=SLIDE_FULL)
    await simcord_env.restart_bot(CycleBot(bot_config))  # nothing left in memory of which message is whose
    cog = simcord_env.bot.get_cog("Goldfish")
    await cog.partial(channel.id, alices.id).edit(view=legacy_view(alices))
    assert [c["custom_id"] for c in controls(alices) if c["label"] == "Next turn"] == ["gf:next:2"]

    refused = await bob.click(alices, label="Next turn")  # alice's message: alice's game, never bob's
    assert refused.ephemeral and f"<@{alice.id}>'s goldfish game" in refused.response.content
    assert (await game_of(simcord_env, channel, bob)).phase == "mulligan"

    await alice.click(alices, label="Next turn")
    assert (await game_of(simcord_env, channel, alice)).turn == 2
    assert not simcord_env.errors
