"""Goldfish games and per-player statistics in SQLite (tables from migration 0002_goldfish): all the SQL.

One game a channel. Its state is the engine's JSON; ``version`` grows by one with every
write, and every write names the version it read (``UPDATE … WHERE channel_id = ? AND
version = ?``), so a write based on a stale read changes nothing and raises
:class:`StaleGameError` instead. Statistics change in the same transaction as the game
write that caused them, so the two never disagree. Bound parameters only.

Read-only views (``peek``, ``get_stats``) use a second, read-only connection: in WAL mode it
reads the last committed state while a writer holds the write lock, so a stalled write never
delays them.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from bot.goldfish.engine import Game
from bot.goldfish.model import Event, UnreadableGame
from bot.goldfish.stats import KEYS, PLAYER_STATS, PlayerStats, StatsDelta
from bot.storage import Database

log = logging.getLogger(__name__)


class StaleGameError(Exception):
    """The game changed (or ended) since it was read: nothing was written."""


class GameExistsError(Exception):
    """The channel already has a game: replacing it has to be asked for."""


@dataclass(frozen=True)
class StoredGame:
    """A channel's game as stored: the row, its state, and (after an action) that action's events.

    ``state`` is None when the row's JSON is damaged; ``game`` raises :class:`UnreadableGame` then,
    and whenever the engine can't load the state.
    """

    channel_id: int
    guild_id: int
    owner_id: int
    shared: bool
    version: int
    state: dict[str, Any] | None
    created_at: str
    updated_at: str
    events: tuple[Event, ...] = field(default=(), compare=False)

    @cached_property
    def game(self) -> Game:
        if self.state is None:
            raise UnreadableGame("the saved game is damaged (its data is not valid JSON)")
        return Game.from_dict(self.state)

    def with_game(self, game: Game, version: int, events: list[Event]) -> StoredGame:
        """The record after an action wrote ``game`` at ``version``."""
        record = StoredGame(
            self.channel_id,
            self.guild_id,
            self.owner_id,
            self.shared,
            version,
            self.state,
            self.created_at,
            self.updated_at,
            tuple(events),
        )
        record.__dict__["game"] = game  # the live game is the saved one: no need to parse it back
        return record


def _dump(state: dict[str, Any]) -> str:
    return json.dumps(state, separators=(",", ":"), ensure_ascii=False)


def _game(row: sqlite3.Row) -> StoredGame:
    try:
        state = json.loads(row["state"])
    except (TypeError, ValueError):
        state = None
    return StoredGame(
        channel_id=row["channel_id"],
        guild_id=row["guild_id"],
        owner_id=row["owner_id"],
        shared=bool(row["shared"]),
        version=row["version"],
        state=state,
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


def _combine(stat_key: str, combine: str) -> str:
    if combine == "max":
        return f"{stat_key} = max({stat_key}, excluded.{stat_key})"
    return f"{stat_key} = {stat_key} + excluded.{stat_key}"


# Built once from the declared statistics (constant names, never user input).
_ADD_STATS = (
    f"INSERT INTO goldfish_stats (user_id, {', '.join(KEYS)}) "  # noqa: S608
    f"VALUES (?, {', '.join('?' for _ in KEYS)}) "
    "ON CONFLICT(user_id) DO UPDATE SET "
    + ", ".join(_combine(s.key, s.combine) for s in PLAYER_STATS)
    + ", updated_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now')"
)


async def _add_stats(conn, user_id: int, delta: StatsDelta) -> None:
    await _execute(conn, _ADD_STATS, (user_id, *(delta.values[key] for key in KEYS)))


class GameStore:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def _read(self, sql: str, params: tuple, *, writer: bool = False) -> sqlite3.Row | None:
        # One round trip to the database thread (execute, fetch and close together).
        conn = self.db.connection if writer else (self.db.reader or self.db.connection)
        rows = await conn.execute_fetchall(sql, params)
        return next(iter(rows), None)

    # ------------------------------------------------------------------ games

    async def load(self, channel_id: int) -> StoredGame | None:
        """The channel's game, read on the writer's connection (before a write)."""
        row = await self._read("SELECT * FROM goldfish_games WHERE channel_id = ?", (channel_id,), writer=True)
        return None if row is None else _game(row)

    async def peek(self, channel_id: int) -> StoredGame | None:
        """The channel's game for a read-only view: never waits for a writer."""
        row = await self._read("SELECT * FROM goldfish_games WHERE channel_id = ?", (channel_id,))
        return None if row is None else _game(row)

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

    async def get_stats(self, user_id: int) -> PlayerStats | None:
        row = await self._read("SELECT * FROM goldfish_stats WHERE user_id = ?", (user_id,))
        if row is None:
            return None
        return PlayerStats(row["user_id"], {key: row[key] for key in KEYS}, row["updated_at"])

    async def forget_stats(self, user_id: int) -> bool:
        """Delete the player's statistics row, and nothing else, leaving no copy in the WAL; True if there was one."""
        async with self.db.transaction() as conn:
            deleted = await _execute(conn, "DELETE FROM goldfish_stats WHERE user_id = ?", (user_id,)) == 1
        if deleted:
            await self.db.checkpoint()
        return deleted
