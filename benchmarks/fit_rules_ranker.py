"""Fit the question ranker (bot/rules/ranking/ranker.py): its weights, word associations and gate, on the tuning part.

Usage: python benchmarks/fit_rules_ranker.py [--rules CR.txt] [--passes N] [--folds K] [--gate-without NAMES] [--write]
       [--score-test] [--phrasing-share S] [--phrasing-seed N]

Three things are learnt from the tuning part, never from the frozen test part (bench_rules_eval.py scores it):
- the word associations: for each word stem of the tuning questions, how often a question holding it was
  answered from each section and rule (``--write`` saves them to bot/data/rules-associations.json);
- the weights of the features, by coordinate ascent on hit@1 (hit@3 breaking ties) over a grid of values
  per weight, starting from the current weights and keeping a change only when it helps. The printed
  WEIGHTS are pasted into bot/rules/ranking/ranker.py;
- the gate that tells a rules question from chat (ranker.GATE): a logistic regression over the values of each
  text's best entry, on the tuning questions (and their search forms: the same words without the phrasing)
  against the tuning non-questions. Its regularisation is chosen by K-fold over sources (at least 5), its
  threshold as the one answering the most questions while refusing enough non-questions that the lower end of
  the refusal rate's 90 % interval stays at 90 % (about 93 % of the tuning part's: chat nobody tuned on is
  refused 90 % of the time, not half the time at best). The printed
  GATE_WEIGHTS, GATE_BIAS and GATE_THRESHOLD are pasted into bot/rules/ranking/ranker.py.

How likely a question's first rule is right (bot/rules/ranking/confidence.py) is fitted afterwards, by
fit_rules_confidence.py, on rankings made with weights fitted without each question's fold.

While the weights are fitted, each question's association features come from the other sources' questions
only (the project's own questions count as one source each), so the weights are not fitted to words that
remember their own answers. ``--folds K`` also estimates how the whole fit generalises: the sources are
split into K folds and each fold is scored with weights and associations fitted on the others.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

import numpy as np  # noqa: E402
from question_set import source_key  # noqa: E402

from bot.documents import stem  # noqa: E402
from bot.rules.asking.cards import read_cards  # noqa: E402
from bot.rules.asking.questions import shown_key  # noqa: E402
from bot.rules.ranking.hits import Hit, Ranking  # noqa: E402
from bot.rules.ranking.index import RulesIndex  # noqa: E402
from bot.rules.ranking.ranker import ASSOCIATIONS, FEATURES, GATE, WEIGHTS, gate_values  # noqa: E402
from bot.rules.text.document import load_document  # noqa: E402
from tests.data import CR_2026  # noqa: E402
from tests.rules.evaluation import (  # noqa: E402
    QUESTIONS,
    STUDIED,
    add_phrasing_options,
    interval,
    load_set,
    matches,
    phrasings_from,
    searched,
)
from tests.rules.question_cards import FixtureCards  # noqa: E402

DEFAULT_RULES = CR_2026
# The share of non-questions the gate must refuse: the lower end of the held-out rate's 90 % interval.
REFUSED = 0.90
GRID = (-2.0, -1.0, -0.6, -0.3, -0.15, -0.05, 0.0, 0.05, 0.15, 0.3, 0.6, 1.0, 1.5, 2.0, 3.0)


class Item:
    def __init__(self, index: RulesIndex, entry: dict, number: int) -> None:
        self.question = " ".join(entry["q"].split())
        self.cited = list(entry["cite"])
        source = entry.get("source", "project")
        self.source = f"{source}#{number}" if source in STUDIED else source_key(source)
        self.stems = sorted({stem(word) for word in index.searcher.terms(self.question)})
        self.asked, self.cards = self.question, None  # the question as ranked, and what its cards bring (--cards)

    def read_cards(self, index: RulesIndex, finder: FixtureCards) -> None:
        """Ranked as the bot ranks it with card data: without the names of the cards it names, with what they
        bring (see bot.rules.asking.cards)."""
        found = finder.find_now(index, self.question)
        if found is not None and found.cards:
            self.asked = found.asked
            self.cards = read_cards(index, self.question, found.asked, found.cards, found.shared)[3]
            # The cards' kinds and the question's ask are learnt as its words are (see features.card_learnt).
            self.stems = sorted({*self.stems, *self.cards.tokens})


def count(items: list[Item]) -> dict[str, tuple[dict[str, int], dict[str, int]]]:
    counts: dict[str, tuple[dict[str, int], dict[str, int]]] = {}
    for item in items:
        cited = [number for number in item.cited if number[:3].isdigit()]
        sections = {number.split(".")[0] for number in cited}
        rules = {number.rstrip("abcdefghijklmnopqrstuvwxyz") for number in cited if "." in number}
        for s in item.stems:
            found = counts.setdefault(s, ({}, {}))
            for key in sections:
                found[0][key] = found[0].get(key, 0) + 1
            for key in rules:
                found[1][key] = found[1].get(key, 0) + 1
    return counts


def tables(index: RulesIndex, items: list[Item], learnt_from: list[Item]):
    """Per question: its candidates' features and which of them answer it (or a fixed outcome), with the
    associations learnt from ``learnt_from`` minus the question's own source."""
    out = []
    for item in items:
        index.searcher.associations = count([i for i in learnt_from if i.source != item.source])
        found = index.searcher.candidates(item.asked, cards=item.cards)
        if isinstance(found, Ranking):
            shown = [shown_key(index, hit, item.asked) for hit in found.hits]
            out.append((None, [bool(shown) and matches(index, shown[0], item.cited)], found.confident))
            continue
        features = np.array([list(values) for _candidate, values in found])
        right = []
        for candidate, _values in found:
            kind, key, _title, _body = index.searcher.docs[candidate.row]
            right.append(matches(index, shown_key(index, Hit(kind, key, 0.0), item.asked), item.cited))
        out.append((features, np.array(right), [candidate for candidate, _values in found]))
    return out


def refusals(index: RulesIndex, texts: list[str]):
    """Per non-question: its candidates' features (or whether a fixed outcome answers it)."""
    out = []
    for text in texts:
        found = index.searcher.candidates(" ".join(text.split()))
        if isinstance(found, Ranking):
            out.append((None, None, found.confident and bool(found.hits)))
        else:
            out.append((np.array([list(values) for _c, values in found]), None, [c for c, _v in found]))
    return out


def gate_value(row, weights: np.ndarray) -> tuple[tuple[float, ...] | None, bool]:
    """The gate's values (see ranker.gate_values) of a ranked text's best entry (None when a fixed outcome
    decides, a named topic, or the text is off topic: the gate does not judge those), and whether a fixed
    outcome answers it."""
    features, _right, extra = row
    if features is None:
        return None, bool(extra)
    scores = features @ weights
    top = int(np.argmax(scores))
    best = extra[top]
    values = gate_values(best, list(map(float, scores)), tuple(map(float, features[top])))
    return (None if best.off_topic else values), False


def logistic(
    x: np.ndarray, y: np.ndarray, l2: float, steps: int = 20000, rate: float = 0.5, *, balanced: bool = True
) -> np.ndarray:
    """Logistic regression by gradient descent, both classes weighing the same in all (unless not ``balanced``:
    then each row counts once, and the probabilities are calibrated); the bias comes last."""
    x = np.hstack([x, np.ones((len(x), 1))])
    weights = np.zeros(x.shape[1])
    balance = np.where(y == 1, 1.0, (y == 1).sum() / max(1, (y == 0).sum())) if balanced else np.ones(len(y))
    for _ in range(steps):
        p = 1 / (1 + np.exp(-x @ weights))
        gradient = x.T @ ((p - y) * balance) / len(y) + l2 * np.r_[weights[:-1], 0.0]
        weights -= rate * gradient
    return weights


def probabilities(model: np.ndarray, x: np.ndarray) -> np.ndarray:
    return 1 / (1 + np.exp(-(x @ model[:-1] + model[-1])))


def gate_threshold(p_questions, p_not, questions: int, not_rules: int, fixed_q: int, fixed_not: int) -> float:
    """The threshold answering the most questions while refusing enough non-questions that the lower end of
    the refusal rate's 90 % interval stays at REFUSED (or, if none does, refusing the most), both rates over
    all the texts, fixed outcomes included: chat nobody tuned on should still be refused 90 % of the time."""
    best = None
    for threshold in np.round(np.arange(0.05, 0.96, 0.01), 2):
        answered = (fixed_q + int((p_questions >= threshold).sum())) / max(1, questions)
        let_through = fixed_not + int((p_not >= threshold).sum())
        refused = 1 - let_through / max(1, not_rules)
        enough = interval(not_rules - let_through, not_rules)[0] >= REFUSED
        key = (enough, answered if enough else refused)
        if best is None or key > best[0]:
            best = (key, float(threshold))
    return best[1]


def folds_of(sources: list[str], folds: int) -> dict[str, int]:
    """Each source's fold, dealt in an order fixed by a hash of the source so that nobody picks them."""
    order = sorted(set(sources), key=lambda source: hashlib.sha256(source.encode()).digest())
    return {source: number % max(1, folds) for number, source in enumerate(order)}


GATE_L2 = (1.0, 0.3, 0.1, 0.03, 0.01, 0.003, 0.001)
GATE_LEFT_OUT: list[str] = []  # gate values held at 0 (--gate-without)
ANSWERABLE_TOP = 0  # with --answerable N, the gate learns only from questions one of whose first N rules is right


def gate_rows(index, items, not_rules, weights: np.ndarray):
    """Each ranked text's gate values, label (1 a question), source and whether it is a real text rather than
    the search form of one; and how many real questions and non-questions a fixed outcome answers."""
    rows, fixed = [], {}
    searches = [Item(index, {"q": searched(index, item.question), "cite": item.cited}, 0) for item in items]
    for search, item in zip(searches, items, strict=True):
        search.source = item.source
    question_rows = tables(index, items + searches, items)
    text_rows = refusals(index, [text for text, _source in not_rules])
    labelled = [(1, item.source, real) for real, part in ((True, items), (False, searches)) for item in part]
    labelled += [(0, source, True) for _text, source in not_rules]
    for (label, source, real), row in zip(labelled, question_rows + text_rows, strict=True):
        if label and ANSWERABLE_TOP and not answerable(row, weights):
            continue  # a question whose first rules are all wrong: the gate learns nothing from it
        values, answered = gate_value(row, weights)
        fixed[label, real] = fixed.get((label, real), 0) + answered
        if label and real and gathered(source):
            fixed["gathered"] = fixed.get("gathered", 0) + answered
        if values is not None:
            rows.append((values, label, source, real))
    return rows, fixed


def answerable(row, weights: np.ndarray) -> bool:
    """Whether one of the first ANSWERABLE_TOP entries of a ranked question is right (or a fixed outcome is)."""
    features, right, _extra = row
    if features is None:
        return bool(right[0])
    order = np.argsort(-(features @ weights), kind="stable")[:ANSWERABLE_TOP]
    return bool(right[order].any())


def gathered(source: str) -> bool:
    """Whether a question came from a public page rather than from the project's own (see Item.source)."""
    return source.split("#")[0] not in STUDIED


def fit_gate(index, items, not_rules, weights: np.ndarray, folds: int):
    """The gate's weights, bias and threshold. It learns from the real texts and from the questions' search
    forms (the same words without the phrasing, as typed into a search box), so that phrasing alone does not
    decide; the threshold answers the most questions, typed either way, while refusing 90 % of the real
    non-questions. The strength of the regularisation is chosen by
    K-fold over sources, and the held-out rates at the chosen one are returned."""
    rows, fixed = gate_rows(index, items, not_rules, weights)
    x = np.array([values for values, _label, _source, _real in rows])
    x[:, [GATE.index(name) for name in GATE_LEFT_OUT]] = 0.0
    y = np.array([label for _values, label, _source, _real in rows])
    real = np.array([is_real for _values, _label, _source, is_real in rows])
    sources = [source for _values, _label, source, _real in rows]
    from_pages = np.array([gathered(source) for source in sources])
    fold = folds_of(sources, folds)
    fold_of = np.array([fold[source] for source in sources])

    def rates(p: np.ndarray) -> tuple[float, float, float, float]:
        """The threshold answering the most questions, typed either way, while refusing 90 % of the
        non-questions; with the questions answered as written, the non-questions refused, and the questions
        answered as search words, at that threshold."""
        questions, texts = p[y == 1], p[y == 0]
        fixed_questions = fixed.get((1, True), 0) + fixed.get((1, False), 0)
        threshold = gate_threshold(
            questions, texts, 2 * len(items), len(not_rules), fixed_questions, fixed.get((0, True), 0)
        )
        answered = (fixed.get((1, True), 0) + int((p[real & (y == 1)] >= threshold).sum())) / len(items)
        searched = (fixed.get((1, False), 0) + int((p[~real & (y == 1)] >= threshold).sum())) / len(items)
        refused = 1 - (fixed.get((0, True), 0) + int((texts >= threshold).sum())) / len(not_rules)
        asked = real & (y == 1) & from_pages
        total = sum(gathered(item.source) for item in items)
        answered_gathered = (fixed.get("gathered", 0) + int((p[asked] >= threshold).sum())) / max(1, total)
        print(f"    (gathered questions answered {answered_gathered:.1%} at {threshold:g})")
        return threshold, answered, refused, searched

    held_out = {}
    for l2 in GATE_L2:
        p = np.zeros(len(y))
        for fold in range(folds):
            model = logistic(x[fold_of != fold], y[fold_of != fold], l2)
            p[fold_of == fold] = probabilities(model, x[fold_of == fold])
        held_out[l2] = rates(p)
        _t, answered, refused, searched = held_out[l2]
        print(
            f"  gate l2 {l2:g}: held out by source, answered {answered:.1%} (as search words {searched:.1%}), "
            f"refused {refused:.1%}"
        )
    l2 = max(GATE_L2, key=lambda v: (held_out[v][2] >= REFUSED, held_out[v][1] + held_out[v][3], held_out[v][2]))
    model = logistic(x, y, l2)
    threshold, answered, refused, searched = rates(probabilities(model, x))
    print(f"gate: search forms of the tuning questions answered {searched:.1%}")
    return model, threshold, (answered, refused), l2, held_out[l2]


def objective(data, weights: np.ndarray) -> tuple[float, float]:
    hit1 = hit3 = 0
    for features, right, _extra in data:
        if features is None:
            hit1 += right[0]
            hit3 += right[0]
            continue
        scores = features @ weights
        order = np.argsort(-scores, kind="stable")[:3]
        hit1 += bool(right[order[0]])
        hit3 += bool(right[order].any())
    return hit1 / max(1, len(data)), hit3 / max(1, len(data))


def fit(data, weights: np.ndarray, passes: int, method: str = "ascent") -> np.ndarray:
    """``softmax``: a listwise fit (the right entries' share of the probability, L2-regularised towards the
    starting weights); ``ascent``: a coordinate ascent on hit@1 itself; ``both``: the first, then the second."""
    if method in ("softmax", "both"):
        weights = softmax_fit(data, weights)
    if method in ("ascent", "both"):
        weights = ascend(data, weights, passes)
    return weights


def softmax_fit(data, start: np.ndarray, *, steps: int = 400, rate: float = 0.5, l2: float = 0.02) -> np.ndarray:
    lists = [(features, right) for features, right, _extra in data if features is not None and right.any()]
    if not lists:
        return start
    weights = start.copy()
    for _ in range(steps):
        gradient = l2 * (weights - start)
        for features, right in lists:
            scores = features @ weights
            probability = np.exp(scores - scores.max())
            probability /= probability.sum()
            share = probability[right].sum()
            # d(-log share)/dw = E_all[x] - E_right[x]
            gradient += (probability @ features - (probability[right] @ features[right]) / share) / len(lists)
        gradient[sorted(FROZEN)] = 0.0  # held at their starting weights, as the ascent holds them
        weights -= rate * gradient
    return np.round(weights, 2)


FROZEN: set[int] = set()  # features held at their starting weight (--without)


def ascend(data, weights: np.ndarray, passes: int) -> np.ndarray:
    best = objective(data, weights)
    for _ in range(passes):
        changed = False
        for i in range(len(weights)):
            if i in FROZEN:
                continue
            for value in GRID:
                trial = weights.copy()
                trial[i] = value
                result = objective(data, trial)
                if result > best:
                    best, weights, changed = result, trial, True
        if not changed:
            break
    return weights


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", type=Path, default=DEFAULT_RULES)
    parser.add_argument("--questions", type=Path, default=QUESTIONS)
    parser.add_argument("--passes", type=int, default=4)
    parser.add_argument("--folds", type=int, default=0, help="also estimate the fit by K-fold over sources")
    parser.add_argument("--method", choices=("ascent", "softmax", "both"), default="ascent")
    parser.add_argument("--without", default="", help="features to leave out (held at 0), comma-separated")
    parser.add_argument("--only", default="", help="fit only these features (the rest held), comma-separated")
    parser.add_argument(
        "--cards", action="store_true", help="rank the questions as with card data (the question set's card fixture)"
    )
    parser.add_argument("--gate-without", default="", help="gate values to leave out (held at 0), comma-separated")
    parser.add_argument(
        "--answerable", type=int, default=0, help="the gate learns from questions whose first N rules hold a right one"
    )
    parser.add_argument("--write", action="store_true", help=f"save the associations to {ASSOCIATIONS.name}")
    parser.add_argument(
        "--score-test", action="store_true", help="also score the frozen test part once with the weights fitted here"
    )
    add_phrasing_options(parser)
    args = parser.parse_args(argv)
    index = RulesIndex(load_document(args.rules), phrasings=phrasings_from(args))
    index.warm()
    entries = [entry for entry in load_set(args.questions)["questions"] if entry.get("part", "tune") == "tune"]
    items = [Item(index, entry, number) for number, entry in enumerate(entries)]
    start = np.array(WEIGHTS, dtype=float)
    for name in filter(None, args.without.split(",")):
        FROZEN.add(FEATURES.index(name))
        start[FEATURES.index(name)] = 0.0
    only = set(filter(None, args.only.split(",")))
    FROZEN.update(i for i, name in enumerate(FEATURES) if only and name not in only)
    finder = FixtureCards(index) if args.cards else None
    for item in items if finder else []:
        item.read_cards(index, finder)

    if args.folds:
        fold_of = folds_of([item.source for item in items], args.folds)
        hits = np.zeros(2)
        for fold in range(args.folds):
            train = [item for item in items if fold_of[item.source] != fold]
            held = [item for item in items if fold_of[item.source] == fold]
            weights = fit(tables(index, train, train), start.copy(), args.passes, args.method)
            hits += np.array(objective(tables(index, held, train), weights)) * len(held)
        print(f"{args.folds}-fold over sources: hit@1 {hits[0] / len(items):.1%}, hit@3 {hits[1] / len(items):.1%}")

    data = tables(index, items, items)
    before = objective(data, start)
    weights = fit(data, start, args.passes, args.method)
    after = objective(data, weights)
    print(f"tuning part: {len(items)} questions from {len({item.source for item in items})} sources")
    print(f"before: hit@1 {before[0]:.1%}, hit@3 {before[1]:.1%} (associations held out by source)")
    print(f"after:  hit@1 {after[0]:.1%}, hit@3 {after[1]:.1%}")
    print("WEIGHTS = (" + ", ".join(f"{value:g}" for value in weights) + ")")
    print("  # " + ", ".join(f"{name}={value:g}" for name, value in zip(FEATURES, weights, strict=True)))
    if args.score_test:
        # Scored, never studied: only the two rates are printed (the first ranked rule, the gate aside).
        tests = [Item(index, entry, n) for n, entry in enumerate(load_set(args.questions)["questions"])]
        tests = [
            item
            for item, entry in zip(tests, load_set(args.questions)["questions"], strict=True)
            if entry.get("part", "tune") == "test"
        ]
        for item in tests if finder else []:
            item.read_cards(index, finder)
        hit1, hit3 = objective(tables(index, tests, items), weights)
        print(f"frozen test part with these weights: hit@1 {hit1:.1%}, hit@3 {hit3:.1%} ({len(tests)} questions)")
    not_rules = [
        (text, f"{source}#{number}" if source in STUDIED else source_key(source))
        for number, item in enumerate(load_set(args.questions)["not_rules"])
        if isinstance(item, str) or item.get("part", "tune") == "tune"
        for text, source in [(item, "project") if isinstance(item, str) else (item["q"], item.get("source", "project"))]
    ]
    GATE_LEFT_OUT.extend(filter(None, args.gate_without.split(",")))
    global ANSWERABLE_TOP
    ANSWERABLE_TOP = args.answerable
    model, threshold, rates, l2, held = fit_gate(index, items, not_rules, weights, max(args.folds, 5))
    print(f"gate ({len(GATE)} values, l2 {l2:g}): held out by source, answered {held[1]:.1%}, refused {held[2]:.1%}")
    print("GATE_WEIGHTS = (" + ", ".join(f"{value:.3g}" for value in model[:-1]) + ")")
    print(f"GATE_BIAS = {model[-1]:.3g}")
    print(f"GATE_THRESHOLD = {threshold:g}  # answered {rates[0]:.1%}, non-questions refused {rates[1]:.1%}")
    if args.write:
        counts = count(items)
        data = {word: {"sections": found[0], "rules": found[1]} for word, found in sorted(counts.items())}
        ASSOCIATIONS.write_text(json.dumps(data, sort_keys=True, separators=(",", ":")) + "\n", encoding="utf-8")
        print(f"wrote {ASSOCIATIONS.relative_to(REPO)} ({len(data)} words)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
