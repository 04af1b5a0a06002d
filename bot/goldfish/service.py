"""The goldfish game service: a game per player in a channel (and the channel's shared one), every action under
its game's lock.

Which game: a slash command acts on the caller's own game in the channel, or else the channel's shared game
(:meth:`GameService.mine`); a button names its game (a :class:`~bot.goldfish.store.GameKey`); a look
(``/goldfish status``) may also show another player's game, privately (:meth:`GameService.viewed`).
``act`` loads the game, checks who is acting and whether what they clicked is still current,
applies the engine action, and saves the new state with the version it read (a stale write
changes nothing) together with the player's statistics, in one transaction. Every refusal is an
:class:`~bot.goldfish.engine.model.IllegalAction` whose text is meant for the player.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections import OrderedDict

from bot.goldfish.engine import Action, Event, Game, IllegalAction, UnreadableGame
from bot.goldfish.stats import StatsDelta
from bot.goldfish.store import SHARED, GameExistsError, GameKey, GameStore, StaleGameError, StoredGame, encode_state
from bot.goldfish.table import gone_text, undo_text

log = logging.getLogger(__name__)

CARD_ACTIONS = frozenset({"cycle", "play", "cast"})
NO_GAME = "There is no goldfish game in this channel. Start one with `/goldfish start`."
NOT_YOURS = (
    "You have no goldfish game in this channel, and it has no shared one: the games here are other players'. "
    "Start your own with `/goldfish start` (each player can have one here)."
)
GAME_OVER = "This game is over. Start a new one with `/goldfish start`."


def unreadable_note(error: UnreadableGame) -> str:
    return (
        f"The saved game in this channel could not be loaded: {error}. "
        "End it with `/goldfish end`, or start a new one with `/goldfish start` (it replaces the old one)."
    )


def game_of(record: StoredGame) -> Game:
    """The record's game, or a refusal that explains the saved game can't be loaded and what to do."""
    try:
        return record.game
    except UnreadableGame as error:
        log.warning("Goldfish game in channel %s can't be loaded: %s", record.channel_id, error)
        raise IllegalAction(unreadable_note(error)) from None


def is_loadable(record: StoredGame) -> bool:
    try:
        return record.game is not None
    except UnreadableGame:
        return False


TABLE_COPIES = 5
LIVE_GAMES = 1024  # about 40 KB each for a long game


class LiveGames:
    """The games this process saved last, kept as live games (bounded, least recently used first out).

    The next action in a channel uses the kept game instead of reading the saved JSON back, but only when
    the stored text is exactly the text this process wrote: a write by another process, a replaced or
    restored game all show as a different text, and are read from the database as usual. The kept game is
    private: callers get a copy, so nothing they hold changes under them.
    """

    def __init__(self, size: int = LIVE_GAMES) -> None:
        self.size = size
        self.hits = self.misses = 0
        self._games: OrderedDict[GameKey, tuple[str, Game, list[int]]] = OrderedDict()

    def take(self, record: StoredGame) -> StoredGame:
        """``record`` with the kept game when it is still the stored one (the entry is used up either way)."""
        kept = self._games.pop(record.key, None)
        if kept is not None and kept[0] == record.text:
            self.hits += 1
            return record.known(kept[1], kept[2])
        self.misses += 1
        return record

    def keep(self, record: StoredGame) -> None:
        """Keep a copy of the record's game, as saved in ``record.text``."""
        self._games[record.key] = (record.text, record.game.clone(), list(record.tables))
        self._games.move_to_end(record.key)
        while len(self._games) > self.size:
            self._games.popitem(last=False)

    def forget(self, key: GameKey) -> None:
        self._games.pop(key, None)

    def __len__(self) -> int:
        return len(self._games)


class GameService:
    def __init__(self, store: GameStore, *, live_games: int = LIVE_GAMES) -> None:
        self.store = store
        self.live = LiveGames(live_games)
        self._locks: weakref.WeakValueDictionary[GameKey, asyncio.Lock] = weakref.WeakValueDictionary()

    def lock(self, key: GameKey) -> asyncio.Lock:
        lock = self._locks.get(key)
        if lock is None:
            lock = self._locks[key] = asyncio.Lock()
        return lock

    # ------------------------------------------------------------ which game

    async def missing(self, channel_id: int) -> IllegalAction:
        """The refusal when the caller has no game here: none at all, or only other players' games."""
        return IllegalAction(NOT_YOURS if await self.store.in_channel(channel_id) else NO_GAME)

    async def mine(self, channel_id: int, user_id: int) -> StoredGame:
        """The game a slash command acts on: the caller's own in the channel, or else the channel's shared game
        (read-only: never waits for a writer)."""
        record = await self.store.mine_or_shared(channel_id, user_id)
        if record is None:
            raise await self.missing(channel_id)
        return record

    async def viewed(self, channel_id: int, user_id: int) -> tuple[StoredGame, bool]:
        """The game a look (status, hand, log) shows, and whether it is the caller's to play: their own or the
        shared game, else the game played last in the channel (someone else's, shown to the caller alone)."""
        record = await self.store.mine_or_shared(channel_id, user_id)
        if record is not None:
            return record, True
        others = await self.store.in_channel(channel_id)
        if not others:
            raise IllegalAction(NO_GAME)
        return others[0], False

    async def of_message(self, channel_id: int, message_id: int | None, user_id: int) -> GameKey:
        """The game of a message whose buttons name none (posted before games were keyed by player): the game
        that remembers the message, else the clicker's own or the shared game."""
        if message_id is not None:
            for record in await self.store.in_channel(channel_id):
                if message_id in record.tables:
                    return record.key
        return (await self.mine(channel_id, user_id)).key

    # ------------------------------------------------------------ reading

    async def peek(self, key: GameKey) -> StoredGame:
        """The game for a read-only view (never waits for a writer)."""
        record = await self.store.peek(key)
        if record is None:
            raise await self.missing(key.channel_id)
        return record

    async def load(self, key: GameKey) -> StoredGame:
        record = await self.store.load(key)
        if record is None:
            raise await self.missing(key.channel_id)
        return record

    @staticmethod
    def check_player(record: StoredGame, user_id: int) -> None:
        GameService.check_seat(SHARED if record.shared else record.owner_id, user_id)

    @staticmethod
    def check_seat(player_id: int, user_id: int) -> None:
        """Refuse someone who doesn't play the game of ``player_id`` (its owner, or SHARED: anyone)."""
        if player_id in (SHARED, user_id):
            return
        raise IllegalAction(
            f"This is <@{player_id}>'s goldfish game, so only they can play it. Start your own with "
            "`/goldfish start`: each player can have a game in this channel (`shared:true` makes one anyone can play)."
        )

    @staticmethod
    def check_fresh(record: StoredGame, action: Action | None, seen: int | None, user_id: int | None = None) -> None:
        """Refuse an action on a finished game, on a card that left the hand (saying what is used up), or from an
        outdated message."""
        game = game_of(record)
        if game.phase == "over":
            raise IllegalAction(GAME_OVER)
        kind = action.kind if action else "view"
        if kind in CARD_ACTIONS and action.iid is not None and all(c.iid != action.iid for c in game.zones.hand):
            raise IllegalAction(gone_text(game, action, user_id))
        if seen is not None and seen != record.version and kind not in CARD_ACTIONS:
            raise IllegalAction(
                "The game has moved on since this message was posted, so nothing happened. "
                "Use the newest game message, or `/goldfish status` to post it again."
            )

    async def playable(self, key: GameKey, user_id: int, seen: int | None = None) -> StoredGame:
        """The game for a control that changes only the message, after the same checks as an action."""
        record = await self.load(key)
        self.check_player(record, user_id)
        self.check_fresh(record, None, seen)
        return record

    # ------------------------------------------------------------ writing

    async def act(
        self, key: GameKey, user_id: int, action: Action, seen: int | None = None, tables: list[int] | None = None
    ) -> StoredGame:
        """Load → check → apply → save, under the game's lock; the record carries the action's events."""
        async with self.lock(key):
            record = self.live.take(await self.load(key))
            self.check_player(record, user_id)
            self.check_fresh(record, action, seen, user_id)
            game = game_of(record)
            before = dict(game.stats)
            events = game.apply(action, actor=user_id)
            stats = StatsDelta.of_action(before, game.stats)
            return await self._save(record, game, events, user_id, stats, tables, nothing="nothing happened")

    async def _save(
        self,
        record: StoredGame,
        game: Game,
        events: list[Event],
        user_id: int,
        stats: StatsDelta,
        tables: list[int] | None,
        *,
        nothing: str,
    ) -> StoredGame:
        """Write ``game`` over ``record`` (the version and the game's creation time it was read at) with the
        player's statistics, carrying the game's table messages (given, or as saved before); keep it live.
        A stale write is refused with ``nothing`` saying what did not happen."""
        kept = (record.tables if tables is None else tables)[-TABLE_COPIES:]
        state = game.to_dict()
        if kept:
            state["tables"] = kept
        text = encode_state(state)
        try:
            version = await self.store.save(
                record.key,
                text,
                record.version,
                user_id=user_id,
                stats=stats,
                created_at=record.created_at,
            )
        except StaleGameError:
            raise IllegalAction(f"The game changed at the same moment, so {nothing}. Please try again.") from None
        saved = record.with_game(game, version, events, text, kept)
        self.live.keep(saved)
        return saved

    async def keep_tables(self, record: StoredGame, tables: list[int]) -> None:
        """Save where the game's messages are now (tables posted again), so that after a restart every copy is
        still known and loses its controls when the game ends. A game that moved on meanwhile is left alone."""
        state = record.state
        kept = tables[-TABLE_COPIES:]
        if not isinstance(state, dict) or state.get("tables") == kept:
            return
        async with self.lock(record.key):
            await self.store.keep_tables(record.key, {**state, "tables": kept}, record.version)

    async def undo(
        self, key: GameKey, user_id: int, seen: int | None = None, tables: list[int] | None = None
    ) -> StoredGame:
        """Take back the game's last action: the game is rebuilt from its seed and the rest of its action log."""
        async with self.lock(key):
            record = self.live.take(await self.load(key))
            self.check_player(record, user_id)
            if seen is not None and seen != record.version:
                raise IllegalAction(
                    "The game has moved on since this message was posted, so nothing was undone. "
                    "Use the newest game message."
                )
            game = game_of(record)
            undone = game.undone()
            event = Event("undo", undo_text(game, shared=record.shared, by=user_id), actor=user_id)
            stats = self.taken_back(record, game, undone, user_id)
            return await self._save(record, undone, [event], user_id, stats, tables, nothing="nothing was undone")

    @staticmethod
    def taken_back(record: StoredGame, game: Game, undone: Game, user_id: int) -> StatsDelta:
        """What an undo takes back from the player's statistics: what the undone action added. In a shared game
        the last action may have been someone else's: only the statistics of whoever took it counted it, so
        nothing is taken back unless the game records that it was the undoer's own."""
        taken_by = game.actors[-1] if game.actors else None
        if record.shared and taken_by != user_id:
            return StatsDelta()
        return StatsDelta.of_undo(game.stats, undone.stats)

    async def replaceable(self, key: GameKey, user_id: int, can_manage: bool) -> StoredGame | None:
        """The game a new one would replace (None when there is none): the starter's own in the channel, or the
        channel's shared game.

        Refuses when that game (the shared one) is someone else's, still going, and the user can't manage messages.
        """
        existing = await self.store.load(key)
        if existing is None:
            return None
        if existing.owner_id != user_id and not can_manage and is_loadable(existing):
            if existing.game.phase != "over":
                raise IllegalAction(
                    f"This channel already has a shared goldfish game by <@{existing.owner_id}>. Only they or "
                    "someone with Manage Messages can replace it; start your own with `shared:false`."
                )
        return existing

    async def start(
        self,
        *,
        channel_id: int,
        guild_id: int | None,
        owner_id: int,
        shared: bool,
        game: Game,
        replace_version: int | None,
    ) -> StoredGame:
        async with self.lock(GameKey.of(channel_id, owner_id, shared)):
            try:
                record = await self.store.create(
                    channel_id=channel_id,
                    guild_id=guild_id or 0,  # a game in a DM belongs to no server
                    owner_id=owner_id,
                    shared=shared,
                    state=game.to_dict(),
                    replace_version=replace_version,
                    stats=StatsDelta(games=1),
                )
            except GameExistsError:
                raise IllegalAction("That game was started at the same moment by another click; try again.") from None
            except StaleGameError:
                raise IllegalAction("The game changed while you were deciding, so nothing was replaced.") from None
            started = record.known(game, [])
            self.live.keep(started)
        return started

    async def end(self, key: GameKey, user_id: int, can_manage: bool) -> StoredGame:
        """End the game (its starter, or someone who can manage messages); works on unreadable games too."""
        async with self.lock(key):
            record = await self.load(key)
            if record.owner_id != user_id and not can_manage:
                raise IllegalAction(
                    f"Only <@{record.owner_id}>, who started this game, or someone with Manage Messages can end it."
                )
            await self.store.delete(key)
            self.live.forget(key)
        return record
