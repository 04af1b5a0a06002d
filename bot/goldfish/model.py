"""The goldfish value types: what the engine, the card scripts, the store and the shells share.

This module imports nothing of the goldfish package, so everything else can import it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.errors import UserFacingError

ACTION_KINDS = ("mulligan", "keep", "cycle", "play", "cast", "next")


class IllegalAction(UserFacingError):
    """An action the rules (or the table) do not allow now; ``str(e)`` is the reason. Nothing changed."""


class UnreadableGame(UserFacingError):
    """A saved game this version of the engine can't load; ``str(e)`` says why, briefly."""


@dataclass(frozen=True)
class Event:
    """Something that happened, with the rule behind it: ``("draw", "Drew Flame Jet", "121.1")``."""

    kind: str
    text: str
    rule: str | None = None

    def to_list(self) -> list[str | None]:
        return [self.kind, self.text, self.rule]

    @classmethod
    def from_list(cls, item: list) -> Event:
        kind, text, rule = item
        return cls(str(kind), str(text), None if rule is None else str(rule))


@dataclass(frozen=True)
class Action:
    """One thing a player does; the game's action log is a list of these, replayed from the seed.

    ``iid`` is the card (hand card; for ``keep``, ``bottom`` lists the cards put on the bottom).
    For ``cycle``: ``ability`` (index), ``find``/``find_nothing`` (a search's choice), ``x``,
    ``sacrifice`` (the permanent's iid) and ``pay`` (optional "you may pay {1}" triggers).
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

    def __post_init__(self) -> None:
        if self.kind not in ACTION_KINDS:
            raise IllegalAction(f"Unknown action {self.kind!r}.")

    def to_dict(self) -> dict[str, Any]:
        """The action by field name, defaults left out: ``{"do": "cycle", "iid": 12}``."""
        data: dict[str, Any] = {"do": self.kind}
        for name, default in (("iid", None), ("ability", 0), ("find", None), ("x", 0), ("sacrifice", None)):
            value = getattr(self, name)
            if value != default:
                data[name] = value
        if self.find_nothing:
            data["find_nothing"] = True
        if not self.pay:
            data["pay"] = False
        if self.bottom:
            data["bottom"] = list(self.bottom)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Action:
        return cls(
            kind=data["do"],
            iid=data.get("iid"),
            ability=int(data.get("ability", 0)),
            find=data.get("find"),
            find_nothing=bool(data.get("find_nothing", False)),
            x=int(data.get("x", 0)),
            sacrifice=data.get("sacrifice"),
            pay=bool(data.get("pay", True)),
            bottom=tuple(int(b) for b in data.get("bottom", ())),
        )


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
