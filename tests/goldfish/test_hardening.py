"""Goldfish under faults: saved games the engine can't load, a stalled database, odd input, big tables, erasure."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time

import pytest

from bot.client import CycleBot
from bot.goldfish.decks import preset_decks
from bot.goldfish.engine import IllegalAction
from bot.goldfish.engine.scenario import position
from bot.goldfish.table.text import battlefield_fields, table_text
from cogs.goldfish._inputs import select_card, select_ints
from tests.goldfish.cog_support import SLIDE_SIMPLE, fake_collection, fields, game_of, stored
from tests.support.waits import HANG, until

DAMAGES = {
    "renamed preset deck": (
        "UPDATE goldfish_games SET state = json_set(state, '$.key', 'old-slide')",
        "no longer exists",
    ),
    "newer format": ("UPDATE goldfish_games SET state = json_set(state, '$.format', 99)", "newer version"),
    "unknown format": ("UPDATE goldfish_games SET state = json_set(state, '$.format', 'x')", "format"),
    "damaged row": ('UPDATE goldfish_games SET state = \'{"format": 2, "seed": [\'', "damaged"),
}


async def damage(env, sql: str) -> None:
    async with env.bot.db.transaction() as conn:
        # A damaged row may not even be valid JSON: the table's CHECK would refuse to write it.
        await conn.execute("PRAGMA ignore_check_constraints = ON")
        await conn.execute(sql)
        await conn.execute("PRAGMA ignore_check_constraints = OFF")


@pytest.mark.parametrize("cause", list(DAMAGES))
async def test_a_saved_game_that_cannot_be_loaded_is_explained_and_can_be_ended(simcord_env, channel, alice, cause):
    sql, why = DAMAGES[cause]
    await alice.slash(channel, "goldfish start", deck="slide", seed=SLIDE_SIMPLE)
    await damage(simcord_env, sql)

    status = await alice.slash(channel, "goldfish status")
    assert status.ephemeral
    assert "could not be loaded" in status.response.content and why in status.response.content
    assert "/goldfish end" in status.response.content
    moved = await alice.slash(channel, "goldfish next")
    assert moved.ephemeral and "could not be loaded" in moved.response.content
    assert not simcord_env.errors

    ended = await alice.slash(channel, "goldfish end")
    assert not ended.ephemeral and "could not be loaded" in ended.response.content
    assert await stored(simcord_env, channel) is None


@pytest.mark.parametrize("cause", list(DAMAGES))
async def test_start_replaces_a_saved_game_that_cannot_be_loaded(simcord_env, channel, alice, cause):
    await alice.slash(channel, "goldfish start", deck="slide", seed=SLIDE_SIMPLE)
    await damage(simcord_env, DAMAGES[cause][0])

    started = await alice.slash(channel, "goldfish start", deck="landcycling", seed=2)

    assert not started.ephemeral and "Landcycling" in started.response.embeds[0].title
    assert (await game_of(simcord_env, channel)).deck_key == "landcycling"
    assert not simcord_env.errors


async def test_the_replace_question_answers_after_a_restart(simcord_env, channel, alice, bot_config):
    await alice.slash(channel, "goldfish start", deck="slide", seed=SLIDE_SIMPLE)
    asked = await alice.slash(channel, "goldfish start", deck="landcycling", seed=2)
    assert asked.ephemeral and "Replace it" in asked.response.content

    await simcord_env.restart_bot(CycleBot(bot_config))
    clicked = await alice.click(asked.response, label="Replace the game")

    assert clicked.acknowledged and "expired" in clicked.response.content
    assert (await game_of(simcord_env, channel)).deck_key == "slide"  # nothing replaced


class WriteLock:
    """Another program's write lock on the database, held from entry until ``seconds`` have passed or, without
    ``seconds``, until the block is left (a test that checks what happens while it is held lets go once it has
    seen it, however long that took); leaving waits until it is let go. ``released``: ``perf_counter`` then."""

    def __init__(self, path, seconds: float | None = None) -> None:
        self.path, self.seconds = path, seconds
        self.released = float("inf")
        self._held, self._let_go = threading.Event(), threading.Event()
        self._holder = threading.Thread(target=self._hold)

    def _hold(self) -> None:
        conn = sqlite3.connect(self.path, isolation_level=None)
        try:
            conn.execute("BEGIN IMMEDIATE")
            self._held.set()
            self._let_go.wait(self.seconds if self.seconds is not None else HANG)
            self.released = time.perf_counter()
            conn.execute("COMMIT")
        finally:
            conn.close()

    def __enter__(self) -> WriteLock:
        self._holder.start()
        self._held.wait()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.seconds is None:
            self._let_go.set()
        self._holder.join()


async def first_response(env, known: set[int]) -> float:
    """``perf_counter`` when a new interaction got its first response (acknowledgement or answer)."""

    def responded() -> bool:
        fresh = [i for key, i in env.backend.interactions.items() if key not in known]
        return bool(fresh) and fresh[0].responded

    await until(responded, "the click to be acknowledged", every=0.01)
    return time.perf_counter()


async def test_a_database_stall_over_three_seconds_is_acknowledged_in_time_and_answered(
    simcord_env, channel, alice, bot_config
):
    message = (await alice.slash(channel, "goldfish start", deck="slide", seed=SLIDE_SIMPLE)).response
    await alice.click(message, label="Keep")
    with WriteLock(bot_config.data_dir / "bot.sqlite3", 3.5) as lock:
        known = set(simcord_env.backend.interactions)
        click = asyncio.ensure_future(alice.click(message, label="Next turn"))
        acknowledged = await first_response(simcord_env, known)
        result = await click

    # Acknowledged while the database still held the click's write, not once it let go: measured against the
    # lock, not a clock a busy machine stretches.
    assert acknowledged < lock.released
    assert result.acknowledged and not result.ephemeral
    assert "**Turn 2**" in result.response.embeds[0].description
    assert (await game_of(simcord_env, channel)).turn == 2


async def test_a_write_lock_held_past_the_busy_timeout_gets_a_clear_answer_and_loses_nothing(
    simcord_env, channel, alice, bot_config, caplog
):
    message = (await alice.slash(channel, "goldfish start", deck="slide", seed=SLIDE_SIMPLE)).response
    await alice.click(message, label="Keep")
    db = simcord_env.bot.db
    await (await db.connection.execute("PRAGMA busy_timeout=300")).close()  # the default waits 5 s
    with WriteLock(bot_config.data_dir / "bot.sqlite3"):
        refused = await alice.click(message, label="Next turn")  # another program holds the database
        seen = await game_of(simcord_env, channel)  # reads don't wait for the writer

    assert refused.ephemeral and "database isn't answering" in refused.response.content
    assert seen.turn == 1
    assert not db.connection.in_transaction
    assert len([r for r in caplog.records if "is unavailable" in r.getMessage()]) == 1
    result = await alice.click(message, label="Next turn")  # the lock is gone: the game goes on
    assert not result.ephemeral and (await game_of(simcord_env, channel)).turn == 2
    assert not simcord_env.errors


async def test_read_only_views_do_not_wait_for_a_stalled_writer(simcord_env, channel, alice, bot_config):
    message = (await alice.slash(channel, "goldfish start", deck="slide", seed=SLIDE_SIMPLE)).response
    await alice.click(message, label="Keep")
    with WriteLock(bot_config.data_dir / "bot.sqlite3"):
        # An action waits for the write lock on the bot's connection...
        stalled_write = asyncio.ensure_future(simcord_env.bot.get_cog("Goldfish").store.forget_stats(alice.id))
        await asyncio.to_thread(time.sleep, 0.3)
        # ...while the read-only views answer, with the lock still held.
        status = await alice.slash(channel, "goldfish status")
        stats = await alice.slash(channel, "goldfish stats show")
        assert not stalled_write.done()
    # The write goes on once the lock is let go, or gives up past the connection's busy timeout if the views took
    # that long on a busy machine: not what this test checks.
    await asyncio.gather(stalled_write, return_exceptions=True)
    assert not status.ephemeral and "**Turn 1**" in status.response.embeds[0].description
    assert fields(stats.response)["Games started"] == "1"


@pytest.mark.parametrize("digits", [4300, 4301])
async def test_a_decklist_count_of_thousands_of_digits_is_refused_clearly(simcord_env, channel, alice, digits):
    simcord_env.bot.get_cog("Goldfish")
    fake_collection(simcord_env)
    result = await alice.slash(channel, "goldfish start", decklist="9" * digits + " Plains")
    assert result.ephemeral and "count" in result.response.content
    assert not simcord_env.errors and await stored(simcord_env, channel) is None


@pytest.mark.parametrize("values", [[], ["abc"], [""], ["12:1"], ["1", "2"], ["9" * 5000]])
def test_forged_select_values_are_refused_not_crashed(values):
    with pytest.raises(IllegalAction, match="isn't one I offered"):
        select_ints(values)


@pytest.mark.parametrize("values", [[], ["abc"], [""], ["1:2:3"]])
def test_forged_cycle_values_are_refused(values):
    with pytest.raises(IllegalAction, match="isn't one I offered"):
        select_card(values)


def test_battlefield_of_many_permanents_is_stacked_and_never_collapses():
    cards = preset_decks()["slide"].cards
    lands = ["Plains"] * 6 + ["Mountain"] * 6 + ["Secluded Steppe"] * 4 + ["Forgotten Cave"] * 4
    permanents = ["Astral Slide"] * 4 + ["Lightning Rift"] * 4
    game = position(cards, lands=lands, permanents=permanents, tapped=["Desert of the True"] * 2)
    shown = battlefield_fields(game)
    text = "\n".join(value for _, value, _ in shown)
    assert "… and" not in text
    assert "Plains ×6" in text and "Lightning Rift ×4" in text and "Desert of the True ×2 (all tapped)" in text


def test_a_battlefield_line_past_a_thousand_characters_splits_across_fields():
    # Long distinct names: one line would pass the 1,024-character field limit.
    cards = {
        f"Land number {n:02d} with a very long name indeed": {
            "name": f"Land number {n:02d} with a very long name indeed",
            "type_line": "Land",
            "oracle_text": "{T}: Add {C}.",
        }
        for n in range(40)
    }
    game = position(cards, lands=list(cards))
    shown = battlefield_fields(game)
    assert len(shown) >= 2 and all(len(value) <= 1024 for _, value, _ in shown)
    text = "\n".join(value for _, value, _ in shown)
    assert "… and" not in text and all(name in text for name in cards)
    whole = table_text(game, owner_id=1, shared=False, version=1)
    assert sum(len(v) for _, v, _ in whole.fields) + len(whole.description) < 6000


def varint(value: int) -> bytes:
    """SQLite's big-endian variable-length integer (how a rowid is written in a table cell)."""
    if value > 0x00FFFFFFFFFFFFFF:
        out = [value & 0xFF]
        value >>= 8
        for _ in range(8):
            out.append((value & 0x7F) | 0x80)
            value >>= 7
        return bytes(reversed(out))
    out = [value & 0x7F]
    value >>= 7
    while value:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    return bytes(reversed(out))


def raw_bytes(path) -> bytes:
    found = b""
    for suffix in ("", "-wal"):
        file = path.with_name(path.name + suffix)
        if file.exists():
            found += file.read_bytes()
    return found


async def test_forgetting_statistics_leaves_no_copy_in_the_database_or_its_wal(simcord_env, channel, alice, bot_config):
    await alice.slash(channel, "goldfish start", deck="slide", seed=SLIDE_SIMPLE)
    await alice.slash(channel, "goldfish end")
    path = bot_config.data_dir / "bot.sqlite3"
    marker = varint(alice.id) + bytes([0])  # the row's cell: its rowid, then its record header
    row = await simcord_env.bot.db.fetchone("SELECT * FROM goldfish_stats WHERE user_id = ?", (alice.id,))
    assert row is not None and marker[:-1] in raw_bytes(path)

    forgotten = await alice.slash(channel, "goldfish stats forget")

    assert "Deleted" in forgotten.response.content
    assert varint(alice.id) not in raw_bytes(path)
