"""How likely the first rule the ranking gives for a question is right, and when that is sure enough to say so.

A logistic model over what the ranking shows of itself. :data:`VALUES` are the values it may weigh: how far the
best entry stands ahead of the next ones, how much of the question it holds, whether the gate believed the text
a question, whether the question's words point to the best entry's section, whether the next entries agree on
the section, how long the question is. :data:`USED` are the ones it does weigh: each of the others was dropped
because leaving it out did not lower the likelihood of held-out answers (questions from sources the fit had
not seen, ranked with weights and word associations fitted without them). All of it is fitted on the tuning
part of the question set only (``benchmarks/fit_rules_confidence.py``).

An answer is *sure* from :data:`SURE_AT` on: the lowest threshold at which the held-out answers called sure,
among the questions gathered from public pages (not the project's own, which are easier), were right often
enough that the lower end of their 90 % interval stays at 90 % or more (precision first: a sure answer should
be right).
"""

from __future__ import annotations

import math

from bot.rules.ranking.hits import Candidate
from bot.rules.ranking.ranker import FEATURES

SECTION_WORDS, TOPIC = FEATURES.index("section_words"), FEATURES.index("topic")
PHRASED, ASKED_LIKE = FEATURES.index("phrased"), FEATURES.index("asked_like")

VALUES = (
    "belief",  # the gate's belief that the text is a rules question its best entry answers
    "share",  # the best score's share of the softmax over the best five
    "margin",  # the best score less the second's (capped at 2)
    "cover",  # the share of the question's words (by rarity) the best entry holds
    "in_topic",  # the best entry belongs to a topic the question names
    "section_words",  # how strongly the question's words point to the best entry's section (its feature)
    "topic",  # the share of the question naming the best entry's topic (its feature)
    "agree",  # the share of the next three entries in the best entry's section
    "length",  # how long the question is (log of its words)
    "subrule",  # the best entry is a subrule
    "glossary",  # the best entry is a glossary entry
    "phrased",  # the share of the question the best entry's phrasings hold (players' words for it)
    "asked_like",  # how closely the question is one its phrasings ask
)
USED = ("share", "cover", "in_topic", "section_words", "phrased")
WEIGHTS = (4.89, 2.78, 0.677, 6.13, -1.24)
BIAS = -3.39
SURE_AT = 0.9
MARGIN_CAP = 2.0
_USED = tuple(VALUES.index(name) for name in USED)


def values(
    best: Candidate,
    belief: float,
    scores: list[float],
    share: float,
    best_features: tuple[float, ...],
    agree: float,
    words: int,
    *,
    subrule: bool,
    glossary: bool,
) -> tuple[float, ...]:
    """All the values the model may weigh for a ranked question (see VALUES); ``scores`` are sorted best first."""
    margin = min(MARGIN_CAP, scores[0] - scores[1]) if len(scores) > 1 else MARGIN_CAP
    return (
        belief,
        share,
        margin,
        best.cover,
        1.0 if best.in_topic else 0.0,
        best_features[SECTION_WORDS],
        best_features[TOPIC],
        agree,
        math.log(1 + words) / 4,
        1.0 if subrule else 0.0,
        1.0 if glossary else 0.0,
        best_features[PHRASED],
        best_features[ASKED_LIKE],
    )


def certainty(found: tuple[float, ...], weights: tuple[float, ...] = WEIGHTS, bias: float = BIAS) -> float:
    """How likely the best entry is right (0–1), from all the values (see VALUES); only the USED ones count."""
    total = bias + sum(weight * found[i] for weight, i in zip(weights, _USED, strict=True))
    return 1.0 / (1.0 + math.exp(-total))


# What an operator's language model (bot/rules/ranking/picker.py) adds to how sure the first rule is, on the log-odds
# scale: naming the same rule and saying it is sure, naming it unsure, naming another. These are priors, set so
# that disagreement alone can take a lexical answer below SURE_AT and agreement alone can lift one just under it;
# bench_rules_eval.py --replies measures them on a recorded model's replies.
MODEL_AGREES_SURE, MODEL_AGREES, MODEL_DIFFERS = 1.5, 0.5, -2.0
_EDGE = 1e-6


def with_model(certainty: float, *, agrees: bool, sure: bool) -> float:
    """``certainty`` once a model named the same first rule (``agrees``) or another, ``sure`` of it or not."""
    if certainty >= 1.0:
        return 1.0  # a topic named outright, a number or a term: nothing to add
    shift = (MODEL_AGREES_SURE if sure else MODEL_AGREES) if agrees else MODEL_DIFFERS
    p = min(1 - _EDGE, max(_EDGE, certainty))
    return 1.0 / (1.0 + math.exp(-(math.log(p / (1 - p)) + shift)))
