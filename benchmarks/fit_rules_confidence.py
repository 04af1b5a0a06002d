"""Fit how sure a question's answer is (bot/rules/ranking/confidence.py) on the tuning part, from held-out rankings.

Usage: python benchmarks/fit_rules_confidence.py [--rules CR.txt] [--passes N] [--folds K]

Run it after fit_rules_ranker.py. Nothing here reads the frozen test part. The tuning part's sources are split
into K folds (at least 5); each fold's questions are ranked with weights and word associations fitted on the
other folds (cross-fitting), so that every value the confidence model learns from looks like the value of a
question nobody tuned for. Then, each model held out by the same folds:

- the strength of the regularisation is the one with the best held-out log-likelihood;
- each value of confidence.VALUES is dropped in turn, the one whose loss costs least first, while leaving it
  out costs less than DROP_COST of held-out log-likelihood: the printed table is the ablation;
- the threshold for a *sure* answer, SURE_AT, is the lowest at which the held-out sure answers (the named
  topics, which are always sure, included) keep the lower end of their 90 % interval at 90 % or more, and at
  every threshold above it down from where that is first reached.

The log-likelihood and the precision are judged on the questions gathered from public pages only: the
project's own questions were written while the ranking was built, are right 89 % of the time against 44 %,
and would flatter a threshold. The printed USED, WEIGHTS, BIAS and SURE_AT are pasted into confidence.py.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

import numpy as np  # noqa: E402
from fit_rules_ranker import Item, fit, folds_of, tables  # noqa: E402

from bot.rules.ranking.confidence import VALUES  # noqa: E402
from bot.rules.ranking.index import RulesIndex  # noqa: E402
from bot.rules.ranking.ranker import WEIGHTS  # noqa: E402
from bot.rules.text.document import load_document  # noqa: E402
from tests.data import CR_2026  # noqa: E402
from tests.rules.evaluation import QUESTIONS, STUDIED, add_phrasing_options, interval, load_set, phrasings_from  # noqa: E402

L2 = (0.01, 0.003, 0.001, 0.0003, 0.0001)
DROP_COST = 0.001  # held-out log-likelihood per question a value must be worth to stay
SURE_PRECISION = 0.90  # the held-out precision's lower 90 % bound a sure answer must reach
COVERAGES = (0.1, 0.15, 0.2, 0.25, 0.3, 0.4)


class Rows:
    """Per tuning question, ranked with weights and associations fitted without its fold: the confidence values
    (None for a named topic), whether its first rule is right, whether the gate answers it, its fold, and whether
    it was gathered from a public page (not one of the project's own)."""

    def __init__(self, rows: list[tuple], folds: dict[str, int], gathered: list[bool]) -> None:
        ranked = [n for n, row in enumerate(rows) if row[0] is not None]
        named = [n for n, row in enumerate(rows) if row[0] is None and row[3]]
        self.x = np.array([rows[n][0] for n in ranked])
        self.y = np.array([float(rows[n][1]) for n in ranked])
        self.gated = np.array([bool(rows[n][3]) for n in ranked])
        self.fold = np.array([folds[rows[n][2]] for n in ranked])
        self.gathered = np.array([gathered[n] for n in ranked])
        self.named = [(bool(rows[n][1]), gathered[n], folds[rows[n][2]]) for n in named]
        self.total_gathered = sum(gathered)


def cross_fitted(index: RulesIndex, items: list[Item], folds: int, passes: int) -> tuple[list[tuple], dict]:
    fold_of = folds_of([item.source for item in items], folds)
    rows: list[tuple | None] = [None] * len(items)
    start = np.array(WEIGHTS, dtype=float)
    for fold in range(folds):
        train = [item for item in items if fold_of[item.source] != fold]
        held = [n for n, item in enumerate(items) if fold_of[item.source] == fold]
        weights = fit(tables(index, train, train), start.copy(), passes)
        data = tables(index, [items[n] for n in held], train)
        for n, row in zip(held, confidence_rows(index, [items[n] for n in held], data, weights), strict=True):
            rows[n] = row
        print(f"  fold {fold + 1}/{folds} ranked ({len(held)} questions)", flush=True)
    return rows, fold_of


def confidence_rows(index: RulesIndex, items: list[Item], data, weights: np.ndarray) -> list[tuple]:
    """Per question: the confidence values of its ranking under ``weights`` (None for a named topic, which is
    always sure), whether its first rule is right, its source, and whether the gate answers it."""
    rows = []
    for item, (features, right, extra) in zip(items, data, strict=True):
        if features is None:
            rows.append((None, bool(right[0]), item.source, bool(extra)))
            continue
        scores = features @ weights
        order = np.argsort(-scores, kind="stable")
        ranked = [(float(scores[i]), extra[i], tuple(map(float, features[i]))) for i in order]
        _belief, confident, found = index.searcher.judge(item.question, ranked)
        rows.append((found, bool(right[order[0]]), item.source, confident))
    return rows


def logistic(x: np.ndarray, y: np.ndarray, l2: float) -> np.ndarray:
    """Logistic regression by Newton's method, L2 on the weights (per question), the bias last and free."""
    x = np.hstack([x, np.ones((len(x), 1))])
    model = np.zeros(x.shape[1])
    penalty = np.r_[np.full(x.shape[1] - 1, l2 * len(y)), 0.0]
    for _ in range(100):
        p = 1 / (1 + np.exp(-x @ model))
        gradient = x.T @ (p - y) + penalty * model
        hessian = (x * (p * (1 - p))[:, None]).T @ x + np.diag(penalty) + 1e-9 * np.eye(len(model))
        step = np.linalg.solve(hessian, gradient)
        model -= step
        if np.abs(step).max() < 1e-9:
            break
    return model


def probabilities(model: np.ndarray, x: np.ndarray) -> np.ndarray:
    return 1 / (1 + np.exp(-(x @ model[:-1] + model[-1])))


def held_out(rows: Rows, used: list[int], l2: float) -> np.ndarray:
    p = np.zeros(len(rows.y))
    for fold in sorted(set(rows.fold)):
        train, test = rows.fold != fold, rows.fold == fold
        p[test] = probabilities(logistic(rows.x[train][:, used], rows.y[train], l2), rows.x[test][:, used])
    return p


def likelihood(rows: Rows, p: np.ndarray) -> float:
    """The held-out log-likelihood per gathered question."""
    y, p = rows.y[rows.gathered], np.clip(p[rows.gathered], 1e-9, 1 - 1e-9)
    return float(np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def choose(rows: Rows, l2: float) -> list[int]:
    """Backward elimination over VALUES by held-out log-likelihood, printing what each value is worth."""
    used = list(range(len(VALUES)))
    current = likelihood(rows, held_out(rows, used, l2))
    print(f"  all {len(VALUES)} values: held-out log-likelihood {current:.4f}")
    while len(used) > 1:
        trials = {value: likelihood(rows, held_out(rows, [v for v in used if v != value], l2)) for value in used}
        print("    leaving out: " + ", ".join(f"{VALUES[v]} {trials[v] - current:+.4f}" for v in used))
        value = max(trials, key=trials.get)
        if trials[value] < current - DROP_COST:
            break
        used.remove(value)
        current = trials[value]
        print(f"  dropped {VALUES[value]}: {current:.4f}")
    return used


def sure_counts(rows: Rows, p: np.ndarray, threshold: float) -> tuple[int, int]:
    """(right, called) among the gathered questions called sure at ``threshold``, named topics included."""
    sure = rows.gated & (p >= threshold) & rows.gathered
    named = [right for right, gathered, _fold in rows.named if gathered]
    return sum(named) + int(rows.y[sure].sum()), len(named) + int(sure.sum())


def sure_threshold(rows: Rows, p: np.ndarray) -> float:
    """See the module's docstring: scanning down, the last threshold of the first run that keeps the bound."""
    best, reached = 1.0, False
    for threshold in np.round(np.arange(0.99, 0.05, -0.01), 2):
        good, called = sure_counts(rows, p, threshold)
        print(f"  sure from {threshold:.2f}: {good}/{called} right, lower bound {interval(good, called)[0]:.1%}")
        if interval(good, called)[0] >= SURE_PRECISION:
            best, reached = float(threshold), True
        elif reached:
            break
    return best


def report(rows: Rows, p: np.ndarray, threshold: float) -> None:
    right = [r for r, gathered, _fold in rows.named if gathered]
    low, high = interval(sum(right), len(right))
    print(f"named topics (always sure), gathered questions: {sum(right)}/{len(right)} right ({low:.1%}–{high:.1%})")
    for fold in sorted(set(rows.fold)):
        found = [r for r, gathered, f in rows.named if gathered and f == fold]
        print(f"  fold {fold + 1}: {sum(found)}/{len(found)}")
    print("held out, gathered questions, the most certain first (named topics first):")
    order = np.argsort(-np.where(rows.gated & rows.gathered, p, -1.0), kind="stable")
    for coverage in COVERAGES:
        count = max(0, round(coverage * rows.total_gathered) - len(right))
        top = order[:count]
        good, called = sum(right) + int(rows.y[top].sum()), len(right) + count
        low, high = interval(good, called)
        print(f"  {coverage:.0%} covered: {good / max(1, called):.1%} right ({low:.1%}–{high:.1%})")
    good, called = sure_counts(rows, p, threshold)
    low, high = interval(good, called)
    print(
        f"  sure from {threshold:g}: {good}/{called} = {good / max(1, called):.1%} right ({low:.1%}–{high:.1%}), "
        f"{called / rows.total_gathered:.1%} of the gathered questions"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", type=Path, default=CR_2026)
    parser.add_argument("--questions", type=Path, default=QUESTIONS)
    parser.add_argument("--passes", type=int, default=4)
    parser.add_argument("--folds", type=int, default=5)
    add_phrasing_options(parser)
    args = parser.parse_args(argv)
    index = RulesIndex(load_document(args.rules), phrasings=phrasings_from(args))
    index.warm()
    entries = [entry for entry in load_set(args.questions)["questions"] if entry.get("part", "tune") == "tune"]
    items = [Item(index, entry, number) for number, entry in enumerate(entries)]
    gathered = [entry.get("source", "project") not in STUDIED for entry in entries]
    print(f"tuning part: {len(items)} questions, {sum(gathered)} gathered from public pages; ranked out of fold:")
    found, folds = cross_fitted(index, items, max(5, args.folds), args.passes)
    for name, keep in (("all", [True] * len(items)), ("gathered", gathered)):
        kept = [row for row, chosen in zip(found, keep, strict=True) if chosen]
        right = sum(row[1] for row in kept)
        answered_right = sum(row[1] and row[3] for row in kept)
        print(
            f"  held out, {name}: hit@1 {right / len(kept):.1%}, "
            f"hit@1 counting a refusal as a miss {answered_right / len(kept):.1%}"
        )
    rows = Rows(found, folds, gathered)
    scores = {l2: likelihood(rows, held_out(rows, list(range(len(VALUES))), l2)) for l2 in L2}
    for l2, value in scores.items():
        print(f"  l2 {l2:g}: held-out log-likelihood {value:.4f}")
    l2 = max(scores, key=scores.get)
    used = choose(rows, l2)
    p = held_out(rows, used, l2)
    threshold = sure_threshold(rows, p)
    report(rows, p, threshold)
    model = logistic(rows.x[:, used], rows.y, l2)
    print(f"l2 {l2:g}")
    print("USED = (" + ", ".join(f'"{VALUES[v]}"' for v in used) + ")")
    print("WEIGHTS = (" + ", ".join(f"{value:.3g}" for value in model[:-1]) + ")")
    print(f"BIAS = {model[-1]:.3g}")
    print(f"SURE_AT = {threshold:g}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
