"""Time ``/goldfish simulate``'s work: 1,000 ten-turn games in the process pool (two workers).

Target: 1,000 ten-turn games of the default deck in ≤ 5 s (median over several runs, the pool
already started, as it is in a running bot after the first simulation). Also reported: the first
run with the pool's start-up, each preset deck, and one game in a single process.

Run: ``python benchmarks/bench_goldfish_simulate.py [--runs N]``
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks._bench import Report, median  # noqa: E402
from bot.goldfish.decks import preset_decks  # noqa: E402
from bot.goldfish.practice import Settings, SimulationPool, simulate_here  # noqa: E402

GAMES, TURNS = 1000, 10
TARGET_SECONDS = 5.0
DEFAULT_DECK = "slide"


def timed(function, *args) -> float:
    start = time.perf_counter()
    function(*args)
    return time.perf_counter() - start


def run(pool: SimulationPool, deck, seed: int) -> tuple[float, float]:
    """(wall seconds, CPU seconds the workers spent playing) for one simulation."""
    start = time.perf_counter()
    report = pool.run(deck, Settings(games=GAMES, turns=TURNS, seed=seed))
    return time.perf_counter() - start, report.cpu_seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    runs = parser.parse_args().runs
    decks = preset_decks()
    report = Report(f"Goldfish simulate: {GAMES:,} games of {TURNS} turns, 2 worker processes (s)")
    pool = SimulationPool()
    try:
        cold = timed(pool.run, decks[DEFAULT_DECK], Settings(games=GAMES, turns=TURNS, seed=0))
        report.add("first run, pool start-up included", cold, " s")
        for key in [DEFAULT_DECK, *sorted(k for k in decks if k != DEFAULT_DECK)]:
            results = [run(pool, decks[key], seed) for seed in range(1, runs + 1)]
            target = {"at_most": TARGET_SECONDS} if key == DEFAULT_DECK else {}
            report.add(f"{key}: {GAMES:,} games (median of {runs})", median([r[0] for r in results]), " s", **target)
            # CPU seconds in the workers: what the games cost whatever else the machine is doing.
            report.add(f"{key}: worker CPU for {GAMES:,} games", median([r[1] for r in results]), " s")
    finally:
        pool.close()
    single = [
        timed(simulate_here, decks[DEFAULT_DECK], Settings(games=100, turns=TURNS, seed=run)) / 100 * 1000
        for run in range(3)
    ]
    report.add(f"{DEFAULT_DECK}: one game in one process (median of 3 × 100)", median(single), " ms")
    report.add("machine load average (1 min) at the end", os.getloadavg()[0], "")
    report.print()
    return report.exit_code()


if __name__ == "__main__":
    sys.exit(main())
