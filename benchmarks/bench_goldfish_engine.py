"""Time one goldfish cycle action, engine only, with and without ``to_dict``.

Run: ``python benchmarks/bench_goldfish_engine.py``
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.goldfish import Game, preset_decks  # noqa: E402

RUNS = 5
GAMES_PER_RUN = 40


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


def main() -> None:
    header = f"{'deck':<12} {'run':>3} {'cycles':>6} {'median µs':>10} {'p99 µs':>8}"
    print(header + f" {'+to_dict med':>13} {'+to_dict p99':>13}")
    for key in preset_decks():
        for run in range(RUNS):
            timings = [t for seed in range(run * GAMES_PER_RUN, (run + 1) * GAMES_PER_RUN) for t in sample(key, seed)]
            only = sorted(t[0] * 1e6 for t in timings)
            full = sorted(t[1] * 1e6 for t in timings)

            def p99(values: list[float]) -> float:
                return values[min(len(values) - 1, int(len(values) * 0.99))]

            print(
                f"{key:<12} {run + 1:>3} {len(only):>6} {statistics.median(only):>10.0f} {p99(only):>8.0f} "
                f"{statistics.median(full):>13.0f} {p99(full):>13.0f}"
            )


if __name__ == "__main__":
    main()
