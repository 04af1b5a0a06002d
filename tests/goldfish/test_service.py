"""GameService against a real database, SQLite and PostgreSQL alike: the games it keeps live between actions.

A service keeps the game it saved last in each channel, so the next action there doesn't read the JSON back.
These tests prove that shortcut is never seen: whatever another process (another service on the same
database) does in between, every action acts on the stored game, and what a caller holds never changes.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from benchmarks.bench_goldfish import next_action
from bot.goldfish import SHARED, GameKey, GameService, GameStore
from bot.goldfish.decks import preset_decks
from bot.goldfish.engine import Game, IllegalAction
from bot.goldfish.engine.model import Action
from bot.goldfish.engine.parts import Opponent, Player, Zones

CHANNEL, GUILD, ALICE, BOB = 300, 30, 3, 4
GAME = GameKey(CHANNEL, ALICE)  # alice's own game in the channel
SHARED_GAME = GameKey(CHANNEL, SHARED)


@pytest.fixture
def store(db):
    return GameStore(db)


async def start(service: GameService, seed: int, channel: int = CHANNEL, replace_version: int | None = None):
    game = Game.new(preset_decks()["slide"], seed=seed)
    return await service.start(
        channel_id=channel, guild_id=GUILD, owner_id=ALICE, shared=False, game=game, replace_version=replace_version
    )


async def stored_game(store: GameStore, channel: int = CHANNEL) -> dict:
    """The game as the database holds it, read afresh."""
    return Game.from_dict((await store.load(GameKey(channel, ALICE))).state, preset_decks()).to_dict()


async def play(service: GameService, channel: int = CHANNEL):
    record = await service.load(GameKey(channel, ALICE))
    return await service.act(record.key, ALICE, next_action(record.game))


async def test_every_action_acts_on_the_stored_game_whoever_wrote_it(store):
    here, there = GameService(store), GameService(store)  # two processes sharing one database
    await start(here, seed=41)
    turn = random.Random(5)
    for _ in range(40):
        service = here if turn.random() < 0.7 else there
        record = await play(service)
        assert record.game.to_dict() == await stored_game(store)  # the returned game is exactly the saved one
        if record.game.phase == "over":
            break
    assert here.live.hits > 0 and here.live.misses > 0  # the shortcut was used, and refused after a write elsewhere


async def test_a_game_replaced_elsewhere_at_the_same_version_is_not_overwritten(store):
    here, there = GameService(store), GameService(store)
    await start(here, seed=1)  # kept here at version 1
    replaced = await start(there, seed=2, replace_version=1)  # a new game, also at version 1
    assert replaced.version == 1

    record = await here.act(GAME, ALICE, Action("keep"))

    assert record.game.seed == 2 and (await store.load(GAME)).game.seed == 2


async def test_what_a_caller_holds_never_changes_under_it(store):
    service = GameService(store)
    await start(service, seed=7)
    first = await service.act(GAME, ALICE, Action("keep"))
    held = first.game.to_dict()
    for _ in range(5):
        await play(service)
    assert first.game.to_dict() == held
    assert (await service.load(GAME)).version == first.version + 5


async def test_a_refused_action_leaves_nothing_behind(store):
    service = GameService(store)
    await start(service, seed=7)
    await service.act(GAME, ALICE, Action("keep"))
    record = await service.load(GAME)
    game = record.game
    land = next(c for c in game.zones.hand if game.cards[c.name]["type_line"].startswith(("Land", "Basic")))
    await service.act(GAME, ALICE, Action("play", land.iid))
    other = next(c for c in (await service.load(GAME)).game.zones.hand if c.iid != land.iid)
    with pytest.raises(IllegalAction):
        await service.act(GAME, ALICE, Action("play", other.iid))  # a second land this turn (305.2)

    record = await service.act(GAME, ALICE, Action("next"))

    assert record.game.to_dict() == await stored_game(store)
    assert len(record.game.actions) == 3  # keep, play, next: the refused play left no trace


async def test_undo_and_end_keep_the_live_games_right(store):
    service = GameService(store)
    await start(service, seed=7)
    await service.act(GAME, ALICE, Action("keep"))
    after_keep = await stored_game(store)
    await play(service)
    undone = await service.undo(GAME, ALICE)
    assert undone.game.to_dict() == after_keep == await stored_game(store)

    await service.end(GAME, ALICE, can_manage=False)
    await start(service, seed=8)
    record = await service.act(GAME, ALICE, Action("keep"))
    assert record.game.seed == 8 and record.game.to_dict() == await stored_game(store)


async def test_the_live_games_are_bounded_least_recently_played_out_first(store):
    service = GameService(store, live_games=2)
    for channel in (1, 2, 3):
        await start(service, seed=channel, channel=channel)
    assert len(service.live) == 2

    misses = service.live.misses
    await service.act(GameKey(1, ALICE), ALICE, Action("keep"))  # dropped from the live games: read from the database
    assert service.live.misses == misses + 1
    await service.act(GameKey(3, ALICE), ALICE, Action("keep"))  # still live
    assert service.live.misses == misses + 1
    record = await service.act(GameKey(1, ALICE), ALICE, Action("next"))
    assert record.game.to_dict() == await stored_game(store, 1)


def test_a_clone_shares_nothing_a_game_changes():
    game = Game.new(preset_decks()["slide"], seed=3)
    for _ in range(12):
        game.apply(next_action(game))
    twin = game.clone()
    shared = {"cards", "book"}  # the deck's data, which no game changes
    for f in dataclasses.fields(game):
        value = getattr(game, f.name)
        if f.name not in shared and isinstance(value, list | dict | random.Random | Zones | Player | Opponent):
            assert getattr(twin, f.name) is not value, f.name
    for zone in ("library", "hand", "graveyard", "battlefield"):
        assert getattr(twin.zones, zone) is not getattr(game.zones, zone), zone
    assert all(a is not b for a, b in zip(game.zones.battlefield, twin.zones.battlefield, strict=True))

    before = game.to_dict()
    assert twin.to_dict() == before
    for _ in range(12):
        action = next_action(twin)
        if action is None:
            break
        twin.apply(action)
    assert game.to_dict() == before  # playing on the copy changed nothing of the original
    replayed = game.clone()
    for action in twin.actions[len(game.actions) :]:
        replayed.apply(action)
    assert replayed.to_dict() == twin.to_dict()  # same RNG: the copy plays exactly as the original would


async def cycled(store: GameStore) -> int:
    stats = await store.get_stats(ALICE)
    return stats.cards_cycled if stats else 0


async def play_until_a_cycle(service: GameService, key: GameKey) -> None:
    """Actions until one cycles a card."""
    for _ in range(60):
        record = await service.load(key)
        action = next_action(record.game)
        await service.act(key, ALICE, action)
        if action.kind == "cycle":
            return
    raise AssertionError("no cycle in 60 actions")


@pytest.mark.parametrize("shared", [False, True])
async def test_undo_takes_back_the_statistics_of_the_undone_action_from_whoever_took_it(store, shared):
    service = GameService(store)
    game = Game.new(preset_decks()["slide"], seed=12)
    await service.start(
        channel_id=CHANNEL, guild_id=GUILD, owner_id=ALICE, shared=shared, game=game, replace_version=None
    )
    key = GameKey.of(CHANNEL, ALICE, shared)
    await play_until_a_cycle(service, key)
    before = await cycled(store)
    assert before >= 1

    await service.undo(key, ALICE)

    # Alice cycled, so Alice's undo takes it back, in her own game and in a shared one (the game records who acted).
    assert await cycled(store) == before - 1


async def test_in_a_shared_game_an_undo_of_someone_elses_action_leaves_their_statistics_alone(store):
    service = GameService(store)
    game = Game.new(preset_decks()["slide"], seed=12)
    await service.start(
        channel_id=CHANNEL, guild_id=GUILD, owner_id=ALICE, shared=True, game=game, replace_version=None
    )
    await play_until_a_cycle(service, SHARED_GAME)
    before = await cycled(store)

    record = await service.undo(SHARED_GAME, BOB)

    assert await cycled(store) == before
    assert record.events[0].actor == BOB and record.game.actors == [ALICE] * len(record.game.actions)
