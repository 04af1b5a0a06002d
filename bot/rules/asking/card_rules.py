"""The rules a named card's own keywords, types, layout and costs point to, by the CR's own names for them.

A card's keywords (a 702 rule title or a glossary term: evoke → 702.74, fuse → 702.102, landcycling → 702.29) and the
most specific subrule that speaks of the card's wording ("Protection from everything" → 702.16j); its subtypes and
layout where the glossary defines them (a Saga → 714, an Adventure → 715); the keyword actions in its costs (a discard
cost → 701.9), and those of its effects the question names. :mod:`bot.rules.asking.cards` weighs them in the
ranking.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from weakref import WeakKeyDictionary

from bot.documents import STOPWORDS, stem, words
from bot.rules.asking.card_facts import CardFacts
from bot.rules.ranking import RulesIndex

CARD_RULES = 4  # rules taken from one card at the most
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


@dataclass
class CardRule:
    number: str
    named: bool  # the question names it too
    order: int = field(default=0)


def _stems(text: str) -> set[str]:
    return {stem(word) for word in words(text) if word not in STOPWORDS}


def plain_text(text: str) -> str:
    """Lower case, reminder text out, one line per line of the card."""
    return "\n".join(" ".join(line.split()) for line in REMINDER.sub(" ", text).lower().split("\n"))


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

        text = plain_text(card.oracle_text)
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
