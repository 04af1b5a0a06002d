"""/goldfish hint, the review on a finished game's table and the trend, through the real discord.py stack."""

from __future__ import annotations

import asyncio
import dataclasses

import pytest

from bot.goldfish.decks import preset_decks
from bot.goldfish.engine import Game
from bot.goldfish.practice.review import deck_figures, player_game, review_settings
from bot.goldfish.practice.simulate import policy_step, simulate_here
from cogs.goldfish._coach import MAX_HINTS, MAX_HINTS_PER_SERVER, coach_state
from tests.goldfish.cog_support import SLIDE_SIMPLE, controls, fields, game_of, stored, table

REVIEW_GAMES = 120  # the review's simulation, smaller than the bot's so the tests stay quick


@pytest.fixture
def bot_config(bot_config):
    return dataclasses.replace(bot_config, goldfish_reviews=True)


@pytest.fixture
def cog(simcord_env):
    # The first hint starts the worker processes: real seconds the deferred interaction allows.
    simcord_env.settle_timeout = 90
    cog = simcord_env.bot.get_cog("Goldfish")
    coach_state(cog).review_games = REVIEW_GAMES
    coach_state(cog).hint_seconds = 60
    return cog


def one_move_from_a_win(deck_key: str) -> Game:
    """A game played by the policy up to the point where the next move is "next" and it kills the goldfish."""
    deck = preset_decks()[deck_key]
    for seed in range(1, 200):
        game = Game.new(deck, seed=seed)
        while game.phase != "over" and game.turn <= 20:
            twin = game.clone()
            move = policy_step(twin)
            if twin.phase == "over" and twin.opponent.life <= 0 and move.kind == "next":
                return game
            policy_step(game)
    raise AssertionError("no game ends with an attack")


async def with_game(simcord_env, channel, alice, game: Game):
    """Start a game, then replace its state with ``game``; returns the table message."""
    await alice.slash(channel, "goldfish start", deck=game.deck_key, seed=game.seed)
    store = simcord_env.bot.get_cog("Goldfish").store
    record = (await store.in_channel(channel.id))[0]
    await store.save(record.key, game.to_dict(), record.version)
    return (await alice.slash(channel, "goldfish status")).response


async def reviews_done(cog) -> None:
    tasks = list(coach_state(cog).tasks)
    await asyncio.gather(*tasks)


async def test_hint_defers_privately_then_names_a_move_with_the_figures_behind_it(simcord_env, channel, alice, cog):
    message = (await alice.slash(channel, "goldfish start", deck="slide", seed=SLIDE_SIMPLE)).response
    await alice.click(message, label="Keep")

    result = await alice.slash(channel, "goldfish hint")

    callbacks = [r for r in simcord_env.http_requests if r.path.endswith("/callback")]
    assert callbacks[-1].json["type"] == 5 and callbacks[-1].json["data"]["flags"] & 64  # deferred, private
    assert result.ephemeral
    embed = result.response.embeds[0]
    assert embed.title == "The coach's move"
    assert embed.description.startswith("Play ")  # turn 1, a land in hand and the land drop unused
    lines = fields(result.response)["Each move played out"].splitlines()
    assert len(lines) >= 2 and all("rollouts)" in line and "next two land drops" in line for line in lines)
    assert any(line.startswith("• Go on to the next turn") for line in lines)
    assert "seed" in embed.footer.text
    answer = [r for r in simcord_env.http_requests if "/webhooks/" in r.path and r.json and r.json.get("embeds")][-1]
    assert answer.json["allowed_mentions"] == {"parse": []}
    # The same position gets the same figures: the rollouts are seeded by the game and its moves.
    again = await alice.slash(channel, "goldfish hint")
    assert again.response.embeds[0].fields[0].value == embed.fields[0].value
    assert getattr(cog, "simulations", None) is not None  # the rollouts ran in the cog's process pool
    assert (await game_of(simcord_env, channel)).turn == 1  # a hint changes nothing
    assert not simcord_env.errors


async def test_hint_out_of_time_gives_the_policys_move_and_says_so(simcord_env, channel, alice, cog):
    message = (await alice.slash(channel, "goldfish start", deck="slide", seed=SLIDE_SIMPLE)).response
    await alice.click(message, label="Keep")
    coach_state(cog).hint_seconds = 0

    result = await alice.slash(channel, "goldfish hint")

    assert result.ephemeral
    assert "couldn't measure the moves in time" in result.response.embeds[0].description
    assert "policy's move" in result.response.embeds[0].description
    assert not result.response.embeds[0].fields  # nothing measured, no figures claimed


async def test_hint_when_hints_are_busy_gives_the_policys_move_at_once(simcord_env, channel, alice, cog):
    message = (await alice.slash(channel, "goldfish start", deck="slide", seed=SLIDE_SIMPLE)).response
    await alice.click(message, label="Keep")
    coach_state(cog).hints_running = MAX_HINTS

    result = await alice.slash(channel, "goldfish hint")

    assert "policy's move" in result.response.embeds[0].description
    assert getattr(cog, "simulations", None) is None  # nothing was queued behind the running hints
    coach_state(cog).hints_running = 0


async def test_one_servers_hints_leave_measured_hints_for_another_server(simcord_env, guild, channel, alice, cog):
    message = (await alice.slash(channel, "goldfish start", deck="slide", seed=SLIDE_SIMPLE)).response
    await alice.click(message, label="Keep")
    elsewhere = simcord_env.create_guild("Other night")
    carol = elsewhere.add_member(simcord_env.create_user("carol"))
    table_there = elsewhere.create_text_channel("cycling")
    message = (await carol.slash(table_there, "goldfish start", deck="slide", seed=SLIDE_SIMPLE)).response
    await carol.click(message, label="Keep")
    state = coach_state(cog)
    state.hints_running = MAX_HINTS_PER_SERVER  # this server's players are measuring as many as a server may
    state.hints_by_server[guild.id] = MAX_HINTS_PER_SERVER

    here = await alice.slash(channel, "goldfish hint")
    there = await carol.slash(table_there, "goldfish hint")

    assert "policy's move" in here.response.embeds[0].description and not here.response.embeds[0].fields
    assert there.response.embeds[0].fields  # measured: each move played out
    state.hints_running = 0
    state.hints_by_server.clear()


async def test_hint_refusals_are_private(simcord_env, channel, alice, bob, cog):
    none = await alice.slash(channel, "goldfish hint")
    assert none.ephemeral and "no goldfish game" in none.response.content

    await alice.slash(channel, "goldfish start", deck="slide", seed=SLIDE_SIMPLE)
    other = await bob.slash(channel, "goldfish hint")  # bob has no game here: alice's is hers alone
    assert other.ephemeral and "You have no goldfish game in this channel" in other.response.content
    assert not other.response.message.mention_everyone


async def test_a_won_game_gets_a_review_on_its_table_equal_to_a_simulation_of_the_deck(
    simcord_env, channel, alice, cog
):
    game = one_move_from_a_win("two-colour")
    message = await with_game(simcord_env, channel, alice, game)

    await alice.click(message, label="Next turn")
    await reviews_done(cog)

    finished = await game_of(simcord_env, channel)
    assert finished.phase == "over" and finished.opponent.life <= 0
    shown = table(channel)
    assert [e.title for e in shown.embeds][1].startswith("Review · ")
    review = {f.name: f.value for f in shown.embeds[1].fields}
    assert review["Your game"].startswith(f"Won on turn {finished.turn}")
    assert "Mana left unused per turn" in review["Your game"]
    expected = deck_figures(
        simulate_here(finished.deck(), review_settings(finished, REVIEW_GAMES)), player_game(finished)
    )
    assert f"median win turn {expected.median_kill_turn}" in review["The deck"]
    assert f"faster than {expected.percentile:.0%}" in review["The deck"]
    assert "Moments" in review
    assert shown.id == message.id
    assert {c["label"] for c in controls(message)} >= {"New game"}  # the table keeps its controls
    assert not simcord_env.errors

    # The trend: the player's wins per deck.
    stats = await alice.slash(channel, "goldfish stats show")
    trend = fields(stats.response)["Trend (your last 20 games)"]
    assert f"median kill turn {finished.turn}" in trend and "1 win in 1 game" in trend

    forget = await alice.slash(channel, "goldfish stats forget")
    assert "Deleted" in forget.response.content
    assert "Trend (your last 20 games)" not in fields((await alice.slash(channel, "goldfish stats show")).response)


async def test_goldfish_end_reviews_the_game_where_it_stopped(simcord_env, channel, alice, cog):
    message = (await alice.slash(channel, "goldfish start", deck="slide", seed=SLIDE_SIMPLE)).response
    await alice.click(message, label="Keep")
    await alice.click(message, label="Next turn")  # a Plains in hand and none played: a missed land drop
    turn = (await game_of(simcord_env, channel)).turn

    ended = await alice.slash(channel, "goldfish end")
    await reviews_done(cog)

    assert not ended.response.message.mention_everyone
    assert await stored(simcord_env, channel) is None
    reviewed = next(m for m in channel.history() if len(m.embeds) > 1)
    review = {f.name: f.value for f in reviewed.embeds[1].fields}
    assert review["Your game"].startswith(f"Stopped on turn {turn}")
    assert "Land drops missed with a land in hand: 1 (turn 1)" in review["Your game"]
    assert "the simulated deck had won" in review["The deck"]
    assert coach_state(cog).reviews == 1
    stats = await alice.slash(channel, "goldfish stats show")
    assert "no win in 1 game" in fields(stats.response)["Trend (your last 20 games)"]


async def test_a_review_that_arrives_after_a_replay_goes_below_and_leaves_the_new_table_alone(
    simcord_env, channel, alice, cog
):
    game = one_move_from_a_win("two-colour")
    message = await with_game(simcord_env, channel, alice, game)
    await alice.click(message, label="Next turn")
    await reviews_done(cog)
    finished = await stored(simcord_env, channel)
    assert len(message.embeds) == 2

    await alice.click(message, label="Replay this seed")  # the same message now shows the new game
    assert len(message.embeds) == 1 and "Mulligan" in message.embeds[0].description
    await cog._post_review(finished, finished.game, message.id)  # a late review of the finished game

    assert len(message.embeds) == 1 and "Mulligan" in message.embeds[0].description
    late = [m for m in channel.history() if m.embeds and m.embeds[0].title.startswith("Review · ")]
    assert len(late) == 1 and late[0].id != message.id
    assert not simcord_env.errors
