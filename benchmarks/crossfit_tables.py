"""The tuning part ranked once, for cross-fitting (crossfit_rules_cards.py): each text's candidates and features, and
what a fold's fits need from them.

Only the two features that come from the word associations (section_words, rule_words) depend on which questions
they are learnt from; every other feature, the candidates and which of them are right are a text's own. So each text
is ranked once with no associations (the question's words recorded), and a fold's tables fill those two columns from
its own counts, each question's own source left out as fit_rules_ranker.py leaves it out.
"""

from __future__ import annotations

import contextlib
import io
from collections import Counter
from dataclasses import dataclass, field
from unittest import mock

import numpy as np
from fit_rules_confidence import Rows, held_out, likelihood, sure_threshold
from fit_rules_confidence import logistic as newton
from fit_rules_ranker import Item, count, gate_threshold, gate_value, gathered, logistic, probabilities
from question_set import source_key

from bot.documents import is_under
from bot.rules.asking.cards import read_cards
from bot.rules.asking.questions import cited_number, shown_key, sibling_choice
from bot.rules.ranking import confidence
from bot.rules.ranking import search as search_module
from bot.rules.ranking.features import associated, card_learnt, learnt_value
from bot.rules.ranking.hits import Hit, Ranking
from bot.rules.ranking.ranker import FEATURES, believed
from tests.rules.evaluation import QUESTIONS, STUDIED, interval, load_set, matches, searched

Pair = tuple[np.ndarray, np.ndarray]  # the weights without cards, and those for questions naming cards
SECTION_WORDS, RULE_WORDS = FEATURES.index("section_words"), FEATURES.index("rule_words")
CARD_LEARNT = FEATURES.index("card_learnt")
# The kinds of card tokens the learnt card associations read (crossfit_rules_cards.py --tokens).
TOKENS = {"kind", "ask", "pair"}


def token_kind(token: str) -> str:
    return "pair" if "×" in token else token.split(":", 1)[0]


GATE_L2 = 0.001  # the gate's regularisation, as fit_rules_ranker.py chose it on the whole tuning part
CONFIDENCE_L2 = (0.01, 0.003, 0.001, 0.0003, 0.0001)
KEYWORD_GRID = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.01)
CARD_SURE_BOUND = 0.80  # a card question's sure answers: the lower end of their 90 % interval, held out, at least


@dataclass
class Ranked:
    """One text's candidates (or a fixed outcome), with the association columns left at 0."""

    features: np.ndarray | None
    right: np.ndarray | list[bool]
    extra: object  # the candidates, or for a fixed outcome whether it answers
    chains: list[tuple[str, ...]] = field(default_factory=list)  # each candidate's ancestors, for the associations
    stems: list[str] = field(default_factory=list)
    weights: dict[str, float] = field(default_factory=dict)
    tokens: tuple[str, ...] = ()  # the card tokens (CardSignals.tokens)

    def table(self, associations) -> tuple:
        if self.features is None:
            return None, self.right, self.extra
        sections, rules = associated(associations, self.stems, self.weights)
        features = self.features.copy()
        chains = self.chains
        features[:, SECTION_WORDS] = [sections.get(chain[-2], 0.0) if len(chain) > 2 else 0.0 for chain in chains]
        features[:, RULE_WORDS] = [rules.get(chain[1], 0.0) if len(chain) > 2 else 0.0 for chain in chains]
        if self.tokens:
            learnt = card_learnt(associations, tuple(t for t in self.tokens if token_kind(t) in TOKENS))
            features[:, CARD_LEARNT] = [learnt_value(learnt, chain) for chain in chains]
        return features, self.right, self.extra


def rank_once(index, text: str, cited: list[str] | None, cards=None) -> Ranked:
    """``text``'s candidates, ranked with no associations (``cited``: which candidates are right; None for a
    non-question)."""
    seen: list[tuple] = []
    tokens: list[tuple[str, ...]] = []

    def recorded(_associations, stems, weights):
        seen.append((list(stems), dict(weights)))
        return {}, {}

    def learnt(_associations, found):
        tokens.append(tuple(found))
        return {}, {}

    with (
        mock.patch.object(search_module, "associated", recorded),
        mock.patch.object(search_module, "card_learnt", learnt),
    ):
        found = index.searcher.candidates(" ".join(text.split()), cards=cards)
    if isinstance(found, Ranking):
        if cited is None:
            return Ranked(None, [False], found.confident and bool(found.hits))
        shown = [shown_key(index, hit, text) for hit in found.hits]
        return Ranked(None, [bool(shown) and matches(index, shown[0], cited)], found.confident)
    docs, ancestors = index.searcher.docs, index.searcher.entries.ancestors
    candidates = [candidate for candidate, _values in found]
    right = [
        cited is not None and matches(index, shown_key(index, Hit(*docs[c.row][:2], 0.0), text), cited)
        for c in candidates
    ]
    return Ranked(
        np.array([list(values) for _c, values in found]),
        np.array(right),
        candidates,
        [ancestors[c.row] for c in candidates],
        *seen[-1],
        tokens[-1] if tokens else (),
    )


class PoolItem(Item):
    """A tuning question ranked without card data (``plain``), as the bot ranks it with card data (``carded``), and as
    search words (``search``)."""

    def __init__(self, index, entry: dict, number: int, finder) -> None:
        super().__init__(index, entry, number)
        self.naming = bool(entry.get("cards"))  # the question set names cards for it
        self.found, self.shared, self.signals = False, frozenset(), None  # the cards the finder found in it
        self.plain = rank_once(index, self.question, self.cited)
        self.search = rank_once(index, searched(index, self.question), self.cited)
        found = finder.find_now(index, self.question)
        self.carded = self.plain
        if found is not None and found.cards:
            self.found, self.shared, self.asked = True, found.shared, found.asked
            self.signals = read_cards(index, self.question, found.asked, found.cards, found.shared)[3]
            self.carded = rank_once(index, found.asked, self.cited, self.signals)
            # The card tokens are learnt as the words are (fit_rules_ranker.count).
            self.stems = sorted({*self.stems, *self.signals.tokens})


@dataclass
class Text:
    text: str
    source: str
    ranked: Ranked


class Pool:
    """The tuning part's questions and non-questions, each ranked once."""

    def __init__(self, index, finder) -> None:
        self.index = index
        data = load_set(QUESTIONS)
        entries = [entry for entry in data["questions"] if entry.get("part", "tune") == "tune"]
        self.items = [PoolItem(index, entry, number, finder) for number, entry in enumerate(entries)]
        self.not_rules = [
            Text(text, f"{source}#{number}" if source in STUDIED else source_key(source), rank_once(index, text, None))
            for number, raw in enumerate(data["not_rules"])
            if isinstance(raw, str) or raw.get("part", "tune") == "tune"
            for text, source in [(raw, "project") if isinstance(raw, str) else (raw["q"], raw.get("source", "project"))]
        ]

    def sources(self) -> list[str]:
        return [item.source for item in self.items] + [text.source for text in self.not_rules]

    def counts(self, learnt_from: list[int]):
        """The associations learnt from ``learnt_from``, and a view of them without one source."""
        by_source: dict[str, list] = {}
        for n in learnt_from:
            by_source.setdefault(self.items[n].source, []).append(self.items[n])
        own = {source: count(items) for source, items in by_source.items()}
        total = count([self.items[n] for n in learnt_from])
        return total, own

    def tables(self, chosen: list[int], *, cards: bool, learnt_from: list[int], search: bool = False) -> list[tuple]:
        total, own = self.counts(learnt_from)
        out = []
        for n in chosen:
            item = self.items[n]
            ranked = item.search if search else item.carded if cards else item.plain
            out.append(ranked.table(Without(total, own.get(item.source, {}))))
        return out


class Without:
    """Association counts less one source's own (a ``dict.get`` for :func:`associated`)."""

    def __init__(self, total, own) -> None:
        self.total, self.own = total, own

    def get(self, word: str):
        found = self.total.get(word)
        mine = self.own.get(word)
        if not found or not mine:
            return found
        return tuple(
            {key: value - mine[i].get(key, 0) for key, value in found[i].items() if value - mine[i].get(key, 0) > 0}
            for i in (0, 1)
        )


@dataclass
class Model:
    """A fold's fitted values: the ranker's weights and associations, the gate, how sure an answer is."""

    weights: Pair  # for questions ranked without cards, and for those naming cards
    associations: dict
    gate: np.ndarray  # weights, then the bias
    gate_threshold: float
    sure: np.ndarray  # the confidence model's weights over confidence.USED, then the bias
    sure_at: float
    keyword_sure: float


def fit_gate_once(pool: Pool, train: list[int], not_rules: list[Text], weights: Pair):
    """The gate on ``train`` (as the bot ranks them, and as search words) against ``not_rules`` (see
    fit_rules_ranker.fit_gate; its regularisation fixed at GATE_L2): (weights and bias, threshold)."""
    total, _own = pool.counts(train)
    rows, fixed = [], Counter()
    plain, carded = weights
    texts = [(pool.items[n].carded, 1, True, pool.items[n].found) for n in train]
    texts += [(pool.items[n].search, 1, False, False) for n in train]
    texts += [(text.ranked, 0, True, False) for text in not_rules]
    for ranked, label, real, found in texts:
        values, answered = gate_value(ranked.table(total), carded if found else plain)
        fixed[label, real] += answered
        if values is not None:
            rows.append((values, label))
    x = np.array([values for values, _label in rows])
    y = np.array([label for _values, label in rows])
    model = logistic(x, y, GATE_L2)
    p = probabilities(model, x)
    threshold = gate_threshold(
        p[y == 1], p[y == 0], 2 * len(train), len(not_rules), fixed[1, True] + fixed[1, False], fixed[0, True]
    )
    return model, threshold


def card_flags(pool: Pool, n: int, weights: Pair, table=None) -> tuple[bool, bool]:
    """Whether the first rule of question ``n`` ranked with card data is that of a keyword of a card it names, or
    of a kind of ability it asks about (see bot.rules.asking.cards.CardRanking)."""
    item = pool.items[n]
    features, _right, extra = table or item.carded.table({})
    if features is None or item.signals is None:
        return False, False
    best = extra[int(np.argmax(features @ weights[1]))]
    kind, key = pool.index.searcher.docs[best.row][:2]
    top = cited_number(pool.index, shown_key(pool.index, Hit(kind, key, 0.0), item.asked))
    signals = item.signals
    return any(is_under(top, ref) for ref in signals.named), any(is_under(top, ref) for ref in signals.asked)


@dataclass
class Judged:
    """A question of a fold ranked with weights fitted without it: what deciding how sure it is needs."""

    n: int
    fold: int
    right: bool
    values: tuple | None  # the confidence values (None for a fixed outcome)
    gate: tuple | None  # the gate values (None: a fixed outcome decides, ``fixed``)
    fixed: bool
    keyword: bool = False
    asked_kind: bool = False


def first_right(pool: Pool, n: int, candidates: list, order: np.ndarray) -> bool:
    """Whether the rule question ``n``'s answer leads with is right, its candidates ranked in ``order`` (the whole rule
    leads when the first two are its subrules: bot.rules.asking.questions.sibling_choice)."""
    item, index = pool.items[n], pool.index
    docs = index.searcher.docs
    keys = [shown_key(index, Hit(*docs[candidates[i].row][:2], 0.0), item.asked) for i in order[:2]]
    keys = sibling_choice(index, list(dict.fromkeys(keys)))
    return matches(index, keys[0], item.cited)


def judged_rows(pool: Pool, chosen: list[int], weights: Pair, *, learnt_from: list[int], fold: int):
    """Questions ``chosen`` ranked with ``weights`` and the associations of ``learnt_from``, as :class:`Judged`."""
    rows = []
    for n, row in zip(chosen, pool.tables(chosen, cards=True, learnt_from=learnt_from), strict=True):
        features, right, extra = row
        if features is None:
            rows.append(Judged(n, fold, bool(right[0]), None, None, bool(extra)))
            continue
        chosen_weights = weights[1] if pool.items[n].found else weights[0]
        scores = features @ chosen_weights
        order = np.argsort(-scores, kind="stable")
        ranked = [(float(scores[i]), extra[i], tuple(map(float, features[i]))) for i in order]
        _belief, _confident, found = pool.index.searcher.judge(pool.items[n].question, ranked)
        gate, _fixed = gate_value(row, chosen_weights)
        keyword, asked_kind = card_flags(pool, n, weights, row) if pool.items[n].found else (False, False)
        rows.append(Judged(n, fold, first_right(pool, n, extra, order), found, gate, False, keyword, asked_kind))
    return rows


def fit_sure(pool: Pool, rows: list[Judged], weights: Pair, gate, *, learnt_from: list[int]) -> Model:
    """How sure an answer is, fitted on ``rows`` (each ranked without its own fold), with the fold's gate: the
    confidence model over the shipped values (its regularisation by held-out likelihood), SURE_AT as
    fit_rules_confidence.py chooses it, and KEYWORD_SURE as the lowest at which the rows' card questions' sure
    answers keep the lower end of their 90 % interval at CARD_SURE_BOUND."""
    gate_model, gate_at = gate

    def confident(row: Judged) -> bool:
        if row.gate is None:
            return row.fixed if row.values is None else False
        return believed(row.gate, tuple(gate_model[:-1]), float(gate_model[-1])) >= gate_at

    tuples = [(row.values, row.right, pool.items[row.n].source, confident(row)) for row in rows]
    folds = {pool.items[row.n].source: row.fold for row in rows}
    marks = [gathered(pool.items[row.n].source) for row in rows]
    confidence_rows = Rows(tuples, folds, marks)
    used = [confidence.VALUES.index(name) for name in confidence.USED]
    l2 = max(CONFIDENCE_L2, key=lambda v: likelihood(confidence_rows, held_out(confidence_rows, used, v)))
    with contextlib.redirect_stdout(io.StringIO()):
        sure_at = sure_threshold(confidence_rows, held_out(confidence_rows, used, l2))
    sure = newton(confidence_rows.x[:, used], confidence_rows.y, l2)
    certainty = {
        row.n: float(1 / (1 + np.exp(-(np.array(row.values)[used] @ sure[:-1] + sure[-1]))))
        for row in rows
        if row.values is not None
    }
    cards = [row for row in rows if pool.items[row.n].found and row.values is not None and confident(row)]
    keyword_sure = KEYWORD_GRID[-1]
    for threshold in reversed(KEYWORD_GRID):
        called = [
            row.right
            for row in cards
            if not pool.items[row.n].shared
            and ((row.keyword and certainty[row.n] >= threshold) or (row.asked_kind and certainty[row.n] >= sure_at))
        ]
        if called and interval(sum(called), len(called))[0] >= CARD_SURE_BOUND:
            keyword_sure = threshold
        elif keyword_sure < KEYWORD_GRID[-1]:
            break
    total, _own = pool.counts(learnt_from)
    return Model(weights, total, gate_model, gate_at, sure, sure_at, keyword_sure)
