"""The goldfish value types: what the engine, the card scripts, the store and the shells share.

This module imports nothing of the goldfish package, so everything else can import it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, Protocol

from bot.errors import UserFacingError

ACTION_KINDS = ("mulligan", "keep", "cycle", "play", "cast", "next", "discard", "echo", "activate")


class IllegalAction(UserFacingError):
    """An action the rules (or the table) do not allow now; ``str(e)`` is the reason. Nothing changed."""


class UnreadableGame(UserFacingError):
    """A saved game this version of the engine can't load; ``str(e)`` says why, briefly."""


class Event(NamedTuple):
    """Something that happened, with the rule behind it: ``("draw", "Drew Flame Jet", "121.1")``.

    ``actor`` is the player whose action it followed from (an opaque id the shell gives ``Game.apply``), None
    for the game's own setup and for games played without naming players. A named tuple: a game keeps every
    event and saves them with each action, so they are cheap to make and serialise as JSON lists as they are.
    """

    kind: str
    text: str
    rule: str | None = None
    actor: int | None = None


class Action(NamedTuple):
    """One thing a player does; the game's action log is a list of these, replayed from the seed.

    ``iid`` is the card (hand card; for ``keep``, ``bottom`` lists the cards put on the bottom).
    For ``cycle``: ``ability`` (index), ``find``/``find_nothing`` (a search's choice), ``x``,
    ``sacrifice`` (the permanent's iid) and ``pay`` (optional "you may pay {1}" triggers).
    ``tap`` names the lands to tap for the main mana payment (empty: the engine chooses, keeping
    the most cards in hand payable); ``cards`` lists the cards to discard in cleanup (514.1).
    ``echo`` (a permanent's iid, ``pay`` true or false) settles an echo trigger (702.30a);
    ``activate`` (a graveyard card's iid) uses an ability such as Eternal Dragon's in the upkeep.
    Immutable, and a named tuple because every saved game holds its whole log: cheap to rebuild.
    """

    kind: str
    iid: int | None = None
    ability: int = 0
    find: int | None = None
    find_nothing: bool = False
    x: int = 0
    sacrifice: int | None = None
    pay: bool = True
    bottom: tuple[int, ...] = ()
    tap: tuple[int, ...] = ()
    cards: tuple[int, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """The action by field name, defaults left out: ``{"do": "cycle", "iid": 12}``."""
        data: dict[str, Any] = {"do": self.kind}
        for name, value, default in zip(_ACTION_FIELDS, self, _ACTION_DEFAULTS, strict=True):
            if value != default:
                data[name] = list(value) if isinstance(value, tuple) else value
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Action:
        kind = data["do"]
        if kind not in ACTION_KINDS:
            raise IllegalAction(f"Unknown action {kind!r}.")
        if len(data) == 1:
            return cls(kind)
        return cls(
            kind,
            data.get("iid"),
            data.get("ability", 0),
            data.get("find"),
            data.get("find_nothing", False),
            data.get("x", 0),
            data.get("sacrifice"),
            data.get("pay", True),
            tuple(data["bottom"]) if "bottom" in data else (),
            tuple(data["tap"]) if "tap" in data else (),
            tuple(data["cards"]) if "cards" in data else (),
        )


_ACTION_FIELDS = ("do", *Action._fields[1:])
_ACTION_DEFAULTS = (None, *(Action._field_defaults[name] for name in Action._fields[1:]))


@dataclass(frozen=True)
class CardInstance:
    """One card of the game; ``iid`` is unique within a game, data is ``game.cards[name]``. Immutable: zones
    move the same instance around, and copies of a game share them."""

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
    echo: bool = False
    face: int = 0

    def tap(self) -> None:
        self.tapped = True

    def untap(self) -> None:
        self.tapped = False


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
    """A spell in hand and whether it can be cast now; ``modelled`` is False when its effect is not modelled."""

    iid: int
    name: str
    cost: str
    affordable: bool
    reason: str | None
    modelled: bool = True
    has_x: bool = False


@dataclass
class Decision:
    """What the game is waiting for, and the actions legal now (for a player or an automated policy).

    ``kind``: ``"mulligan"`` (keep or mulligan), ``"main"`` (your main phase), ``"end_step"`` (the
    opponent's end step: cycle or go on), ``"upkeep"`` (your upkeep: upkeep abilities, or go on),
    ``"echo"`` (settle an echo trigger: ``actions`` pays or sacrifices), ``"discard"`` (cleanup:
    discard ``count`` of ``choices`` with ``Action("discard", cards=...)``), ``"bottom"`` (keeping
    after mulligans: ``count`` of ``choices`` with ``Action("keep", bottom=...)``) or ``"over"``.
    ``actions`` lists complete legal actions with the engine's default choices (one per search
    candidate for searches); ``count``/``choices`` describe a choice of several cards.
    """

    kind: str
    prompt: str
    actions: list[Action]
    count: int = 0
    choices: tuple[int, ...] = ()


@dataclass
class Deck:
    """A deck: card data by name and ``(count, name)`` entries; ``key`` is the preset's key."""

    name: str
    cards: dict[str, dict]
    entries: list[tuple[int, str]]
    key: str | None = None

    def size(self) -> int:
        return sum(count for count, _ in self.entries)


@dataclass
class CycleChoices:
    """What the player chose when cycling: read by triggers that search, let you pay X or pay {1}."""

    iid: int
    name: str
    x: int = 0
    find: int | None = None
    find_nothing: bool = False
    pay: bool = True
    typecycling: bool = False


GAME_STATS = (
    "cards_cycled",
    "typecycling_searches",
    "cards_drawn",
    "turns",
    "damage_dealt",
    "tokens",
    "life_gained",
    "life_paid",
    "lands_played",
    "mana_spent",
)


class Effects(Protocol):
    """What a card script may do to a game: the effects API, and the one question scripts ask. Scripts see a game
    through this alone (the game satisfies it), so what a card does is declared apart from the engine's turns."""

    def draw(self, count: int, reason: str) -> list[Event]: ...

    def gain_life(self, amount: int, source: str) -> list[Event]: ...

    def damage_opponent(self, amount: int, source: str) -> list[Event]: ...

    def create_tokens(
        self, count: int, name: str, power: int, toughness: int, description: str, source: str
    ) -> list[Event]: ...

    def pay_mana(self, symbols: Sequence[str]) -> str | None: ...

    def search_library(
        self, choices: CycleChoices, searches: Sequence[str], *, to: str, source: str, rule: str
    ) -> list[Event]: ...

    def untap_best_land(self, source: str) -> list[Event]: ...

    def creatures(self) -> list[Permanent]: ...
