"""The parts of a goldfish game, each an object of its own: the zones, the player, the opponent; and the
interface the rules see a game through.

Moves read as calls on what they change: ``zones.hand.take(iid)``, ``zones.discard(iid)``,
``battlefield.untap_all()``, ``player.gain_life(2)``, ``opponent.lose_life(3)``. None of these knows a rule: the
rule modules decide what is legal and which event it makes, then move the parts.

:class:`GameState` is what the rules read and change of a game (its parts, its turn structure, its deck and its
random generator). :class:`~bot.goldfish.engine.game.Game` is the class that has them; the rule modules take a
``GameState``, so none of them imports the game, and the game imports them all.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Protocol, TypeVar

from bot.goldfish.engine.cardbook import CardBook
from bot.goldfish.engine.model import Action, CardInstance, Effects, Event, IllegalAction, Permanent

T = TypeVar("T")
STARTING_LIFE = 20


class Zone(list):
    """The cards of one zone in order (a library top first): a list that takes a card out by its iid."""

    __slots__ = ()

    def take(self, iid: int):
        """Remove the card (or permanent) ``iid`` and return it; refused when it is not here."""
        for index, item in enumerate(self):
            if item.iid == iid:
                return self.pop(index)
        raise IllegalAction(f"Card #{iid} is not there.")

    def find(self, iid: int | None):
        """The card ``iid`` if it is here, else None."""
        return next((item for item in self if item.iid == iid), None)

    def holds(self, iid: int) -> bool:
        return any(item.iid == iid for item in self)

    def iids(self) -> tuple[int, ...]:
        return tuple(item.iid for item in self)


class Battlefield(Zone):
    """The player's permanents (the opponent controls none)."""

    __slots__ = ()

    def creatures(self) -> list[Permanent]:
        return [p for p in self if p.power is not None]

    def untap_all(self) -> None:
        for permanent in self:
            permanent.untap()

    def copy(self) -> Battlefield:
        """The permanents copied: a copy's permanents tap and untap on their own."""
        return Battlefield(copy.copy(permanent) for permanent in self)


@dataclass
class Zones:
    """The player's library (top first), hand, graveyard (oldest first) and battlefield."""

    library: Zone = field(default_factory=Zone)
    hand: Zone = field(default_factory=Zone)
    graveyard: Zone = field(default_factory=Zone)
    battlefield: Battlefield = field(default_factory=Battlefield)

    @classmethod
    def of(
        cls,
        library: Iterable[CardInstance] = (),
        hand: Iterable[CardInstance] = (),
        graveyard: Iterable[CardInstance] = (),
        battlefield: Iterable[Permanent] = (),
    ) -> Zones:
        return cls(Zone(library), Zone(hand), Zone(graveyard), Battlefield(battlefield))

    def copy(self) -> Zones:
        """Independent zones holding the same (immutable) cards and copies of the permanents."""
        return Zones(Zone(self.library), Zone(self.hand), Zone(self.graveyard), self.battlefield.copy())

    def deal(self, count: int) -> None:
        """The top ``count`` cards of the library become the hand (an opening hand, 103.5)."""
        self.hand, self.library = Zone(self.library[:count]), Zone(self.library[count:])

    def hand_into_library(self) -> None:
        self.library.extend(self.hand)
        self.hand = Zone()

    def draw(self) -> CardInstance | None:
        """The library's top card into the hand; None when the library is empty."""
        if not self.library:
            return None
        card = self.library.pop(0)
        self.hand.append(card)
        return card

    def discard(self, iid: int) -> CardInstance:
        """A card from the hand into the graveyard."""
        card = self.hand.take(iid)
        self.graveyard.append(card)
        return card

    def leave_battlefield(self, permanent: Permanent) -> None:
        """The permanent leaves the battlefield; a card goes to the graveyard, a token ceases to exist."""
        self.battlefield.remove(permanent)
        if not permanent.token:
            self.graveyard.append(CardInstance(permanent.iid, permanent.name))

    def where(self, iid: int) -> str:
        """Which zone outside the hand holds ``iid``, as a player says it."""
        for label, zone in (
            ("in your library", self.library),
            ("in your graveyard", self.graveyard),
            ("on the battlefield", self.battlefield),
        ):
            if zone.holds(iid):
                return label
        return "not in your hand"


@dataclass
class Player:
    """The player's state apart from their cards: life, this turn's land drop, mulligans, and whether they drew
    from an empty library (they lose when state-based actions are next checked, 704.5b)."""

    life: int = STARTING_LIFE
    land_played: bool = False
    mulligans: int = 0
    drew_from_empty: bool = False

    def gain_life(self, amount: int) -> None:
        self.life += amount

    def lose_life(self, amount: int) -> None:
        self.life -= amount

    def copy(self) -> Player:
        return Player(self.life, self.land_played, self.mulligans, self.drew_from_empty)


@dataclass
class Opponent:
    """The goldfish: it only has a life total, and does nothing."""

    life: int = STARTING_LIFE

    def lose_life(self, amount: int) -> None:
        self.life -= amount

    def copy(self) -> Opponent:
        return Opponent(self.life)


class GameState(Effects, Protocol):
    """What the rules read and change of a game: its parts, its turn structure (``turn``, ``phase``, ``result``),
    its deck (the seed, the card data and card book, the names of its cards), its record (events, actions and who
    took them, counters) and its seeded random generator; and the effects API, which card scripts are handed the
    game as."""

    seed: int
    deck_name: str
    deck_key: str | None
    deck_entries: list[tuple[int, str]]
    cards: dict[str, dict]
    book: CardBook
    iid_names: dict[int, str]
    zones: Zones
    player: Player
    opponent: Opponent
    turn: int
    phase: str
    result: str | None
    on_the_play: bool
    events: list[Event]
    actions: list[Action]
    actors: list[int | None]
    stats: dict[str, int]
    rng: random.Random
    replayable: bool

    def memo(self, name: str, compute: Callable[[], list[T]]) -> list[T]: ...
