"""Scryfall client benchmark against the fake Scryfall: cached latency and rate-limited bursts.

Run from the project root: ``python benchmarks/bench_scryfall.py`` (about a minute).
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from _bench import Report, median, percentile  # noqa: E402

from bot.scryfall import ScryfallClient  # noqa: E402
from tests.data import SCRYFALL_CARDS  # noqa: E402
from tests.support.fake_scryfall import FakeScryfall  # noqa: E402

CARDS = SCRYFALL_CARDS
CACHED_LOOKUPS = 2000
BURST = 100


async def cached_latency(client: ScryfallClient, names: list[str]) -> list[float]:
    for name in names:  # warm the cache (rate-limited upstream calls)
        await client.named(name, fuzzy=False)
    timings = []
    for i in range(CACHED_LOOKUPS):
        started = time.perf_counter()
        answer = await client.named(names[i % len(names)], fuzzy=False)
        timings.append(time.perf_counter() - started)
        assert answer.from_cache
    return timings


async def burst(fake: FakeScryfall, client: ScryfallClient, lookups) -> dict[str, float]:
    fake.reset()
    finished: list[float] = []
    started = time.perf_counter()

    async def one(coro):
        await coro
        finished.append(time.perf_counter() - started)

    await asyncio.gather(*(one(lookup) for lookup in lookups))
    return {
        "requests": len(fake.requests),
        "search/s": fake.max_rate("search"),
        "other/s": fake.max_rate("other"),
        "all/s": fake.max_rate("all"),
        "429s": len(fake.statuses(429)),
        "median": median(finished),
        "last": max(finished),
    }


async def main() -> int:
    if not CARDS.exists():
        sys.exit(f"Card sample not found: {CARDS}")
    report = Report("Scryfall client (fake Scryfall on 127.0.0.1)")
    with FakeScryfall(CARDS) as fake, tempfile.TemporaryDirectory() as cache_dir:
        client = ScryfallClient(fake.base_url, Path(cache_dir))
        names = [card["name"] for card in fake.cards]

        timings = await cached_latency(client, names[:5])
        report.add("cached named(): median", median(timings) * 1000, " ms", at_most=2)
        report.add("cached named(): p99", percentile(timings, 0.99) * 1000, " ms", at_most=10)
        report.add("cached named(): max", max(timings) * 1000, " ms")

        runs = [
            (
                f"{BURST} distinct named() at once",
                [client.named(n, fuzzy=False) for n in names[5 : 5 + BURST]],
                BURST * 0.58 + 5,
            ),
            (
                f"{BURST} distinct autocomplete() at once",
                [client.autocomplete(n[:7] + str(i)) for i, n in enumerate(names[:BURST])],
                BURST * 0.12 + 3,
            ),
            (
                f"the same {BURST} named() again (cached)",
                [client.named(n, fuzzy=False) for n in names[5 : 5 + BURST]],
                0.5,
            ),
        ]
        for title, lookups, last_at_most in runs:
            result = await burst(fake, client, lookups)
            report.add(f"{title}: upstream requests", result["requests"])
            report.add(f"{title}: max search-class requests in 1 s", result["search/s"], at_most=2)
            report.add(f"{title}: max requests in 1 s", result["all/s"], at_most=10)
            report.add(f"{title}: 429 answers", result["429s"], at_most=0)
            report.add(f"{title}: median answer", result["median"], " s")
            report.add(f"{title}: last answer", result["last"], " s", at_most=last_at_most)
        report.check("no etiquette violation seen by the fake", not fake.violations, "; ".join(fake.violations[:3]))
        await client.close()

    report.print()
    return report.exit_code()


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
