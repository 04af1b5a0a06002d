"""No search a user writes holds a thread past its budget: regular expressions built to run away, on a synthetic
35,000-card oracle-cards file (Scryfall's real size), searched the way /search searches (``CardData.search``, three
at once in the searches' pool, each with the 1 s budget).

The families (seeded random variants of each, in ``o:``, ``fo:`` and ``name:`` terms, alone or several ``or``-ed;
each search asked for when a search thread is free, so that each runs for its whole budget):

* bounded repeats with large bounds: ``(?:.{0,9})?`` then ``.{0,N}`` k times then ``$\\d``;
* nested repeats: ``(a+)+$``, ``(?:(?:\\w+\\s?){1,K}){1,M}…``, ``(.*a){n}…``;
* optional groups: ``(?:.?){N}`` then a class and a letter that rarely follows;
* anchors: ``^(?:\\w+\\s?)*$``, ``^.{0,N}$``, ``^[a-m].*…$``.

Each search's time in its thread is measured from the moment a thread takes it to the moment it gives the thread
back (answered, stopped at its deadline, or refused). Target: none holds its thread longer than 1.2 × its budget
(the worst of each run; the median of ``--runs`` runs is reported).

Run: ``python benchmarks/bench_regex_budget.py [--runs N] [--variants N]``
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import threading
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from _bench import Report, median  # noqa: E402
from _synthetic_bulk import FULL_SIZE, synthetic_copy  # noqa: E402

from bot.carddb import CardData  # noqa: E402
from bot.carddb.query import QueryError, QueryTooSlow  # noqa: E402
from bot.carddb.service import SEARCH_SECONDS, SEARCH_THREADS  # noqa: E402
from bot.carddb.store import CardStore  # noqa: E402
from bot.carddb.update import update_from_file  # noqa: E402

TARGET_RATIO = 1.2
KEYS = ("o", "fo", "name")


def bounded_repeats(rng: random.Random) -> str:
    bound = rng.choice((99, 250, 500, 999))
    return "(?:.{0,9})?" + f".{{0,{bound}}}" * rng.randint(1, 20) + r"$\d"


def nested_repeats(rng: random.Random) -> str:
    return rng.choice(
        (
            r"(a+)+$",
            rf"(?:(?:\w+\s?){{1,{rng.randint(5, 50)}}}){{1,{rng.randint(5, 20)}}}q$",
            rf"(.*{rng.choice('aeiou')}){{{rng.randint(5, 25)}}}zq",
            rf"(?:(?:[a-z]+,?)*\s)*{rng.choice('xzq')}\d",
            rf"((?:\w|\s){{0,{rng.randint(50, 300)}}})+zq",
        )
    )


def optional_groups(rng: random.Random) -> str:
    return f"(?:.?){{{rng.randint(100, 999)}}}[{rng.choice('abcdefghij')}]q"


def anchors(rng: random.Random) -> str:
    return rng.choice(
        (
            r"^(?:\w+\s?)*$",
            rf"^.{{0,{rng.randint(100, 999)}}}$",
            r"^[a-m].*(?:dragon|serpent|drake)$",
            rf"^(?:.?){{{rng.randint(100, 900)}}}\d$",
        )
    )


FAMILIES = {
    "bounded repeats, large bounds": bounded_repeats,
    "nested repeats": nested_repeats,
    "optional groups": optional_groups,
    "anchors": anchors,
}


def variant(make, rng: random.Random) -> str:
    terms = [f"{rng.choice(KEYS)}:/{make(rng)}/" for _ in range(rng.choice((1, 1, 3, 10)))]
    return " or ".join(terms)


class Holds:
    """How long each search held its thread: from a thread taking it to the thread being free again."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}
        self._lock = threading.Lock()
        self._search = CardStore.search

    def install(self) -> None:
        real, holds = self._search, self

        def timed(store, query, **options):
            started = time.perf_counter()
            try:
                return real(store, query, **options)
            finally:
                with holds._lock:
                    holds.seconds[query] = max(holds.seconds.get(query, 0.0), time.perf_counter() - started)

        CardStore.search = timed  # type: ignore[method-assign]

    def uninstall(self) -> None:
        CardStore.search = self._search  # type: ignore[method-assign]


async def one_run(data_dir: Path, variants: int, seed: int) -> dict:
    rng = random.Random(seed)
    queries = {name: [variant(make, rng) for _ in range(variants)] for name, make in FAMILIES.items()}
    outcomes: dict[str, Counter] = {name: Counter() for name in FAMILIES}
    holds = Holds()
    holds.install()
    card_data = await CardData.open(data_dir, "http://127.0.0.1:9")
    try:
        await card_data.search("t:creature")  # the connections and their page cache

        threads = asyncio.Semaphore(SEARCH_THREADS)  # each asked for when a thread is free: each gets its budget

        async def ask(family: str, query: str) -> None:
            try:
                async with threads:
                    await card_data.search(query, budget=SEARCH_SECONDS)
                outcomes[family]["answered"] += 1
            except QueryTooSlow:
                outcomes[family]["stopped at the budget"] += 1
            except QueryError:
                outcomes[family]["refused"] += 1

        await asyncio.gather(*(ask(family, q) for family, found in queries.items() for q in found))
    finally:
        await card_data.close()
        holds.uninstall()
    worst = max(holds.seconds, key=holds.seconds.get)
    return {
        "worst_hold": holds.seconds[worst],
        "worst_query": worst,
        "outcomes": {name: dict(counts) for name, counts in outcomes.items()},
        "searches": sum(len(found) for found in queries.values()),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--variants", type=int, default=8, help="random variants of each family per run")
    args = parser.parse_args()
    results = []
    with synthetic_copy() as copy:
        update_from_file(copy.data_dir / "cards.sqlite3", copy.bulk)
        for run in range(args.runs):
            results.append(asyncio.run(one_run(copy.data_dir, args.variants, seed=run)))
            print(f"run {run + 1}: {results[-1]}", flush=True)

    report = Report(
        f"Runaway regular expressions, {FULL_SIZE:,} cards, a {SEARCH_SECONDS:g} s budget, {args.runs} runs"
    )
    report.add("searches per run", results[0]["searches"])
    worst = median([r["worst_hold"] for r in results])
    report.add("longest hold of a thread (median of the runs' worst)", worst, " s")
    report.add("longest hold / budget", worst / SEARCH_SECONDS, "", at_most=TARGET_RATIO)
    report.add("longest hold / budget, worst run", max(r["worst_hold"] for r in results) / SEARCH_SECONDS)
    report.print()
    for family in FAMILIES:
        counts: Counter = Counter()
        for result in results:
            counts.update(result["outcomes"][family])
        print(f"{family}: " + ", ".join(f"{count} {outcome}" for outcome, count in sorted(counts.items())))
    print(f"slowest search: {max(results, key=lambda r: r['worst_hold'])['worst_query'][:160]}")
    return report.exit_code()


if __name__ == "__main__":
    raise SystemExit(main())
