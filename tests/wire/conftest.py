"""Fixtures that run the real bot against the fake Discord of tests/support/fake_discord.py."""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import discord.gateway
import discord.http
import discord.webhook.async_
import pytest
import yarl

from bot.client import CycleBot
from bot.config import Config, Secret
from tests.support.fake_discord import FakeDiscord
from tests.support.waits import CEILING, until

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "MTE5NzQ0.wire-test.bot-token-that-must-never-be-logged"
WIRE_EXTENSIONS = ["cogs.about", "tests.support.wire_cog"]
# Settings a developer's .env could otherwise feed into the bot under test.
BOT_SETTINGS = (
    *("RULES_FILE", "RULES_URL", "DISCORD_GUILD_ID", "INLINE_CARDS", "LOG_LEVEL", "SCRYFALL_API_URL"),
    *("SHARD_COUNT", "SHARD_IDS", "DATABASE_URL"),
)

StartBot = Callable[..., Awaitable[CycleBot]]


@pytest.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    fake = await FakeDiscord(TOKEN).start()
    try:
        yield fake
    finally:
        await fake.close()


@pytest.fixture
def wired(fake_discord: FakeDiscord, monkeypatch: pytest.MonkeyPatch) -> FakeDiscord:
    """discord.py in this process talks to the fake (REST, interaction callbacks and webhooks share Route)."""
    assert discord.webhook.async_.Route is discord.http.Route, "webhooks got their own Route: point it at the fake"
    monkeypatch.setattr(discord.http.Route, "BASE", fake_discord.api_base)
    monkeypatch.setattr(discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(fake_discord.gateway_url))
    return fake_discord


@pytest.fixture
async def start_bot(wired: FakeDiscord, data_dir: Path) -> AsyncIterator[StartBot]:
    """Start a CycleBot against the fake and wait until it is ready; every bot started is closed afterwards."""
    started: list[tuple[CycleBot, asyncio.Task]] = []

    async def start(extensions: list[str] | None = None, **settings) -> CycleBot:
        settings = {"scryfall_api_url": "http://127.0.0.1:9"} | settings
        config = Config(token=Secret(TOKEN), data_dir=data_dir, **settings)
        bot = CycleBot(config, extensions=WIRE_EXTENSIONS if extensions is None else extensions)
        bot._connection.guild_ready_timeout = 0.1  # discord.py waits this long after the last GUILD_CREATE
        task = asyncio.create_task(bot.start(TOKEN))
        started.append((bot, task))

        def ready() -> bool:
            if task.done():
                task.result()
                raise AssertionError("the bot stopped before it was ready")
            return bot.is_ready()

        await until(ready, "the bot to be ready", every=0.01)
        return bot

    yield start
    for bot, task in reversed(started):
        await stop_bot(bot, task)


async def stop_bot(bot: CycleBot, task: asyncio.Task) -> None:
    await bot.close()
    await asyncio.wait_for(asyncio.gather(task, return_exceptions=True), CEILING)


def bot_environment(fake: FakeDiscord, data_dir: Path, **overrides: str) -> dict[str, str]:
    """The environment for ``python -m bot``: only the fake's addresses, nothing from a developer's setup."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("DISCORD_") and k not in BOT_SETTINGS}
    env |= {setting: "" for setting in BOT_SETTINGS}
    env |= {
        "PYTHONPATH": str(ROOT),
        "PYTHONUNBUFFERED": "1",
        "DISCORD_TOKEN": TOKEN,
        "BOT_DATA_DIR": str(data_dir),
        "DISCORD_API_BASE": fake.api_base,
        "DISCORD_GATEWAY_URL": fake.gateway_url,
        "SCRYFALL_API_URL": "http://127.0.0.1:9",
        "LOG_LEVEL": "INFO",
    }
    return env | overrides


class BotProcess:
    """``python -m bot`` as a child process; its output goes to files so a chatty log can never block it."""

    def __init__(self, process: asyncio.subprocess.Process, stdout: Path, stderr: Path) -> None:
        self.process, self.stdout_path, self.stderr_path = process, stdout, stderr

    @property
    def stdout(self) -> str:
        return self.stdout_path.read_text(encoding="utf-8", errors="replace")

    @property
    def stderr(self) -> str:
        return self.stderr_path.read_text(encoding="utf-8", errors="replace")

    async def wait(self) -> int:
        """The exit code, once the process has ended (a test that waits for an exit fails after a ceiling)."""
        try:
            return await asyncio.wait_for(self.process.wait(), CEILING)
        except TimeoutError:
            raise AssertionError(f"waited {CEILING:g} s in vain for the bot process to exit") from None


@pytest.fixture
async def spawn_bot(fake_discord: FakeDiscord, tmp_path: Path) -> AsyncIterator[Callable[..., Awaitable[BotProcess]]]:
    processes: list[BotProcess] = []

    async def spawn(*args: str, module: str = "bot", **env: str) -> BotProcess:
        n = len(processes)
        stdout, stderr = tmp_path / f"bot{n}.out", tmp_path / f"bot{n}.err"
        with stdout.open("wb") as out, stderr.open("wb") as err:
            process = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                module,
                *args,
                cwd=tmp_path,
                env=bot_environment(fake_discord, tmp_path / "data", **env),
                stdin=asyncio.subprocess.DEVNULL,
                stdout=out,
                stderr=err,
            )
        processes.append(BotProcess(process, stdout, stderr))
        return processes[-1]

    yield spawn
    for bot in processes:
        if bot.process.returncode is None:
            bot.process.kill()
            await bot.wait()
