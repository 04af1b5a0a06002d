"""The one way a list's lines become cards: :class:`DeckResolver`, for a pasted list, the form, a file and a link.

It asks its names sources in turn: each finds the names it knows exactly (:meth:`NameSource.exact`), and for the
names none knew, the first source that can read one as a card (a one-letter typo) says so, or offers the closest
cards (:meth:`NameSource.near`). A source is anything with those two methods: the local copy of the card data
(:class:`LocalCards`), Scryfall's collection before the first import (:class:`CollectionNames`), and the names cards
are printed with in the languages an operator chose (:class:`PrintedCards`), asked after the English names, so an
English name always wins. A name that is exactly several cards' (Italian's "Eliminare" is Cancel and Wipe Away) is
offered with all of them and never read as one, nor as a typo of another card's name. Lines are found by name only:
a set and collector number are kept for the picture, never looked up.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from rapidfuzz.distance import Levenshtein

from bot.carddb import CardDataUnavailable, normalise
from bot.goldfish.decks.decklist import trim_card
from bot.goldfish.decks.model import SECTIONS, DeckProblem, DeckText, PlayerDeck, Reading
from bot.text import clip, escape, fold, plural, unspaced

Card = Mapping[str, Any]
MAX_NEAR = 20  # names a refusal looks up closest cards for; the others are counted
OFFERED = 3
SHARED_OFFERED = 6  # cards a name several cards share offers, at most
REPLY_CHARS = 1800


@dataclass(frozen=True)
class Near:
    """What a name that is no card's comes closest to: ``card`` when it reads as that card (a typo), else the
    names of the closest cards, best first; ``shared``: the name is exactly each offered card's (printed so in
    other languages), so it is offered and never read as one of them."""

    card: Card | None = None
    offered: tuple[str, ...] = ()
    shared: bool = False


class NameSource(Protocol):
    """Where card names are found."""

    async def exact(self, names: Sequence[str]) -> Mapping[str, Card | Near]:
        """The card each name is (a card's or a face's name, exactly, as the card data compares names), or a shared
        :class:`Near` for a name that is exactly several cards'; names it does not know are left out."""
        ...

    async def near(self, name: str) -> Near | None:
        """The card ``name`` reads as or the closest ones; None when this source has nothing to say."""
        ...


def letters_off(typed: str, names: Sequence[str]) -> int:
    """How many letters ``typed`` is from the closest of ``names`` (as names are compared, in any script), past a
    typo's count counted as one more."""
    wanted = fold(typed)
    return min(Levenshtein.distance(wanted, fold(name), score_cutoff=typo_letters(wanted) + 1) for name in names)


def typo_letters(normalised: str) -> int:
    """How far a typo may be from its card's name: one letter (two in a name of ten letters or more)."""
    return 1 if len(normalised) < 10 else 2


def names_of(card: Card) -> list[str]:
    return [card.get("name") or "", *((face.get("name") or "") for face in card.get("card_faces") or ())]


def record_names(record: Any) -> list[str]:
    """A card of the local copy's names: its own and its faces'."""
    return [record.name, *((face.get("name") or "") for face in record.faces or ())]


class LocalCards:
    """The local copy of Scryfall's card data (``bot.carddb.CardData``): exact names and faces, then its fuzzy
    lookup for a typo."""

    def __init__(self, card_data: Any) -> None:
        self.card_data = card_data

    async def exact(self, names: Sequence[str]) -> Mapping[str, Card]:
        try:
            found = await self.card_data.collection(names)
        except CardDataUnavailable:
            raise DeckProblem("The card data isn't ready (it is being loaded): try again in a minute.") from None
        # Trimmed at once: a card's whole object (prices, legalities, links) is dropped while it is young.
        return {name: trim_card(record.scryfall) for name, record in found.items() if record is not None}

    async def near(self, name: str) -> Near | None:
        try:
            match = await self.card_data.named(name)
        except CardDataUnavailable:
            return None
        records = [match.card] if match.card is not None else list(match.candidates)
        if not records:
            return Near()
        # The closest of what the lookup found, read as the card when it is a typo of that one alone.
        off = sorted((letters_off(name, record_names(record)), n) for n, record in enumerate(records))
        best, index = off[0]
        alone = len(off) == 1 or off[1][0] > best
        card = trim_card(records[index].scryfall) if best <= typo_letters(fold(name)) and alone else None
        return Near(card, tuple(dict.fromkeys(records[n].name for _, n in off))[:OFFERED])


class PrintedCards:
    """The names cards are printed with in the languages an operator chose (``card_data.by_printed_name``): a name
    one card is printed with is that card ("Sumpf" is Swamp), one several cards share offers them all. ``read``
    (awaited; the bot's one name matcher) gives ``(printed name, English name)`` for the printed name it clearly
    reads a name as: a one-letter typo of a Latin or Cyrillic one is read as its card, and a Japanese, Korean or
    Chinese name (matched by runs of characters) is only offered."""

    def __init__(self, card_data: Any, read: Callable[[str], Awaitable[tuple[str, str] | None]] | None = None) -> None:
        self.card_data = card_data
        self.read = read

    async def exact(self, names: Sequence[str]) -> Mapping[str, Card | Near]:
        found: dict[str, Card | Near] = {}
        for name in names:
            try:
                cards = await self.card_data.by_printed_name(name)
            except CardDataUnavailable:
                break
            if len(cards) == 1:
                found[name] = trim_card(cards[0][0].scryfall)
            elif cards:
                shared = tuple(dict.fromkeys(record.name for record, _ in cards))
                found[name] = Near(offered=shared[:SHARED_OFFERED], shared=True)
        return found

    async def near(self, name: str) -> Near | None:
        read = await self.read(name) if self.read is not None else None
        if read is None:
            return None
        printed, english = read
        if unspaced(name) or letters_off(name, [printed]) > typo_letters(fold(name)):
            return Near(offered=(english,))
        try:
            record = (await self.card_data.collection([english])).get(english)
        except CardDataUnavailable:
            return None
        return Near(trim_card(record.scryfall), (english,)) if record is not None else None


class CollectionNames:
    """Scryfall's ``/cards/collection`` by name (the bot before its first import of the card data): ``fetch``
    takes ``{"name": …}`` identifiers and gives ``(cards, not_found)``."""

    def __init__(self, fetch: Callable[[list[dict]], Awaitable[tuple[list[dict], list[Any]]] | Any]) -> None:
        self.fetch = fetch

    async def exact(self, names: Sequence[str]) -> Mapping[str, Card]:
        result = self.fetch([{"name": name} for name in names])
        cards, _ = await result if inspect.isawaitable(result) else result
        by_name: dict[str, Card] = {}
        for card in cards:
            for alias in names_of(card):
                by_name.setdefault(normalise(alias), card)
        return {name: by_name[normalise(name)] for name in names if normalise(name) in by_name}

    async def near(self, name: str) -> Near | None:
        return None


class DeckResolver:
    """``await DeckResolver(sources).resolve(text, name)`` → a :class:`PlayerDeck`, or :class:`DeckProblem` naming
    every line that was not an exact card name when one of them is no card at all."""

    def __init__(self, sources: Sequence[NameSource]) -> None:
        self.sources = list(sources)

    def with_source(self, source: NameSource) -> DeckResolver:
        """This resolver with one more source, asked after the others."""
        return DeckResolver([*self.sources, source])

    async def cards(self, names: Sequence[str]) -> tuple[dict[str, Card], list[Reading]]:
        """Each name's card, and a reading of each name that was not exact."""
        found: dict[str, Card] = {}
        shared: dict[str, Near] = {}  # names several cards share exactly: offered, never read
        remaining = list(dict.fromkeys(names))
        for source in self.sources:
            if not remaining:
                break
            for name, card in (await source.exact(remaining)).items():
                if isinstance(card, Near):
                    shared[name] = card
                else:
                    found[name] = card
            remaining = [name for name in remaining if name not in found and name not in shared]
        readings: list[Reading] = []
        looked = 0
        for name in dict.fromkeys(names):  # in the list's order
            if name in shared:
                readings.append(Reading(name, None, shared[name].offered, shared=True))
                continue
            if name in found:
                continue
            near = await self._near(name) if looked < MAX_NEAR else None
            looked += 1
            if near is not None and near.card is not None:
                found[name] = near.card
                readings.append(Reading(name, near.card.get("name")))
            else:
                readings.append(Reading(name, None, near.offered if near is not None else ()))
        return found, readings

    async def _near(self, name: str) -> Near | None:
        offered: Near | None = None
        for source in self.sources:
            near = await source.near(name)
            if near is not None and near.card is not None:
                return near
            offered = offered or (near if near is not None and near.offered else None)
        return offered

    async def resolve(self, text: DeckText, name: str) -> PlayerDeck:
        found, readings = await self.cards([line.name for line in text.lines])
        if any(reading.read_as is None for reading in readings):
            raise DeckProblem(misses_text(readings))
        sections: dict[str, dict[str, int]] = {}
        cards: dict[str, dict[str, Any]] = {}
        prints: dict[str, tuple[str, str]] = {}
        for line in text.lines:
            card = found[line.name]
            card_name = card["name"]
            counts = sections.setdefault(line.section, {})
            counts[card_name] = counts.get(card_name, 0) + line.count
            if card_name not in cards:
                cards[card_name] = trim_card(card)
            if line.card_set and line.number and card_name not in prints:
                prints[card_name] = (line.card_set, line.number)
        entries = {
            section: tuple((count, card) for card, count in sections[section].items())
            for section in SECTIONS
            if section in sections
        }
        return PlayerDeck(name, entries, cards, prints, tuple(readings))


def reading_line(reading: Reading) -> str:
    typed = escape(clip(reading.typed, 60), typed=True)
    if reading.shared:
        cards = " or ".join(f"**{escape(n)}**" for n in reading.offered)
        return f"• {typed}: the name several cards are printed with; write the one you mean: {cards}"
    if reading.read_as is not None:
        return f"• {typed}: read as **{escape(reading.read_as)}**"
    if reading.offered:
        return f"• {typed}: no card has that name; closest: " + " or ".join(f"**{escape(n)}**" for n in reading.offered)
    return f"• {typed}: no card has that name"


def misses_text(readings: Sequence[Reading]) -> str:
    """The refusal: every line that was not an exact name, what each was read as or what comes closest."""
    missing = sum(1 for reading in readings if reading.read_as is None)
    lines = [f"I couldn't find {plural(missing, 'card')} of that list, so nothing was used:"]
    shown = [reading_line(reading) for reading in readings[:MAX_NEAR]]
    lines += shown
    if len(readings) > len(shown):
        lines.append(f"… and {plural(len(readings) - len(shown), 'more line')}")
    lines.append("Check the spelling and try again.")
    return clip("\n".join(lines), REPLY_CHARS)


def readings_text(readings: Sequence[Reading]) -> str | None:
    """What a deck that was made tells of its lines read as other names (typos), or None."""
    read = [reading for reading in readings if reading.read_as is not None]
    if not read:
        return None
    return "\n".join([f"Read {plural(len(read), 'line')} as another name:", *map(reading_line, read[:MAX_NEAR])])
