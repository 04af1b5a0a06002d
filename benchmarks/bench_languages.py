"""Printed names on a synthetic All Cards file the size of Scryfall's (about 500,000 card objects, 2.3 GB unpacked,
the printed names of ten languages: ``_synthetic_all_cards.py``) and a synthetic 35,000-card oracle copy.

Targets, medians over ``--runs``:

* the import, as the bot runs it (the listing checked, the file downloaded from a host on 127.0.0.1, staged compressed,
  read line by line, the index built and swapped in), in a fresh process: its peak memory growth ≤ 150 MB and its
  time ≤ 3 min (on this 2-core machine; the load average is reported beside it); the index ≤ 40 MB on disk;
* ``/card`` autocomplete with every printed name loaded: the name matcher's choice list for what players type (1–6
  characters of an English or a printed name, in the player's language), p99 ≤ 5 ms.

Reported: the name matcher's build time and memory (what it holds once built, and the build's peak) with and without
the printed names, and its choice lists' p99 for one-letter typos of printed names.

Run from the project root: ``python benchmarks/bench_languages.py [--runs N]`` (writing the file takes two to four
minutes, each import one to three).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from _bench import Report, median, percentile  # noqa: E402
from _synthetic_all_cards import write_all_cards  # noqa: E402
from _synthetic_bulk import FULL_SIZE, synthetic_copy  # noqa: E402

from bot.carddb import CardStore  # noqa: E402
from bot.carddb.printed import FILE_NAME, MAIN, PrintedIndex  # noqa: E402
from bot.carddb.update import update_from_file  # noqa: E402
from bot.cards.complete import card_matcher  # noqa: E402
from tests.support.fake_bulk import FakeBulk  # noqa: E402

IMPORT_MB = 150.0
IMPORT_SECONDS = 180.0
INDEX_MB = 40.0
COMPLETE_P99_MS = 5.0
TYPED = 3000
LANGUAGES = ",".join(MAIN)


def import_in_child(api_url: str, data_dir: Path) -> dict:
    child = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "_printed_import.py"), api_url, str(data_dir), LANGUAGES],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    if child.returncode != 0:
        raise SystemExit(f"the import failed: {child.stderr[-2000:]}")
    return json.loads(child.stdout.strip().splitlines()[-1])


def typo(text: str, rng: random.Random) -> str:
    """``text`` with one letter dropped, doubled or replaced by its neighbour in the name."""
    at = rng.randrange(len(text))
    kind = rng.randrange(3)
    if kind == 0:
        return text[:at] + text[at + 1 :]
    if kind == 1:
        return text[:at] + text[at] + text[at:]
    return text[:at] + text[(at + 1) % len(text)] + text[at + 1 :]


def typing(english: list[str], printed: dict[str, list[str]], rng: random.Random) -> list[tuple[str, str | None]]:
    """What players type, with their language: 1–6 characters of an English name (no language preferred) or of a
    name printed in the player's language."""
    typed = []
    for _ in range(TYPED):
        lang = rng.choice([None, *printed])
        name = rng.choice(english if lang is None else printed[lang])
        typed.append((name[: rng.randint(1, 6)], lang))
    return typed


def matcher_cost(store: CardStore, printed: PrintedIndex | None) -> tuple[float, float, float, object]:
    """Seconds to build the matcher, the MB it holds once built, the build's peak MB, and the matcher."""
    gc.collect()
    started = time.perf_counter()
    matcher = card_matcher(store, printed)
    seconds = time.perf_counter() - started
    del matcher
    gc.collect()
    tracemalloc.start()
    matcher = card_matcher(store, printed)
    held, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return seconds, held / 1e6, peak / 1e6, matcher


def timed(matcher, queries: list[tuple[str, str | None]]) -> tuple[list[float], list[float]]:
    """Each choice list's time in ms: on the clock, and of the CPU (what the list itself cost, without the waits for a
    core that a busy machine adds)."""
    wall, cpu = [], []
    for text, lang in queries:
        started, spent = time.perf_counter(), time.thread_time()
        matcher.complete(text, 25, prefer=lang)
        wall.append((time.perf_counter() - started) * 1000)
        cpu.append((time.thread_time() - spent) * 1000)
    return wall, cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="imports and timings (medians are reported)")
    parser.add_argument("--cards", type=int, default=FULL_SIZE, help="oracle cards (a smaller file, to try it)")
    args = parser.parse_args()
    runs = max(1, args.runs)
    imports, built, complete, typos = [], [], [], []
    with synthetic_copy(args.cards) as copy, tempfile.TemporaryDirectory() as temp:
        folder = Path(temp)
        update_from_file(copy.data_dir / "cards.sqlite3", copy.bulk)
        started = time.perf_counter()
        all_cards = folder / "all-cards.jsonl.gz"
        written = write_all_cards(copy.bulk, all_cards)
        print(
            f"All Cards: {written.objects:,} card objects, {written.unpacked / 1e9:.2f} GB unpacked, "
            f"{all_cards.stat().st_size / 1e6:.0f} MB compressed, written in {time.perf_counter() - started:.0f} s",
            flush=True,
        )
        with FakeBulk() as fake:
            fake.all_cards_file = all_cards
            fake.all_cards_changes = {"size": written.unpacked}
            for run in range(runs):
                data_dir = folder / f"run-{run}"
                data_dir.mkdir()
                load = os.getloadavg()[0]
                imports.append({**import_in_child(fake.base_url, data_dir), "load": load})
                print(f"import {run + 1}: {imports[-1]}", flush=True)
        store = CardStore(copy.data_dir / "cards.sqlite3")
        printed = PrintedIndex(folder / "run-0" / FILE_NAME)
        try:
            rng = random.Random(42)
            english = copy.names
            names = {lang: sorted(name for _, name in pairs) for lang, pairs in written.names.items()}
            queries = typing(english, names, rng)
            misspelt = [
                (typo(name, rng), lang)
                for lang in ("de", "fr", "es", "it", "pt", "ru")
                for name in rng.sample(names[lang], 100)
                if len(name) > 4
            ]
            for run in range(runs):
                without = matcher_cost(store, None)
                with_printed = matcher_cost(store, printed)
                built.append((without[:3], with_printed[:3], len(with_printed[3])))
                wall, cpu = timed(with_printed[3], queries)
                complete.append((percentile(wall, 0.99), percentile(cpu, 0.99), percentile(wall, 0.5)))
                typos.append(percentile(timed(with_printed[3], misspelt)[0], 0.99))
                del without, with_printed
                print(f"matcher {run + 1}: {built[-1]}, choices {complete[-1]}, typos {typos[-1]:.2f}", flush=True)
        finally:
            printed.close()
            store.close()
    report = Report(
        f"Printed names: synthetic All Cards ({written.objects:,} objects, {written.unpacked / 1e9:.2f} GB unpacked), "
        f"{args.cards:,} cards; medians of {runs} runs"
    )
    report.add("import: peak memory growth", median([i["grew_mb"] for i in imports]), " MB", at_most=IMPORT_MB)
    report.add("import: time", median([i["seconds"] for i in imports]), " s", at_most=IMPORT_SECONDS)
    report.add("import: load average of the machine (1 min)", median([i["load"] for i in imports]))
    report.add("index on disk", median([i["index_mb"] for i in imports]), " MB", at_most=INDEX_MB)
    report.add("printed names in the index", median([sum(i["counts"].values()) for i in imports]))
    report.add("matcher without printed names: build", median([b[0][0] for b in built]), " s")
    report.add("matcher without printed names: held", median([b[0][1] for b in built]), " MB")
    report.add("matcher with printed names: build", median([b[1][0] for b in built]), " s")
    report.add("matcher with printed names: held", median([b[1][1] for b in built]), " MB")
    report.add("matcher with printed names: build's peak", median([b[1][2] for b in built]), " MB")
    report.add("matcher with printed names: entries", median([b[2] for b in built]))
    report.add("/card autocomplete, printed names loaded: p50", median([c[2] for c in complete]), " ms")
    p99 = median([c[0] for c in complete])
    report.add("/card autocomplete, printed names loaded: p99", p99, " ms", at_most=COMPLETE_P99_MS)
    report.add("/card autocomplete, printed names loaded: p99 of CPU time", median([c[1] for c in complete]), " ms")
    report.add("autocomplete of one-letter typos of printed names: p99", median(typos), " ms")
    report.print()
    return report.exit_code()


if __name__ == "__main__":
    sys.exit(main())
