"""What the engine reads from a deck's card objects, parsed once per deck rather than on every call."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot.cycling import CyclingAbility, cycling_abilities, mana_symbols, matches_search, type_words
from bot.goldfish.engine.mana import cost_symbols, enters_tapped, land_colours


@dataclass(frozen=True)
class LandFace:
    """A face a card can be played as a land with (712.12): its name and the mana it taps for."""

    index: int
    name: str
    colours: frozenset[str]
    enters_tapped: bool


@dataclass(frozen=True)
class CardFacts:
    """One card's engine-relevant facts; outside the battlefield a double-faced card is its front face (712.8a)."""

    name: str
    is_land: bool
    colours: frozenset[str]
    enters_tapped: bool
    cycling: tuple[CyclingAbility, ...]
    cast_symbols: tuple[str, ...]
    types: frozenset[str]
    power: int | None
    toughness: int | None
    land_faces: tuple[LandFace, ...] = ()
    front: dict[str, Any] | None = None
    echo: tuple[str, ...] | None = None
    x_count: int = 0

    @property
    def is_permanent(self) -> bool:
        return bool(self.types & PERMANENT_TYPES)

    def face_colours(self, face: int) -> frozenset[str]:
        return next((f.colours for f in self.land_faces if f.index == face), self.colours)

    def face_name(self, face: int) -> str:
        return next((f.name for f in self.land_faces if f.index == face), self.name)


PERMANENT_TYPES = frozenset({"artifact", "creature", "enchantment", "land", "planeswalker", "battle"})
ECHO = re.compile(r"^Echo ((?:\{[^}]+\})+)", re.MULTILINE)


def _int_or_none(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def front_face(card: dict[str, Any]) -> dict[str, Any]:
    """The card as it is outside the battlefield (712.8a): a double-faced card's front face, the rest kept."""
    faces = card.get("card_faces")
    if not faces or card.get("layout") in ("split", "flip", "adventure"):
        return card
    rest = {key: value for key, value in card.items() if key != "card_faces"}
    return {**rest, **faces[0], "name": card["name"]}


def cast_cost(card: dict[str, Any], front: dict[str, Any]) -> str:
    """The mana cost paid to cast the card from hand: a split card's left half (one half is cast, not both), an
    adventurer's creature; a double-faced card's front face; else the printed cost."""
    faces = card.get("card_faces")
    if faces and card.get("layout") in ("split", "adventure"):
        return faces[0].get("mana_cost") or ""
    return front.get("mana_cost") or ""


def _land_faces(card: dict[str, Any]) -> tuple[LandFace, ...]:
    faces = card.get("card_faces")
    if not faces or card.get("layout") != "modal_dfc":
        if "land" in (card.get("type_line") or "").split("//")[0].lower().split():
            return (LandFace(0, card["name"], land_colours(card), enters_tapped(card)),)
        return ()
    return tuple(
        LandFace(i, face.get("name") or card["name"], land_colours(face), enters_tapped(face))
        for i, face in enumerate(faces)
        if "land" in (face.get("type_line") or "").lower().split()
    )


def facts_of(card: dict[str, Any]) -> CardFacts:
    front = front_face(card)
    type_line = front.get("type_line") or ""
    land_faces = _land_faces(card)
    is_land = bool(land_faces)
    first = land_faces[0] if land_faces else None
    printed = mana_symbols(cast_cost(card, front))
    echo = ECHO.search(front.get("oracle_text") or "")
    return CardFacts(
        name=card["name"],
        is_land=is_land,
        colours=first.colours if first else frozenset(),
        enters_tapped=first.enters_tapped if first else False,
        cycling=tuple(cycling_abilities(card)),
        cast_symbols=cost_symbols(printed),
        types=frozenset(type_words(type_line)),
        power=_int_or_none(front.get("power")),
        toughness=_int_or_none(front.get("toughness")),
        land_faces=land_faces,
        front=front,
        echo=cost_symbols(mana_symbols(echo[1])) if echo else None,
        x_count=sum(1 for s in printed if s == "X"),
    )


class CardBook:
    """The facts of every card of one deck, by name (built lazily, kept for the deck's lifetime)."""

    def __init__(self, cards: dict[str, dict]) -> None:
        self.cards = cards
        self._facts: dict[str, CardFacts] = {}
        self._searches: dict[tuple[str, str], bool] = {}
        self._colours: dict[tuple[str, int], frozenset[str]] = {}
        self._modelled: dict[str, bool] = {}

    def __getitem__(self, name: str) -> CardFacts:
        facts = self._facts.get(name)
        if facts is None:
            facts = self._facts[name] = facts_of(self.cards[name])
        return facts

    def __contains__(self, name: str) -> bool:
        return name in self.cards

    def face_colours(self, name: str, face: int) -> frozenset[str]:
        """The mana a land of this name makes when played as ``face``, none for a name outside the deck (asked
        on every mana decision)."""
        key = (name, face)
        colours = self._colours.get(key)
        if colours is None:
            colours = self._colours[key] = self[name].face_colours(face) if name in self.cards else frozenset()
        return colours

    def fully_modelled(self, name: str, unmodelled: Callable[[dict], list[str]]) -> bool:
        """Whether the engine models all the card does (``unmodelled`` lists what it doesn't), once per name."""
        found = self._modelled.get(name)
        if found is None:
            found = self._modelled[name] = not unmodelled(self.cards[name])
        return found

    def matches(self, name: str, search: str) -> bool:
        key = (name, search)
        found = self._searches.get(key)
        if found is None:
            found = self._searches[key] = matches_search(self[name].front or self.cards[name], search)
        return found


_BOOKS: dict[int, tuple[dict, CardBook]] = {}
_MAX_BOOKS = 64


def book_for(cards: dict[str, dict]) -> CardBook:
    """The shared book of a card dictionary (preset decks share one dictionary, so one book)."""
    held = _BOOKS.get(id(cards))
    if held is not None and held[0] is cards:
        return held[1]
    if len(_BOOKS) >= _MAX_BOOKS:
        _BOOKS.pop(next(iter(_BOOKS)))
    book = CardBook(cards)
    _BOOKS[id(cards)] = (cards, book)
    return book
