"""A review keeps its deadline however busy its worker is: what was measured by then, nothing more, and never a
wait past it (core, a real worker process)."""

from __future__ import annotations

import time

from bot.goldfish.decks import preset_decks
from bot.goldfish.engine import Game
from bot.goldfish.practice.review import REVIEW_CHUNK, ReportCache, review_in_pool, review_settings
from bot.goldfish.practice.simulate import SimulationPool, play_chunk, policy_step

DEADLINE = 3.0


def finished_game() -> Game:
    game = Game.new(preset_decks()["slide"], seed=7)
    while game.phase != "over" and game.turn <= 20:
        policy_step(game)
    return game


async def test_a_review_whose_worker_is_busy_returns_by_its_deadline_with_the_players_figures():
    pool = SimulationPool(workers=1, max_pending=1)
    try:
        blocker = pool.executor.submit(time.sleep, 3 * DEADLINE)  # the worker is taken by other work
        started = time.perf_counter()
        review = await review_in_pool(
            finished_game(), pool, ReportCache(), games=4 * REVIEW_CHUNK, deadline=started + DEADLINE
        )
        took = time.perf_counter() - started
        blocker.cancel()
    finally:
        pool.close()
    assert took < 2 * DEADLINE  # the deadline, not the busy worker, decided when it returned
    assert review.player.result == "won"
    assert review.deck is None and review.moments is None  # nothing measured in time, and nothing claimed


async def test_a_review_with_time_for_part_of_its_simulation_says_how_many_games_it_holds():
    pool = SimulationPool(workers=1, max_pending=1)
    reports = ReportCache()
    game = finished_game()
    try:
        settings = review_settings(game, REVIEW_CHUNK)
        await pool.call(play_chunk, game.deck(), settings, 0, REVIEW_CHUNK)  # the worker started
        started = time.perf_counter()
        await pool.call(play_chunk, game.deck(), settings, 0, REVIEW_CHUNK)
        one_chunk = time.perf_counter() - started
        # Time for a few pieces of a simulation a hundred pieces long.
        review = await review_in_pool(
            game, pool, reports, games=100 * REVIEW_CHUNK, deadline=time.perf_counter() + 3.5 * one_chunk
        )
    finally:
        pool.close()
    assert review.deck is not None and 0 < review.deck.games < 100 * REVIEW_CHUNK
    assert review.deck.games % REVIEW_CHUNK == 0
    assert len(reports) == 0  # a partial simulation is never kept as the deck's figures
