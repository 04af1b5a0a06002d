"""What ranking a question yields: entries found, what the text looks like, candidates and a ranking.

Value types at the bottom of the rules package: they import nothing of it but the language helpers, so the
ranking, the answers and the card questions can all share them without importing one another.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.documents import STOPWORDS, stem, words

OBSOLETE_RE = re.compile(r"\s*\(obsolete\)\s*$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Hit:
    kind: str  # "rule" or "glossary"
    key: str  # a rule number or a glossary term
    score: float


@dataclass(frozen=True, slots=True)
class Asked:
    """What the text as a whole looks like, whichever entry answers it (see
    :func:`bot.rules.ranking.ranker.gate_values`)."""

    terms: int  # how many topic words it holds
    unknown: float  # the share of them the rules never use, names (see query.names) left out
    mark: bool  # it holds a question mark
    asks: bool  # it opens as a question does ("can", "does", "what", "if" …)
    rarest: float  # the rarity of its rarest word the rules use, 1 for a word in a single entry
    jargon: float  # how rare in everyday English its rarest word the rules use is, 1 for a word only games use


@dataclass(frozen=True, slots=True)
class Candidate:
    row: int
    cover: float  # the share of the question's words (by rarity) the entry holds
    in_topic: bool  # the entry belongs to a rule the question names
    off_topic: bool  # the question is chat about the game, not about its rules
    asked: Asked


@dataclass
class Ranking:
    hits: list[Hit]
    confident: bool  # the text is a rules question its best entry answers (see ranker.GATE)
    topic: Hit | None = None  # the question names a glossary term or a rule title outright
    sure: bool = False  # the first hit is believed right (see bot.rules.ranking.confidence)
    belief: float = 0.0  # how likely the text is a rules question its best entry answers (ranker.GATE)
    certainty: float = 0.0  # how likely the first hit is right (bot.rules.ranking.confidence)

    @classmethod
    def named(cls, topic: Hit) -> Ranking:
        """The question names its topic outright: that topic, surely."""
        return cls([topic], True, topic, sure=True, belief=1.0, certainty=1.0)


def name_stems(name: str) -> tuple[str, ...]:
    """A glossary term's or a title's word stems, sorted, without "(Obsolete)" and stop words."""
    return tuple(sorted({stem(word) for word in words(OBSOLETE_RE.sub("", name)) if word not in STOPWORDS}))
