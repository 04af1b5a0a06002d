"""Benchmark the Comprehensive Rules core: parse + index time, index memory, lookup/autocomplete/search latency.

Usage: python benchmarks/bench_rules.py [PATH_TO_CR_TXT] [--runs N]
Without a path it uses the 2026 CR in tests/data/cr/.
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
import tracemalloc
from functools import partial
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from _bench import Report, median, percentile  # noqa: E402

from bot.rules.asking.ask import lookup  # noqa: E402
from bot.rules.ranking.index import RulesIndex  # noqa: E402
from bot.rules.text.document import load_document  # noqa: E402
from tests.data import CR_2026  # noqa: E402

DEFAULT_FILE = CR_2026

NUMBER_QUERIES = ["702.29", "702.29c", "704.5", "704.5k", "100.1", "121.4", "601.2f", "903.4", "999.99", "100"]
AUTOCOMPLETE_QUERIES = ["7", "70", "702.2", "704.5", "cyc", "cycl", "typecyc", "state based", "tramp", "zzz", ""]
SEARCH_QUERIES = [
    "state-based actions",
    "how does typecycling work",
    "draw from an empty library",
    "commander damage",
    "first strike combat damage step",
    "mana ability",
    "legend rule",
    "sacrifice a creature as a cost",
    "copy of a spell",
    "deathtouch trample",
]
TARGETS = {
    "parse+index": 100.0,
    "warm (ranking)": 300.0,
    "number lookup": 0.2,
    "autocomplete": 1.0,
    "full-text search": 1.0,
}


def time_calls(function, queries: list[str], runs: int) -> list[float]:
    samples = []
    for _ in range(runs):
        for query in queries:
            start = time.perf_counter()
            function(query)
            samples.append((time.perf_counter() - start) * 1000)
    return samples


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", nargs="?", type=Path, default=DEFAULT_FILE)
    parser.add_argument("--runs", type=int, default=200, help="repetitions of each query set (default 200)")
    args = parser.parse_args(argv)
    if not args.path.is_file():
        print(f"error: no such file: {args.path}", file=sys.stderr)
        return 1

    build_times = []
    for _ in range(7):
        gc.collect()
        start = time.perf_counter()
        index = RulesIndex(load_document(args.path))
        build_times.append((time.perf_counter() - start) * 1000)
        index.close()

    warm_times = []
    for _ in range(3):
        index = RulesIndex(load_document(args.path))
        gc.collect()
        start = time.perf_counter()
        index.warm()  # the word statistics questions are ranked with (the bot builds them at start)
        warm_times.append((time.perf_counter() - start) * 1000)
        index.close()

    gc.collect()
    tracemalloc.start()
    index = RulesIndex(load_document(args.path))
    index.warm()
    current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    # sqlite's own allocations are not seen by tracemalloc; report its page cache use separately.
    db = index.searcher.entries.db
    sqlite_pages = db.execute("PRAGMA page_count").fetchone()[0] * db.execute("PRAGMA page_size").fetchone()[0]

    document = index.document
    print(
        f"Rules file: {args.path.name} (effective {document.effective}; {document.rule_count} rules, "
        f"{len(document.glossary)} glossary entries)"
    )
    print(
        f"Index memory: {current / 1e6:.1f} MB held by Python objects (peak {peak / 1e6:.1f} MB during build), "
        f"+ {sqlite_pages / 1e6:.1f} MB SQLite full-text index"
    )
    # The first build of a process also reads the phrasings' files (an edition's later builds share them), and
    # the first warm loads wordfreq's table: shown, not held to the targets, which are for each edition's index.
    print(
        f"First in the process: build {build_times[0]:.0f} ms (the phrasings' files read), "
        f"warm {warm_times[0]:.0f} ms (the English word table loaded)"
    )
    print()
    rows = [("parse+index", build_times, "ms per build, 7 builds"), ("warm (ranking)", warm_times, "ms, 3 builds")]
    rows.append(
        (
            "number lookup",
            time_calls(partial(lookup, index), NUMBER_QUERIES, args.runs),
            f"{len(NUMBER_QUERIES)} queries",
        )
    )
    rows.append(
        (
            "autocomplete",
            time_calls(index.autocomplete, AUTOCOMPLETE_QUERIES, args.runs),
            f"{len(AUTOCOMPLETE_QUERIES)} queries",
        )
    )
    rows.append(
        (
            "full-text search",
            time_calls(lambda query: index.searcher.fts(query, 6), SEARCH_QUERIES, args.runs),
            f"{len(SEARCH_QUERIES)} queries",
        )
    )

    report = Report("Comprehensive Rules core (targets: builds on the median, lookups on the p99)")
    for name, samples, note in rows:
        if name in ("parse+index", "warm (ranking)"):
            report.add(f"{name} median ({note})", median(samples), " ms", at_most=TARGETS[name])
        else:
            report.add(f"{name} median ({note})", median(samples), " ms")
            report.add(f"{name} p99", percentile(samples, 0.99), " ms", at_most=TARGETS[name])
    report.add("index memory (Python objects + SQLite index)", (current + sqlite_pages) / 1e6, " MB", at_most=30.0)
    report.print()
    return report.exit_code()


if __name__ == "__main__":
    raise SystemExit(main())
