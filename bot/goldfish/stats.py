"""Player statistics, declared once: the store's columns, the per-action delta and the display read this list."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from bot.text import plural


@dataclass(frozen=True)
class Statistic:
    """One per-player total. ``combine`` is ``"sum"`` (added up) or ``"max"`` (the largest value seen);
    ``from_game`` is the game counter that feeds it (its growth for a sum, its value for a maximum)."""

    key: str
    label: str
    combine: str = "sum"
    from_game: str | None = None
    unit: str = ""  # the word counted ("turn"), agreeing with the value through plural()

    def shown(self, value: int) -> str:
        return plural(value, self.unit) if self.unit else str(value)


PLAYER_STATS: tuple[Statistic, ...] = (
    Statistic("games", "Games started"),
    Statistic("cards_cycled", "Cards cycled", from_game="cards_cycled"),
    Statistic("typecycling_searches", "Typecycling searches", from_game="typecycling_searches"),
    Statistic("turns", "Turns played", from_game="turns"),
    Statistic("longest_game", "Longest game", combine="max", from_game="turns", unit="turn"),
)
KEYS: tuple[str, ...] = tuple(s.key for s in PLAYER_STATS)
SUMS: tuple[str, ...] = tuple(s.key for s in PLAYER_STATS if s.combine == "sum")


class StatsDelta:
    """What one write adds to a player's totals (a ``max`` statistic's value is a candidate maximum)."""

    def __init__(self, *, back: bool = False, **values: int) -> None:
        unknown = set(values) - set(KEYS)
        if unknown:
            raise TypeError(f"unknown statistics: {sorted(unknown)}")
        self.values = {key: int(values.get(key, 0)) for key in KEYS}
        self.back = back  # taken back (an undo) rather than added

    def __bool__(self) -> bool:
        return any(self.values.values())

    def __getattr__(self, key: str) -> int:
        try:
            return self.__dict__["values"][key]
        except KeyError:
            raise AttributeError(key) from None

    def __repr__(self) -> str:
        return f"StatsDelta({self.values}{', back' if self.back else ''})"

    @classmethod
    def of_undo(cls, before: Mapping[str, int], after: Mapping[str, int]) -> StatsDelta:
        """What to take back from the player's sums when an undo turns a game's counters from ``before`` back to
        ``after``. A maximum (the longest game) stays: the values it was the largest of are not kept."""
        values = {}
        for stat in PLAYER_STATS:
            if stat.from_game is not None and stat.combine == "sum":
                values[stat.key] = max(0, int(before.get(stat.from_game, 0)) - int(after.get(stat.from_game, 0)))
        return cls(back=True, **values)

    @classmethod
    def of_action(cls, before: Mapping[str, int], after: Mapping[str, int]) -> StatsDelta:
        """The delta for an action that changed a game's counters from ``before`` to ``after``."""
        values = {}
        for stat in PLAYER_STATS:
            if stat.from_game is None:
                continue
            now = int(after.get(stat.from_game, 0))
            values[stat.key] = now if stat.combine == "max" else max(0, now - int(before.get(stat.from_game, 0)))
        return cls(**values)


@dataclass(frozen=True)
class PlayerStats:
    """A player's stored totals."""

    user_id: int
    values: dict[str, int]
    updated_at: str

    def __getattr__(self, key: str) -> int:
        values = self.__dict__.get("values", {})
        if key in values:
            return values[key]
        raise AttributeError(key)

    def rows(self) -> list[tuple[str, str]]:
        """(label, shown value) per statistic, in declaration order."""
        return [(stat.label, stat.shown(self.values[stat.key])) for stat in PLAYER_STATS]
