"""How much each signal counts when ranking entries for a question (see :meth:`Searcher.candidates`).

An entry's score is a weighted sum of its features. The weights are fitted on the tuning part of the
question set (``benchmarks/fit_rules_ranker.py``) and never on its frozen test part, which only measures.
"""

from __future__ import annotations

# What kind of entry a row is.
RULE, SUBRULE, FIRST, GLOSSARY = 0, 1, 2, 3

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
)

WEIGHTS = (0.6, 1.0, 0.3, -0.08, -0.3, 0.2, -0.9, 0.3, 1.0, 0.25, 0.0, 0.0, 0.0, 0.0)


def score(features: tuple[float, ...], weights: tuple[float, ...] = WEIGHTS) -> float:
    return sum(weight * value for weight, value in zip(weights, features, strict=True))
