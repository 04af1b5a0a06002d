"""Finished games per player (table ``goldfish_results``) and the trend ``/goldfish stats show`` gives from them:
the median kill turn per deck over the player's recent games. All the SQL, with bound parameters.

A game is recorded when it ends (won, lost, or ended by hand after turn 1), once: the key is the channel
and the game's creation time, so a game ended again after an undo replaces its row.
``/goldfish stats forget`` deletes a player's rows with their statistics (:meth:`GameStore.forget_stats`).
"""

from __future__ import annotations

import hashlib
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.goldfish.engine import Game
from bot.goldfish.practice import result_of
from bot.storage import Database, now_text

RECENT_GAMES = 20  # a trend looks at this many of the player's latest games
TREND_DECKS = 5  # decks shown, most recently played first


@dataclass(frozen=True)
class GameResult:
    deck_key: str
    deck_name: str
    result: str
    turns: int
    cards_cycled: int
    ended_at: str = ""


def deck_key_of(game: Game) -> str:
    """A preset deck's key, or a custom list's fingerprint (its cards and counts): the trend groups by it."""
    if game.deck_key:
        return game.deck_key
    entries = ";".join(f"{count} {name}" for count, name in sorted(game.deck_entries, key=lambda e: e[1]))
    return "list:" + hashlib.blake2b(entries.encode(), digest_size=6).hexdigest()


def result_from(game: Game) -> GameResult | None:
    """The result to record for a game that ended, or None for one that never got under way."""
    if game.turn < 1:
        return None
    return GameResult(deck_key_of(game), game.deck_name, result_of(game), game.turn, game.stats.get("cards_cycled", 0))


_RECORD = (
    "INSERT INTO goldfish_results (user_id, game_id, deck_key, deck_name, result, turns, cards_cycled, ended_at) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(user_id, game_id) DO UPDATE SET result = excluded.result, "
    "turns = excluded.turns, cards_cycled = excluded.cards_cycled, ended_at = excluded.ended_at"
)


class ResultStore:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def record(self, user_id: int, game_id: str, result: GameResult) -> None:
        row = (user_id, game_id, result.deck_key, result.deck_name[:200], result.result, result.turns)
        async with self.db.transaction() as conn:
            await conn.execute(_RECORD, (*row, result.cards_cycled, now_text()))

    async def recent(self, user_id: int, limit: int = RECENT_GAMES) -> list[GameResult]:
        """The player's latest results, newest first."""
        rows = await self.db.fetchall(
            "SELECT deck_key, deck_name, result, turns, cards_cycled, ended_at FROM goldfish_results "
            "WHERE user_id = ? ORDER BY ended_at DESC, game_id DESC LIMIT ?",
            (user_id, limit),
            reader=True,
        )
        return [_result(row) for row in rows]


def _result(row: Mapping[str, Any]) -> GameResult:
    return GameResult(
        row["deck_key"], row["deck_name"], row["result"], row["turns"], row["cards_cycled"], row["ended_at"]
    )


@dataclass(frozen=True)
class DeckTrend:
    """One deck over the player's recent games: the median kill turn of the games won, and the latest kills."""

    deck_name: str
    games: int
    wins: int
    median_kill_turn: float | None
    kill_turns: tuple[int, ...]  # oldest first


def trend(results: Sequence[GameResult], decks: int = TREND_DECKS) -> list[DeckTrend]:
    """Per deck (most recently played first), from results given newest first."""
    grouped: dict[str, list[GameResult]] = {}
    for result in results:
        grouped.setdefault(result.deck_key, []).append(result)
    trends = []
    for games in list(grouped.values())[:decks]:
        kills = [g.turns for g in reversed(games) if g.result == "won"]
        median = statistics.median(kills) if kills else None
        trends.append(DeckTrend(games[0].deck_name, len(games), len(kills), median, tuple(kills)))
    return trends
