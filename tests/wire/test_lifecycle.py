"""The bot's own safety nets over real sockets: clicks nobody handles, shutting down mid-interaction, what the
log may hold, and start-up failures that explain themselves."""

from __future__ import annotations

import asyncio
import copy
import signal
from pathlib import Path

from bot.frame import EXPIRED, RESTARTING
from tests.support.fake_discord import EPHEMERAL, FakeDiscord
from tests.support.waits import until
from tests.wire.conftest import TOKEN
from tests.wire.test_wire import buttons, error_lines

WIRE_BOT = "tests.support.wire_bot"


async def test_a_double_click_carrying_the_already_edited_message_is_answered_as_expired(start_bot, wired):
    await start_bot()
    interaction = await wired.send_interaction(wired.command_interaction("count"))
    answer = await wired.callback(interaction)
    message = wired.messages[wired.original[interaction["token"]]]
    first_id = buttons(answer)["Count 0"]["custom_id"]

    first = await wired.send_interaction(wired.component_interaction(copy.deepcopy(message), first_id))
    assert (await wired.callback(first))["data"]["content"] == "Counted 1"
    # The second click of a double-click: the old button's id, but the message as the first click left it.
    edited = copy.deepcopy(wired.messages[message["id"]])
    assert "wire:count:0" not in str(edited["components"])
    second = await wired.send_interaction(wired.component_interaction(edited, first_id))

    expired = await wired.callback(second)
    assert expired["type"] == 4 and expired["data"]["flags"] == EPHEMERAL
    assert expired["data"]["content"] == EXPIRED
    assert wired.messages[message["id"]]["content"] == "Counted 1", "nothing counted twice"
    assert wired.unexpected == []


async def test_a_button_from_before_a_restart_without_a_persistent_handler_is_answered_as_expired(
    start_bot, wired: FakeDiscord
):
    bot = await start_bot()
    interaction = await wired.send_interaction(wired.command_interaction("pages"))
    answer = await wired.callback(interaction)
    message = wired.messages[wired.original[interaction["token"]]]
    next_id = buttons(answer)["Next"]["custom_id"]

    await bot.close()
    await start_bot()
    click = await wired.send_interaction(wired.component_interaction(message, next_id))

    expired = await wired.callback(click)
    assert expired["type"] == 4 and expired["data"]["flags"] == EPHEMERAL
    assert expired["data"]["content"] == EXPIRED
    assert expired["data"]["allowed_mentions"] == {"parse": []}


async def test_a_click_its_handler_answers_gets_no_second_answer(start_bot, wired: FakeDiscord):
    await start_bot()
    interaction = await wired.send_interaction(wired.command_interaction("count"))
    answer = await wired.callback(interaction)
    message = wired.messages[wired.original[interaction["token"]]]
    click = await wired.send_interaction(wired.component_interaction(message, buttons(answer)["Count 0"]["custom_id"]))
    assert (await wired.callback(click))["type"] == 7

    await asyncio.sleep(0.5)  # time for a second, wrong answer to show up
    path = f"/interactions/{click['id']}/{click['token']}/callback"
    assert [r.status for r in wired.requests if r.path == path] == [200], "one answer, accepted"


# -- python -m bot: shutting down, logs, start-up failures ------------------------------------------------


async def wait_for_output(bot, text: str) -> None:
    """Until the child's log holds ``text`` (a file: nothing to wait on but the clock)."""
    await until(lambda: text in bot.stderr, f"{text!r} in the bot's log")


async def test_sigterm_lets_a_slow_command_in_flight_answer_and_tells_newcomers_to_retry(
    spawn_bot, fake_discord: FakeDiscord
):
    bot = await spawn_bot(module=WIRE_BOT)
    await fake_discord.wait_until_connected()
    await fake_discord.wait_for(lambda r: r.method == "PUT" and r.path.endswith("/commands"))
    slow = await fake_discord.send_interaction(fake_discord.command_interaction("linger"))
    assert (await fake_discord.callback(slow))["type"] == 5  # deferred: now working

    bot.process.send_signal(signal.SIGTERM)
    await wait_for_output(bot, "finishing 1 interaction(s) in flight")
    newcomer = await fake_discord.send_interaction(fake_discord.command_interaction("about"))
    refused = await fake_discord.callback(newcomer)
    assert refused["type"] == 4 and refused["data"]["content"] == RESTARTING
    assert refused["data"]["flags"] == EPHEMERAL

    assert (await fake_discord.followup(slow))["content"] == "Done lingering"
    assert await bot.wait() == 0, bot.stderr
    assert "Traceback" not in bot.stdout + bot.stderr
    assert fake_discord.gateway_close_codes == [1000]
    assert fake_discord.unexpected == []


async def test_sigterm_tells_a_command_that_outlasts_the_drain_to_retry_and_still_exits_cleanly(
    spawn_bot, fake_discord: FakeDiscord
):
    bot = await spawn_bot(module=WIRE_BOT)
    await fake_discord.wait_until_connected()
    await fake_discord.wait_for(lambda r: r.method == "PUT" and r.path.endswith("/commands"))
    options = [{"name": "seconds", "type": 10, "value": 60}]
    stuck = await fake_discord.send_interaction(fake_discord.command_interaction("linger", options=options))
    assert (await fake_discord.callback(stuck))["type"] == 5

    bot.process.send_signal(signal.SIGTERM)

    told = await fake_discord.followup(stuck)
    assert told["content"] == RESTARTING
    assert await bot.wait() == 0, bot.stderr
    assert "Traceback" not in bot.stdout + bot.stderr
    assert fake_discord.gateway_close_codes == [1000]


async def test_a_debug_log_holds_no_interaction_token_no_message_text_and_no_sql_payload(
    spawn_bot, fake_discord: FakeDiscord
):
    bot = await spawn_bot(module=WIRE_BOT, LOG_LEVEL="DEBUG")
    await fake_discord.wait_until_connected()
    await fake_discord.wait_for(lambda r: r.method == "PUT" and r.path.endswith("/commands"))
    about = await fake_discord.send_interaction(fake_discord.command_interaction("about"))
    await fake_discord.callback(about)
    count = await fake_discord.send_interaction(fake_discord.command_interaction("count"))
    answer = await fake_discord.callback(count)
    message = fake_discord.messages[fake_discord.original[count["token"]]]
    message["content"] = "alice's private decklist: 4 Street Wraith"
    click = await fake_discord.send_interaction(
        fake_discord.component_interaction(message, buttons(answer)["Count 0"]["custom_id"])
    )
    await fake_discord.callback(click)
    linger = await fake_discord.send_interaction(fake_discord.command_interaction("linger"))
    await fake_discord.followup(linger)  # a webhook follow-up: its URL carries the token
    author = fake_discord.users["bob"]
    await fake_discord.dispatch(
        "MESSAGE_CREATE",
        {
            "id": fake_discord.snowflake(),
            "channel_id": fake_discord.channel_id,
            "guild_id": fake_discord.guild_id,
            "author": author,
            "content": "bob says something personal about [[Krosan Tusker]]",
            "timestamp": "2026-01-01T00:00:00+00:00",
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [],
            "embeds": [],
            "pinned": False,
            "type": 0,
        },
    )
    await until(lambda: "MESSAGE_CREATE" in bot.stdout + bot.stderr, "the message in the bot's debug log")
    bot.process.send_signal(signal.SIGTERM)
    assert await bot.wait() == 0

    output = bot.stdout + bot.stderr
    assert " DEBUG " in output and "INTERACTION_CREATE" in output and "MESSAGE_CREATE" in output
    for interaction in (about, count, click, linger):
        assert interaction["token"] not in output
    assert TOKEN not in output
    assert "private decklist" not in output and "something personal" not in output
    assert "INSERT INTO" not in output and "executing" not in output


async def test_a_damaged_database_at_start_is_one_line_naming_it_and_exit_code_2(spawn_bot, tmp_path: Path):
    data = tmp_path / "data"
    data.mkdir()
    (data / "bot.sqlite3").write_bytes(b"not a database at all " * 200)
    bot = await spawn_bot()

    assert await bot.wait() == 2
    assert "Traceback" not in bot.stdout + bot.stderr
    [line] = error_lines(bot.stderr)
    assert line.startswith("error: the database ") and str(data / "bot.sqlite3") in line
    assert "cyclebot restore" in line


async def test_a_full_disk_at_start_is_one_line_naming_the_database_and_exit_code_2(spawn_bot, tmp_path: Path):
    data = tmp_path / "data"
    data.mkdir()
    (data / "bot.sqlite3").symlink_to("/dev/full")  # every write fails with ENOSPC, as on a full disk
    bot = await spawn_bot()

    assert await bot.wait() == 2
    assert "Traceback" not in bot.stdout + bot.stderr
    [line] = error_lines(bot.stderr)
    assert str(data / "bot.sqlite3") in line and "is full: free some space" in line
