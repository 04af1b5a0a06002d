"""Goldfish games and per-player statistics in SQLite (tables from migration 0002_goldfish).

One game a channel. Its state is the engine's JSON; ``version`` grows by one with every
write, and every write names the version it read (``UPDATE … WHERE channel_id = ? AND
version = ?``), so a write based on a stale read changes nothing and raises
:class:`StaleGameError` instead. Statistics change in the same transaction as the game
write that caused them, so the two never disagree. Bound parameters only.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, fields
from typing import Any

from bot.storage import Database


class StaleGameError(Exception):
    """The game changed (or ended) since it was read: nothing was written."""


class GameExistsError(Exception):
    """The channel already has a game: replacing it has to be asked for."""


@dataclass(frozen=True)
class StoredGame:
    channel_id: int
    guild_id: int
    owner_id: int
    shared: bool
    version: int
    state: dict[str, Any]
    created_at: str
    updated_at: str


@dataclass(frozen=True)
class StatsDelta:
    """What one write adds to a player's totals; ``longest_game`` is a candidate maximum, not a sum."""

    games: int = 0
    cards_cycled: int = 0
    typecycling_searches: int = 0
    turns: int = 0
    longest_game: int = 0

    def __bool__(self) -> bool:
        return any(getattr(self, f.name) for f in fields(self))


@dataclass(frozen=True)
class PlayerStats:
    user_id: int
    games: int
    cards_cycled: int
    typecycling_searches: int
    turns: int
    longest_game: int
    updated_at: str


def _dump(state: dict[str, Any]) -> str:
    return json.dumps(state, separators=(",", ":"), ensure_ascii=False)


def _game(row: sqlite3.Row) -> StoredGame:
    return StoredGame(
        channel_id=row["channel_id"],
        guild_id=row["guild_id"],
        owner_id=row["owner_id"],
        shared=bool(row["shared"]),
        version=row["version"],
        state=json.loads(row["state"]),
        created_at=row["created_at"],
        updated_at=row["updated_at"],
    )


async def _execute(conn, sql: str, params: tuple) -> int:
    """Run one write and return how many rows it changed.

    The cursor of a finished INSERT/UPDATE/DELETE holds nothing open, so it is left to the
    garbage collector rather than closed: one round trip to the database thread instead of two.
    """
    cursor = await conn.execute(sql, params)
    return cursor.rowcount


async def _add_stats(conn, user_id: int, delta: StatsDelta) -> None:
    await _execute(
        conn,
        "INSERT INTO goldfish_stats (user_id, games, cards_cycled, typecycling_searches, turns, longest_game) "
        "VALUES (?, ?, ?, ?, ?, ?) "
        "ON CONFLICT(user_id) DO UPDATE SET "
        "games = games + excluded.games, "
        "cards_cycled = cards_cycled + excluded.cards_cycled, "
        "typecycling_searches = typecycling_searches + excluded.typecycling_searches, "
        "turns = turns + excluded.turns, "
        "longest_game = max(longest_game, excluded.longest_game), "
        "updated_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now')",
        (user_id, delta.games, delta.cards_cycled, delta.typecycling_searches, delta.turns, delta.longest_game),
    )


class GameStore:
    def __init__(self, db: Database) -> None:
        self.db = db

    # ------------------------------------------------------------------ games

    async def load(self, channel_id: int) -> StoredGame | None:
        rows = await self.db.connection.execute_fetchall(
            "SELECT * FROM goldfish_games WHERE channel_id = ?", (channel_id,)
        )
        return _game(next(iter(rows))) if rows else None

    async def create(
        self,
        *,
        channel_id: int,
        guild_id: int,
        owner_id: int,
        shared: bool,
        state: dict[str, Any],
        replace_version: int | None = None,
        stats: StatsDelta | None = None,
    ) -> StoredGame:
        """Store a new game; with ``replace_version``, in place of the game at exactly that version.

        Raises :class:`GameExistsError` when the channel has a game and no replacement was asked for,
        :class:`StaleGameError` when the game to replace changed or ended meanwhile.
        """
        async with self.db.transaction() as conn:
            if replace_version is not None:
                deleted = await _execute(
                    conn,
                    "DELETE FROM goldfish_games WHERE channel_id = ? AND version = ?",
                    (channel_id, replace_version),
                )
                if deleted != 1:
                    raise StaleGameError("the game changed while you were deciding; nothing was replaced")
            try:
                await _execute(
                    conn,
                    "INSERT INTO goldfish_games (channel_id, guild_id, owner_id, shared, version, state) "
                    "VALUES (?, ?, ?, ?, 1, ?)",
                    (channel_id, guild_id, owner_id, int(shared), _dump(state)),
                )
            except sqlite3.IntegrityError as error:
                raise GameExistsError("this channel already has a goldfish game") from error
            if stats:
                await _add_stats(conn, owner_id, stats)
            async with conn.execute("SELECT * FROM goldfish_games WHERE channel_id = ?", (channel_id,)) as cursor:
                row = await cursor.fetchone()
        return _game(row)

    async def save(
        self,
        channel_id: int,
        state: dict[str, Any],
        expected_version: int,
        *,
        user_id: int | None = None,
        stats: StatsDelta | None = None,
    ) -> int:
        """Write ``state`` over the game at ``expected_version``; returns the new version.

        The statistics of ``user_id`` change in the same transaction, or not at all.
        """
        async with self.db.transaction() as conn:
            updated = await _execute(
                conn,
                "UPDATE goldfish_games SET state = ?, version = version + 1, "
                "updated_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') "
                "WHERE channel_id = ? AND version = ?",
                (_dump(state), channel_id, expected_version),
            )
            if updated != 1:
                raise StaleGameError("the game changed since it was read; nothing was saved")
            if user_id is not None and stats:
                await _add_stats(conn, user_id, stats)
        return expected_version + 1

    async def delete(self, channel_id: int, expected_version: int | None = None) -> bool:
        """Remove the channel's game (only if still at ``expected_version`` when given)."""
        async with self.db.transaction() as conn:
            if expected_version is None:
                deleted = await _execute(conn, "DELETE FROM goldfish_games WHERE channel_id = ?", (channel_id,))
            else:
                deleted = await _execute(
                    conn,
                    "DELETE FROM goldfish_games WHERE channel_id = ? AND version = ?",
                    (channel_id, expected_version),
                )
        return deleted == 1

    # ------------------------------------------------------------- statistics

    async def add_stats(self, user_id: int, delta: StatsDelta) -> None:
        async with self.db.transaction() as conn:
            await _add_stats(conn, user_id, delta)

    async def get_stats(self, user_id: int) -> PlayerStats | None:
        row = await self.db.fetchone("SELECT * FROM goldfish_stats WHERE user_id = ?", (user_id,))
        if row is None:
            return None
        return PlayerStats(**{f.name: row[f.name] for f in fields(PlayerStats)})

    async def forget_stats(self, user_id: int) -> bool:
        """Delete the player's statistics row, and nothing else; True if there was one."""
        async with self.db.transaction() as conn:
            return await _execute(conn, "DELETE FROM goldfish_stats WHERE user_id = ?", (user_id,)) == 1
