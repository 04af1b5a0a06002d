"""The real bot over real sockets: discord.py against the fake Discord on 127.0.0.1."""

from __future__ import annotations

import re
import signal

import pytest

from bot.config import Config
from bot.errors import ConfigError
from tests.support.fake_discord import EPHEMERAL, LOADING, FakeDiscord
from tests.support.wire_cog import CYCLE_BUTTON_ID
from tests.wire.conftest import TOKEN

LOG_LINE = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} (DEBUG|INFO|WARNING|ERROR|CRITICAL) ")
REJECTED_TOKEN = "MTAwMDA.rejected.a-token-discord-does-not-know"


def buttons(callback_body: dict) -> dict[str, dict]:
    """The buttons of a message-bearing callback, by label."""
    rows = callback_body["data"]["components"]
    return {button["label"]: button for row in rows for button in row["components"]}


async def test_login_identify_ready_and_guild_create_reach_the_bot(start_bot, wired: FakeDiscord):
    bot = await start_bot()

    assert [(r.method, r.path) for r in wired.requests[:2]] == [
        ("GET", "/users/@me"),
        ("GET", "/oauth2/applications/@me"),
    ]
    assert all(r.authorization == f"Bot {TOKEN}" for r in wired.requests)
    identify = await wired.wait_for_gateway(2)
    assert identify["d"]["token"] == TOKEN
    assert identify["d"]["intents"] == bot.intents.value
    assert not bot.intents.message_content and not bot.intents.members
    assert bot.user.id == int(wired.bot_id)
    assert bot.application_id == int(wired.app_id)
    guild = bot.get_guild(int(wired.guild_id))
    assert guild is not None and guild.name == "Magic night"
    assert [c.name for c in guild.text_channels] == ["cycling"]
    assert guild.me is not None and guild.member_count == 3
    assert wired.unexpected == []


async def test_commands_are_synced_once_and_not_again_after_a_restart(start_bot, wired: FakeDiscord):
    first = await start_bot(extensions=["cogs.about"])

    [sync] = wired.command_syncs()
    assert sync.path == f"/applications/{wired.app_id}/commands"
    commands = {command["name"]: command for command in sync.json}
    assert set(commands) == {"about", "help"}
    assert commands["about"]["description"].startswith("The bot's version")
    assert commands["help"]["description"].startswith("What to type")
    assert all(command["type"] == 1 for command in commands.values())
    assert commands["about"]["options"] == [] and [o["name"] for o in commands["help"]["options"]] == ["command"]

    await first.close()
    await start_bot(extensions=["cogs.about"])
    assert len(wired.command_syncs()) == 1, "an unchanged tree must not be synced again"
    interaction = await wired.send_interaction(wired.command_interaction("about"))
    assert (await wired.callback(interaction))["type"] == 4

    await start_bot()  # a new extension changes the tree: sync again
    assert {c["name"] for c in wired.command_syncs()[-1].json} == {
        "about",
        "help",
        "cycle",
        "slow",
        "count",
        "linger",
        "pages",
    }
    assert wired.unexpected == []


async def test_about_round_trip_is_an_ephemeral_embed_that_pings_nobody(start_bot, wired: FakeDiscord):
    await start_bot()

    interaction = await wired.send_interaction(wired.command_interaction("about"))
    answer = await wired.callback(interaction)

    assert answer["type"] == 4  # CHANNEL_MESSAGE_WITH_SOURCE
    data = answer["data"]
    assert data["flags"] == EPHEMERAL
    assert data["allowed_mentions"] == {"parse": []}
    [embed] = data["embeds"]
    assert embed["title"].startswith("Cyclebot")
    fields = {field["name"]: field["value"] for field in embed["fields"]}
    assert "Comprehensive Rules" in fields and "Commands" not in fields  # the commands are /help's
    assert "Scryfall" in fields["Sources"]
    assert wired.unexpected == []


async def test_a_persistent_button_is_answered_even_after_a_restart(start_bot, wired: FakeDiscord):
    bot = await start_bot()
    interaction = await wired.send_interaction(wired.command_interaction("cycle"))
    answer = await wired.callback(interaction)
    assert answer["type"] == 4 and answer["data"]["content"] == "Press to cycle"
    assert buttons(answer)["Cycle"]["custom_id"] == CYCLE_BUTTON_ID
    message = wired.messages[wired.original[interaction["token"]]]

    click = await wired.send_interaction(wired.component_interaction(message, CYCLE_BUTTON_ID, user="bob"))
    update = await wired.callback(click)
    assert update["type"] == 7  # UPDATE_MESSAGE
    assert update["data"]["content"] == "Cycled by bob"
    assert wired.messages[message["id"]]["content"] == "Cycled by bob"

    await bot.close()
    await start_bot()
    click = await wired.send_interaction(wired.component_interaction(message, CYCLE_BUTTON_ID, user="alice"))
    assert (await wired.callback(click))["data"]["content"] == "Cycled by alice"
    assert wired.unexpected == []


async def test_defer_then_follow_up_replaces_the_thinking_message(start_bot, wired: FakeDiscord):
    await start_bot()

    interaction = await wired.send_interaction(wired.command_interaction("slow"))
    assert (await wired.callback(interaction))["type"] == 5  # DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE
    followup = await wired.followup(interaction)

    assert followup["content"] == "Done thinking"
    assert followup["allowed_mentions"] == {"parse": []}
    message = wired.messages[wired.original[interaction["token"]]]
    assert message["content"] == "Done thinking" and not message["flags"] & LOADING
    assert wired.unexpected == []


async def test_pages_turn_for_their_owner_only(start_bot, wired: FakeDiscord):
    await start_bot()
    interaction = await wired.send_interaction(wired.command_interaction("pages", user="alice"))
    answer = await wired.callback(interaction)
    assert answer["data"]["embeds"][0]["title"] == "Page 1"
    assert buttons(answer)["Previous"]["disabled"] is True
    original = f"/webhooks/{wired.app_id}/{interaction['token']}/messages/@original"
    await wired.wait_for(lambda r: r.method == "GET" and r.path == original and r.status == 200)
    message = wired.messages[wired.original[interaction["token"]]]
    next_id = buttons(answer)["Next"]["custom_id"]

    stranger = await wired.send_interaction(wired.component_interaction(message, next_id, user="bob"))
    refusal = await wired.callback(stranger)
    assert refusal["type"] == 4 and refusal["data"]["flags"] == EPHEMERAL
    assert "belong to whoever asked" in refusal["data"]["content"]

    owner = await wired.send_interaction(wired.component_interaction(message, next_id, user="alice"))
    turned = await wired.callback(owner)
    assert turned["type"] == 7
    assert turned["data"]["embeds"][0]["title"] == "Page 2"
    assert buttons(turned)["Previous"]["disabled"] is False
    assert wired.unexpected == []


async def test_a_dropped_gateway_connection_is_resumed(start_bot, wired: FakeDiscord):
    await start_bot()

    await wired.drop_connection(4000)
    resume = await wired.wait_for_gateway(6)
    assert resume["d"]["session_id"] == wired.session_id and resume["d"]["token"] == TOKEN
    await wired.wait_until_connected()
    interaction = await wired.send_interaction(wired.command_interaction("about"))
    assert (await wired.callback(interaction))["type"] == 4
    assert [frame["op"] for frame in wired.gateway_received].count(2) == 1, "resumed, not identified again"


# -- python -m bot ----------------------------------------------------------------------------------------


def error_lines(stderr: str) -> list[str]:
    """stderr without the log records: what a person running the bot reads as its own message."""
    return [line for line in stderr.splitlines() if not LOG_LINE.match(line)]


async def test_python_m_bot_serves_and_stops_cleanly_on_ctrl_c(spawn_bot, fake_discord: FakeDiscord):
    bot = await spawn_bot(LOG_LEVEL="DEBUG")

    sync = await fake_discord.wait_for(lambda r: r.method == "PUT" and r.path.endswith("/commands"))
    assert {"about", "help"} <= {command["name"] for command in sync.json}
    await fake_discord.wait_until_connected()
    interaction = await fake_discord.send_interaction(fake_discord.command_interaction("about"))
    answer = await fake_discord.callback(interaction)
    assert answer["type"] == 4 and answer["data"]["flags"] == EPHEMERAL

    bot.process.send_signal(signal.SIGINT)
    code = await bot.wait()

    output = bot.stdout + bot.stderr
    assert code == 130, output
    assert "Traceback" not in output
    assert fake_discord.gateway_close_codes == [1000], "the bot closes its gateway session itself"
    assert " DEBUG " in output, "the run really logged at DEBUG"
    assert TOKEN not in output
    assert fake_discord.unexpected == []


async def test_python_m_bot_stops_cleanly_on_sigterm(spawn_bot, fake_discord: FakeDiscord):
    bot = await spawn_bot()
    await fake_discord.wait_until_connected()

    bot.process.send_signal(signal.SIGTERM)

    assert await bot.wait() == 0, bot.stderr
    assert "Traceback" not in bot.stdout + bot.stderr
    assert fake_discord.gateway_close_codes == [1000]


@pytest.mark.parametrize("log_level", ["ERROR", "INFO", "DEBUG"])
async def test_a_rejected_token_is_one_clear_line_and_exit_code_2(spawn_bot, fake_discord: FakeDiscord, log_level):
    bot = await spawn_bot(DISCORD_TOKEN=REJECTED_TOKEN, LOG_LEVEL=log_level)

    assert await bot.wait() == 2
    output = bot.stdout + bot.stderr
    assert "Traceback" not in output
    assert REJECTED_TOKEN not in output
    [line] = error_lines(bot.stderr)
    assert line.startswith("error: Discord rejected DISCORD_TOKEN")
    if log_level == "ERROR":  # at WARNING discord.py adds that voice is unsupported (PyNaCl, davey)
        assert bot.stderr.splitlines() == [line]
    assert [(r.method, r.path, r.status) for r in fake_discord.requests] == [("GET", "/users/@me", 401)]
    assert fake_discord.gateway_received == []


async def test_a_missing_token_is_one_clear_line_and_exit_code_2_without_any_request(spawn_bot, fake_discord):
    bot = await spawn_bot(DISCORD_TOKEN="")

    assert await bot.wait() == 2
    assert bot.stderr.splitlines() == [bot.stderr.strip()]
    assert bot.stderr.startswith("error: DISCORD_TOKEN is not set")
    assert fake_discord.requests == []


async def test_inline_cards_without_the_message_content_intent_is_one_clear_line(spawn_bot, fake_discord):
    bot = await spawn_bot(INLINE_CARDS="1")

    assert await bot.wait() == 2
    identify = await fake_discord.wait_for_gateway(2)
    assert identify["d"]["intents"] & (1 << 15)
    assert fake_discord.gateway_close_codes == [4014]
    assert "Traceback" not in bot.stdout + bot.stderr
    [line] = error_lines(bot.stderr)
    assert line.startswith("error: INLINE_CARDS=1 needs the Message Content intent")


def test_discord_endpoints_come_from_the_environment_and_must_be_urls():
    config = Config.from_env({"DISCORD_API_BASE": "http://proxy:8080/api/v10/", "DISCORD_GATEWAY_URL": "wss://gw"})
    assert (config.discord_api_base, config.discord_gateway_url) == ("http://proxy:8080/api/v10", "wss://gw")
    assert Config.from_env({}).discord_api_base is None
    with pytest.raises(ConfigError, match="DISCORD_GATEWAY_URL must start with ws:// or wss://"):
        Config.from_env({"DISCORD_GATEWAY_URL": "https://gateway.discord.gg"})
