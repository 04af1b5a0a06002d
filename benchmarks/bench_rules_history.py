"""Benchmark a rule's history across editions: from a cold start, and once the editions are indexed.

Usage: python benchmarks/bench_rules_history.py [RULES_DIR] [--runs N]
Without a folder it uses the seven editions (2009-2026) in tests/data/cr/.

- cold: a new Python process reads every edition, aligns them and answers one history (measured inside the
  process, from the first file read to the answer; the process's whole run, interpreter start and imports
  included, is reported beside it);
- indexed: what /rule does for each later history: check the files are unchanged (a stat each), then answer
  from memory.
"""

from __future__ import annotations

import argparse
import gc
import json
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from _bench import Report, median, percentile  # noqa: E402

from bot.rules.editions.editions import rules_files  # noqa: E402
from bot.rules.editions.history import HistoryCache  # noqa: E402
from bot.rules.editions.history_text import history_answer  # noqa: E402
from tests.data import CR_DIR  # noqa: E402

DEFAULT_DIR = CR_DIR
# Rules and subrules that were renumbered, reworded, added and removed; a heading and a section (the longest).
NUMBERS = ["702.29", "702.29a", "509.2", "704.5", "603.2e", "702.184", "100.1", "613.1", "509", "702", "7"]
COLD_SECONDS = 2.0
INDEXED_MS = 50.0

COLD_SCRIPT = """
import json, sys, time
start = time.perf_counter()
from pathlib import Path
from bot.rules.editions.editions import rules_files
from bot.rules.editions.history import HistoryCache
from bot.rules.editions.history_text import history_answer
imported = time.perf_counter()
index = HistoryCache().get(rules_files(Path(sys.argv[1])))
answer = history_answer(index, "702.29")
done = time.perf_counter()
assert answer.found
print(json.dumps({"imports": imported - start, "history": done - imported}))
"""


def cold_run(folder: Path) -> tuple[float, float]:
    """One new process: (seconds from reading the files to the answer, seconds for the whole process)."""
    start = time.perf_counter()
    result = subprocess.run(
        [sys.executable, "-c", COLD_SCRIPT, str(folder)], cwd=REPO, capture_output=True, text=True, check=True
    )
    wall = time.perf_counter() - start
    figures = json.loads(result.stdout.strip().splitlines()[-1])
    return figures["history"], wall


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", type=Path, default=DEFAULT_DIR)
    parser.add_argument("--runs", type=int, default=5, help="cold processes to start (default 5)")
    args = parser.parse_args(argv)
    paths = rules_files(args.folder)
    if not paths:
        print(f"error: no .txt rules files in {args.folder}", file=sys.stderr)
        return 1

    cold = [cold_run(args.folder) for _ in range(args.runs)]

    gc.collect()
    tracemalloc.start()
    cache = HistoryCache()
    index = cache.get(paths)
    held, _peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()

    indexed: list[float] = []
    for _ in range(20):
        for number in NUMBERS:
            start = time.perf_counter()
            history_answer(cache.get(rules_files(args.folder)), number)
            indexed.append((time.perf_counter() - start) * 1000)

    print(f"Editions: {len(index.editions)} ({index.labels[0]} to {index.labels[-1]}) in {args.folder}")
    print(f"Index memory: {held / 1e6:.1f} MB held by Python objects")
    report = Report(f"Rule history ({args.runs} cold processes; {len(indexed)} indexed histories of {NUMBERS})")
    report.add("cold: read, align, answer (median)", median([c[0] for c in cold]), " s", at_most=COLD_SECONDS)
    report.add("cold: the whole process, imports included (median)", median([c[1] for c in cold]), " s")
    report.add("indexed: one history (median)", median(indexed), " ms", at_most=INDEXED_MS)
    report.add("indexed: one history (p99)", percentile(indexed, 0.99), " ms", at_most=INDEXED_MS)
    report.print()
    return report.exit_code()


if __name__ == "__main__":
    raise SystemExit(main())
