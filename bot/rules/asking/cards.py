"""Rules questions that name cards: the cards, the rulings that bear on the question, the rules that decide it.

A judge reads the cards first. :func:`answer_with_cards` shows each card named in a question (name, mana cost,
type line, Oracle text), then up to :data:`RULINGS_SHOWN` of its rulings ranked by the question's words, then
the rules, chosen from the question and the cards together:

* what kind of ability each sentence of the card is, and the rules a judge opens for it (a dies trigger: 603.10a;
  "… instead": 614.1a), read by :mod:`bot.rules.asking.abilities` from one data file, and which of those kinds the
  question asks about ("does it still trigger");
* the card's keywords, types, layout and costs, by the CR's own names for them (:mod:`bot.rules.asking.card_rules`);
* the rules whose text names the card (the rules' examples name real cards);
* the cards' kinds and the question's ask as tokens of associations learnt from the tuning part's card questions
  (which sections and rules the questions holding them were answered from).

All of them are features of the ranking (:class:`~bot.rules.ranking.CardSignals`), weighed with the question's
words; the ranking's first rule leads (the whole rule when its first two are subrules of one rule) and the cards' own
rules follow. The answer is sure only when the question and the cards agree.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from bot.documents import Answer, clip, is_under, stem, words
from bot.rules.asking.abilities import asks_of, read_card
from bot.rules.asking.card_facts import CardFacts, CardShown
from bot.rules.asking.card_rules import CardRule, card_rules, plain_text
from bot.rules.asking.questions import (
    POOL,
    RANKED,
    cited_number,
    pool,
    shown_key,
    sibling_choice,
    sure_answer,
    unsure_answer,
)
from bot.rules.ranking import CardSignals, Ranking, RulesIndex, proposed

RULINGS_SHOWN = 3
# Two replacement effects meeting one event: the affected object's controller or owner orders them (616.1).
REPLACEMENTS_MEET = "616.1"
# What a card's text proposes for a question about it: copies, face-down permanents, layers, a new object.
CARD_INTERACTIONS = frozenset({"707.2", "707.10", "708.2", "613.1", "400.7"})
LEAD = 1  # the ranking's first rules, before the cards' own
# A named keyword's rule leading is sure from this certainty on (fitted on the tuning part's card questions: 11 of
# 12 right there), where a rule of a kind of ability the question asks about needs the ranking's own SURE_AT.
KEYWORD_SURE = 0.3
SEE_ALSO = 5


def rank_rulings(question_stems: set[str], rulings: tuple[dict[str, str], ...], idf: dict[str, float]) -> list[dict]:
    """The rulings that share words with the question, the most relevant first (at most :data:`RULINGS_SHOWN`).

    Each shared word counts by its rarity in the rules (``idf``), and a long ruling by the square root of its
    length, so that a short ruling on the point beats a long one that mentions it in passing.
    """
    scored = []
    for position, ruling in enumerate(rulings):
        found = words(ruling.get("comment", ""))
        shared = question_stems & {stem(word) for word in found}
        if not shared:
            continue
        value = sum(idf.get(s, 2.0) for s in shared) / math.sqrt(max(8, len(found)))
        scored.append((-value, -position, ruling))
    scored.sort(key=lambda item: (item[0], item[1]))
    return [ruling for _v, _p, ruling in scored[:RULINGS_SHOWN]]


def interaction_rules(cards: list[CardFacts]) -> list[str]:
    """The rules the named cards' own text proposes when they meet (see :mod:`bot.rules.ranking.interactions`): a card
    that copies, turns face down, changes what an object is or moves it out and back; and a replacement effect
    on each of two cards is settled by 616.1, which orders them. A card's own replacement effect alone ("enters
    with counters") says nothing of the question."""
    found: list[str] = []
    replacing = 0
    for card in cards:
        own = proposed(plain_text(card.oracle_text))
        replacing += "614.1a" in own
        found += [number for number in own if number in CARD_INTERACTIONS]
    if replacing >= 2:
        found.insert(0, REPLACEMENTS_MEET)
    return list(dict.fromkeys(found))


@dataclass
class ReadingParts:
    """Which parts of reading a card a card question's answer uses (all of them; the evaluation takes each away in
    turn to measure what it adds)."""

    kinds: bool = True  # each card's kinds of ability and their rules, as features of the ranking
    asks: bool = True  # the question's ask joined to those kinds
    examples: bool = True  # the rules whose text names a card
    ranked_first: bool = True  # the ranking, cards and all, leads; else the cards' own rules lead as before
    learnt: bool = True  # the kinds and the ask as tokens of the associations learnt from the tuning part


READING = ReadingParts()


def card_signals(index: RulesIndex, text: str, cards: list[CardFacts], own: list[CardRule]) -> CardSignals:
    """What ``cards`` bring to the ranking of ``text``: the rules of their kinds of ability, of the kinds the question
    asks about, of their own keywords and layouts (``own``, from :meth:`CardRules.for_card`), the rows naming them,
    and the kinds and the ask as tokens of the learnt associations (see :class:`CardSignals`)."""
    asks = asks_of(text) if READING.asks else []
    joined = set().union(*(ask.joins for ask in asks))
    kinds: dict[str, float] = {}
    asked: dict[str, float] = {}
    tokens = [f"ask:{ask.name}" for ask in asks]
    for card in cards if READING.kinds else []:
        for reading in read_card(card.oracle_text, card.type_line, card.name):
            kind = reading.kind
            tokens += [f"kind:{kind.name}", *(f"{ask.name}×{kind.name}" for ask in asks if kind.group in ask.joins)]
            for place, number in enumerate(kind.rules):
                if index.document.get(number) is None:
                    continue  # a rule this edition lacks (scripts/check_phrasings.py reports it)
                value = 1.0 if place == 0 else 0.5
                kinds[number] = max(kinds.get(number, 0.0), value)
                if kind.group in joined:
                    asked[number] = max(asked.get(number, 0.0), value)
    if READING.kinds:
        for number in interaction_rules(cards):
            kinds.setdefault(number, 1.0)
    names = [face for card in cards for face in card.name.split(" // ")]
    examples = index.searcher.card_examples(names) if READING.examples else frozenset()
    return CardSignals(
        kinds,
        asked,
        frozenset(rule.number for rule in own if not rule.named),
        frozenset(rule.number for rule in own if rule.named),
        examples,
        tuple(dict.fromkeys(tokens)) if READING.learnt else (),
    )


def read_cards(
    index: RulesIndex, text: str, asked: str, cards: list[CardFacts], shared: frozenset[str] = frozenset()
) -> tuple[set[str], list[CardRule], list[CardShown], CardSignals]:
    """What ``cards`` named in ``text`` bring to its answer: the stems of ``asked`` (the question without the
    names), each card's own rules, each card as shown with its rulings for the question, and what they bring to the
    ranking (nothing from the ``shared`` ones)."""
    searcher = index.searcher
    searcher.warm()
    question = {stem(word) for word in searcher.terms(asked)}
    rules = card_rules(index)
    cited: list[CardRule] = []
    shown: list[CardShown] = []
    for card in cards:
        own = rules.for_card(card, question) if card.name not in shared else []
        cited += own
        rulings = tuple(rank_rulings(question, card.rulings, searcher.idf))
        shown.append(CardShown(card, rulings, tuple(rule.number for rule in own)))
    known = [card for card in cards if card.name not in shared]
    return question, cited, shown, card_signals(index, text, known, cited)


@dataclass
class CardRanking:
    """How a card question's rules are ranked and ordered, before the answer is drawn: the ranking (None when the
    question holds no word the rules use), the answer's rules in order, and whether the question and the cards
    agree on the first (its rule is that of a keyword of a card the question names, or of a kind of ability the
    question asks about)."""

    ranking: Ranking | None
    order: list[str]
    cited: list[CardRule]
    shown: list[CardShown]
    signals: CardSignals
    keyword: bool = False
    asked_kind: bool = False
    deciding: str | None = None  # the ranking's first subrule, when its whole rule leads (see sibling_choice)

    @property
    def confident(self) -> bool:
        return self.ranking is not None and self.ranking.confident and bool(self.ranking.hits)

    def sure(self, shared: frozenset[str], keyword_sure: float | None = None) -> bool:
        """Sure only when the ranking believes the text a question, no card was found by a name several share, and
        the question's ask and the cards agree: a named keyword's rule leads at a certainty of ``keyword_sure``
        (KEYWORD_SURE) or more, or a rule of an asked kind leads and the ranking is sure."""
        if not READING.ranked_first:
            return any(rule.named for rule in self.cited) or (self.confident and self.ranking.sure)
        at = KEYWORD_SURE if keyword_sure is None else keyword_sure
        ranking = self.ranking
        return (
            self.confident
            and not shared
            and ((self.keyword and ranking.certainty >= at) or (self.asked_kind and ranking.sure))
        )


def rank_with_cards(
    index: RulesIndex, text: str, asked: str, cards: list[CardFacts], shared: frozenset[str] = frozenset()
) -> CardRanking:
    """The rules for ``text`` that names ``cards`` (see :func:`answer_with_cards`), ranked on ``asked`` with what the
    cards bring, and in the order the answer shows them: the ranking's first rules lead, then the cards' own rules
    (their keywords, layouts, how two of them meet), then the rest of the ranking."""
    searcher = index.searcher
    question, cited, shown, signals = read_cards(index, text, asked, cards, shared)
    ranking = searcher.rank(asked, POOL, cards=signals) if question else None
    ranked = [shown_key(index, hit, asked) for hit in ranking.hits[:RANKED]] if ranking is not None else []
    asked_hits = sibling_choice(index, ranked)
    named = [rule.number for rule in cited if rule.named]
    others = [rule.number for rule in cited if not rule.named]
    meeting = [number for number in interaction_rules(cards) if index.document.get(number) is not None]
    if not READING.ranked_first:
        found = CardRanking(ranking, [], cited, shown, signals)
        first = asked_hits[:1] if found.confident else []
        found.order = list(dict.fromkeys([*named, *first, *meeting, *others, *asked_hits]))
        return found
    order = list(dict.fromkeys([*asked_hits[:LEAD], *named, *meeting, *others, *asked_hits]))
    top = cited_number(index, ranked[0]) if ranked else ""
    return CardRanking(
        ranking,
        order,
        cited,
        shown,
        signals,
        keyword=any(is_under(top, ref) for ref in signals.named),
        asked_kind=any(is_under(top, ref) for ref in signals.asked),
        deciding=ranked[0] if asked_hits[:1] != ranked[:1] else None,
    )


def answer_with_cards(
    index: RulesIndex,
    text: str,
    asked: str,
    cards: list[CardFacts],
    more: int = 0,
    shared: frozenset[str] = frozenset(),
) -> Answer:
    """The answer to ``text`` (the question as typed) that names ``cards``; ``asked`` is the question with the
    card names taken out, which the rules are ranked on, with what the cards bring (:func:`card_signals`). ``more``
    counts the cards named beyond those shown; ``shared``: the cards shown for a name several share ("Krenko"),
    whose abilities the rules are not ranked by, since which one is meant is unsaid.

    The ranking leads; the cards' own rules follow (:func:`rank_with_cards`). It is sure only when the question and
    the cards agree (:meth:`CardRanking.sure`)."""
    found = rank_with_cards(index, text, asked, cards, shared)
    ranking, order = found.ranking, found.order
    sure = found.sure(shared)
    if not order:
        answer = unsure_answer(index, text, [])
        answer.candidates = answer.related = answer.cited = []
        answer.title = clip(", ".join(card.name for card in cards), 256)
        answer.note = "No rule stands out for this question; the cards and their rulings are above."
    elif sure:
        answer = sure_answer(index, text, order, deciding=found.deciding)
    else:
        answer = unsure_answer(index, text, order)
    answer.kind = "cards"
    answer.cards = found.shown
    answer.more_cards = more
    named = any(rule.named for rule in found.cited)
    if ranking is not None:
        answer.certainty = ranking.certainty if sure or not named else answer.certainty
    lexical = pool(index, ranking.hits, asked) if ranking is not None else []
    answer.pool = list(dict.fromkeys([*(cited_number(index, key) for key in order), *lexical]))[:POOL]
    answer.pool = [number for number in answer.pool if number]
    return answer
