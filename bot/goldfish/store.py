"""Goldfish games and per-player statistics (tables from migration 0002_goldfish): all the SQL.

The same statements run on SQLite and PostgreSQL: ``?`` placeholders (numbered for PostgreSQL by the
database), timestamps passed in from Python, and nothing either dialect lacks.

A game is keyed by its channel and its player (:class:`GameKey`): each player can have their own game in a
channel, beside the channel's shared game (player 0). Its state is the engine's JSON; ``version`` grows by one with
every write, and every write names the version it read (``UPDATE … WHERE channel_id = ? AND player_id = ? AND
version = ?``), so a write based on a stale read changes nothing and raises
:class:`StaleGameError` instead. Statistics change in the same transaction as the game
write that caused them, so the two never disagree. Bound parameters only.

Read-only views (``peek``, ``get_stats``) never wait for a writer: SQLite answers them on a
second, read-only connection (WAL mode shows it the last committed state), PostgreSQL on another
pooled connection.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cached_property
from typing import TYPE_CHECKING, Any, NamedTuple

import orjson

from bot.goldfish.decks import preset_decks
from bot.goldfish.engine import Event, Game, UnreadableGame
from bot.goldfish.stats import KEYS, PLAYER_STATS, SUMS, PlayerStats, StatsDelta
from bot.storage import Database, now_text

if TYPE_CHECKING:
    from bot.storage import PostgresDatabase

log = logging.getLogger(__name__)


SHARED = 0  # the player_id of a channel's shared game


class GameKey(NamedTuple):
    """Which game: its channel and its player (the owner's id, or :data:`SHARED` for the channel's shared game)."""

    channel_id: int
    player_id: int

    @classmethod
    def of(cls, channel_id: int, owner_id: int, shared: bool) -> GameKey:
        return cls(channel_id, SHARED if shared else owner_id)


class StaleGameError(Exception):
    """The game changed (or ended) since it was read: nothing was written."""


class GameExistsError(Exception):
    """The channel already has a game: replacing it has to be asked for."""


@dataclass(frozen=True)
class StoredGame:
    """A game as stored: the row, its state, and (after an action) that action's events.

    ``text`` is the state as stored (JSON), read into ``state`` only when asked for. ``state`` is None when
    the JSON is damaged; ``game`` raises :class:`UnreadableGame` then, and whenever the engine can't load it.
    """

    channel_id: int
    player_id: int
    guild_id: int
    owner_id: int
    shared: bool
    version: int
    text: str | None
    created_at: str
    updated_at: str
    events: tuple[Event, ...] = field(default=(), compare=False)

    @cached_property
    def key(self) -> GameKey:
        return GameKey(self.channel_id, self.player_id)

    @cached_property
    def state(self) -> Any:
        try:
            return orjson.loads(self.text)
        except (TypeError, ValueError):
            return None

    @cached_property
    def game(self) -> Game:
        if self.state is None:
            raise UnreadableGame("the saved game is damaged (its data is not valid JSON)")
        return Game.from_dict(self.state, preset_decks())

    @cached_property
    def tables(self) -> list[int]:
        """The ids of the game's public messages, oldest first (the last one is the table actions edit)."""
        state = self.state
        tables = state.get("tables") if isinstance(state, dict) else None
        return [int(t) for t in tables if isinstance(t, int)] if isinstance(tables, list) else []

    def known(self, game: Game, tables: list[int]) -> StoredGame:
        """This record, with its game and tables already known (not read back from ``text``)."""
        self.__dict__["game"], self.__dict__["tables"] = game, tables
        return self

    def with_game(self, game: Game, version: int, events: list[Event], text: str, tables: list[int]) -> StoredGame:
        """The record after an action wrote ``game`` (as ``text``, with ``tables``) at ``version``."""
        record = StoredGame(
            self.channel_id,
            self.player_id,
            self.guild_id,
            self.owner_id,
            self.shared,
            version,
            text,
            self.created_at,
            self.updated_at,
            tuple(events),
        )
        return record.known(game, tables)


def encode_state(state: dict[str, Any]) -> str:
    """A game's state as it is stored: compact JSON (orjson: a save writes the whole game, so this is on the
    path of every action). Integers beyond 64 bits are refused (TypeError); a game holds none."""
    return orjson.dumps(state).decode()


def _game(row: Mapping[str, Any]) -> StoredGame:
    return StoredGame(
        channel_id=row["channel_id"],
        player_id=row["player_id"],
        guild_id=row["guild_id"],
        owner_id=row["owner_id"],
        shared=bool(row["shared"]),
        version=row["version"],
        text=row["state"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
    )


def created_text() -> str:
    """When a game is created, to the microsecond: part of the game's identity (see ``_UPDATE_GAME``)."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _text(state: dict[str, Any] | str) -> str:
    return state if isinstance(state, str) else encode_state(state)


async def _execute(conn, sql: str, params: tuple) -> int:
    """Run one write and return how many rows it changed.

    The cursor of a finished INSERT/UPDATE/DELETE holds nothing open, so it is left to the
    garbage collector rather than closed: one round trip to the database thread instead of two.
    """
    cursor = await conn.execute(sql, params)
    return cursor.rowcount


def _combine(stat_key: str, combine: str) -> str:
    # Qualified by the table: PostgreSQL would find a bare name ambiguous; CASE, because SQLite's
    # two-argument max() is PostgreSQL's GREATEST().
    old, new = f"goldfish_stats.{stat_key}", f"excluded.{stat_key}"
    if combine == "max":
        return f"{stat_key} = CASE WHEN {new} > {old} THEN {new} ELSE {old} END"
    return f"{stat_key} = {old} + {new}"


# Built once from the declared statistics (constant names, never user input).
_ON_CONFLICT_ADD = (
    "ON CONFLICT(user_id) DO UPDATE SET "
    + ", ".join(_combine(s.key, s.combine) for s in PLAYER_STATS)
    + ", updated_at = excluded.updated_at"
)
_ADD_STATS = (
    f"INSERT INTO goldfish_stats (user_id, {', '.join(KEYS)}, updated_at) "  # noqa: S608
    f"VALUES (?, {', '.join('?' for _ in KEYS)}, ?) " + _ON_CONFLICT_ADD
)
# A game is the row with its creation time: versions start at 1 again when a game is replaced, so the version
# alone would let a write meant for the old game land on its replacement.
_UPDATE_GAME = (
    "UPDATE goldfish_games SET state = ?, version = version + 1, updated_at = ? "
    "WHERE channel_id = ? AND player_id = ? AND version = ? AND created_at = COALESCE(?, created_at)"
)
_ONE_GAME = "SELECT * FROM goldfish_games WHERE channel_id = ? AND player_id = ?"
# A slash command's game: the caller's own in the channel, or else the channel's shared one (player 0), in one read.
_MINE_OR_SHARED = (
    "SELECT * FROM goldfish_games WHERE channel_id = ? AND player_id IN (?, 0) ORDER BY player_id DESC LIMIT 1"
)
# PostgreSQL: the game write and its statistics as one statement, atomic on its own (the statistics are added
# only if the versioned UPDATE changed the row): one round trip a save instead of four (BEGIN … COMMIT).
_SAVE_WITH_STATS = (
    f"WITH saved AS ({_UPDATE_GAME} RETURNING channel_id), counted AS ("  # noqa: S608
    f"INSERT INTO goldfish_stats (user_id, {', '.join(KEYS)}, updated_at) "
    f"SELECT ?::bigint, {', '.join('?::bigint' for _ in KEYS)}, ?::text FROM saved {_ON_CONFLICT_ADD}) "
    "SELECT count(*) AS saved FROM saved"
)


def _take_back(cast: str) -> str:
    """An undo's statement: each sum lowered by the amount taken back, never below 0; no row is created."""
    lowered = ", ".join(f"{key} = CASE WHEN {key} > ?{cast} THEN {key} - ?{cast} ELSE 0 END" for key in SUMS)
    return f"UPDATE goldfish_stats SET {lowered}, updated_at = ? WHERE user_id = ?{cast}"  # noqa: S608


_TAKE_BACK = _take_back("")
# PostgreSQL: the game write and the undo's statistics as one statement, as _SAVE_WITH_STATS.
_SAVE_TAKING_BACK = (
    f"WITH saved AS ({_UPDATE_GAME} RETURNING channel_id), taken AS ({_take_back('::bigint')} "  # noqa: S608
    "AND EXISTS (SELECT 1 FROM saved)) SELECT count(*) AS saved FROM saved"
)


def _taken_back(user_id: int, delta: StatsDelta) -> tuple:
    return (*(value for key in SUMS for value in (delta.values[key],) * 2), now_text(), user_id)


def _add_stats_statement(user_id: int, delta: StatsDelta) -> tuple[str, tuple]:
    if delta.back:
        return _TAKE_BACK, _taken_back(user_id, delta)
    return _ADD_STATS, (user_id, *(delta.values[key] for key in KEYS), now_text())


async def _add_stats(conn, user_id: int, delta: StatsDelta) -> None:
    await _execute(conn, *_add_stats_statement(user_id, delta))


class GameStore:
    def __init__(self, db: Database | PostgresDatabase) -> None:
        self.db = db

    async def _read(self, sql: str, params: tuple, *, writer: bool = False) -> Mapping[str, Any] | None:
        return await self.db.fetchone(sql, params, reader=not writer)

    # ------------------------------------------------------------------ games

    async def load(self, key: GameKey) -> StoredGame | None:
        """The game, read on the writer's connection (before a write)."""
        row = await self._read(_ONE_GAME, tuple(key), writer=True)
        return None if row is None else _game(row)

    async def peek(self, key: GameKey) -> StoredGame | None:
        """The game for a read-only view: never waits for a writer."""
        row = await self._read(_ONE_GAME, tuple(key))
        return None if row is None else _game(row)

    async def mine_or_shared(self, channel_id: int, user_id: int) -> StoredGame | None:
        """The game a slash command of ``user_id`` acts on: their own in the channel, else the channel's shared
        one (a read-only view: never waits for a writer)."""
        row = await self._read(_MINE_OR_SHARED, (channel_id, user_id))
        return None if row is None else _game(row)

    async def in_channel(self, channel_id: int) -> list[StoredGame]:
        """Every game in the channel, the one played last first (to the second)."""
        rows = await self.db.fetchall(
            "SELECT * FROM goldfish_games WHERE channel_id = ? ORDER BY updated_at DESC, player_id",
            (channel_id,),
            reader=True,
        )
        return [_game(row) for row in rows]

    async def create(
        self,
        *,
        channel_id: int,
        guild_id: int,
        owner_id: int,
        shared: bool,
        state: dict[str, Any] | str,
        replace_version: int | None = None,
        stats: StatsDelta | None = None,
    ) -> StoredGame:
        """Store a new game: ``owner_id``'s own in the channel, or the channel's shared one; with ``replace_version``,
        in place of that game at exactly that version.

        Raises :class:`GameExistsError` when that game exists and no replacement was asked for,
        :class:`StaleGameError` when the game to replace changed or ended meanwhile.
        """
        key = GameKey.of(channel_id, owner_id, shared)
        async with self.db.transaction() as conn:
            if replace_version is not None:
                deleted = await _execute(
                    conn,
                    "DELETE FROM goldfish_games WHERE channel_id = ? AND player_id = ? AND version = ?",
                    (*key, replace_version),
                )
                if deleted != 1:
                    raise StaleGameError("the game changed while you were deciding; nothing was replaced")
            try:
                now, created = now_text(), created_text()
                await _execute(
                    conn,
                    "INSERT INTO goldfish_games (channel_id, player_id, guild_id, owner_id, shared, version, state, "
                    "created_at, updated_at) VALUES (?, ?, ?, ?, ?, 1, ?, ?, ?)",
                    (*key, guild_id, owner_id, int(shared), _text(state), created, now),
                )
            except self.db.integrity_errors as error:
                raise GameExistsError("this game already exists") from error
            if stats:
                await _add_stats(conn, owner_id, stats)
            async with conn.execute(_ONE_GAME, tuple(key)) as cursor:
                row = await cursor.fetchone()
        return _game(row)

    async def save(
        self,
        key: GameKey,
        state: dict[str, Any] | str,
        expected_version: int,
        *,
        user_id: int | None = None,
        stats: StatsDelta | None = None,
        created_at: str | None = None,
    ) -> int:
        """Write ``state`` (a dict, or its :func:`encode_state` text) over the game at ``expected_version``;
        returns the new version.

        The statistics of ``user_id`` change in the same transaction, or not at all (an undo's, ``stats.back``,
        are taken back from the sums instead of added). With ``created_at`` (the
        game's, as loaded), a game replaced in the meantime is not written over even at the same version.
        """
        game = (_text(state), now_text(), *key, expected_version, created_at)
        with_stats = user_id is not None and bool(stats)
        if self.db.dialect == "postgresql":
            if with_stats and stats.back:
                updated = (await self.db.fetchone(_SAVE_TAKING_BACK, (*game, *_taken_back(user_id, stats))))["saved"]
            elif with_stats:
                row = await self.db.fetchone(
                    _SAVE_WITH_STATS, (*game, user_id, *(stats.values[key] for key in KEYS), game[1])
                )
                updated = row["saved"]
            else:
                updated = len(await self.db.fetchall(_UPDATE_GAME + " RETURNING channel_id", game))
            if updated != 1:
                raise StaleGameError("the game changed since it was read; nothing was saved")
            return expected_version + 1
        if not with_stats:
            # A single versioned UPDATE is atomic on its own: one round trip instead of BEGIN … COMMIT.
            updated = len(await self.db.write_fetchall(_UPDATE_GAME + " RETURNING channel_id", game))
            if updated != 1:
                raise StaleGameError("the game changed since it was read; nothing was saved")
            return expected_version + 1
        updated = await self.db.write_if((_UPDATE_GAME, game), [_add_stats_statement(user_id, stats)])
        if updated != 1:
            raise StaleGameError("the game changed since it was read; nothing was saved")
        return expected_version + 1

    async def keep_tables(self, key: GameKey, state: dict[str, Any], version: int) -> bool:
        """Write ``state`` over the game at exactly ``version`` without a new version: only the list of the game's
        messages changed (a table posted again), which no action depends on. False when the game moved on (its
        next write carries the list anyway)."""
        sql = (
            "UPDATE goldfish_games SET state = ? WHERE channel_id = ? AND player_id = ? AND version = ? "
            "RETURNING channel_id"
        )
        params = (_text(state), *key, version)
        write = self.db.fetchall if self.db.dialect == "postgresql" else self.db.write_fetchall
        return len(await write(sql, params)) == 1

    async def delete(self, key: GameKey, expected_version: int | None = None) -> bool:
        """Remove the game (only if still at ``expected_version`` when given)."""
        async with self.db.transaction() as conn:
            if expected_version is None:
                deleted = await _execute(
                    conn, "DELETE FROM goldfish_games WHERE channel_id = ? AND player_id = ?", tuple(key)
                )
            else:
                deleted = await _execute(
                    conn,
                    "DELETE FROM goldfish_games WHERE channel_id = ? AND player_id = ? AND version = ?",
                    (*key, expected_version),
                )
        return deleted == 1

    # ------------------------------------------------------------- statistics

    async def get_stats(self, user_id: int) -> PlayerStats | None:
        row = await self._read("SELECT * FROM goldfish_stats WHERE user_id = ?", (user_id,))
        if row is None:
            return None
        return PlayerStats(row["user_id"], {key: row[key] for key in KEYS}, row["updated_at"])

    async def forget_stats(self, user_id: int) -> bool:
        """Delete the player's statistics row and recorded results, and nothing else, leaving no copy in the WAL;
        True if there was any."""
        async with self.db.transaction() as conn:
            deleted = await _execute(conn, "DELETE FROM goldfish_stats WHERE user_id = ?", (user_id,)) == 1
            deleted = await _execute(conn, "DELETE FROM goldfish_results WHERE user_id = ?", (user_id,)) > 0 or deleted
        if deleted:
            await self.db.checkpoint()
        return deleted
