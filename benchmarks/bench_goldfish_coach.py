"""Measure the goldfish coach: how long a hint takes, and whether its advice pays in self-play.

Hint time: ``/goldfish hint``'s work (every candidate move played out ``ROLLOUTS`` times, split over the
two worker processes of a warm pool) at positions from policy-played games of the three preset decks.
Target: p99 ≤ 2.5 s (the hint's deadline; past it the bot answers with the policy's move).

Self-play: seeded duels (:mod:`bot.goldfish.practice.coach_eval`): at one decision of each game the coach's
move and the policy's are each played on by the policy over the same real library; the kill turns are compared.
The coach uses ``DUEL_ROLLOUTS`` rollouts per candidate here (fewer than a hint's) to keep the benchmark
within minutes. Two seed sets: the tuning set (``TUNE_BASE``, what the margin was chosen on) and the frozen
test set (``TEST_BASE``, 1,000 games, never used to choose anything). Targets on the test set: the coach's
move beats or ties the policy's in ≥ 95% of games, and its mean kill turn is no later than the policy's.

Run: ``python benchmarks/bench_goldfish_coach.py [--games N] [--hints N]``
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks._bench import Report, median, percentile  # noqa: E402
from bot.goldfish.decks import preset_decks  # noqa: E402
from bot.goldfish.engine import Game  # noqa: E402
from bot.goldfish.practice import SimulationPool, coach, duels, policy_step  # noqa: E402

TUNE_BASE, TEST_BASE = 1, 2
TEST_GAMES, TUNE_GAMES = 1000, 300
DUEL_ROLLOUTS = 8
HINT_TARGET_SECONDS = 2.5
BEATS_OR_TIES_TARGET = 0.95
CHUNK = 25


def positions(count: int) -> list[Game]:
    """Positions to hint at: main phases of policy-played games, turns 1–8, the three preset decks."""
    found, decks, seed = [], list(preset_decks().values()), 0
    while len(found) < count:
        game = Game.new(decks[seed % len(decks)], seed=seed)
        stop = 1 + seed % 8
        while game.phase != "over" and not (game.turn >= stop and game.phase == "main"):
            policy_step(game)
        if game.phase == "main" and len(coach.candidates(game)) > 1:
            found.append(game)
        seed += 1
    return found


def hint(pool: SimulationPool, game: Game) -> float:
    start = time.perf_counter()
    moves = coach.candidates(game)
    seeds = coach.rollout_seeds(coach.hint_seed(game), 0, coach.rollouts_for(len(moves)))
    half = len(seeds) // 2
    futures = [pool.executor.submit(coach.measure, game, moves, part) for part in (seeds[:half], seeds[half:])]
    coach.rank(game, coach.merge([f.result() for f in futures]), moves[0])
    return time.perf_counter() - start


def duel_set(pool: SimulationPool, base: int, games: int) -> list:
    chunks = [range(start, min(start + CHUNK, games)) for start in range(0, games, CHUNK)]
    futures = [pool.executor.submit(duels, list(chunk), base, DUEL_ROLLOUTS) for chunk in chunks]
    return [d for f in futures for d in f.result()]


def report_duels(report: Report, label: str, results: list, *, targets: bool) -> None:
    n = len(results)
    beats = sum(d.coach_kill < d.policy_kill for d in results) / n
    ties = sum(d.coach_kill == d.policy_kill for d in results) / n
    coach_mean = statistics.mean(d.coach_kill for d in results)
    policy_mean = statistics.mean(d.policy_kill for d in results)
    report.add(f"{label}: games", n)
    report.add(f"{label}: coach departs from the policy", sum(d.departed for d in results) / n * 100, "%")
    report.add(f"{label}: coach beats policy", beats * 100, "%")
    report.add(f"{label}: coach ties policy", ties * 100, "%")
    if targets:
        report.add(f"{label}: beats or ties", (beats + ties) * 100, "%", at_least=BEATS_OR_TIES_TARGET * 100)
        report.add(f"{label}: mean kill turn, coach", coach_mean, at_most=policy_mean)
    else:
        report.add(f"{label}: beats or ties", (beats + ties) * 100, "%")
        report.add(f"{label}: mean kill turn, coach", coach_mean)
    report.add(f"{label}: mean kill turn, policy", policy_mean)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=TEST_GAMES, help="duels in the frozen test set")
    parser.add_argument("--hints", type=int, default=40, help="positions to time a hint at")
    args = parser.parse_args()
    report = Report("Goldfish coach: hint time (s, 2 workers, warm pool) and self-play (kill turns)")
    pool = SimulationPool()
    try:
        games = positions(args.hints)
        hint(pool, games[0])  # start the workers: a running bot's pool is warm after its first use
        times = [hint(pool, game) for game in games]
        report.add("hint p50", median(times), " s")
        report.add("hint p99", percentile(times, 0.99), " s", at_most=HINT_TARGET_SECONDS)
        if args.games <= 0:
            report.print()
            return report.exit_code()
        started = time.perf_counter()
        tune = duel_set(pool, TUNE_BASE, TUNE_GAMES)
        test = duel_set(pool, TEST_BASE, args.games)
        report_duels(report, "tuning set", tune, targets=False)
        report_duels(report, "frozen test set", test, targets=True)
        report.add("self-play wall time", time.perf_counter() - started, " s")
    finally:
        pool.close()
    report.print()
    return report.exit_code()


if __name__ == "__main__":
    raise SystemExit(main())
