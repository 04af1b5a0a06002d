"""A card named in a rules question, as the answer shows it: its facts (name, cost, type line, Oracle text, rulings),
the rulings chosen for the question, and how the cards a question names are found (:class:`CardFinder`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from bot.rules.ranking import RulesIndex


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
    shared: frozenset[str] = frozenset()  # cards shown for a name several share ("Krenko"): which is meant is unsaid


class CardFinder(Protocol):
    """Finds the cards a question names in the local card data (``bot.cards.questions.QuestionCards``)."""

    def ready(self) -> bool:
        """Whether card data is loaded: finding cards then reads from its pool, which may wait."""
        ...

    async def find(self, index: RulesIndex, query: str) -> FoundCards | None:
        """The cards ``query`` names, or None when it names none."""
        ...
