"""Rules questions that name cards: the cards, the rulings that bear on the question, the rules that decide it.

A judge reads the cards first. :func:`answer_with_cards` shows each card named in a question (name, mana cost,
type line, Oracle text), then up to :data:`RULINGS_SHOWN` of its rulings ranked by the question's words, then
the rules, chosen from the question and the cards together:

* the card's keywords, by the CR's own names for them (a 702 rule title or a glossary term: evoke → 702.74,
  fuse → 702.102, landcycling → 702.29), and the most specific subrule that speaks of the card's wording
  ("Protection from everything" → 702.16j);
* its subtypes and layout, where the glossary defines them (a Saga → 714, an Adventure → 715);
* the keyword actions in its costs (a discard cost → 701.9), and those of its effects the question names.

A rule the question also names (the player asked about evoking Solitude) leads; otherwise the question's own
best match does when the ranker is confident, and the cards' rules follow.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any, Protocol
from weakref import WeakKeyDictionary

from bot.documents import STOPWORDS, Answer, clip, stem, words
from bot.rules.asking.questions import POOL, RANKED, cited_number, pool, shown_key, sure_answer, unsure_answer
from bot.rules.ranking import RulesIndex, proposed

RULINGS_SHOWN = 3
# Two replacement effects meeting one event: the affected object's controller or owner orders them (616.1).
REPLACEMENTS_MEET = "616.1"
# What a card's text proposes for a question about it: copies, face-down permanents, layers, a new object.
CARD_INTERACTIONS = frozenset({"707.2", "707.10", "708.2", "613.1", "400.7"})
CARD_RULES = 4  # rules taken from one card at the most
SEE_ALSO = 5
REMINDER = re.compile(r"\([^()]*\)")
ADDITIONAL_COST = re.compile(r"as an additional cost to cast [^,]+, ([^.]+)", re.IGNORECASE)
# Layouts the glossary names (Scryfall's layout → the CR's term).
LAYOUT_TERMS = {
    "split": "Split Cards",
    "flip": "Flip Cards",
    "transform": "Double-Faced Cards",
    "modal_dfc": "Modal Double-Faced Cards",
    "meld": "Meld",
    "adventure": "Adventurer Card",
    "saga": "Saga",
    "class": "Class",
    "case": "Case",
    "leveler": "Level Up",
    "prototype": "Prototype",
    "mutate": "Mutate",
    "battle": "Battle",
}
# Card types and supertypes are what almost every card is: they point to no rule a question turns on.
BROAD_TYPES = frozenset(
    "artifact creature enchantment instant land planeswalker sorcery kindred tribal legendary basic snow world "
    "token ongoing".split()
)


@dataclass(frozen=True, slots=True)
class CardFacts:
    """What the rules answer shows of one card; ``rulings`` are Scryfall's ruling objects, oldest first."""

    name: str
    mana_cost: str
    type_line: str
    oracle_text: str
    keywords: tuple[str, ...] = ()
    layout: str = "normal"
    rulings: tuple[dict[str, str], ...] = ()
    rulings_known: bool = True  # False: the local copy holds no rulings file yet
    oracle_id: str = ""

    @classmethod
    def from_card(cls, card: Any, rulings: list[dict[str, str]] | None = None) -> CardFacts:
        """From a local :class:`~bot.carddb.records.CardRecord` (a face's text under the face's name); ``rulings``
        None when the local copy holds none yet."""
        faces = card.faces or []
        if faces:
            costs = [face.get("mana_cost") or "" for face in faces]
            text = "\n\n".join(
                "\n".join(
                    part
                    for part in (
                        f"{face.get('name', '')} {face.get('mana_cost') or ''}".strip(),
                        face.get("type_line") or "",
                        face.get("oracle_text") or "",
                    )
                    if part
                )
                for face in faces
            )
            mana_cost = card.mana_cost or " // ".join(cost for cost in costs if cost)
        else:
            text, mana_cost = card.oracle_text or "", card.mana_cost or ""
        return cls(
            name=card.name,
            mana_cost=mana_cost,
            type_line=card.type_line or "",
            oracle_text=text,
            keywords=tuple(card.keywords or ()),
            layout=card.layout or "normal",
            rulings=tuple(rulings or ()),
            rulings_known=rulings is not None,
            oracle_id=card.oracle_id or "",
        )


@dataclass(frozen=True, slots=True)
class CardShown:
    """A card as the answer shows it: its rulings chosen for the question, and how many it has in all."""

    facts: CardFacts
    rulings: tuple[dict[str, str], ...]
    rules: tuple[str, ...]

    @property
    def ruling_count(self) -> int:
        return len(self.facts.rulings)

    @property
    def heading(self) -> str:
        return " ".join(part for part in (self.facts.name, self.facts.mana_cost) if part)

    def rulings_note(self) -> str:
        """How many rulings the card has and how many are shown ("2 of its 7 rulings bear on the question")."""
        total, shown = self.ruling_count, len(self.rulings)
        if not self.facts.rulings_known:
            return "Its rulings are not in the local card data yet."
        if not total:
            return "No rulings."
        if not shown:
            return (
                f"None of its {total} rulings speaks of this question."
                if total > 1
                else ("Its ruling does not speak of this question.")
            )
        return f"{shown} of its {total} rulings bear on the question:" if total > 1 else "Its ruling:"

    def text_lines(self) -> list[str]:
        """The card as plain text (the command line prints this)."""
        out = [self.heading, self.facts.type_line, *self.facts.oracle_text.split("\n"), self.rulings_note()]
        out += [f"  • {ruling.get('published_at', '')}: {ruling.get('comment', '')}" for ruling in self.rulings]
        return [line for line in out if line]


@dataclass(frozen=True, slots=True)
class FoundCards:
    """The cards a question names, read with their rulings, and the question without their names."""

    cards: list[CardFacts]
    asked: str
    more: int = 0  # cards named beyond those read


class CardFinder(Protocol):
    """Finds the cards a question names in the local card data (``bot.cards.questions.QuestionCards``)."""

    def ready(self) -> bool:
        """Whether card data is loaded: finding cards then reads from its pool, which may wait."""
        ...

    async def find(self, index: RulesIndex, query: str) -> FoundCards | None:
        """The cards ``query`` names, or None when it names none."""
        ...


@dataclass
class CardRule:
    number: str
    named: bool  # the question names it too
    order: int = field(default=0)


def _stems(text: str) -> set[str]:
    return {stem(word) for word in words(text) if word not in STOPWORDS}


def _plain(text: str) -> str:
    """Lower case, reminder text out, one line per line of the card."""
    return "\n".join(" ".join(line.split()) for line in REMINDER.sub(" ", text).lower().split("\n"))


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


class CardRules:
    """The rules a card's keywords, types, layout and costs point to, by the CR's own names for them."""

    def __init__(self, index: RulesIndex) -> None:
        self.index = index
        document = index.document
        self._titles: dict[str, str] = {}
        for rule in document.entries:
            if rule.kind == "rule" and rule.is_titled and rule.number[:3] in ("701", "702"):
                self._titles.setdefault(rule.text.strip().lower(), rule.number)
        self._actions = {
            stem(title): number
            for title, number in self._titles.items()
            if number.startswith("701.") and " " not in title
        }

    def by_name(self, name: str) -> str | None:
        """The rule the CR defines ``name`` in (a keyword's 701/702 rule, else its glossary term's rule)."""
        key = name.strip().lower()
        if key in self._titles:
            return self._titles[key]
        number = self.index.defining_rule(name)
        if number:
            return number
        # A variant the CR names by its root (landcycling and wizardcycling are cycling).
        for start in range(1, len(key) - 3):
            if key[start:] in self._titles:
                return self._titles[key[start:]]
        return None

    def written_keywords(self, text: str) -> list[str]:
        """The keywords a card's lines start with ("Swampwalk", "Cycling—Pay 2 life"), for cards whose data
        lists none: each comma-separated part of a line of ``text`` (:func:`_plain`) is tried against the CR's
        keyword titles."""
        found = []
        for line in text.split("\n"):
            for part in re.split(r"[,;]", line):
                head = words(part)[:3]
                for size in range(len(head), 0, -1):
                    name = " ".join(head[:size])
                    if self._titles.get(name, "").startswith("702."):
                        found.append(name)
                        break
        return found

    def specific(self, number: str, text: str, keyword: str) -> str:
        """The subrule of ``number`` that speaks of the card's own wording for ``keyword`` in ``text``
        (:func:`_plain`), else ``number``."""
        wanted = keyword.lower()
        for line in text.split("\n"):
            for part in line.split(","):
                part = part.strip().rstrip(".")
                if part.startswith(wanted) and len(part) > len(wanted):
                    for rule in self.index.document.descendants(number):
                        if part in rule.text.lower():
                            return rule.number
        return number

    def for_card(self, card: CardFacts, question: set[str]) -> list[CardRule]:
        found: dict[str, CardRule] = {}

        def add(number: str | None, name: str, *, leads: bool = True) -> None:
            """``leads``: the rule may lead the answer when the question names it (a keyword, a type), unlike the
            keyword actions a card's text performs ("counter that spell"), which name no topic of their own."""
            if number and number not in found:
                found[number] = CardRule(number, leads and bool(_stems(name) & question), len(found))

        text = _plain(card.oracle_text)
        for keyword in dict.fromkeys([*card.keywords, *self.written_keywords(text)]):
            number = self.by_name(keyword)
            if number:
                add(self.specific(number, text, keyword), keyword)
        term = LAYOUT_TERMS.get(card.layout)
        if term:
            add(self.by_name(term), term)
        for word in words(card.type_line.split("—", 1)[1] if "—" in card.type_line else ""):
            if word not in BROAD_TYPES:
                add(self.by_name(word), word)
        costs = [line.split(":", 1)[0] for line in text.split("\n") if ":" in line]
        costs += [match[1] for match in ADDITIONAL_COST.finditer(text)]
        for cost in costs:
            for word in words(cost):
                add(self._actions.get(stem(word)), word, leads=False)
        for word in sorted(set(words(text))):
            if stem(word) in question and stem(word) in self._actions:
                add(self._actions[stem(word)], word, leads=False)
        return sorted(found.values(), key=lambda rule: (not rule.named, rule.order))[:CARD_RULES]


_CARD_RULES: WeakKeyDictionary[RulesIndex, CardRules] = WeakKeyDictionary()


def card_rules(index: RulesIndex) -> CardRules:
    """The rules cards' keywords, types and costs point to, read from an edition once."""
    found = _CARD_RULES.get(index)
    if found is None:
        found = _CARD_RULES[index] = CardRules(index)
    return found


def interaction_rules(cards: list[CardFacts]) -> list[str]:
    """The rules the named cards' own text proposes when they meet (see :mod:`bot.rules.ranking.interactions`): a card
    that copies, turns face down, changes what an object is or moves it out and back; and a replacement effect
    on each of two cards is settled by 616.1, which orders them. A card's own replacement effect alone ("enters
    with counters") says nothing of the question."""
    found: list[str] = []
    replacing = 0
    for card in cards:
        own = proposed(_plain(card.oracle_text))
        replacing += "614.1a" in own
        found += [number for number in own if number in CARD_INTERACTIONS]
    if replacing >= 2:
        found.insert(0, REPLACEMENTS_MEET)
    return list(dict.fromkeys(found))


def answer_with_cards(index: RulesIndex, text: str, asked: str, cards: list[CardFacts], more: int = 0) -> Answer:
    """The answer to ``text`` (the question as typed) that names ``cards``; ``asked`` is the question with the
    card names taken out, which the rules are ranked on. ``more`` counts the cards named beyond those shown."""
    searcher = index.searcher
    searcher.warm()
    question = {stem(word) for word in searcher.terms(asked)}
    idf = searcher.idf
    rules = card_rules(index)
    cited: list[CardRule] = []
    shown: list[CardShown] = []
    for card in cards:
        own = rules.for_card(card, question)
        cited += own
        shown.append(CardShown(card, tuple(rank_rulings(question, card.rulings, idf)), tuple(r.number for r in own)))
    ranking = searcher.rank(asked, POOL) if question else None
    asked_hits = [shown_key(index, hit, asked) for hit in ranking.hits[:RANKED]] if ranking is not None else []
    named = [rule.number for rule in cited if rule.named]
    others = [rule.number for rule in cited if not rule.named]
    confident = ranking is not None and ranking.confident and bool(asked_hits)
    meeting = [number for number in interaction_rules(cards) if index.document.get(number) is not None]
    # The question's best match (when the ranker takes it for a question) before the cards' own rules, the rules
    # settling how the cards meet before the rules of their keywords, the rest after.
    first = asked_hits[:1] if confident else []
    order = list(dict.fromkeys([*named, *first, *meeting, *others, *asked_hits]))
    sure = bool(named) or (confident and ranking.sure)
    if not order:
        answer = unsure_answer(index, text, [])
        answer.candidates = answer.related = answer.cited = []
        answer.title = clip(", ".join(card.name for card in cards), 256)
        answer.note = "No rule stands out for this question; the cards and their rulings are above."
    elif sure:
        answer = sure_answer(index, text, order)
    else:
        answer = unsure_answer(index, text, order)
    answer.kind = "cards"
    answer.cards = shown
    answer.more_cards = more
    if not named and ranking is not None:
        answer.certainty = ranking.certainty
    lexical = pool(index, ranking.hits, asked) if ranking is not None else []
    answer.pool = list(dict.fromkeys([*(cited_number(index, key) for key in order), *lexical]))[:POOL]
    answer.pool = [number for number in answer.pool if number]
    return answer
