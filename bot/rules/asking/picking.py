"""What a language model's pick (see :mod:`bot.rules.ranking.picker`) does to an answer, and what it is asked to
pick from.

The model only orders the ranking's own candidates; the answer is rebuilt from the rules' text, as every answer
is. When it names the lexical answer's first rule, the answer grows surer (it may become *sure*); when it names
another, the answer grows less sure, and unless the lexical answer stays sure even so, the rules that may answer
are listed with the model's first (see :func:`bot.rules.ranking.confidence.with_model`).
"""

from __future__ import annotations

import re

from bot.documents import SURE, Answer, is_under
from bot.rules.asking.questions import sure_answer, unsure_answer
from bot.rules.ranking import SURE_AT, Candidate, Pick, RulesIndex, with_model

SENTENCE_END_RE = re.compile(r"(?<=[.!?])\s")
PICKED_KINDS = ("question", "cards")


def wants_pick(answer: Answer) -> bool:
    """Whether a model may reorder ``answer``: a question in words answered (a miss never waits on a model), with
    candidates to choose among, and not one named outright (which is always right as it is)."""
    return answer.found and answer.kind in PICKED_KINDS and bool(answer.pool) and answer.certainty < 1.0


def candidates(index: RulesIndex, answer: Answer) -> list[Candidate]:
    """The lexical candidates the model is shown: each rule's number and first sentence."""
    out = []
    for number in answer.pool:
        rule = index.document.get(number)
        if rule is not None:
            out.append(Candidate(number, SENTENCE_END_RE.split(rule.text, maxsplit=1)[0]))
    return out


def cards_of(answer: Answer) -> list[tuple[str, str]]:
    """The cards a question names, as the model is shown them: name and Oracle text."""
    return [(card.facts.name, card.facts.oracle_text) for card in answer.cards]


def same_rule(a: str, b: str) -> bool:
    return bool(a and b) and (is_under(a, b) or is_under(b, a))


def with_pick(index: RulesIndex, answer: Answer, pick: Pick | None, *, examples: bool = True) -> Answer:
    """``answer`` as the model's ``pick`` reorders it (unchanged without a pick from its candidates)."""
    if pick is None or not wants_pick(answer):
        return answer
    picked = [number for number in pick.rules if number in answer.pool]
    ranked = answer.ranked()
    if not picked or not ranked:
        return answer
    agrees = same_rule(picked[0], ranked[0])
    certainty = with_model(answer.certainty, agrees=agrees, sure=pick.sure)
    sure = certainty >= SURE_AT
    if agrees and (answer.confidence == SURE or not sure):
        answer.certainty = certainty
        return answer
    if not agrees and answer.confidence == SURE and sure:
        answer.certainty = certainty  # the ranking stays sure though the model named another rule
        return answer
    text = answer.query
    keys = list(dict.fromkeys([*(picked if not agrees else ranked[:1]), *answer.pool]))
    if agrees and answer.kind == "question":
        rebuilt = sure_answer(index, text, keys, examples=examples)
    else:
        rebuilt = unsure_answer(index, text, keys)
    rebuilt.kind, rebuilt.cards, rebuilt.more_cards = answer.kind, answer.cards, answer.more_cards
    rebuilt.pool, rebuilt.certainty = answer.pool, certainty
    return rebuilt
