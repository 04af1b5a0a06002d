"""Cross-fitted figures on the tuning part: every fold answered with everything fitted without it, card questions apart.

Usage: python benchmarks/crossfit_rules_cards.py [--folds K] [--refit none|cards|all|then-all|separate|only]
       [--start shipped|neutral] [--only NAMES] [--share S] [--seed N] [--passes N] [--splits N]

Nothing here reads the frozen test part. The tuning part's sources (its questions' and its non-questions') are split
into K folds (5), as fit_rules_ranker.py splits them; for each fold, on the other folds alone:

- the word associations (which sections and rules the questions holding each word were answered from);
- the ranker's weights (``--refit``): ``none`` keeps the shipped ones; ``cards`` fits the weights of the words on the
  questions ranked without card data, then the card features' alone with it (as the card features were first fitted);
  ``all`` fits every weight on the questions ranked as the bot ranks them with card data, ``then-all`` first the words'
  weights without card data, then every weight with it (``--method`` for the second fit); ``separate`` fits the words'
  weights so, then weights of their own for the questions naming cards, on those alone (ranker.CARD_WEIGHTS);
  ``only`` keeps every shipped weight but those ``--only`` names, fitted on the questions ranked with card data
  (how fit_rules_ranker.py --cards --only fits the card features: a question naming no card ranks as shipped).
  ``--start neutral`` starts each fit from bm25 alone rather than from the shipped weights (which were fitted on the
  whole tuning part);
- the gate (its regularisation as fit_rules_ranker.py last chose it; its threshold as it chooses);
- how sure an answer is (the confidence model over the shipped values, its regularisation, and SURE_AT) and when a
  card question's named keyword is sure (KEYWORD_SURE), on rankings of the other folds each made with weights fitted
  without it (nested: no fold's answers are judged by a model that saw them).

Then the fold's questions are answered as the bot answers them, card data loaded (the question set's card fixture)
and not, with those values in place of the shipped ones. The figures over all folds are printed for the questions
naming cards and for the rest, with their 90 % intervals, and the non-questions refused. ``--share S`` fits with a
seeded random share of the other folds' card questions only (the learning curve); the folds scored keep all theirs.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from unittest import mock

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

import crossfit_tables  # noqa: E402
import numpy as np  # noqa: E402
from crossfit_tables import Model, Pool, card_flags, fit_gate_once, fit_sure, judged_rows  # noqa: E402
from fit_rules_ranker import FROZEN, fit, folds_of, objective  # noqa: E402

from bot.documents import SURE  # noqa: E402
from bot.rules.asking import cards as cards_module  # noqa: E402
from bot.rules.asking import questions as questions_module  # noqa: E402
from bot.rules.ranking import confidence  # noqa: E402
from bot.rules.ranking import search as search_module  # noqa: E402
from bot.rules.ranking.index import RulesIndex  # noqa: E402
from bot.rules.ranking.ranker import CARD_WEIGHTS, FEATURES, WEIGHTS, believed  # noqa: E402
from bot.rules.text.document import load_document  # noqa: E402
from tests.data import CR_2026  # noqa: E402
from tests.rules.evaluation import Report, interval, lookup, matches  # noqa: E402
from tests.rules.question_cards import FixtureCards  # noqa: E402

CARD_FEATURES = frozenset(name for name in FEATURES if name.startswith("card_"))


@contextmanager
def shipped_as(index: RulesIndex, model: Model):
    """The bot's own answers, with ``model``'s fitted values in place of the shipped ones."""
    plain, carded = (tuple(float(value) for value in weights) for weights in model.weights)
    gate_weights, gate_bias = tuple(model.gate[:-1]), float(model.gate[-1])
    used = confidence._USED  # noqa: SLF001 - the values the shipped model weighs, refitted here
    sure_weights, sure_bias = tuple(model.sure[:-1]), float(model.sure[-1])

    def certainty(found):
        total = sure_bias + sum(weight * found[i] for weight, i in zip(sure_weights, used, strict=True))
        return 1.0 / (1.0 + np.exp(-total))

    saved = index.searcher.associations
    with ExitStack() as stack:
        stack.enter_context(mock.patch.object(search_module, "WEIGHTS", plain))
        stack.enter_context(mock.patch.object(search_module, "CARD_WEIGHTS", carded))
        stack.enter_context(
            mock.patch.object(search_module, "believed", lambda values: believed(values, gate_weights, gate_bias))
        )
        stack.enter_context(mock.patch.object(search_module, "GATE_THRESHOLD", model.gate_threshold))
        stack.enter_context(mock.patch.object(confidence, "certainty", certainty))
        stack.enter_context(mock.patch.object(confidence, "SURE_AT", model.sure_at))
        stack.enter_context(mock.patch.object(cards_module, "KEYWORD_SURE", model.keyword_sure))
        index.searcher.associations = model.associations
        try:
            yield
        finally:
            index.searcher.associations = saved


@dataclass
class Tally:
    """hit@1, hit@3 and sure answers of one group of questions, over all folds."""

    reports: dict[str, Report] = field(default_factory=dict)
    outcomes: dict[int, bool] = field(default_factory=dict)  # each question's: right first with card data

    def add(self, key: str, answer, cited: list[str], index: RulesIndex) -> bool:
        report = self.reports.setdefault(key, Report())
        ranked = answer.ranked() if answer.found else []
        right = bool(ranked) and matches(index, ranked[0], cited)
        report.questions += 1
        report.answered += answer.found
        report.hit1 += right
        report.hit3 += right or any(matches(index, shown, cited) for shown in ranked[:3])
        report.sure += answer.confidence == SURE
        report.sure_right += answer.confidence == SURE and right
        return right

    def print(self) -> None:
        for key, report in self.reports.items():
            if not report.questions:
                continue
            rates, intervals = report.rates(), report.intervals()
            parts = []
            for name in ("hit@1", "hit@3", "sure coverage"):
                low, high = intervals[name]
                parts.append(f"{name} {rates[name]:.1%} ({low:.1%}–{high:.1%})")
            low, _high = interval(report.sure_right, report.sure)
            parts.append(f"sure right {report.sure_right}/{report.sure} (from {low:.0%})")
            parts.append(f"answered {rates['answered']:.1%}")
            print(f"  {key} ({report.questions}): " + ", ".join(parts))
        refused = self.reports.get("non-questions")
        if refused is not None:
            print(f"  non-questions refused: {refused.refused}/{refused.not_rules} = {refused.rates()['refused']:.1%}")


def fit_weights(pool: Pool, train: list[int], args, start: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The ranker's weights on the questions ``train`` (indexes into pool.items), as ``--refit`` says: for questions
    ranked without cards, and for those naming cards."""
    if args.refit == "none":
        return np.array(WEIGHTS, dtype=float), np.array(CARD_WEIGHTS, dtype=float)
    held = {FEATURES.index(name) for name in filter(None, args.without.split(","))}
    FROZEN.clear()
    FROZEN.update(held)
    if args.refit == "only":
        only = set(args.only.split(","))
        FROZEN.update(i for i, name in enumerate(FEATURES) if name not in only)
        weights = fit(pool.tables(train, cards=True, learnt_from=train), start.copy(), args.passes, args.method)
        FROZEN.clear()
        return np.array(WEIGHTS, dtype=float), weights
    if args.refit == "all":
        weights = fit(pool.tables(train, cards=True, learnt_from=train), start.copy(), args.passes, args.method)
        return weights, weights
    FROZEN.update(i for i, name in enumerate(FEATURES) if name in CARD_FEATURES)
    plain = fit(pool.tables(train, cards=False, learnt_from=train), start.copy(), args.passes, args.plain_method)
    FROZEN.clear()
    FROZEN.update(held)
    if args.refit == "cards":
        FROZEN.update(i for i, name in enumerate(FEATURES) if name not in CARD_FEATURES)
    if args.refit == "separate":
        naming = [n for n in train if pool.items[n].found]
        weights = fit(pool.tables(naming, cards=True, learnt_from=train), plain, args.passes, args.method)
        FROZEN.clear()
        return plain, weights
    weights = fit(pool.tables(train, cards=True, learnt_from=train), plain, args.passes, args.method)
    FROZEN.clear()
    return weights, weights


def split_folds(sources: list[str], folds: int, split: int) -> dict[str, int]:
    """Each source's fold; split 0 is fit_rules_ranker.py's, another split deals the sources in another fixed order."""
    if not split:
        return folds_of(sources, folds)
    order = sorted(set(sources), key=lambda source: hashlib.sha256(f"{split}:{source}".encode()).digest())
    return {source: number % folds for number, source in enumerate(order)}


def cross_fit(index: RulesIndex, finder: FixtureCards, pool: Pool, args, fold_of: dict[str, int]) -> Tally:
    """Each fold answered with everything fitted on the others (see the module's docstring)."""
    start = np.array(WEIGHTS, dtype=float)
    if args.start == "neutral":
        start = np.zeros(len(FEATURES))
        start[FEATURES.index("bm25")] = 1.0
    if args.refit in ("cards", "then-all", "separate"):
        start[[i for i, name in enumerate(FEATURES) if name in CARD_FEATURES]] = 0.0
    start[[FEATURES.index(name) for name in filter(None, args.without.split(","))]] = 0.0
    rng = random.Random(args.seed)
    dropped = {n for n, item in enumerate(pool.items) if item.naming and rng.random() >= args.share}
    tally = Tally()
    for fold in range(args.folds):
        train = [n for n, item in enumerate(pool.items) if fold_of[item.source] != fold and n not in dropped]
        held = [n for n, item in enumerate(pool.items) if fold_of[item.source] == fold]
        inner_rows = []
        for inner in sorted({fold_of[pool.items[n].source] for n in train}):
            fit_on = [n for n in train if fold_of[pool.items[n].source] != inner]
            judged = [n for n in train if fold_of[pool.items[n].source] == inner]
            weights = fit_weights(pool, fit_on, args, start)
            inner_rows += judged_rows(pool, judged, weights, learnt_from=fit_on, fold=inner)
        weights = fit_weights(pool, train, args, start)
        gate = fit_gate_once(pool, train, [t for t in pool.not_rules if fold_of[t.source] != fold], weights)
        model = fit_sure(pool, inner_rows, weights, gate, learnt_from=train)
        with shipped_as(index, model):
            for n in held:
                item = pool.items[n]
                group = "naming cards" if item.naming else "naming no card"
                answer = finder.answer(index, item.question)
                right = tally.add(f"card data, {group}", answer, item.cited, index)
                tally.add(f"no card data, {group}", lookup(index, item.question), item.cited, index)
                tally.outcomes[n] = right
                if args.verbose and item.naming:
                    flags = card_flags(pool, n, weights)
                    ranked = answer.ranked() if answer.found else []
                    print(f"    fold {fold + 1}: {ranked[:3]} cited {item.cited} {flags} | {item.question[:90]}")
            for text in (t for t in pool.not_rules if fold_of[t.source] == fold):
                report = tally.reports.setdefault("non-questions", Report())
                report.not_rules += 1
                report.refused += not lookup(index, text.text).found
        hit1, hit3 = objective(pool.tables(held, cards=True, learnt_from=train), weights[1])
        print(f"  fold {fold + 1}/{args.folds}: {len(held)} questions, top entry hit@1 {hit1:.1%} hit@3 {hit3:.1%}; "
              f"gate at {model.gate_threshold:g}, sure at {model.sure_at:g}, keyword sure at "
              f"{model.keyword_sure:g}; card weights "
              + ", ".join(f"{name}={weights[1][FEATURES.index(name)]:g}" for name in sorted(CARD_FEATURES)),
              flush=True)  # fmt: skip
    return tally


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--splits", type=int, default=1, help="repeat over this many ways of dealing the folds")
    parser.add_argument("--passes", type=int, default=4)
    parser.add_argument("--refit", choices=("none", "cards", "all", "then-all", "separate", "only"), default="cards")
    parser.add_argument("--start", choices=("shipped", "neutral"), default="shipped")
    parser.add_argument("--method", choices=("ascent", "softmax", "both"), default="ascent", help="how to fit")
    parser.add_argument("--plain-method", choices=("ascent", "softmax", "both"), default="ascent", help="--refit cards")
    parser.add_argument("--share", type=float, default=1.0, help="share of the other folds' card questions fitted on")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--tokens", default="kind,ask,pair", help="the card tokens the learnt associations read")
    parser.add_argument("--without", default="", help="features held at 0, comma-separated")
    parser.add_argument("--only", default=",".join(sorted(CARD_FEATURES)), help="--refit only: the features fitted")
    parser.add_argument("--no-siblings", action="store_true", help="the ranking's first subrule leads, as before")
    parser.add_argument("--save", type=Path, help="write each question's outcome (right first or not) here, by split")
    parser.add_argument("--verbose", action="store_true", help="list each fold's misses among card questions")
    args = parser.parse_args(argv)
    crossfit_tables.TOKENS = set(filter(None, args.tokens.split(",")))
    questions_module.SIBLINGS = not args.no_siblings
    index = RulesIndex(load_document(CR_2026))
    index.warm()
    finder = FixtureCards(index)
    pool = Pool(index, finder)
    print(f"tuning part: {len(pool.items)} questions ({sum(i.naming for i in pool.items)} naming cards), "
          f"{len(pool.not_rules)} non-questions; ranked once", flush=True)  # fmt: skip
    tallies = []
    for split in range(args.splits):
        print(f"split {split}:")
        tally = cross_fit(index, finder, pool, args, split_folds(pool.sources(), args.folds, split))
        tally.print()
        tallies.append(tally)
    print(f"cross-fitted over {args.folds} folds, {args.splits} splits (refit {args.refit}, start {args.start}, "
          f"method {args.method}, card share {args.share:g}):")  # fmt: skip
    merged = Tally()
    for tally in tallies:
        for key, report in tally.reports.items():
            into = merged.reports.setdefault(key, Report())
            for name in ("questions", "answered", "hit1", "hit3", "sure", "sure_right", "not_rules", "refused"):
                setattr(into, name, getattr(into, name) + getattr(report, name))
    merged.print()
    if args.save:
        outcomes = [{str(n): right for n, right in tally.outcomes.items()} for tally in tallies]
        args.save.write_text(json.dumps({"args": vars(args) | {"save": str(args.save)}, "outcomes": outcomes}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
