"""The value types of a player's deck: the lines they gave, read into sections, and the deck they make once every
name is a card.

A list keeps its sections apart (:data:`SECTIONS`): the main deck is the library a game is dealt from; the
sideboard, the commander and the companion are kept and shown, never shuffled in.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.errors import UserFacingError
from bot.goldfish.engine import Deck, unmodelled_spell_text, unmodelled_text
from bot.text import escape

MAIN, SIDEBOARD, COMMANDER, COMPANION = "main", "sideboard", "commander", "companion"
SECTIONS = (MAIN, SIDEBOARD, COMMANDER, COMPANION)
MAX_CARDS = 250  # in the main deck
MAX_SIDE_CARDS = 250  # in the other sections together: a list is not a collection
MAX_DECK_NAME = 100
HAND = 7
# A deck whose library runs out by this turn (drawing only its one card a turn) is told so when its game starts.
EARLY_TURNS = 10
NAMED_AT_MOST = 12  # cards named in one note; the rest counted


class DeckProblem(UserFacingError):
    """A list, a file or a link that can't be made a deck; ``str(e)`` is the whole answer, for the player."""


@dataclass(frozen=True)
class Line:
    """One line of a list: ``count`` copies of ``name`` in ``section``; a printing when the line named one
    (``card_set``, ``number``), kept for the picture but never needed to find the card."""

    count: int
    name: str
    section: str = MAIN
    card_set: str | None = None
    number: str | None = None


@dataclass(frozen=True)
class DeckText:
    """A list as read, before its names are looked up; ``title`` is the name the list gives itself, if any."""

    lines: tuple[Line, ...]
    title: str | None = None

    def count(self, section: str = MAIN) -> int:
        return sum(line.count for line in self.lines if line.section == section)


@dataclass(frozen=True)
class Reading:
    """A line that was not an exact card name: the card it was read as (a typo), or none, with the closest cards;
    ``shared``: the line is exactly a name several cards share (printed so in other languages), and ``offered`` holds
    them all."""

    typed: str
    read_as: str | None = None
    offered: tuple[str, ...] = ()
    shared: bool = False


@dataclass(frozen=True)
class PlayerDeck:
    """A deck made of cards: ``sections`` maps each section to ``(count, card name)`` entries, ``cards`` holds every
    card's data as the engine keeps it, ``prints`` the printing a line named (set, collector number)."""

    name: str
    sections: Mapping[str, tuple[tuple[int, str], ...]]
    cards: Mapping[str, dict[str, Any]]
    prints: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    readings: tuple[Reading, ...] = field(default=(), compare=False)

    def entries(self, section: str = MAIN) -> tuple[tuple[int, str], ...]:
        return tuple(self.sections.get(section, ()))

    def count(self, section: str = MAIN) -> int:
        return sum(count for count, _ in self.entries(section))

    def copies(self, name: str, section: str = MAIN) -> int:
        return sum(count for count, card in self.entries(section) if card == name)

    def engine_deck(self) -> Deck:
        """The main deck, as a game is dealt from it."""
        main = self.entries(MAIN)
        cards = {name: dict(self.cards[name]) for _, name in main}
        return Deck(name=self.name, cards=cards, entries=[(count, name) for count, name in main])

    def counts_text(self) -> str:
        """``60 main · 5 sideboard · 1 commander``: every section the deck has, the main deck always."""
        parts = [f"{self.count(MAIN)} main"]
        parts += [f"{self.count(section)} {section}" for section in SECTIONS[1:] if self.count(section)]
        return " · ".join(parts)

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "sections": {section: [list(entry) for entry in entries] for section, entries in self.sections.items()},
            "cards": dict(self.cards),
            "prints": {name: list(printing) for name, printing in self.prints.items()},
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> PlayerDeck:
        sections = {
            section: tuple((int(count), str(name)) for count, name in data.get("sections", {}).get(section, ()))
            for section in SECTIONS
            if data.get("sections", {}).get(section)
        }
        prints = {name: (str(p[0]), str(p[1])) for name, p in (data.get("prints") or {}).items()}
        return cls(str(data["name"]), sections, dict(data.get("cards") or {}), prints)


def deck_name_key(name: str) -> str:
    """How two deck names are compared: case and spacing aside."""
    return " ".join(name.split()).casefold()


def clean_deck_name(name: str) -> str:
    """A deck's name as kept: spacing folded; refused when empty or over :data:`MAX_DECK_NAME` characters."""
    cleaned = " ".join((name or "").split())
    if not cleaned:
        raise DeckProblem("A deck needs a name: 1 to 100 characters.")
    if len(cleaned) > MAX_DECK_NAME:
        raise DeckProblem(f"That name is too long: a deck's name has at most {MAX_DECK_NAME} characters.")
    return cleaned


def library_note(deck_size: int, on_the_play: bool) -> str | None:
    """What a small deck's player should know when its game starts: the turn its draws run out (one card a turn,
    no cycling: sooner with it), when that is within the first :data:`EARLY_TURNS` turns (121.4)."""
    library = max(0, deck_size - HAND)
    empty_turn = library + (2 if on_the_play else 1)
    if empty_turn > EARLY_TURNS:
        return None
    return f"Library {library}: you draw from an empty library on turn {empty_turn} (121.4)"


def unmodelled_cards(cards: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """The cards whose effects the engine does not model, as the table names them: a spell's effect when cast
    (lands aside: they are played, not cast), or an ability about cycling or discarding."""
    found = []
    for name, card in cards.items():
        spell = "land" not in (card.get("type_line") or "").lower().split("//")[0]
        if (spell and unmodelled_spell_text(card)) or unmodelled_text(card):
            found.append(name)
    return found


def unmodelled_note(deck: PlayerDeck) -> str | None:
    """``3 cards' effects are not modelled: A, B, C.`` for the main deck's cards (the others never play), or None."""
    names = unmodelled_cards({name: deck.cards[name] for _, name in deck.entries(MAIN)})
    if not names:
        return None
    whose = "1 card's effect is" if len(names) == 1 else f"{len(names)} cards' effects are"
    shown = ", ".join(escape(name) for name in names[:NAMED_AT_MOST])
    more = f" and {len(names) - NAMED_AT_MOST} more" if len(names) > NAMED_AT_MOST else ""
    return f"{whose} not modelled: {shown}{more}."
