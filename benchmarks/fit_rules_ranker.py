"""Fit the question ranker's weights (bot/rules/ranker.py) on the tuning part of the question set.

Usage: python benchmarks/fit_rules_ranker.py [--rules CR.txt] [--passes N]
Prints the fitted WEIGHTS to paste into bot/rules/ranker.py, with hit@1 and hit@3 on the tuning part
before and after. The frozen test part is never read here: bench_rules_eval.py scores it.

The fit is a coordinate ascent on hit@1 (hit@3 breaking ties) over a grid of values per weight,
starting from the current weights; it keeps a change only when it helps, so it stays where it was
when nothing does.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

import numpy as np  # noqa: E402

from bot.rules.document import load_document  # noqa: E402
from bot.rules.index import RulesIndex  # noqa: E402
from bot.rules.ranker import FEATURES, WEIGHTS  # noqa: E402
from bot.rules.search import Hit, Ranking  # noqa: E402
from tests.rules.evaluation import QUESTIONS, load_questions, matches  # noqa: E402

DEFAULT_RULES = REPO.parent / "shared" / "cr" / "MagicCompRules-2026-01-16.txt"
GRID = (-2.0, -1.0, -0.6, -0.3, -0.15, -0.05, 0.0, 0.05, 0.15, 0.3, 0.6, 1.0, 1.5, 2.0, 3.0)


def tables(index: RulesIndex, questions: list[tuple[str, list[str]]]):
    """Per question: its candidates' features and which of them answer it; or a fixed outcome."""
    out = []
    for question, cited in questions:
        found = index.searcher.candidates(" ".join(question.split()))
        if isinstance(found, Ranking):
            shown = [index.shown_key(hit, question) for hit in found.hits]
            out.append((None, [bool(shown) and matches(index, shown[0], cited)]))
            continue
        features = np.array([list(values) for _candidate, values in found])
        right = []
        for candidate, _values in found:
            kind, key, _title, _body = index.searcher._docs[candidate.row]
            right.append(matches(index, index.shown_key(Hit(kind, key, 0.0), question), cited))
        out.append((features, np.array(right)))
    return out


def objective(data, weights: np.ndarray) -> tuple[float, float]:
    hit1 = hit3 = 0
    for features, right in data:
        if features is None:
            hit1 += right[0]
            hit3 += right[0]
            continue
        scores = features @ weights
        order = np.argsort(-scores, kind="stable")[:3]
        hit1 += bool(right[order[0]])
        hit3 += bool(right[order].any())
    return hit1 / len(data), hit3 / len(data)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", type=Path, default=DEFAULT_RULES)
    parser.add_argument("--questions", type=Path, default=QUESTIONS)
    parser.add_argument("--passes", type=int, default=4)
    args = parser.parse_args(argv)
    index = RulesIndex(load_document(args.rules))
    index.warm()
    questions, _not_rules = load_questions(args.questions, part="tune")
    data = tables(index, questions)
    weights = np.array(WEIGHTS, dtype=float)
    before = objective(data, weights)
    best = before
    for _ in range(args.passes):
        changed = False
        for i in range(len(weights)):
            for value in GRID:
                trial = weights.copy()
                trial[i] = value
                result = objective(data, trial)
                if result > best:
                    best, weights, changed = result, trial, True
        if not changed:
            break
    print(f"tuning part: {len(questions)} questions")
    print(f"before: hit@1 {before[0]:.1%}, hit@3 {before[1]:.1%}")
    print(f"after:  hit@1 {best[0]:.1%}, hit@3 {best[1]:.1%}")
    print("WEIGHTS = (" + ", ".join(f"{value:g}" for value in weights) + ")")
    print("  # " + ", ".join(f"{name}={value:g}" for name, value in zip(FEATURES, weights, strict=True)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
