"""The local card database on a synthetic 35,000-card oracle-cards file (Scryfall's real size).

* Import: the gzipped JSON Lines file into a new SQLite file, in a child process, timed and with
  its peak resident memory (the child's ``ru_maxrss``): targets ≤ 30 s and ≤ 250 MB.
* Named lookups through ``CardData`` as the bot calls them (exact names, face names, whole-word
  prefixes, prefixes, misspellings): p99 ≤ 5 ms. Autocomplete on 1–6 letter prefixes: p99 ≤ 5 ms.
* 100 distinct lookups in flight at once: all answered within 2 s, and no request reaches the API.

Run from the project root: ``python benchmarks/bench_carddb.py [--runs N]`` (about a minute a run);
the figures are medians over the runs.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from _bench import Report, median, percentile  # noqa: E402
from _synthetic_bulk import FULL_SIZE, synthetic_copy, typed  # noqa: E402

from bot.carddb import CardData  # noqa: E402
from tests.support.fake_bulk import FakeBulk  # noqa: E402

LOOKUPS = 3000
CONCURRENT = 100
# The child reports its own peak (VmHWM, which starts afresh at exec): the rusage a parent gets back from wait4
# carries the parent's own peak at fork time across exec, so it would count this benchmark's memory too.
IMPORT = (
    "import re, sys; from pathlib import Path; from bot.carddb.update import update_from_file; "
    "count = update_from_file(Path(sys.argv[1]), Path(sys.argv[2])).result.count; "
    "peak = re.search(r'VmHWM:\\s+(\\d+) kB', Path('/proc/self/status').read_text())[1]; "
    "print(count, peak)"
)


def import_in_child(db_path: Path, bulk: Path) -> tuple[float, float, int]:
    """Seconds, peak RSS in MB and card count of one import in a fresh process."""
    db_path.unlink(missing_ok=True)
    started = time.perf_counter()
    child = subprocess.Popen(
        [sys.executable, "-c", IMPORT, str(db_path), str(bulk)], cwd=ROOT, stdout=subprocess.PIPE, text=True
    )
    out, _ = child.communicate()
    seconds = time.perf_counter() - started
    if child.returncode != 0:
        raise SystemExit(f"import failed with exit code {child.returncode}")
    count, peak_kb = out.split()
    return seconds, int(peak_kb) / 1024, int(count)


async def time_calls(calls) -> list[float]:
    times = []
    for call in calls:
        started = time.perf_counter()
        await call()
        times.append((time.perf_counter() - started) * 1000)
    return times


async def measure_reads(data_dir: Path, names: list[str], fake: FakeBulk, seed: int) -> dict[str, float]:
    rng = random.Random(seed)
    card_data = await CardData.open(data_dir, fake.base_url)
    try:
        # Warm-up: the fuzzy index is built on the first misspelling.
        await card_data.named("Keeneye Withuot Deadshot")
        named = await time_calls([lambda q=q: card_data.named(q) for q in typed(names, LOOKUPS, rng)])
        prefixes = [name[: rng.randint(1, 6)] for name in rng.sample(names, LOOKUPS)]
        complete = await time_calls([lambda p=p: card_data.autocomplete(p) for p in prefixes])
        wanted = rng.sample(names, CONCURRENT)
        started = time.perf_counter()
        matches = await asyncio.gather(*(card_data.named(name) for name in wanted))
        concurrent = time.perf_counter() - started
        right = sum(1 for name, match in zip(wanted, matches, strict=True) if match.card and match.card.name == name)
    finally:
        await card_data.close()
    return {
        "named_p50": percentile(named, 0.5),
        "named_p99": percentile(named, 0.99),
        "complete_p50": percentile(complete, 0.5),
        "complete_p99": percentile(complete, 0.99),
        "concurrent": concurrent,
        "right": right,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--cards", type=int, default=FULL_SIZE)
    args = parser.parse_args()
    with synthetic_copy(args.cards) as copy, FakeBulk() as fake:
        bulk, data_dir, names = copy.bulk, copy.data_dir, copy.names
        imports, reads = [], []
        for run in range(args.runs):
            imports.append(import_in_child(data_dir / "cards.sqlite3", bulk))
            reads.append(asyncio.run(measure_reads(data_dir, names, fake, seed=run)))
            print(f"run {run + 1}: import {imports[-1][0]:.1f} s, {imports[-1][1]:.0f} MB; {reads[-1]}", flush=True)
        size_mb = (data_dir / "cards.sqlite3").stat().st_size / 1e6
        api_requests = len(fake.requests)

    report = Report(f"Local card data: {args.cards:,} cards, medians of {args.runs} runs")
    report.add("import time", median([i[0] for i in imports]), " s", at_most=30)
    report.add("import peak memory (RSS)", median([i[1] for i in imports]), " MB", at_most=250)
    report.check("every card imported", all(i[2] == args.cards for i in imports), f"{imports[-1][2]:,} cards")
    report.add("database size on disk", size_mb, " MB")
    report.add("named lookup p50", median([r["named_p50"] for r in reads]), " ms")
    report.add("named lookup p99", median([r["named_p99"] for r in reads]), " ms", at_most=5)
    report.add("autocomplete p50", median([r["complete_p50"] for r in reads]), " ms")
    report.add("autocomplete p99", median([r["complete_p99"] for r in reads]), " ms", at_most=5)
    report.add(f"{CONCURRENT} concurrent distinct lookups", median([r["concurrent"] for r in reads]), " s", at_most=2)
    report.check("concurrent lookups found their card", all(r["right"] == CONCURRENT for r in reads))
    report.check("no request reached the API", api_requests == 0, f"{api_requests} requests")
    report.print()
    return report.exit_code()


if __name__ == "__main__":
    raise SystemExit(main())
