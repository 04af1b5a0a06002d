"""What a rules lookup answers: lines of rules, related rules, suggestions, and where to read more."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot import limits
from bot.text import one_line


def clip(text: str, limit: int = limits.CHOICE_NAME) -> str:
    """One line of at most ``limit`` characters: the shape of an autocomplete choice or a suggestion."""
    return one_line(text, limit)


OFFICIAL_RULES_URL = "https://magic.wizards.com/en/rules"
# A public copy of the current rules with an anchor per rule ("#R70229c" for 702.29c).
HYPERLINKED_RULES_URL = "https://yawgatog.com/resources/magic-rules/"


def rule_url(number: str) -> str:
    """The address of ``number`` (702.29c, 704, 7) in the hyperlinked copy of the rules."""
    return f"{HYPERLINKED_RULES_URL}#R{number.replace('.', '')}"


@dataclass(frozen=True, slots=True)
class Choice:
    """An autocomplete choice or a suggestion: ``value`` is what to look up."""

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


@dataclass
class Answer:
    found: bool
    kind: str  # "rule", "section", "glossary", "search" or "none"
    title: str
    lines: list[Line]
    edition: str
    intro: str = ""
    # The rule number (or "Glossary: Term") the answer is about, and where to read it online.
    target: str = ""
    url: str = ""
    references: list[Choice] = field(default_factory=list)
    see_also: list[Choice] = field(default_factory=list)
    # The cards a question names (bot.rules.cards.CardShown), shown before the rules, and how many more it named.
    cards: list[Any] = field(default_factory=list)
    more_cards: int = 0

    def ranked(self) -> list[str]:
        """What the answer offers, best first: its target, then the "see also" entries (for evaluation)."""
        out = [self.target] if self.target else []
        return out + [choice.value for choice in self.see_also if choice.value not in out]

    def related(self) -> list[Choice]:
        """References then "see also" entries, without repeats."""
        seen: set[str] = set()
        out = []
        for choice in [*self.references, *self.see_also]:
            if choice.value not in seen:
                seen.add(choice.value)
                out.append(choice)
        return out

    def to_text(self) -> str:
        """The answer as plain text (the command line prints this)."""
        out = [self.title, ""]
        for card in self.cards:
            out += [*card.text_lines(), ""]
        if self.more_cards:
            out += [f"(and {self.more_cards} more cards named; ask about fewer at a time)", ""]
        if self.intro:
            out += [self.intro, ""]
        for line in self.lines:
            if line.example:
                out.append(f"    Example: {line.text}")
            elif line.number:
                out.append(f"{line.number} {line.text}")
            else:
                out.append(" ".join([line.text, *line.links]))
        if self.references:
            out += ["", "Related rules: " + ", ".join(choice.value for choice in self.references)]
        if self.see_also:
            out += ["", "See also:"] + [f"  {choice.name}" for choice in self.see_also]
        if self.url:
            out += ["", f"Online: {self.url}"]
        out += ["", f"Comprehensive Rules {self.edition}"]
        return "\n".join(out)
