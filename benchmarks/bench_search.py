"""Card search in Scryfall's syntax on a synthetic 35,000-card oracle-cards file (Scryfall's real size).

Searches go through ``CardData.search`` as /search calls it (parse, compile, one SQL query, a page of
records), on the database the importer builds:

* typical searches (types, colours, numbers, formats, keywords, names, a few terms together): p99 ≤ 20 ms;
* heavy searches (regular expressions over Oracle text, ``or`` of ten terms, text in every face,
  negations of broad terms): the worst one's median ≤ 200 ms;
* 100 searches in flight at once (90 typical, 10 heavy): all answered within 2 s;
* no request reaches the API.

Run from the project root: ``python benchmarks/bench_search.py [--runs N]``; figures are medians over the runs.
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
from tests.support.fake_bulk import FakeBulk  # noqa: E402

REPEATS = 15
CONCURRENT = 100

TYPICAL = [
    "t:creature c:g pow>=3",
    "c:u t:instant mv=1",
    "f:legacy t:artifact",
    "id<=esper t:creature",
    "o:draw t:sorcery",
    "kw:flying c:w",
    "r:rare t:creature",
    "pow>tou",
    "t:legendary t:creature",
    "-c:w t:enchantment",
    "c:azorius",
    "t:creature c:b order:cmc",
    "mv<=2 c:r",
    "is:dfc",
    "kw:cycling mv>=5",
    'o:"draw a card" c:u',
    "t:land -t:basic",
    "f:pauper c:g t:creature",
    "c=rg",
    "id:c t:artifact",
]

HEAVY = [
    r"o:/\bdraw (a|two|three) cards?\b/",
    r"o:/^(when|whenever) .* (enters|dies)/",
    r"name:/^[a-m].*(dragon|serpent|drake)$/",
    r"o:/\b[a-z]{11,}\b/",
    "t:goblin or t:elf or t:wizard or t:zombie or t:dragon or t:angel or t:beast or t:knight or t:soldier or t:bird",
    "o:damage or o:destroy or o:exile or o:counter or o:draw or o:discard or o:sacrifice or o:return or o:search "
    "or o:create",
    'fo:"this card" -c:g -c:w',
    "-t:creature -t:land -c:u",
    "o:~ (pow>=2 or tou>=4) (c:r or c:g or c:b)",
    "(c:w or c:u) (t:creature or t:instant or t:sorcery) mv<=3 -kw:flying f:modern",
    "mv>=0 order:usd",
]


async def timed(card_data: CardData, query: str) -> float:
    started = time.perf_counter()
    page = await card_data.search(query)
    elapsed = (time.perf_counter() - started) * 1000
    if page.total < 0:
        raise AssertionError("impossible")
    return elapsed


async def measure(data_dir: Path, fake: FakeBulk, names: list[str], seed: int) -> dict[str, float]:
    rng = random.Random(seed)
    card_data = await CardData.open(data_dir, fake.base_url)
    try:
        await card_data.search("t:creature")  # warm-up: the connection and its page cache
        typical_queries = [*TYPICAL, *(f'!"{name}"' for name in rng.sample(names, 10))]
        typical: list[float] = []
        for _ in range(REPEATS):
            for query in typical_queries:
                typical.append(await timed(card_data, query))
        heavy: dict[str, list[float]] = {query: [] for query in HEAVY}
        for _ in range(5):
            for query in HEAVY:
                heavy[query].append(await timed(card_data, query))
        totals = {query: (await card_data.search(query)).total for query in HEAVY[:4]}
        mixed = [rng.choice(TYPICAL) for _ in range(CONCURRENT - 10)] + HEAVY[:10]
        started = time.perf_counter()
        # Each has the bot's budget from the moment it is asked for: one that waits it out is stopped, not answered.
        pages = await asyncio.gather(*(card_data.search(query) for query in mixed), return_exceptions=True)
        concurrent = time.perf_counter() - started
    finally:
        await card_data.close()
    worst_query = max(heavy, key=lambda q: median(heavy[q]))
    return {
        "typical_p50": percentile(typical, 0.5),
        "typical_p99": percentile(typical, 0.99),
        "heavy_worst": median(heavy[worst_query]),
        "heavy_worst_query": worst_query,
        "concurrent": concurrent,
        "answered": sum(1 for page in pages if not isinstance(page, BaseException) and page.total >= 0),
        "matched": min(totals.values()),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--cards", type=int, default=FULL_SIZE)
    args = parser.parse_args()
    with synthetic_copy(args.cards) as copy, FakeBulk() as fake:
        data_dir, names = copy.data_dir, copy.names
        update_from_file(data_dir / "cards.sqlite3", copy.bulk)
        runs = []
        for run in range(args.runs):
            runs.append(asyncio.run(measure(data_dir, fake, names, seed=run)))
            print(f"run {run + 1}: {runs[-1]}", flush=True)
        api_requests = len(fake.requests)

    report = Report(f"Card search: {args.cards:,} cards, medians of {args.runs} runs")
    report.add("typical search p50", median([r["typical_p50"] for r in runs]), " ms")
    report.add("typical search p99", median([r["typical_p99"] for r in runs]), " ms", at_most=20)
    report.add("worst heavy search (its median)", median([r["heavy_worst"] for r in runs]), " ms", at_most=200)
    report.add(f"{CONCURRENT} concurrent searches (10 heavy)", median([r["concurrent"] for r in runs]), " s", at_most=2)
    report.check("every concurrent search answered", all(r["answered"] == CONCURRENT for r in runs))
    report.check("heavy searches match cards", all(r["matched"] > 0 for r in runs))
    report.check("no request reached the API", api_requests == 0, f"{api_requests} requests")
    report.print()
    print(f"worst heavy search: {runs[-1]['heavy_worst_query']}")
    return report.exit_code()


if __name__ == "__main__":
    raise SystemExit(main())
