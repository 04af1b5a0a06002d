"""“Look up cards” on a message that has no ``[[…]]``: finding the card names written out in it, on a synthetic
35,000-card copy (Scryfall's size).

* The names index of the copy (built once per copy, in a read thread, shared with rules questions): reported.
* A chat message of about 200 characters naming up to two cards (as written, in lower case) or none: p99 ≤ 5 ms of
  CPU. A message of Discord's longest, 4,000 characters, full of words and names: p99 ≤ 50 ms. Both in CPU time,
  since this machine is shared (the wall clock is reported too).
* The cards a short message names are found (≥ 98 %: a short name made only of the rules' own words, such as
  "tapped out", counts only when written with capitals, by design), and ordinary sentences find none (≤ 1 %).

Run from the project root: ``python benchmarks/bench_look_up_cards.py [--runs N]``; figures are medians over the
runs.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from _bench import Report, median, percentile  # noqa: E402
from _synthetic_bulk import FULL_SIZE, synthetic_copy  # noqa: E402

from bot.carddb import CardData  # noqa: E402
from bot.carddb.update import update_from_file  # noqa: E402
from bot.cards import written_card_names  # noqa: E402
from bot.cards.questions import card_names  # noqa: E402
from bot.rules.ranking.index import RulesIndex  # noqa: E402
from bot.rules.text.document import load_document  # noqa: E402
from tests.data import CR_2026  # noqa: E402

MESSAGES = 600
LIMIT = 11  # what the command asks for: five cards and six more to name as left out
CHAT = [
    "anyone want to trade for {a}? I have spares",
    "just cycled {a} into {b}, felt great",
    "is {a} any good in pauper or is it too slow",
    "lost to {a} again, the third time this week",
    "my deck runs four {a} and two {b} right now",
]
PLAIN = [
    "see you all on friday, bring snacks and your decks",
    "who is coming to the prerelease this weekend? I can drive",
    "the island was tapped so I could not block with anything",
    "gg everyone, that last game went to time but it was close",
]


def written(name: str, rng: random.Random) -> str:
    return name if rng.random() < 0.5 else name.lower()


async def measure(data_dir: Path, index: RulesIndex, names: list[str], rng: random.Random) -> dict[str, float]:
    card_data = await CardData.open(data_dir, "http://127.0.0.1:9")
    try:
        started = time.perf_counter()
        await card_names(card_data, index)
        build = time.perf_counter() - started
        short, short_wall, found, wanted = [], [], 0, 0
        for _ in range(MESSAGES):
            a, b = rng.sample(names, 2)
            template = rng.choice(CHAT)
            text = template.format(a=written(a, rng), b=written(b, rng))
            named = {a.lower(), b.lower()} if "{b}" in template else {a.lower()}
            started, cpu = time.perf_counter(), time.process_time()
            references, _ = await written_card_names(card_data, index, text, LIMIT)
            short.append(time.process_time() - cpu)
            short_wall.append(time.perf_counter() - started)
            wanted += len(named)
            found += len({reference.name.lower() for reference in references} & named)
        plain_found = 0
        for _ in range(MESSAGES // 4):
            references, _ = await written_card_names(card_data, index, rng.choice(PLAIN), LIMIT)
            plain_found += bool(references)
        long, long_wall = [], []
        for _ in range(MESSAGES // 10):
            parts: list[str] = []
            while sum(len(part) + 1 for part in parts) < 4000:
                parts.append(rng.choice(PLAIN) if rng.random() < 0.8 else written(rng.choice(names), rng))
            text = " ".join(parts)[:4000]
            started, cpu = time.perf_counter(), time.process_time()
            await written_card_names(card_data, index, text, LIMIT)
            long.append(time.process_time() - cpu)
            long_wall.append(time.perf_counter() - started)
    finally:
        await card_data.close()
    return {
        "build": build,
        "p99": percentile(short, 0.99),
        "wall_p99": percentile(short_wall, 0.99),
        "found": found / max(1, wanted),
        "plain": plain_found / (MESSAGES // 4),
        "long_p99": percentile(long, 0.99),
        "long_wall_p99": percentile(long_wall, 0.99),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    index = RulesIndex(load_document(CR_2026))
    index.warm()
    _ = index.ordinary_words
    runs: list[dict[str, float]] = []
    with synthetic_copy() as copy:
        update_from_file(copy.data_dir / "cards.sqlite3", copy.bulk)
        for run in range(args.runs):
            figures = asyncio.run(measure(copy.data_dir, index, copy.names, random.Random(run)))
            runs.append(figures)
            print(f"run {run + 1}: " + ", ".join(f"{key} {value:.4g}" for key, value in figures.items()))

    def mid(key: str) -> float:
        return median([run[key] for run in runs])

    report = Report(f"Look up cards, names written out ({FULL_SIZE:,} cards; medians of {args.runs})")
    report.add("names index of the copy, built once", mid("build") * 1000, " ms")
    report.add("short message, p99 (CPU)", mid("p99") * 1000, " ms", at_most=5)
    report.add("short message, p99 (wall clock)", mid("wall_p99") * 1000, " ms")
    report.add("cards named in short messages found", mid("found") * 100, " %", at_least=98)
    report.add("ordinary sentences that found a card", mid("plain") * 100, " %", at_most=1)
    report.add("4,000-character message, p99 (CPU)", mid("long_p99") * 1000, " ms", at_most=50)
    report.add("4,000-character message, p99 (wall clock)", mid("long_wall_p99") * 1000, " ms")
    report.print()
    return report.exit_code()


if __name__ == "__main__":
    sys.exit(main())
