"""The bot frame through the real discord.py stack (simcord): sync, errors, mentions, /about."""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
import time
from pathlib import Path

import pytest

from bot.client import CycleBot, discover_extensions
from bot.frame.health import CHECKPOINT_SECONDS
from tests.support.waits import CEILING


def test_every_cog_module_is_discovered_and_private_helpers_are_not():
    names = discover_extensions()
    assert "cogs.about" in names
    assert all(not name.split(".")[-1].startswith("_") for name in names)


async def test_about_says_what_is_running_and_where_the_data_comes_from(simcord_env, channel, alice):
    result = await alice.slash(channel, "about")

    assert result.ephemeral
    embed = result.response.embeds[0]
    fields = {field.name: field.value for field in embed.fields}
    assert "Scryfall" in fields["Sources"]
    assert "Wizards of the Coast" in fields["Sources"]
    assert "Comprehensive Rules" in fields and "Commands" not in fields
    # How the full rules get here, in words an admin can act on.
    assert "RULES_AUTO_UPDATE" in fields["Comprehensive Rules"] or "download" in fields["Comprehensive Rules"]


async def test_help_is_a_short_guide_of_what_to_type_and_not_a_copy_of_about(simcord_env, channel, alice):
    about = await alice.slash(channel, "about")
    help_ = await alice.slash(channel, "help")

    guide = help_.response.embeds[0]
    assert help_.ephemeral and guide.to_dict() != about.response.embeds[0].to_dict()
    fields = {field.name: field.value for field in guide.fields}
    assert "/card" in fields["Cards"] and "/rule" in fields["Rules"] and "/goldfish" in fields["Goldfish"]
    assert "/about" in fields["All commands"] and "/help" in fields["All commands"]


async def test_help_for_one_command_lists_its_options(simcord_env, channel, alice):
    result = await alice.slash(channel, "help", command="/about")
    assert result.response.embeds[0].title == "/about"

    unknown = await alice.slash(channel, "help", command="@everyone nonsense")
    description = unknown.response.embeds[0].description
    assert "no command called" in description and "@everyone" not in description
    choices = await alice.autocomplete(channel, "help", "command", "ab")
    assert [c["value"] for c in choices] == ["about"]


async def test_database_is_migrated_in_wal_mode(simcord_env):
    bot = simcord_env.bot
    assert await bot.db.schema_version() >= 1
    row = await bot.db.fetchone("PRAGMA journal_mode")
    assert row[0] == "wal"


class TestBrokenExtensions:
    @pytest.fixture
    def simcord_bot(self, bot_config):
        return CycleBot(bot_config, extensions=["tests.support.broken_cog", "cogs.about"])

    async def test_one_failing_extension_does_not_stop_the_others(self, simcord_env, channel, alice):
        bot = simcord_env.bot
        assert "tests.support.broken_cog" in bot.failed_extensions
        result = await alice.slash(channel, "about")
        fields = {field.name: field.value for field in result.response.embeds[0].fields}
        assert "tests.support.broken_cog" in fields["Unavailable right now"]


class TestErrors:
    @pytest.fixture
    def simcord_bot(self, bot_config):
        return CycleBot(bot_config, extensions=["tests.support.boom_cog"])

    async def test_unexpected_error_gets_an_ephemeral_answer_with_an_error_id(
        self, simcord_env, channel, alice, caplog
    ):
        result = await alice.slash(channel, "boom")

        assert result.acknowledged and result.ephemeral
        assert "error id" in result.response.content
        error_id = result.response.content.split("`")[1]
        assert any(error_id in record.getMessage() and record.exc_info for record in caplog.records)
        assert isinstance(simcord_env.errors[0].original, RuntimeError)

    async def test_error_after_defer_is_answered_as_a_follow_up(self, simcord_env, channel, alice):
        result = await alice.slash(channel, "slowboom")

        # The first follow-up after a defer replaces the "thinking…" message (as on Discord).
        assert result.acknowledged
        assert "error id" in result.response.content
        assert simcord_env.errors

    async def test_a_miss_after_a_public_defer_reaches_only_the_asker(self, simcord_env, channel, alice, bob):
        result = await alice.slash(channel, "lookup", found=False)

        # The public "thinking…" message is taken back: the channel shows others nothing of the miss.
        assert result.response is None
        miss = result.followups[-1]
        assert miss.ephemeral and miss.content == "Nothing by that name."
        assert channel.history(viewer=bob) == []

    async def test_an_answer_after_a_public_defer_helps_the_table(self, simcord_env, channel, alice):
        result = await alice.slash(channel, "lookup", found=True)

        assert not result.ephemeral
        assert channel.last_message.content == "Found it."

    async def test_user_facing_error_is_shown_as_is_without_pinging(self, simcord_env, channel, alice):
        result = await alice.slash(channel, "refuse")

        assert result.ephemeral
        assert result.response.content == "No such card: @everyone"
        assert not result.response.message.mention_everyone
        assert simcord_env.errors

    async def test_echoed_mentions_ping_nobody(self, simcord_env, channel, alice, bob):
        result = await alice.slash(channel, "echo", text=f"@everyone @here {bob.mention}")

        message = result.response.message
        assert "@everyone" in message.content
        assert not message.mention_everyone
        request = next(r for r in simcord_env.http_requests if "callback" in r.path)
        assert request.json["data"]["allowed_mentions"] == {"parse": []}


async def test_heartbeat_file_is_written_once_connected_with_the_shards_of_this_process(simcord_env, bot_config):
    record = json.loads((bot_config.data_dir / "heartbeat").read_text())
    assert isinstance(record["time"], int) and abs(record["time"] - time.time()) < 60
    assert record["shard_count"] == 1
    [shard] = record["shards"]
    assert shard["id"] == 0 and 0 <= shard["latency"] < 30


def wal_size(bot: CycleBot) -> int:
    return Path(f"{bot.db.path}-wal").stat().st_size


@pytest.mark.bot_timers
async def test_the_write_ahead_log_is_checkpointed_every_five_minutes(simcord_env):
    bot = simcord_env.bot
    await bot.db.set_meta("filler", "x" * 20_000)
    assert wal_size(bot) > 20_000

    await simcord_env.advance_time(CHECKPOINT_SECONDS + 1)

    assert wal_size(bot) == 0, "the data moved into bot.sqlite3 itself"
    assert await bot.db.get_meta("filler") == "x" * 20_000


@pytest.mark.bot_timers
async def test_a_failing_checkpoint_is_logged_and_tried_again_later(simcord_env, monkeypatch, caplog):
    bot = simcord_env.bot
    calls = []

    async def failing() -> None:
        calls.append(1)
        raise sqlite3.DatabaseError("disk I/O error")

    monkeypatch.setattr(bot.db, "checkpoint", failing)
    await simcord_env.advance_time(CHECKPOINT_SECONDS + 1)
    await simcord_env.advance_time(CHECKPOINT_SECONDS + 1)

    assert len(calls) == 2 and bot.checkpoint.is_running()
    assert any(r.getMessage() == "WAL checkpoint failed" and r.exc_info for r in caplog.records)


async def test_a_checkpoint_waits_for_a_transaction_in_progress_and_loses_nothing(simcord_env, caplog):
    bot = simcord_env.bot
    await bot.db.set_meta("filler", "x" * 20_000)
    in_transaction, release = asyncio.Event(), asyncio.Event()

    async def writer() -> None:
        async with bot.db.transaction() as conn:
            await conn.execute("INSERT INTO meta (key, value) VALUES ('open', 'transaction')")
            in_transaction.set()
            await release.wait()

    task = asyncio.create_task(writer())
    await in_transaction.wait()
    checkpoint = asyncio.create_task(bot.checkpoint())  # one run of the loop's body, as the timer would start it
    await asyncio.sleep(0.05)
    assert not checkpoint.done()  # it never runs inside someone else's transaction
    release.set()
    await asyncio.wait_for(asyncio.gather(task, checkpoint), CEILING)

    assert not any(r.getMessage() == "WAL checkpoint failed" for r in caplog.records)
    assert await bot.db.get_meta("open") == "transaction"
    wal = os.path.getsize(f"{bot.db.path}-wal") if os.path.exists(f"{bot.db.path}-wal") else 0  # noqa: ASYNC240
    assert wal == 0  # the checkpoint ran once the transaction committed
