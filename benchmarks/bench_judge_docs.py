"""Benchmark the judges' documents: lookups, sectioning a PDF's text, and how well words find their section.

Usage: python benchmarks/bench_judge_docs.py [--data-dir DIR] [--runs N]

- lookup: /mtr and /ipg queries of every kind (numbers, titles, short and former names, questions in words) on the
  full text of both documents, from PDFs shaped like Wizards' (tests/support/judge_pdfs.py); target p99 ≤ 5 ms
  (CPU time, the median of the runs' p99s, as bench_rules_eval.py measures: on a shared machine the wall clock's
  p99 is the scheduler's, and is reported beside it);
- sectioning: the text extracted from a generated MTR PDF the size of the real one (about 60 pages) cleaned and cut
  into its 103 sections (what an update does after the extraction); target ≤ 2 s, the slowest of the runs; the
  extraction itself (pypdf, in the update's child process) is reported beside it;
- words: hit@1 (the first section listed is the one the question cites) and hit@3 on the frozen test part of
  tests/judge/questions.json (the tuning part is reported too). Without --data-dir the words are ranked against
  the bundled outlines (titles only, what a bot has before its first download); with --data-dir, against the
  versions kept there (``cyclebot judge-docs update`` writes them), the text itself. The targets are the levels
  recorded for each (a test pins them too).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from datetime import date
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from _bench import Report, median, percentile  # noqa: E402

from bot.config import Config  # noqa: E402
from bot.documents import extract_pages  # noqa: E402
from bot.judge.catalog import IPG, MTR, parse_pages  # noqa: E402
from bot.judge.service import JudgeDocs, index_of  # noqa: E402
from tests.support.judge_pdfs import make_pdf  # noqa: E402

QUESTIONS = REPO / "tests" / "judge" / "questions.json"
LOOKUP_MS, SECTIONING_S = 5.0, 2.0
# Made-up paragraphs in each part of a made-up section: 6 gives 62 pages, as the real MTR has 55 to 60.
FILLER = 6
# The recorded levels on the test part, as shares (see docs/judge.md): on the outlines, and on the text itself.
RECORDED = {"outline": (0.45, 0.70), "text": (0.60, 0.90)}
QUERIES = [
    ("mtr", "3.8"),
    ("mtr", "2-11"),
    ("mtr", "appendix b"),
    ("mtr", "taking notes"),
    ("mtr", "how long between games"),
    ("mtr", "can I use my phone during a match"),
    ("ipg", "2.2"),
    ("ipg", "hce"),
    ("ipg", "usc minor"),
    ("ipg", "d/dlp"),
    ("ipg", "looking at extra cards"),
    ("ipg", "what is the penalty for drawing an extra card"),
    ("ipg", "my opponent forgot his trigger"),
    ("ipg", "4"),
]


def full_service(pdfs: dict[str, bytes]) -> JudgeDocs:
    loaded = {}
    for spec in (MTR, IPG):
        document = parse_pages(spec, extract_pages(pdfs[spec.key]), f"https://media.wizards.com/{spec.key}.pdf")
        loaded[spec.key] = index_of(spec, document)
    return JudgeDocs(Config(), loaded)


def lookups(service: JudgeDocs, rounds: int) -> tuple[list[float], list[float]]:
    """Every query ``rounds`` times: the milliseconds of CPU time and of wall clock each took."""
    cpu, wall = [], []
    for _ in range(rounds):
        for key, query in QUERIES:
            started, started_wall = time.thread_time(), time.perf_counter()
            answer = service.answer(key, query)
            cpu.append((time.thread_time() - started) * 1000)
            wall.append((time.perf_counter() - started_wall) * 1000)
            assert answer.found, (key, query)
    return cpu, wall


def hits(service: JudgeDocs, part: str) -> tuple[float, float, int]:
    """hit@1 and hit@3 (as shares) on one part of the question set, and its size."""
    questions = [q for q in json.loads(QUESTIONS.read_text(encoding="utf-8"))["questions"] if q["part"] == part]
    first = three = 0
    for question in questions:
        # The sections in the order the answer lists them (a chapter listed does not hide its sections).
        ranked = [cited.number for cited in service.answer(question["document"], question["question"]).cited]
        first += bool(ranked[:1] and ranked[0] in question["cited"])
        three += any(number in question["cited"] for number in ranked[:3])
    return first / len(questions), three / len(questions), len(questions)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", type=Path, help="rank words against the versions kept here, not the outlines")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)
    report = Report("Judges' documents (MTR, IPG)")

    pdfs = {"mtr": make_pdf("mtr", date(2025, 11, 10), filler=FILLER), "ipg": make_pdf("ipg", date(2024, 9, 23))}
    service = full_service(pdfs)
    runs = [lookups(service, 40) for _ in range(args.runs)]
    report.add("lookup p50, CPU", median([percentile(cpu, 0.5) for cpu, _wall in runs]), " ms")
    report.add("lookup p99, CPU", median([percentile(cpu, 0.99) for cpu, _wall in runs]), " ms", at_most=LOOKUP_MS)
    report.add("lookup p99, wall clock", median([percentile(wall, 0.99) for _cpu, wall in runs]), " ms")

    extracting, sectioning = [], []
    for _ in range(args.runs):
        started = time.perf_counter()
        pages = extract_pages(pdfs["mtr"])
        extracting.append(time.perf_counter() - started)
        started = time.perf_counter()
        document = parse_pages(MTR, pages, "u")
        sectioning.append(time.perf_counter() - started)
        assert len(document.sections) == 103
    report.add(f"MTR PDF pages (generated, {len(pdfs['mtr']) // 1024} KB)", len(pages))
    report.add("text extraction, median", median(extracting), " s")
    report.add("sectioning, median", median(sectioning), " s")
    report.add("sectioning, slowest", max(sectioning), " s", at_most=SECTIONING_S)

    source = "text" if args.data_dir else "outline"
    words = JudgeDocs.load(Config(data_dir=args.data_dir or REPO / "no-such-folder"))
    if args.data_dir and not all(loaded.document.full for loaded in words.loaded.values()):
        print(f"error: {args.data_dir} does not hold a version of both documents", file=sys.stderr)
        return 2
    one, three, size = hits(words, "tuning")
    report.add(f"tuning part ({size}), {source}: hit@1", one * 100, " %")
    report.add(f"tuning part ({size}), {source}: hit@3", three * 100, " %")
    one, three, size = hits(words, "test")
    least_one, least_three = RECORDED[source]
    report.add(f"test part ({size}), {source}: hit@1", one * 100, " %", at_least=least_one * 100)
    report.add(f"test part ({size}), {source}: hit@3", three * 100, " %", at_least=least_three * 100)
    report.print()
    return report.exit_code()


if __name__ == "__main__":
    raise SystemExit(main())
