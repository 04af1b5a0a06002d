"""Time one goldfish cycle action, engine only, with and without ``to_dict``.

Targets: a cycle (rules, triggers, draw) under 1 ms median, and with the snapshot for the
database (``to_dict``) under 2 ms median, for each preset deck; medians over several runs.

Run: ``python benchmarks/bench_goldfish_engine.py``
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks._bench import Report, median, percentile  # noqa: E402
from bot.goldfish.decks import preset_decks  # noqa: E402
from bot.goldfish.engine import Game  # noqa: E402

RUNS = 5
GAMES_PER_RUN = 40
TARGET_CYCLE_US, TARGET_WITH_SAVE_US = 1000.0, 2000.0


def sample(key: str, seed: int) -> list[tuple[float, float]]:
    """(cycle seconds, cycle + to_dict seconds) for every cycle in one game."""
    game = Game.new(preset_decks()[key], seed=seed)
    game.keep()
    timings = []
    for _ in range(12):
        for land in game.playable_lands()[:1]:
            game.play_land(land.iid)
        while castable := [o for o in game.cast_options() if o.affordable]:
            game.cast(castable[0].iid)
        while game.phase == "main":
            options = [o for o in game.cycle_options() if o.affordable]
            if not options:
                break
            start = time.perf_counter()
            game.cycle(options[0].iid, options[0].ability_index)
            middle = time.perf_counter()
            game.to_dict()
            end = time.perf_counter()
            timings.append((middle - start, end - start))
        if game.phase != "main":
            break
        game.next_turn()
    return timings


def main() -> int:
    report = Report("Goldfish engine: one cycle (µs, median of per-run medians)")
    for key in preset_decks():
        run_medians, run_full, p99s = [], [], []
        for run in range(RUNS):
            timings = [t for seed in range(run * GAMES_PER_RUN, (run + 1) * GAMES_PER_RUN) for t in sample(key, seed)]
            only = [t[0] * 1e6 for t in timings]
            run_medians.append(median(only))
            run_full.append(median([t[1] * 1e6 for t in timings]))
            p99s.append(percentile(only, 0.99))
        report.add(f"{key}: cycle", median(run_medians), " µs", at_most=TARGET_CYCLE_US)
        report.add(f"{key}: cycle + to_dict", median(run_full), " µs", at_most=TARGET_WITH_SAVE_US)
        report.add(f"{key}: cycle p99", median(p99s), " µs")
    report.print()
    return report.exit_code()


if __name__ == "__main__":
    sys.exit(main())
