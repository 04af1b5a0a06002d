"""What the engine reads from a deck's card objects, parsed once per deck rather than on every call."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.cycling import CyclingAbility, cycling_abilities, mana_symbols, matches_search, type_words
from bot.goldfish.mana import cost_symbols, enters_tapped, land_colours


@dataclass(frozen=True)
class CardFacts:
    """One card's engine-relevant facts."""

    name: str
    is_land: bool
    colours: frozenset[str]
    enters_tapped: bool
    cycling: tuple[CyclingAbility, ...]
    cast_symbols: tuple[str, ...]
    types: frozenset[str]
    power: int | None
    toughness: int | None


def _int_or_none(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def facts_of(card: dict[str, Any]) -> CardFacts:
    type_line = card.get("type_line") or ""
    is_land = "land" in type_line.split("//")[0].lower().split()
    return CardFacts(
        name=card["name"],
        is_land=is_land,
        colours=land_colours(card) if is_land else frozenset(),
        enters_tapped=enters_tapped(card),
        cycling=tuple(cycling_abilities(card)),
        cast_symbols=cost_symbols(mana_symbols(card.get("mana_cost") or "")),
        types=frozenset(type_words(type_line)),
        power=_int_or_none(card.get("power")),
        toughness=_int_or_none(card.get("toughness")),
    )


class CardBook:
    """The facts of every card of one deck, by name (built lazily, kept for the deck's lifetime)."""

    def __init__(self, cards: dict[str, dict]) -> None:
        self.cards = cards
        self._facts: dict[str, CardFacts] = {}
        self._searches: dict[tuple[str, str], bool] = {}

    def __getitem__(self, name: str) -> CardFacts:
        facts = self._facts.get(name)
        if facts is None:
            facts = self._facts[name] = facts_of(self.cards[name])
        return facts

    def __contains__(self, name: str) -> bool:
        return name in self.cards

    def matches(self, name: str, search: str) -> bool:
        key = (name, search)
        found = self._searches.get(key)
        if found is None:
            found = self._searches[key] = matches_search(self.cards[name], search)
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
