"""Who may play, end and replace a goldfish game: the starter, shared games, Manage Messages."""

from __future__ import annotations

import discord
import pytest

from tests.goldfish.cog_support import LANDCYCLING_ENT, SLIDE_SIMPLE, choose, controls, fields, game_of, stored


@pytest.fixture
def moderator(simcord_env, guild):
    role = guild.create_role("Moderators", permissions=discord.Permissions(manage_messages=True))
    return guild.add_member(simcord_env.create_user("mod"), roles=[role])


async def start(actor, channel, **options):
    options.setdefault("deck", "slide")
    options.setdefault("seed", SLIDE_SIMPLE)
    return (await actor.slash(channel, "goldfish start", **options)).response


async def test_someone_else_cannot_press_the_starters_buttons(simcord_env, channel, alice, bob):
    message = await start(alice, channel)

    refused = await bob.click(message, label="Keep")

    assert refused.ephemeral
    assert f"<@{alice.id}>'s goldfish game" in refused.response.content
    assert "shared:true" in refused.response.content
    record = await stored(simcord_env, channel)
    assert record.version == 1 and (await game_of(simcord_env, channel)).phase == "mulligan"
    # The owner is named, never pinged.
    request = [r for r in simcord_env.http_requests if "callback" in r.path][-1]
    assert request.json["data"]["allowed_mentions"] == {"parse": []}


async def test_someone_elses_slash_commands_never_touch_the_starters_game(simcord_env, channel, alice, bob):
    await start(alice, channel)
    await alice.slash(channel, "goldfish keep")

    for command, options in (("goldfish next", {}), ("goldfish play", {"card": "Plains"}), ("goldfish mulligan", {})):
        refused = await bob.slash(channel, command, **options)
        assert refused.ephemeral and refused.response.content.startswith("You have no goldfish game in this channel")
        assert "Start your own with `/goldfish start`" in refused.response.content
    assert (await stored(simcord_env, channel)).version == 2
    assert await bob.autocomplete(channel, "goldfish play", "card", "") == []


async def test_a_shared_game_lets_anyone_in_the_channel_play(simcord_env, channel, alice, bob):
    message = await start(alice, channel, shared=True)
    assert "Shared game started by" in message.embeds[0].description

    kept = await bob.click(message, label="Keep")
    await choose(bob, message, "gf:land:", "Plains")

    assert not kept.ephemeral
    game = await game_of(simcord_env, channel)
    assert game.phase == "main" and [p.name for p in game.zones.battlefield] == ["Plains"]
    assert (await simcord_env.bot.get_cog("Goldfish").store.get_stats(bob.id)).games == 0  # alice started it


async def test_only_the_starter_or_manage_messages_can_end_a_game(simcord_env, channel, alice, bob, moderator):
    await start(alice, channel, shared=True)

    refused = await bob.slash(channel, "goldfish end")
    assert refused.ephemeral and "Manage Messages" in refused.response.content
    assert await stored(simcord_env, channel) is not None

    ended = await moderator.slash(channel, "goldfish end")
    assert not ended.ephemeral and "ended" in ended.response.content
    assert await stored(simcord_env, channel) is None


async def test_the_starter_can_end_their_game(simcord_env, channel, alice):
    await start(alice, channel)
    ended = await alice.slash(channel, "goldfish end")
    assert "ended" in ended.response.content and await stored(simcord_env, channel) is None


async def test_a_second_start_asks_before_replacing_and_cancel_keeps_the_game(simcord_env, channel, alice):
    await start(alice, channel)

    asked = await alice.slash(channel, "goldfish start", deck="landcycling", seed=LANDCYCLING_ENT)
    assert asked.ephemeral and "Replace it" in asked.response.content
    assert (await game_of(simcord_env, channel)).seed == SLIDE_SIMPLE

    cancelled = await alice.click(asked.response, label="Keep the current game")
    assert "Nothing changed" in cancelled.response.content
    assert (await game_of(simcord_env, channel)).seed == SLIDE_SIMPLE


async def test_confirming_the_replacement_starts_the_new_game_publicly(simcord_env, channel, alice):
    await start(alice, channel)
    asked = await alice.slash(channel, "goldfish start", deck="landcycling", seed=LANDCYCLING_ENT)

    confirmed = await alice.click(asked.response, label="Replace the game")

    game = await game_of(simcord_env, channel)
    assert game.seed == LANDCYCLING_ENT and "Landcycling" in game.deck_name
    public = confirmed.followups[-1]
    assert not public.ephemeral and "Landcycling" in public.embeds[0].title
    kept = await alice.click(public, label="Keep")
    assert not kept.ephemeral and (await game_of(simcord_env, channel)).phase == "main"
    assert (await simcord_env.bot.get_cog("Goldfish").store.get_stats(alice.id)).games == 2


async def test_the_replace_question_belongs_to_whoever_asked(simcord_env, channel, alice, moderator):
    await start(alice, channel, shared=True)
    asked = await moderator.slash(channel, "goldfish start", deck="landcycling", seed=LANDCYCLING_ENT, shared=True)
    assert asked.ephemeral and f"shared goldfish game, started by <@{alice.id}>" in asked.response.content

    await moderator.click(asked.response, label="Replace the game")

    record = await stored(simcord_env, channel)
    assert record.owner_id == moderator.id


async def test_others_cannot_replace_a_running_game(simcord_env, channel, alice, bob):
    await start(alice, channel, shared=True)

    refused = await bob.slash(channel, "goldfish start", deck="landcycling", shared=True)

    assert refused.ephemeral and "Only they or someone with Manage Messages" in refused.response.content
    assert (await stored(simcord_env, channel)).owner_id == alice.id


async def test_a_finished_game_refuses_actions_and_is_replaced_without_asking(simcord_env, channel, alice, bob):
    message = await start(alice, channel)
    await alice.click(message, label="Keep")
    store = simcord_env.bot.get_cog("Goldfish").store
    record = (await store.in_channel(channel.id))[0]
    state = dict(record.state, phase="over", result="You lose: you drew from an empty library")
    await store.save(record.key, state, record.version)

    refused = await alice.click(message, label="Next turn")
    assert refused.ephemeral and "This game is over" in refused.response.content
    typed = await alice.slash(channel, "goldfish next")
    assert typed.ephemeral and "This game is over" in typed.response.content

    status = await alice.slash(channel, "goldfish status")
    assert "Game over" in status.response.embeds[0].description
    # No game controls are left: only a new game, a replay of the seed, or taking the last action back.
    labels = {c["label"] for c in controls(status.response)}
    assert labels <= {"New game", "Replay this seed", "Undo"} and "Next turn" not in labels

    # Anyone may start a game of their own beside it.
    fresh = await bob.slash(channel, "goldfish start", deck="landcycling", seed=LANDCYCLING_ENT)
    assert not fresh.ephemeral
    assert (await stored(simcord_env, channel, bob)).owner_id == bob.id


async def test_a_shared_table_says_who_did_what_and_speaks_to_nobody_as_you(simcord_env, channel, alice, bob):
    message = await start(alice, channel, shared=True)
    await alice.click(message, label="Keep")
    await choose(bob, message, "gf:land:", "Plains")

    table = fields(message)
    assert "You" not in table["Life"] and table["Life"].startswith("Players **")
    happened = table["What happened"].splitlines()
    assert happened and all(line.startswith(f"• <@{bob.id}>: ") for line in happened)
    log = (await alice.slash(channel, "goldfish log")).response.embeds[0].description.splitlines()
    assert any(line.startswith(f"<@{alice.id}>: Kept 7 cards") for line in log)
    assert any(line.startswith(f"<@{bob.id}>: ") and "Plains" in line for line in log)
    # The game's own setup names nobody; no mention in a log pings (embeds never ping).
    assert log[0].startswith("Game ")
    assert "game version" not in message.embeds[0].footer.text


async def test_a_players_own_table_is_unchanged_by_who_did_what(simcord_env, channel, alice):
    message = await start(alice, channel)
    await alice.click(message, label="Keep")

    table = fields(message)
    assert table["Life"].startswith("You **") and f"<@{alice.id}>'s game" in message.embeds[0].description
    assert all(not line.startswith("• <@") for line in table["What happened"].splitlines())


async def test_an_undo_by_someone_else_says_who_undid_what_in_words(simcord_env, channel, alice, bob):
    message = await start(alice, channel, shared=True)
    await alice.click(message, label="Keep")
    await choose(alice, message, "gf:land:", "Plains")

    undone = await bob.slash(channel, "goldfish undo")

    # Who undid it, and whose move it was: not "(play)", the kind.
    assert fields(message)["What happened"] == f"• <@{bob.id}>: Undid <@{alice.id}>'s move: playing Plains"
    assert undone.ephemeral
    first = undone.response.content.splitlines()[0]
    assert first == f"Undid <@{alice.id}>'s move: playing Plains · turn 1, main phase, land drop available"
    said = [r.json["data"] for r in simcord_env.http_requests if r.path.endswith("/callback") and r.json["data"]]
    assert said[-1]["content"].startswith("Undid") and said[-1]["allowed_mentions"] == {"parse": []}  # no ping

    await alice.click(message, label="Undo")  # her own move: nobody else's to name
    assert fields(message)["What happened"] == f"• <@{alice.id}>: Undid keeping the hand"
