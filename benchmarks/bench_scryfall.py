"""Scryfall client benchmark against the fake Scryfall: cached latency and rate-limited bursts.

Run from the project root: ``python benchmarks/bench_scryfall.py`` (about a minute).
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from _table import print_table  # noqa: E402

from bot.scryfall import ScryfallClient  # noqa: E402
from tests.support.fake_scryfall import FakeScryfall  # noqa: E402

CARDS = ROOT.parent / "shared" / "scryfall" / "cycling-cards.jsonl"
CACHED_LOOKUPS = 2000
BURST = 100


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


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
        "median": statistics.median(finished),
        "last": max(finished),
    }


async def main() -> None:
    if not CARDS.exists():
        sys.exit(f"Card sample not found: {CARDS}")
    rows: list[tuple[str, str]] = []
    with FakeScryfall(CARDS) as fake, tempfile.TemporaryDirectory() as cache_dir:
        client = ScryfallClient(fake.base_url, Path(cache_dir))
        names = [card["name"] for card in fake.cards]

        timings = await cached_latency(client, names[:5])
        rows.append(("cached named(): median", f"{statistics.median(timings) * 1000:.2f} ms"))
        rows.append(("cached named(): p99", f"{percentile(timings, 0.99) * 1000:.2f} ms"))
        rows.append(("cached named(): max", f"{max(timings) * 1000:.2f} ms"))

        runs = [
            (f"{BURST} distinct named() at once", [client.named(n, fuzzy=False) for n in names[5 : 5 + BURST]]),
            (
                f"{BURST} distinct autocomplete() at once",
                [client.autocomplete(n[:7] + str(i)) for i, n in enumerate(names[:BURST])],
            ),
            (f"the same {BURST} named() again (cached)", [client.named(n, fuzzy=False) for n in names[5 : 5 + BURST]]),
        ]
        for title, lookups in runs:
            result = await burst(fake, client, lookups)
            rows.append(
                (
                    title,
                    f"{result['requests']:.0f} upstream, max {result['search/s']:.0f} search/s, "
                    f"{result['other/s']:.0f} other/s, {result['all/s']:.0f} all/s, {result['429s']:.0f} x 429; "
                    f"median answer {result['median']:.2f} s, last {result['last']:.2f} s",
                )
            )
            assert result["search/s"] <= 2 and result["all/s"] <= 10 and not result["429s"], result
        assert not fake.violations, fake.violations
        await client.close()

    print_table("Scryfall client (fake Scryfall on 127.0.0.1)", rows)


if __name__ == "__main__":
    asyncio.run(main())
