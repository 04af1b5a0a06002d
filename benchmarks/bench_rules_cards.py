"""Rules questions that name cards, on a synthetic 35,000-card copy with 60,000 rulings (Scryfall's sizes).

* Import: the cards with a 60,000-ruling file, and the same cards without it, each in a child process; the
  rulings' part (read, validated, inserted; timed where it runs) ≤ 10 s.
* The names index of the copy (built once per copy, in a read thread), without and with the printed names of all
  ten languages (a synthetic index of Scryfall's size: ``_synthetic_all_cards.write_printed_index``, about 200,000
  names): its build time and, with them, the memory it holds.
* With the printed names loaded: a question with cards, as /rule answers it bot side (find the names, read the
  cards and their rulings, rank the rules and rulings): p99 ≤ 10 ms over questions naming one or two cards (exact,
  lower case, misspelt, in brackets), and ≥ 95 % of them showing their cards. Questions naming no card (the cost
  every question now pays): p99 ≤ 5 ms, and none showing a card. Both in CPU time, as bench_rules_eval measures,
  since this machine is shared (the wall clock is reported too). A question holding as many bracketed names as fit
  in 500 characters: ≤ 50 ms. Questions naming a card by a printed name (any of the ten languages) beside an
  English one: p99 reported, and the share showing the printed name's card (a synthetic name that is an everyday
  English word is no name, by design).

Run from the project root: ``python benchmarks/bench_rules_cards.py [--runs N]``; figures are medians over the
runs.
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import json
import random
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from _bench import Report, median, percentile  # noqa: E402
from _synthetic_all_cards import write_printed_index  # noqa: E402
from _synthetic_bulk import FULL_SIZE, synthetic_copy  # noqa: E402

from bot.carddb import CardData  # noqa: E402
from bot.carddb.printed import ALL  # noqa: E402
from bot.carddb.printed import FILE_NAME as PRINTED_FILE  # noqa: E402
from bot.cards.questions import QuestionCards, card_names, names_index  # noqa: E402
from bot.rules.asking.ask import answer_about  # noqa: E402
from bot.rules.ranking.index import RulesIndex  # noqa: E402
from bot.rules.text.document import load_document  # noqa: E402
from tests.data import CR_2026  # noqa: E402

RULES = CR_2026
RULINGS = 60_000
QUESTIONS = 600
# The import in a child process, the rulings' part timed where it runs (rulings_import.import_rulings).
IMPORT = """
import sys, time
from pathlib import Path
from bot.carddb import importer, rulings_import
from bot.carddb.bulk import iter_cards, iter_rulings

spent = [0.0]
inner = rulings_import.import_rulings


def timed(*args, **kwargs):
    started = time.perf_counter()
    try:
        return inner(*args, **kwargs)
    finally:
        spent[0] += time.perf_counter() - started


rulings_import.import_rulings = timed
rulings = iter_rulings(Path(sys.argv[3])) if sys.argv[3] != "-" else None
started = time.perf_counter()
importer.import_cards(iter_cards(Path(sys.argv[2])), Path(sys.argv[1]), updated_at="2026-11-25T00:00:00+00:00",
                      source="bench", rulings=rulings, rulings_updated_at="2026-11-25T00:00:00+00:00")
print(time.perf_counter() - started, spent[0])
"""
TEMPLATES = [
    "if I cast {a} can my opponent respond before it resolves",
    "does {a} still trigger if it dies to {b}",
    "can I cycle {a} while my opponent controls {b}",
    "what happens if {a} loses all abilities",
    "can {a} block a creature with flying",
    "is {a} a spell or an ability when I cycle it",
]
RULING_TEXTS = [
    "If {name} leaves the battlefield before its ability resolves, the ability still resolves.",
    "Cycling is an activated ability that works only while {name} is in your hand.",
    "The mana value of {name} is determined by its mana cost, including any X chosen while it's on the stack.",
    "If the target becomes illegal, {name}'s ability doesn't resolve and none of its effects happen.",
    "You may cycle {name} even if you can't draw a card.",
]


def synthetic_rulings(bulk: Path, path: Path, rng: random.Random) -> None:
    with gzip.open(bulk, "rt", encoding="utf-8") as lines:
        cards = [(card["oracle_id"], card["name"]) for card in map(json.loads, lines)]
    rulings = []
    for _ in range(RULINGS):
        oracle_id, name = rng.choice(cards)
        rulings.append(
            {
                "object": "ruling",
                "oracle_id": oracle_id,
                "source": rng.choice(("wotc", "scryfall")),
                "published_at": f"20{rng.randint(10, 26)}-0{rng.randint(1, 9)}-1{rng.randint(0, 9)}",
                "comment": rng.choice(RULING_TEXTS).format(name=name),
            }
        )
    path.write_text(json.dumps(rulings), encoding="utf-8")


def timed_import(db: Path, bulk: Path, rulings: Path | None) -> tuple[float, float]:
    """The whole import's seconds and its rulings' part."""
    db.unlink(missing_ok=True)
    done = subprocess.run(
        [sys.executable, "-c", IMPORT, str(db), str(bulk), str(rulings) if rulings else "-"],
        capture_output=True, text=True, cwd=ROOT, check=True,
    )  # fmt: skip
    whole, rulings_part = done.stdout.strip().splitlines()[-1].split()
    return float(whole), float(rulings_part)


def typed(name: str, rng: random.Random) -> str:
    kind = rng.randrange(4)
    if kind == 0:
        return name
    if kind == 1:
        return name.lower()
    if kind == 2:
        return f"[[{name.lower()}]]"
    i = rng.randrange(1, len(name) - 1)  # one letter doubled: a misspelling
    return name[:i] + name[i] + name[i:]


async def index_without_printed(data_dir: Path, index: RulesIndex) -> tuple[float, float]:
    """Seconds to build the names index of the copy alone (no printed names loaded), and the MB it holds."""
    card_data = await CardData.open(data_dir, "http://127.0.0.1:9")
    try:
        started = time.perf_counter()
        await card_names(card_data, index)
        return time.perf_counter() - started, await held_mb(card_data, index)
    finally:
        await card_data.close()


async def held_mb(card_data: CardData, index: RulesIndex) -> float:
    """What a names index with the printed names holds, in MB (another one, built under tracemalloc)."""
    ordinary = index.ordinary_words

    def build(store, printed):
        tracemalloc.start()
        rows = printed.name_rows(store.oracle_rowids()) if printed is not None else ()
        made = names_index(store.name_rows(), store.legend_rows(), ordinary, ((key, card) for key, card, _ in rows))
        del rows  # what the index keeps of them is counted
        held = tracemalloc.get_traced_memory()[0]
        tracemalloc.stop()
        del made
        return held / 1e6

    return await card_data.build(build)


async def measure(
    data_dir: Path, index: RulesIndex, names: list[str], printed: list[tuple[str, str]], rng: random.Random
) -> dict[str, float]:
    card_data = await CardData.open(data_dir, "http://127.0.0.1:9", languages=(ALL,))
    try:
        assert card_data.printed.loaded, "the printed names did not load"
        started = time.perf_counter()
        await card_names(card_data, index)
        build = time.perf_counter() - started
        held = await held_mb(card_data, index)
        with_cards, with_wall, without = [], [], []
        found = seen = 0
        for _ in range(QUESTIONS):
            question = rng.choice(TEMPLATES).format(a=typed(rng.choice(names), rng), b=typed(rng.choice(names), rng))
            started, cpu = time.perf_counter(), time.process_time()
            answer = await answer_about(index, question, QuestionCards(card_data))
            with_cards.append(time.process_time() - cpu)
            with_wall.append(time.perf_counter() - started)
            found += bool(answer.cards)
        for template in TEMPLATES * (QUESTIONS // len(TEMPLATES)):
            question = template.format(a="a creature", b="an instant")
            cpu = time.process_time()
            answer = await answer_about(index, question, QuestionCards(card_data))
            without.append(time.process_time() - cpu)
            seen += bool(answer.cards)
        by_printed, printed_found = [], 0
        for _ in range(QUESTIONS // 2):
            shown, english = rng.choice(printed)
            question = rng.choice(TEMPLATES).format(a=shown, b=typed(rng.choice(names), rng))
            cpu = time.process_time()
            answer = await answer_about(index, question, QuestionCards(card_data))
            by_printed.append(time.process_time() - cpu)
            printed_found += english in [card.facts.name for card in answer.cards]
        # As many bracketed names as a question may hold (500 characters).
        crowded = ""
        for name in rng.sample(names, 100):
            if len(crowded) + len(name) + 5 > 500:
                break
            crowded += f"[[{name}]] "
        started = time.perf_counter()
        await answer_about(index, crowded.strip(), QuestionCards(card_data))
        many = time.perf_counter() - started
    finally:
        await card_data.close()
    return {
        "build": build,
        "held": held,
        "p99": percentile(with_cards, 0.99),
        "median": median(with_cards),
        "wall_p99": percentile(with_wall, 0.99),
        "found": found / QUESTIONS,
        "plain_p99": percentile(without, 0.99),
        "plain_cards": seen / len(without),
        "printed_p99": percentile(by_printed, 0.99),
        "printed_found": printed_found / len(by_printed),
        "hundred": many,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    rng = random.Random(29)
    index = RulesIndex(load_document(RULES))
    index.warm()
    _ = index.ordinary_words
    runs: list[dict[str, float]] = []
    with synthetic_copy() as copy:
        bulk, names = copy.bulk, copy.names
        rulings = bulk.parent / "rulings.json"
        synthetic_rulings(bulk, rulings, rng)
        db = copy.data_dir / "cards.sqlite3"
        written = write_printed_index(bulk, copy.data_dir / PRINTED_FILE)
        with gzip.open(bulk, "rt", encoding="utf-8") as lines:
            english = {card["oracle_id"]: card["name"] for card in map(json.loads, lines)}
        printed = sorted((name, english[oracle]) for pairs in written.names.values() for oracle, name in pairs)
        for run in range(args.runs):
            plain, _none = timed_import(db, bulk, None)
            full, rulings_part = timed_import(db, bulk, rulings)
            alone, alone_held = asyncio.run(index_without_printed(db.parent, index))
            figures = asyncio.run(measure(db.parent, index, names, printed, random.Random(run)))
            figures.update(plain=plain, full=full, rulings=rulings_part, alone=alone, alone_held=alone_held)
            runs.append(figures)
            print(f"run {run + 1}: " + ", ".join(f"{key} {value:.4g}" for key, value in figures.items()))

    def mid(key: str) -> float:
        return median([run[key] for run in runs])

    report = Report(f"Rules questions with cards ({FULL_SIZE:,} cards, {RULINGS:,} rulings; medians of {args.runs})")
    report.add("import, cards only", mid("plain"), " s")
    report.add("import, cards and rulings", mid("full"), " s")
    report.add("import, the 60,000 rulings (timed inside)", mid("rulings"), " s", at_most=10)
    report.add("names index of the copy alone, built once", mid("alone") * 1000, " ms")
    report.add("names index of the copy alone: held", mid("alone_held"), " MB")
    report.add("names index with the printed names of ten languages, built once", mid("build") * 1000, " ms")
    report.add("names index with the printed names: held", mid("held"), " MB")
    report.add("printed names loaded: question with cards, p99 (CPU)", mid("p99") * 1000, " ms", at_most=10)
    report.add("printed names loaded: question with cards, median (CPU)", mid("median") * 1000, " ms")
    report.add("printed names loaded: question with cards, p99 (wall clock)", mid("wall_p99") * 1000, " ms")
    report.add("printed names loaded: questions whose cards were found", mid("found") * 100, " %", at_least=95)
    report.add("printed names loaded: question naming no card, p99 (CPU)", mid("plain_p99") * 1000, " ms", at_most=5)
    report.add("questions naming no card that showed a card", mid("plain_cards") * 100, " %", at_most=0)
    report.add("question naming as many cards as fit", mid("hundred") * 1000, " ms", at_most=50)
    report.add("question naming a card by a printed name, p99 (CPU)", mid("printed_p99") * 1000, " ms")
    report.add("questions by a printed name showing its card", mid("printed_found") * 100, " %")
    report.print()
    return report.exit_code()


if __name__ == "__main__":
    sys.exit(main())
