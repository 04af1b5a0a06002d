"""How much each signal counts when ranking entries for a question (see :meth:`Searcher.candidates`).

An entry's score is a weighted sum of its features. The weights are fitted on the tuning part of the
question set (``benchmarks/fit_rules_ranker.py``) and never on its frozen test part, which only measures.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

from bot.rules.ranking.hits import Candidate

# Per word stem of the tuning questions: how often a question holding it was answered from each section
# ("704") and each rule ("704.5"). Written by benchmarks/fit_rules_ranker.py from the tuning part only.
ASSOCIATIONS = Path(__file__).resolve().parents[2] / "data" / "rules-associations.json"
Associations = dict[str, tuple[dict[str, int], dict[str, int]]]

FEATURES = (
    "bm25",  # bm25 of the question's words, the title counting more, scaled to the best candidate's
    "cover",  # the share of the question's words (by rarity) the entry holds
    "title_cover",  # ... that its title (or its rule's title) holds
    "subrule",  # a side subrule (702.19c) rather than a whole rule
    "glossary",  # a glossary entry rather than a rule
    "first_rule",  # the first rule of its section (305.1 states what 305.4 qualifies)
    "variant",  # a variant or multiplayer rule (800–999) for a question that names no variant
    "near",  # two of the question's rarer words stand next to each other in it
    "topic",  # the share of the question naming a glossary term or title that points to the entry's rule
    "consequence",  # "what happens if …" and the entry is a state-based action (704)
    "context",  # the share of the question's words found only around the entry (its rule, its section)
    "phrases",  # the share of the question's word pairs found as pairs in the entry
    "length",  # the entry's length (log)
    "answers",  # the entry says what the question asks for (a time for "when", a permission for "can I" …)
    "defined",  # the share of the named glossary terms' defining words the entry holds ("dies": graveyard)
    "section_words",  # how strongly the question's words point to the entry's section (tuning questions)
    "rule_words",  # ... to the entry's rule
    "proposed",  # the entry is (under) a rule the question's phrasing proposes: two effects meeting
    "defines",  # the question asks what a term means ("count as dying") and the entry is the term's rule
    "phrased",  # the share of the question's words (by rarity) the entry's phrasings hold (players' words for it)
    "asked_like",  # how closely the question is one its phrasings ask (see features.phrase_values)
    "distinct",  # how well its own words answer the question against its section's other candidates (its parent,
    # its neighbours: see features.distinctness)
    # The cards the question names (see features.CardSignals; all 0 for a question naming none):
    "card_kind",  # the entry is (under) a rule of a kind of ability the cards have (614.1a for "… instead")
    "card_asked",  # ... of a kind the question asks about ("does it trigger" and a dies trigger: 603.10a)
    "card_own",  # ... of a card's own keyword or layout that the question does not name
    "card_named",  # ... of a card's own keyword or layout that the question names
    "card_example",  # its text names one of the cards (the rules' examples name real cards)
    "card_learnt",  # how strongly the cards' kinds of ability and the question's ask point to its section and rule, as
    # learnt from the tuning part's card questions (see features.card_learnt)
)

WEIGHTS = (
    0.05,
    -0.05,
    -0.3,
    -0.05,
    -2,
    0.05,
    -0.3,
    0.15,
    0.6,
    0.3,
    -2,
    0.3,
    0,
    0.15,
    0.6,
    3,
    3,
    0.6,
    1.5,
    1,
    0.6,
    0.05,
    -0.3,
    1,
    -0.15,
    -0.05,
    0.3,
    0,
)
# A question naming cards is ranked with weights of its own, fitted on the tuning part's questions naming cards
# (starting from WEIGHTS and held near them), so that what helps them costs the questions naming none nothing.
CARD_WEIGHTS = WEIGHTS

# Whether a text is a rules question its best entry answers, or a message about something else ("gg", "how
# much is a black lotus worth"): a logistic model over these values (see gate_values), fitted on the
# tuning part's questions and non-questions; an answer is given when its probability reaches GATE_THRESHOLD.
GATE = (
    "cover",  # the share of the question's words (by rarity) the best entry holds
    "whole",  # ... all of them
    "in_topic",  # the best entry belongs to a topic the question names
    "terms",  # how many topic words the text holds (scaled, capped)
    "unknown",  # the share of them the rules never use
    "question_mark",  # it holds a question mark
    "opens_as_question",  # it opens as a question does ("can", "does", "what" …)
    "rarest",  # how rare in the rules its rarest word is that they use ("landcycling" is in few entries)
    "jargon",  # how rare in everyday English the rarest of its words the rules use is ("thank" is common)
    "share",  # how much the best entry stands out from the next ones (see share())
    "plain",  # it is not phrased as a question (neither of the two above): search words ("landcycling")
    "plain_cover",  # for such a text, cover, whole, unknown and jargon again: they count differently there
    "plain_whole",
    "plain_unknown",
    "plain_jargon",
    "asked_like",  # how closely the text is a question the best entry's phrasings ask (players' words)
)
GATE_WEIGHTS = (
    4.01,
    -0.82,
    0.799,
    5.09,
    -4.44,
    0.899,
    0.749,
    -2.68,
    3.68,
    -0.756,
    -0.0725,
    1.78,
    -0.0925,
    1.85,
    0.951,
    1.85,
)
GATE_BIAS = -6.14
GATE_THRESHOLD = 0.5

# How much the best entry stands out is its share of the softmax over the best five scores (see share()).
SURE_AMONG = 5


ASKED_LIKE = FEATURES.index("asked_like")
# Counting a question's topic words stops here: a long question is as much a question as a longer one.
GATE_TERMS = 12
# An entry holding this much of the question (by rarity) holds all of it, rounding aside.
WHOLE_COVER = 0.999


def gate_values(best: Candidate, scores: list[float], features: tuple[float, ...]) -> tuple[float, ...]:
    """The values :func:`believed` weighs to tell a rules question its best entry answers from a message about
    something else (see GATE); ``features`` are the best entry's (see FEATURES)."""
    asked = best.asked
    whole = 1.0 if best.cover >= WHOLE_COVER else 0.0
    # Words typed as a search, without a question's phrasing, are judged by what they are alone.
    plain = 0.0 if asked.mark or asked.asks else 1.0
    return (
        best.cover,
        whole,
        1.0 if best.in_topic else 0.0,
        min(asked.terms, GATE_TERMS) / GATE_TERMS,
        asked.unknown,
        1.0 if asked.mark else 0.0,
        1.0 if asked.asks else 0.0,
        asked.rarest,
        asked.jargon,
        share(scores),
        plain,
        plain * best.cover,
        plain * whole,
        plain * asked.unknown,
        plain * asked.jargon,
        features[ASKED_LIKE],
    )


def score(features: tuple[float, ...], weights: tuple[float, ...] = WEIGHTS) -> float:
    return sum(weight * value for weight, value in zip(weights, features, strict=True))


def believed(values: tuple[float, ...], weights: tuple[float, ...] = GATE_WEIGHTS, bias: float = GATE_BIAS) -> float:
    """How likely the text is a rules question its best entry answers (see GATE)."""
    return 1.0 / (1.0 + math.exp(-(bias + score(values, weights))))


def share(scores: list[float]) -> float:
    """The best score's share of the softmax over the best ``SURE_AMONG`` of ``scores``: how much it stands out."""
    top = sorted(scores, reverse=True)[:SURE_AMONG]
    return 1.0 / sum(math.exp(value - top[0]) for value in top) if top else 0.0


def load_associations(path: Path = ASSOCIATIONS) -> Associations:
    if not path.is_file():
        return {}
    data = json.loads(path.read_text(encoding="utf-8"))
    return {word: (found.get("sections", {}), found.get("rules", {})) for word, found in data.items()}
