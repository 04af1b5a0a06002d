"""Shards over real sockets: ``python -m bot`` identifies each of its shards with the fake Discord, gets the guilds
each one owns, answers in all of them, and leaves the command sync to the process that holds shard 0."""

from __future__ import annotations

import asyncio
import re
import signal
import sys
from pathlib import Path

from tests.support.fake_discord import FakeDiscord
from tests.support.waits import CEILING, until
from tests.wire.conftest import bot_environment
from tests.wire.test_wire import buttons

WIRE_BOT = "tests.support.wire_bot"


def shard_guilds(fake: FakeDiscord) -> dict[int, str]:
    """Two shards, and one guild placed on each."""
    fake.shard_count = 2
    return {shard: fake.add_guild(f"Shard {shard} night", shard=shard) for shard in (0, 1)}


def dispatched(fake: FakeDiscord, shard: int, event: str) -> list[dict]:
    return [payload["d"] for payload in fake.sessions[shard].history if payload["t"] == event]


async def count_once(fake: FakeDiscord, guild_id: str) -> str:
    """/count in the guild's channel, then a press on its button: what the counter says afterwards."""
    interaction = await fake.send_interaction(fake.command_interaction("count", guild_id=guild_id))
    answer = await fake.callback(interaction)
    message = fake.messages[fake.original[interaction["token"]]]
    assert message["channel_id"] == fake.guilds[guild_id]["channel_id"]
    click = await fake.send_interaction(fake.component_interaction(message, buttons(answer)["Count 0"]["custom_id"]))
    return (await fake.callback(click))["data"]["content"]


async def health(data_dir: Path, fake: FakeDiscord) -> tuple[int, str]:
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        "health",
        env=bot_environment(fake, data_dir),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    out, _ = await asyncio.wait_for(process.communicate(), CEILING)
    return process.returncode, out.decode()


async def wait_for_file(path: Path) -> None:
    await until(path.exists, f"{path.name} to be written", every=0.05)


async def test_shard_count_2_and_shard_ids_0_1_run_both_shards_in_one_process_answering_in_guilds_on_both(
    spawn_bot, fake_discord: FakeDiscord, tmp_path: Path
):
    guilds = shard_guilds(fake_discord)
    bot = await spawn_bot(module=WIRE_BOT, SHARD_COUNT="2", SHARD_IDS="0-1")

    await fake_discord.wait_until_connected(0, 1)
    assert sorted(fake_discord.identified_shards) == [(0, 2), (1, 2)]
    for shard in (0, 1):
        [ready] = dispatched(fake_discord, shard, "READY")
        assert ready["shard"] == [shard, 2]
        created = {guild["id"] for guild in dispatched(fake_discord, shard, "GUILD_CREATE")}
        assert guilds[shard] in created and guilds[1 - shard] not in created, "each guild only on its own shard"
        assert created == {g for g in fake_discord.guilds if fake_discord.shard_of(g) == shard}
    await fake_discord.wait_for(lambda r: r.method == "PUT" and r.path.endswith("/commands"))

    for shard, guild_id in guilds.items():
        assert await count_once(fake_discord, guild_id) == "Counted 1"
        received = {d["guild_id"] for d in dispatched(fake_discord, shard, "INTERACTION_CREATE")}
        assert received == {guild_id}, "interactions arrive on the connection that owns their guild"
    assert fake_discord.unexpected == []
    assert "Traceback" not in bot.stderr


async def test_health_names_the_shards_of_the_process_and_their_latency(
    spawn_bot, fake_discord: FakeDiscord, tmp_path: Path
):
    shard_guilds(fake_discord)
    data_dir = tmp_path / "data"
    assert (await health(data_dir, fake_discord))[0] == 1, "no heartbeat before the bot connected"
    await spawn_bot(SHARD_COUNT="2", SHARD_IDS="0-1")
    await fake_discord.wait_until_connected(0, 1)

    await wait_for_file(data_dir / "heartbeat")
    code, out = await health(data_dir, fake_discord)

    assert code == 0, out
    assert re.fullmatch(r"healthy: last heartbeat \d+ s ago; shards 0, 1 of 2 \(latency 0: \d+ ms, 1: \d+ ms\)\n", out)


async def test_without_shard_settings_the_bot_runs_every_shard_discord_recommends(spawn_bot, fake_discord: FakeDiscord):
    guilds = shard_guilds(fake_discord)
    await spawn_bot()

    await fake_discord.wait_until_connected(0, 1)
    assert [r.status for r in fake_discord.requests if r.path == "/gateway/bot"] == [200]
    assert sorted(fake_discord.identified_shards) == [(0, 2), (1, 2)]
    for guild_id in guilds.values():
        interaction = await fake_discord.send_interaction(fake_discord.command_interaction("about", guild_id=guild_id))
        assert (await fake_discord.callback(interaction))["type"] == 4


async def test_a_process_without_shard_0_does_not_sync_commands(spawn_bot, fake_discord: FakeDiscord, tmp_path: Path):
    guilds = shard_guilds(fake_discord)
    zero = await spawn_bot(SHARD_COUNT="2", SHARD_IDS="0", BOT_DATA_DIR=str(tmp_path / "zero"))
    await fake_discord.wait_until_connected(0)
    await fake_discord.wait_for(lambda r: r.method == "PUT" and r.path.endswith("/commands"))
    zero.process.send_signal(signal.SIGTERM)
    assert await zero.wait() == 0, zero.stderr

    # Its own data directory: it has no record of a sync and would sync if it were allowed to.
    one = await spawn_bot(SHARD_COUNT="2", SHARD_IDS="1", BOT_DATA_DIR=str(tmp_path / "one"))
    await fake_discord.wait_until_connected(1)
    interaction = await fake_discord.send_interaction(fake_discord.command_interaction("about", guild_id=guilds[1]))
    assert (await fake_discord.callback(interaction))["type"] == 4

    assert len(fake_discord.command_syncs()) == 1, "only the process holding shard 0 syncs"
    assert fake_discord.identified_shards == [(0, 2), (1, 2)]
    assert "Not syncing application commands: shard 0 runs in another process" in one.stderr
    assert "keeps its own SQLite database" in one.stderr  # split over processes without DATABASE_URL: warned
    assert fake_discord.unexpected == []
