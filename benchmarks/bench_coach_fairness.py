"""After one player ends 20 games, another player's hint is still measured within its budget.

One player ends 20 games at once (played to the end by the simulation's policy, the three preset decks): each
game's review is asked for as the bot asks for it when a game ends (``measured_review``, in the background).
Meanwhile another player asks for a hint at ``--hints`` positions, one after another, each measured as
``/goldfish hint`` measures it (``measured_advice``, ``HINT_SECONDS`` of budget, the hints' pool warm); the same
hints are first timed with no review under way, for comparison. The same is then done with the 20 games ended by
20 players, each within their own share of reviews.

Targets, on the median of ``--runs`` runs: after one player's 20 games, every hint is measured (none answered
with the policy's move for lack of time) and its time at the 99th percentile is within ``HINT_SECONDS``.

Then the review's promise (``_review_promise.py``): a game ends beside two CPU-bound processes; its first part
(the player's figures) appears within 5 s and the whole within 130 s.

Run: ``python benchmarks/bench_coach_fairness.py [--runs N] [--hints N] [--no-review] [--no-hints]``
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path
from types import SimpleNamespace

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from _bench import Report, median, percentile  # noqa: E402
from _review_promise import FIRST_SECONDS, HOGS, WHOLE_SECONDS, review_run  # noqa: E402
from bench_goldfish_coach import positions  # noqa: E402

from bot.goldfish.decks import preset_decks  # noqa: E402
from bot.goldfish.engine import Game  # noqa: E402
from bot.goldfish.practice import policy_step  # noqa: E402
from cogs.goldfish._coach import HINT_SECONDS, close_coach, coach_state, measured_advice, measured_review  # noqa: E402
from cogs.goldfish._simulate import close_simulations  # noqa: E402

ENDED = 20
FIRST_PLAYER = 1000


def finished_games(count: int) -> list[Game]:
    decks = list(preset_decks().values())
    games = []
    for seed in range(count):
        game = Game.new(decks[seed % len(decks)], seed=500 + seed)
        while game.phase != "over" and game.turn <= 20:
            policy_step(game)
        games.append(game)
    return games


async def timed_hints(cog, spots: list[Game]) -> tuple[list[float], int]:
    times, measured = [], 0
    for game in spots:
        started = time.perf_counter()
        advice = await measured_advice(cog, game, HINT_SECONDS)
        times.append(time.perf_counter() - started)
        measured += advice.basis != "timeout"
    return times, measured


async def one_run(hints: int, players: int) -> dict:
    cog = SimpleNamespace(bot=SimpleNamespace(db=None))  # what the coach reads of the Goldfish cog
    spots = positions(hints)
    try:
        await measured_advice(cog, spots[0], 120.0)  # the hints' workers started: a running bot's are warm
        alone, _ = await timed_hints(cog, spots)  # the same hints with no review under way, to compare
        ended = finished_games(ENDED)
        reviews = [
            asyncio.create_task(measured_review(cog, game, FIRST_PLAYER + n % players)) for n, game in enumerate(ended)
        ]
        await asyncio.sleep(0.5)  # the reviews under way
        times, measured = await timed_hints(cog, spots)
        waiting = coach_state(cog).reviews_waiting.total()
        done = await asyncio.gather(*reviews)
    finally:
        close_coach(cog)
        close_simulations(cog)
    return {
        "alone_p50": percentile(alone, 0.5),
        "alone_p99": percentile(alone, 0.99),
        "p50": percentile(times, 0.5),
        "p99": percentile(times, 0.99),
        "measured": measured / len(spots),
        "reviews_still_waiting": waiting,
        "reviews_measured": sum(review.moments is not None for review in done),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--hints", type=int, default=30)
    parser.add_argument("--no-review", dest="review", action="store_false", help="skip the review beside CPU hogs")
    parser.add_argument("--no-hints", dest="hints_part", action="store_false", help="skip the hints during reviews")
    args = parser.parse_args()
    report = Report(f"Hints while {ENDED} finished games are reviewed, medians of {args.runs} runs")
    for players, label in ((1, "one player"), (ENDED, f"{ENDED} players")) if args.hints_part else ():
        results = []
        for run in range(args.runs):
            results.append(asyncio.run(one_run(args.hints, players)))
            print(f"{label}, run {run + 1}: {results[-1]}", flush=True)

        def mid(key: str, results: list = results) -> float:
            return median([r[key] for r in results])

        targets = players == 1
        report.add(f"{ENDED} games ended by {label}: reviews measured", mid("reviews_measured"))
        report.add(f"{label}: hint p50 with no review under way", mid("alone_p50"), " s")
        report.add(f"{label}: hint p99 with no review under way", mid("alone_p99"), " s")
        report.add(f"{label}: hint p50", mid("p50"), " s")
        report.add(f"{label}: hint p99", mid("p99"), " s", at_most=HINT_SECONDS if targets else None)
        report.add(f"{label}: hints measured", mid("measured") * 100, "%", at_least=100.0 if targets else None)
    if args.review:
        reviews = []
        for run in range(args.runs):
            reviews.append(asyncio.run(review_run(seed=40 + run)))
            print(f"review beside {HOGS} CPU-bound processes, run {run + 1}: {reviews[-1]}", flush=True)
        label = f"a review beside {HOGS} CPU-bound processes"
        report.add(f"{label}: first part", median([r["first"] for r in reviews]), " s", at_most=FIRST_SECONDS)
        report.add(f"{label}: whole", median([r["whole"] for r in reviews]), " s", at_most=WHOLE_SECONDS)
        report.add(f"{label}: simulated games in it", median([r["games_simulated"] for r in reviews]))
        report.add(f"{label}: with its moments", sum("Moments" in r["parts"] for r in reviews))
    report.print()
    return report.exit_code()


if __name__ == "__main__":
    raise SystemExit(main())
