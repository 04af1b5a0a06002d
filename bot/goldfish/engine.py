"""Goldfish engine: rules-exact solitaire games for practising cycling (CR 702.29), with no Discord code.

The opponent starts at 20 life and does nothing. Lands are played; non-land spells are not cast
(this is cycling practice), with one exception: the payoff permanents whose abilities the engine
models (Astral Slide, Lightning Rift, Drake Haven, Fluctuator, …) can be cast with ``cast`` so that
their triggers and static abilities work. Every random step uses the game's own seeded
``random.Random``, so a game is replayed from its seed and its action log.

API notes (additions to the first published contract, all backwards compatible):

* ``Game.cycle`` takes ``find`` (library card iid) / ``find_nothing`` for a typecycling search or a
  "when you cycle" search (Krosan Tusker); with neither, the first candidate (by name) is found.
  ``x`` is the value of ``{X}`` in the cost, or of the X a "when you cycle" trigger lets you pay
  (Decree of Justice). ``sacrifice`` picks the land for ``Cycling—Sacrifice a land`` (default: the
  land whose loss keeps the most mana). ``pay`` says whether optional "you may pay {1}" triggers
  (Lightning Rift, Drake Haven) are paid when mana is available.
* ``Game.cast_options`` / ``Game.cast`` for the modelled payoff permanents.
* ``Game.unmodelled_text(name)`` lists the abilities of a card that the engine does not model.
* ``Deck.key`` is the preset key (``None`` for a deck read from a decklist).
* Zones hold ``CardInstance``; the battlefield holds ``Permanent`` (tokens too).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any


class IllegalAction(Exception):
    """An action the rules do not allow now; ``str(e)`` is the reason. The game is unchanged."""


@dataclass
class CardInstance:
    """One card of the game; ``iid`` is unique within a game, data is ``game.cards[name]``."""

    iid: int
    name: str


@dataclass
class Permanent:
    """A permanent on the battlefield: a land, a cast payoff or a token."""

    iid: int
    name: str
    tapped: bool = False
    token: bool = False
    power: int | None = None
    toughness: int | None = None
    entered_turn: int = 0
    damage: int = 0


@dataclass
class Event:
    """Something that happened, with the rule behind it: ``("draw", "Drew Flame Jet", "121.1")``."""

    kind: str
    text: str
    rule: str | None = None


@dataclass
class CycleOption:
    """One cycling ability of one card in hand, affordable or not (then ``reason`` says why)."""

    iid: int
    name: str
    ability_index: int
    label: str
    affordable: bool
    reason: str | None
    is_typecycling: bool
    search: str | None


@dataclass
class CastOption:
    """A payoff permanent in hand that the engine can cast."""

    iid: int
    name: str
    cost: str
    affordable: bool
    reason: str | None


@dataclass
class Deck:
    """A deck: card data by name and ``(count, name)`` entries."""

    name: str
    cards: dict[str, dict]
    entries: list[tuple[int, str]]
    key: str | None = None

    def size(self) -> int:
        return sum(count for count, _ in self.entries)


@dataclass
class Game:
    """A goldfish game. Phases: ``"mulligan"`` (keep or mulligan), ``"main"``, ``"over"``."""

    seed: int
    deck_name: str
    cards: dict[str, dict]
    library: list[CardInstance] = field(default_factory=list)
    hand: list[CardInstance] = field(default_factory=list)
    graveyard: list[CardInstance] = field(default_factory=list)
    exile: list[CardInstance] = field(default_factory=list)
    battlefield: list[Permanent] = field(default_factory=list)
    life: int = 20
    opponent_life: int = 20
    turn: int = 0
    on_the_play: bool = True
    land_played: bool = False
    mulligans: int = 0
    phase: str = "mulligan"
    result: str | None = None
    log: list[str] = field(default_factory=list)
    actions: list[dict] = field(default_factory=list)
    stats: dict[str, int] = field(default_factory=dict)
    version: int = 0
    deck_key: str | None = None
    deck_entries: list[tuple[int, str]] = field(default_factory=list)
    rng: random.Random = field(default_factory=random.Random, repr=False, compare=False)

    @classmethod
    def new(cls, deck: Deck, *, seed: int, on_the_play: bool = True) -> Game:
        """Shuffle the deck with ``random.Random(seed)``, draw seven; phase ``"mulligan"``."""
        raise NotImplementedError

    def mulligan(self) -> list[Event]:
        """London mulligan (103.5): shuffle the hand back, draw seven again."""
        raise NotImplementedError

    def keep(self, bottom: list[int] | tuple[int, ...] = ()) -> list[Event]:
        """Keep the hand, putting one card per mulligan (iids in ``bottom``) on the bottom; turn 1 begins."""
        raise NotImplementedError

    def cycle_options(self) -> list[CycleOption]:
        """Every cycling ability of every card in hand, affordable or not (with the reason)."""
        raise NotImplementedError

    def search_candidates(self, iid: int, ability_index: int = 0) -> list[CardInstance]:
        """Library cards (one per distinct name) that the ability's search could find."""
        raise NotImplementedError

    def cycle(
        self,
        iid: int,
        ability_index: int = 0,
        *,
        find: int | None = None,
        find_nothing: bool = False,
        x: int = 0,
        sacrifice: int | None = None,
        pay: bool = True,
    ) -> list[Event]:
        """Activate a cycling ability of a card in hand (702.29a); see the module docstring for the options."""
        raise NotImplementedError

    def playable_lands(self) -> list[CardInstance]:
        """Lands in hand that can be played now (one land per turn, main phase)."""
        raise NotImplementedError

    def play_land(self, iid: int) -> list[Event]:
        """Play a land from hand (305.2: one per turn)."""
        raise NotImplementedError

    def cast_options(self) -> list[CastOption]:
        """The modelled payoff permanents in hand and whether they can be paid for."""
        raise NotImplementedError

    def cast(self, iid: int) -> list[Event]:
        """Cast a modelled payoff permanent from hand for its mana cost; it resolves at once (no opponent)."""
        raise NotImplementedError

    def next_turn(self) -> list[Event]:
        """End the turn (your creatures attack first) and play the next: untap, upkeep, draw, main."""
        raise NotImplementedError

    def available_mana(self) -> str:
        """The mana the untapped lands can make, one symbol per land: ``"{W}{W/R}{C}"``."""
        raise NotImplementedError

    def unmodelled_text(self, name: str) -> list[str]:
        """The abilities of a card (oracle text lines) that the engine does not model."""
        raise NotImplementedError

    def to_dict(self) -> dict[str, Any]:
        """A compact JSON-safe snapshot, including the RNG state."""
        raise NotImplementedError

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Game:
        """The exact game ``to_dict`` saved."""
        raise NotImplementedError

    @classmethod
    def replay(cls, deck: Deck, seed: int, on_the_play: bool, actions: list[dict]) -> Game:
        """A new game from the seed with the action log applied again; equals the live game."""
        raise NotImplementedError
