"""The coach shares, through the real discord.py stack: a player's hints are one at a time and cooled down (told
at once and privately), reviews are capped per player and in all, stop at their deadline, and run apart from
hints at the lowest scheduling priority."""

from __future__ import annotations

import asyncio
import dataclasses
import os

import pytest

from bot.goldfish.practice import Review, player_game
from cogs.goldfish import _coach
from cogs.goldfish._coach import HINTS, REVIEW_NICE, REVIEWS_PER_PLAYER, coach_state
from tests.cards.conftest import start_slash
from tests.goldfish.cog_support import SLIDE_SIMPLE, fields
from tests.support.waits import CEILING

REVIEW_GAMES = 120


@pytest.fixture
def bot_config(bot_config):
    return dataclasses.replace(bot_config, goldfish_reviews=True)


@pytest.fixture
def cog(simcord_env, monkeypatch):
    # The first hint or review starts worker processes. What reviews measured is checked: at the lowest priority,
    # two CPU-bound processes beside the suite leave the review worker almost nothing (the test of that priority
    # sets it back), and their deadline is the suite's ceiling, not the bot's two minutes: a loaded machine may
    # take longer to measure them all. simcord waits for them and then some.
    monkeypatch.setattr(_coach, "REVIEW_NICE", 0)
    cog = simcord_env.bot.get_cog("Goldfish")
    coach_state(cog).review_seconds = 2 * CEILING
    simcord_env.settle_timeout = 3 * CEILING
    coach_state(cog).review_games = REVIEW_GAMES
    coach_state(cog).hint_seconds = CEILING
    return cog


def refused_at_once(env, result) -> bool:
    path = f"/interactions/{result._interaction.id}/"
    callback = next(r.json for r in env.http_requests if r.path.startswith(path) and r.path.endswith("/callback"))
    return callback["type"] == 4 and bool(callback["data"]["flags"] & 64)


async def kept_game(channel, player) -> None:
    message = (await player.slash(channel, "goldfish start", deck="slide", seed=SLIDE_SIMPLE)).response
    await player.click(message, label="Keep")


async def reviews_done(cog) -> None:
    await asyncio.gather(*list(coach_state(cog).tasks))


def reviews_in(channel) -> list[dict[str, str]]:
    found = []
    for message in sorted(channel.history(), key=lambda m: m.id):
        for embed in message.embeds:
            if (embed.title or "").startswith("Review · "):
                found.append({f.name: f.value for f in embed.fields})
    return found


async def test_a_second_hint_while_the_first_is_measured_is_refused_at_once_and_privately(
    simcord_env, cog, channel, alice, bob
):
    await kept_game(channel, alice)

    first = start_slash(simcord_env, alice, channel, "goldfish hint")
    second = start_slash(simcord_env, alice, channel, "goldfish hint")
    await simcord_env.settle()

    assert first.response.embeds[0].title == "The coach's move" and fields(first.response)
    assert refused_at_once(simcord_env, second) and second.ephemeral
    assert second.response.content.startswith("Your last hint is still being measured: try again in ")
    assert not any(m.id == second.response.id for m in channel.history(viewer=bob))
    assert all(type(error).__name__ == "Refused" for error in simcord_env.errors)


async def test_hints_past_a_players_cooldown_are_refused_and_others_still_get_theirs(
    simcord_env, cog, guild, channel, alice, bob
):
    await kept_game(channel, alice)
    # Alice's hints answered at once with the policy's move: measured, a busy machine could take longer than the
    # cooldown's window over them, and the last would no longer be past it.
    coach_state(cog).hint_seconds = 0
    answers = [await alice.slash(channel, "goldfish hint") for _ in range(HINTS.rate + 1)]
    coach_state(cog).hint_seconds = CEILING

    assert all(a.response.embeds for a in answers[:-1])
    assert refused_at_once(simcord_env, answers[-1])
    assert answers[-1].response.content.startswith("Slow down a little: try again in ")
    elsewhere = guild.create_text_channel("bobs-table")
    await kept_game(elsewhere, bob)
    assert (await bob.slash(elsewhere, "goldfish hint")).response.embeds[0].title == "The coach's move"
    assert all(type(error).__name__ == "CommandOnCooldown" for error in simcord_env.errors)


async def test_a_player_ending_games_faster_than_reviews_run_gets_their_own_figures_for_the_rest(
    simcord_env, cog, guild, alice
):
    channels = [guild.create_text_channel(f"table-{n}") for n in range(REVIEWS_PER_PLAYER + 1)]
    state = coach_state(cog)
    for room in channels:
        await kept_game(room, alice)
    # All ended at once: the first review takes seconds (its worker starts), the others arrive meanwhile.
    for room in channels:
        start_slash(simcord_env, alice, room, "goldfish end")
    await simcord_env.settle()
    await reviews_done(cog)

    measured = [reviews_in(room) for room in channels]
    assert all("Moments" in found[0] and "The deck" in found[0] for found in measured[:-1])
    (only_own,) = measured[-1]
    assert list(only_own) == ["Your game"] and only_own["Your game"].startswith("Stopped on turn")
    assert not state.reviews_waiting


async def test_a_review_past_its_deadline_is_posted_with_what_was_measured(simcord_env, cog, channel, alice):
    coach_state(cog).review_seconds = 0.0
    await kept_game(channel, alice)
    await alice.slash(channel, "goldfish end")
    await reviews_done(cog)

    (review,) = reviews_in(channel)
    assert list(review) == ["Your game"]  # nothing measured in time, and nothing claimed about it


async def test_reviews_run_in_a_pool_of_their_own_at_the_lowest_priority_apart_from_hints(
    simcord_env, cog, channel, alice, monkeypatch
):
    monkeypatch.setattr(_coach, "REVIEW_NICE", REVIEW_NICE)  # the pool starts with the first review
    await kept_game(channel, alice)
    await alice.slash(channel, "goldfish hint")
    await alice.slash(channel, "goldfish end")
    await reviews_done(cog)

    review_workers = list(cog.review_pool._executor._processes)
    hint_workers = list(cog.simulations._executor._processes)
    assert review_workers and hint_workers and not set(review_workers) & set(hint_workers)
    mine = os.getpriority(os.PRIO_PROCESS, 0)
    assert all(os.getpriority(os.PRIO_PROCESS, pid) == min(19, mine + 19) for pid in review_workers)
    assert all(os.getpriority(os.PRIO_PROCESS, pid) == mine for pid in hint_workers)


async def test_a_finished_game_shows_the_players_figures_at_once_and_the_rest_when_measured(
    simcord_env, cog, channel, alice, monkeypatch
):
    measuring = 2 * simcord_env.settle_timeout  # past any wait for the bot: only the clock moved on brings the rest

    async def slow_review(cog, game, player_id=None, deadline=None):
        await asyncio.sleep(measuring)
        return Review(player_game(game), None, ())

    # The module the running bot loaded (each bot loads its extensions afresh).
    monkeypatch.setitem(type(cog)._post_review.__globals__, "measured_review", slow_review)
    await kept_game(channel, alice)
    await alice.slash(channel, "goldfish end")

    (first,) = reviews_in(channel)
    assert list(first) == ["Your game", "Being measured"]
    assert first["Your game"].startswith("Stopped on turn")
    assert first["Being measured"].startswith("The deck in simulation and your decisions: added here by <t:")
    assert coach_state(cog).reviews == 0

    await simcord_env.advance_time(measuring + 1)
    await reviews_done(cog)
    (review,) = reviews_in(channel)  # the same review, completed in place
    assert list(review) == ["Your game", "Moments"]
    assert coach_state(cog).reviews == 1
