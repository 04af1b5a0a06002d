"""The review's promise under load, for ``bench_coach_fairness.py``: a game ends while two CPU-bound processes run
beside the bot; the review is posted as the bot posts it (``Coaching._post_review``: the player's figures at once,
the measured part by the deadline), into a channel that records when each part arrived.

Targets (median of the runs): the first part within 5 s of the game's end, the whole within 130 s.
"""

from __future__ import annotations

import multiprocessing
import time
from types import SimpleNamespace

from bot.goldfish.decks import preset_decks
from bot.goldfish.engine import Game
from bot.goldfish.practice import policy_step
from cogs.goldfish._coach import Coaching, close_coach, coach_state
from cogs.goldfish._simulate import close_simulations

FIRST_SECONDS = 5.0
WHOLE_SECONDS = 130.0
HOGS = 2


def spin() -> None:  # pragma: no cover - a CPU-bound process beside the bot
    while True:
        pass


class Channel:
    """A channel recording when the review's message was sent and each time it was edited."""

    def __init__(self) -> None:
        self.sent: list[tuple[float, object]] = []

    async def send(self, embed, **_):
        self.sent.append((time.perf_counter(), embed))
        return Message(self)


class Message:
    id = 1

    def __init__(self, channel: Channel) -> None:
        self.channel = channel

    async def edit(self, embed, **_):
        self.channel.sent.append((time.perf_counter(), embed))


class Reviewer(Coaching):
    def __init__(self, channel: Channel) -> None:
        self.bot = SimpleNamespace(db=None, get_partial_messageable=lambda _: channel)


def finished(seed: int) -> Game:
    game = Game.new(preset_decks()["slide"], seed=seed)
    while game.phase != "over" and game.turn <= 20:
        policy_step(game)
    return game


async def review_run(seed: int) -> dict:
    hogs = [multiprocessing.get_context("spawn").Process(target=spin, daemon=True) for _ in range(HOGS)]
    for hog in hogs:
        hog.start()
    channel = Channel()
    cog = Reviewer(channel)
    game = finished(seed)
    record = SimpleNamespace(channel_id=1, owner_id=1, game=game)
    try:
        ended = time.perf_counter()
        await cog._post_review(record, game, None)
    finally:
        for hog in hogs:
            hog.terminate()
        close_coach(cog)
        close_simulations(cog)
    (first_at, first), *rest = channel.sent
    whole_at, whole = rest[-1] if rest else (first_at, first)
    fields = [field.name for field in whole.fields]
    deck = next((field.value for field in whole.fields if field.name == "The deck"), "")
    return {
        "first": first_at - ended,
        "whole": whole_at - ended,
        "parts": fields,
        "games_simulated": int(deck.split(" simulated")[0].split()[-1].replace(",", "")) if deck else 0,
        "reviews": coach_state(cog).reviews,
    }
