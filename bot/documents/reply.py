"""What a query to a document is answered with: how sure the bot is, the sections it cites, the text to show.

An :class:`Answer` is built in one place for each document (:mod:`bot.rules.asking.ask` for the Comprehensive
Rules, :mod:`bot.judge.ask` for the MTR and IPG) and shown by the Discord cogs and the terminal alike;
:mod:`bot.documents.phone` cuts it into pages a phone shows without scrolling.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot import limits
from bot.documents.model import is_under
from bot.text import one_line

# How sure an answer is. A sure answer states its rule; an unsure one lists the rules that may answer; "none"
# is a miss, shown only to whoever asked.
SURE, UNSURE, NONE = "sure", "unsure", "none"
CONFIDENCES = (SURE, UNSURE, NONE)

FULL, EXCERPT = "full", "excerpt"  # the text an answer comes from


def clip(text: str, limit: int = limits.CHOICE_NAME) -> str:
    """One line of at most ``limit`` characters: the shape of an autocomplete choice or a suggestion."""
    return one_line(text, limit)


@dataclass(frozen=True, slots=True)
class Choice:
    """An autocomplete choice or a rule to open: ``value`` is what to look up."""

    name: str
    value: str


@dataclass(frozen=True, slots=True)
class Line:
    """One paragraph of an answer: a rule (``number`` set), an example or plain text.

    ``links`` are the bot's own addresses shown after the text: renderers escape ``text`` (it
    quotes the rules and what people typed) but not these.
    """

    text: str
    number: str = ""
    example: bool = False
    links: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Cited:
    """A rule an answer cites: its number and the title it stands under ("704.5j", "State-Based Actions")."""

    number: str
    title: str

    def to_json(self) -> dict[str, str]:
        """The rule as scripts read it (``--json``): {"number", "title"}."""
        return {"number": self.number, "title": self.title}


@dataclass(frozen=True, slots=True)
class Edition:
    """Which text answered: its effective date (ISO), how to name it, and whether it is the full text."""

    date: str  # "2026-01-16", or "" when the text does not say
    label: str  # "January 16, 2026"
    source: str = FULL  # FULL or EXCERPT
    text: str = ""  # a footer of its own ("history: 7 editions, 2009-10-01 to 2026-01-16")

    def footer(self) -> str:
        if self.text:
            return self.text
        when = f" {self.label}" if self.label else ""
        if self.source == EXCERPT:
            return f"Comprehensive Rules{when}, bundled excerpt"
        return f"Comprehensive Rules{when}"


@dataclass
class Answer:
    query: str
    kind: str  # "rule", "section", "glossary", "question", "cards", "history", "changes", "excerpt" or "none"
    confidence: str  # SURE, UNSURE or NONE
    title: str  # one line
    edition: Edition
    # Page one: the sentence or subrule that decides the question (questions, terms, card questions).
    lead: list[Line] = field(default_factory=list)
    # The whole text: behind Next after a lead, from page one for a number looked up.
    lines: list[Line] = field(default_factory=list)
    whole: str = ""  # what ``lines`` hold, when they follow a lead ("Rule 704.5")
    # An unsure answer's rules that may answer; a sure one's related rules (at most three on page one).
    candidates: list[Choice] = field(default_factory=list)
    related: list[Choice] = field(default_factory=list)  # rules to open from the menu, none of them shown
    # The rule's own subrules, also offered in the menu: its parts, behind Next, never listed as "Related".
    parts: list[Choice] = field(default_factory=list)
    cited: list[Cited] = field(default_factory=list)  # the rules cited, in the order shown
    note: str = ""  # said once, last: "The full rules are not loaded here."
    url: str = ""
    cards: list[Any] = field(default_factory=list)  # the cards a question names (bot.rules.asking.cards.CardShown)
    more_cards: int = 0
    # How likely the first rule cited is right, as the ranking believes (1 for a number or a term looked up):
    # a question is answered sure from bot.rules.ranking.confidence.SURE_AT on.
    certainty: float = 1.0
    # A question's lexical candidates, best first (rule numbers): what a language model may pick among.
    pool: list[str] = field(default_factory=list)

    @property
    def found(self) -> bool:
        return self.confidence != NONE

    @property
    def whole_number(self) -> str:
        """The number of the rule ``lines`` hold whole, when they follow a lead ("704.5" for "Rule 704.5")."""
        parts = self.whole.split(" ")
        return parts[1] if len(parts) > 1 and parts[0] == "Rule" else ""

    @property
    def target(self) -> str:
        """What the answer cites first (a rule number), "" if nothing."""
        return self.cited[0].number if self.cited else ""

    def ranked(self) -> list[str]:
        """The rules cited, best first, leaving out any that is part of one cited before it (for evaluation)."""
        out: list[str] = []
        for cited in self.cited:
            number = cited.number
            if number and not any(is_under(number, earlier) for earlier in out):
                out.append(number)
        return out

    def to_json(self) -> dict[str, Any]:
        """The answer for scripts: how sure, the rules cited in the order shown, the cards, the edition."""
        return {
            "query": self.query,
            "confidence": self.confidence,
            "kind": self.kind,
            "title": self.title,
            "rules": [cited.to_json() for cited in self.cited],
            "cards": [{"name": card.facts.name, "oracle_id": card.facts.oracle_id} for card in self.cards],
            "edition": self.edition.date,
            "source": self.edition.source,
        }
