"""First start with no rules configured: the full rules are fetched in the background from a loopback
server, the excerpt answers meanwhile, failures are logged once and retried with backoff."""

from __future__ import annotations

import asyncio
import dataclasses
import logging

import pytest

from bot.client import CycleBot
from bot.config import Config
from bot.rules import service
from bot.rules.editions import updater
from bot.rules.editions.sources import kept_editions
from tests.data import CR_DIR
from tests.rules.conftest import keep_edition
from tests.support.waits import CEILING, until

CR_2024 = CR_DIR / "MagicCompRules-2024-11-08.txt"
CR_2026 = CR_DIR / "MagicCompRules-2026-01-16.txt"


async def wait_for(condition) -> None:
    """Poll ``condition`` while the bot's background work runs in the same event loop."""
    await until(condition, "the rules to get there")


@pytest.fixture
def start_logs(caplog):
    """The bot's log from its start (requested before ``simcord_env``, so its level is set before the bot starts)."""
    caplog.set_level(logging.INFO)
    return caplog


def rules_lines(caplog) -> list[str]:
    """What the start logged about the rules."""
    return [r.getMessage() for r in caplog.get_records("setup") if r.name.startswith("bot.rules")]


def rules_cog(env):
    """The bot's rules (``bot.rules``), which the /rule cog reads."""
    return env.bot.rules


class TestFirstStartDownload:
    @pytest.fixture
    def simcord_bot(self, bot_config, server):
        base, routes, _requested = server
        routes["/cr.txt"] = (200, "text/plain", CR_2026.read_bytes())
        return CycleBot(dataclasses.replace(bot_config, rules_auto_update=True, rules_url=f"{base}/cr.txt"))

    async def test_the_first_start_says_in_one_line_that_the_excerpt_answers_until_the_download(
        self, start_logs, simcord_env
    ):
        first = rules_lines(start_logs)[0]
        assert first == "Rules: bundled excerpt; downloading the full rules in the background"
        assert not any("Loaded" in line for line in rules_lines(start_logs))
        await wait_for(lambda: rules_cog(simcord_env).loaded.origin == "downloaded")  # the download it announced

    async def test_the_full_rules_replace_the_excerpt_once_they_parse(self, simcord_env, channel, alice, bot_config):
        await wait_for(lambda: rules_cog(simcord_env).loaded.origin == "downloaded")

        result = await alice.slash(channel, "rule", query="613.1")

        assert not result.ephemeral
        assert result.response.embeds[0].footer.text.startswith("Comprehensive Rules January 16, 2026")
        assert kept_editions(bot_config.data_dir).paths()[-1].read_bytes() == CR_2026.read_bytes()


class TestDownloadFails:
    # The waits between attempts are longer than simcord waits for the bot to go idle: each attempt comes when
    # the test moves the clock on, never while it waits for an answer (on a busy machine, a retry every few
    # tenths of a second kept the bot from ever going idle).
    @pytest.fixture
    def simcord_bot(self, bot_config, server, monkeypatch):
        monkeypatch.setattr(updater, "RETRY_FIRST", 4 * CEILING)
        base, _routes, _requested = server
        return CycleBot(dataclasses.replace(bot_config, rules_auto_update=True, rules_url=f"{base}/cr.txt"))

    async def test_failure_is_logged_once_retried_with_backoff_and_the_excerpt_answers(
        self, simcord_env, channel, alice, server, caplog
    ):
        _base, routes, requested = server
        await wait_for(lambda: requested)
        first = len(requested)

        result = await alice.slash(channel, "rule", query="702.29")
        assert result.response.embeds[0].footer.text.startswith("Comprehensive Rules January 16, 2026, bundled excerpt")
        for _ in range(5):
            await alice.slash(channel, "rule", query="trample")
        assert len(requested) == first  # lookups never start an attempt

        wait = updater.RETRY_FIRST
        await simcord_env.advance_time(wait + 1)  # the second attempt, one wait later
        await wait_for(lambda: len(requested) > first)
        second = len(requested)
        await simcord_env.advance_time(wait + 1)  # the next wait is twice as long: nothing yet
        assert len(requested) == second
        records = [*caplog.get_records("setup"), *caplog.records]
        warnings = [r for r in records if r.name == "bot.rules.service" and r.levelno >= logging.WARNING]
        assert len(warnings) == 1 and "HTTP 404" in warnings[0].getMessage()  # two failures, one line

        routes["/cr.txt"] = (200, "text/plain", CR_2026.read_bytes())
        await simcord_env.advance_time(wait + 1)
        await wait_for(lambda: rules_cog(simcord_env).loaded.origin == "downloaded")


class TestWeeklyRefresh:
    @pytest.fixture
    def simcord_bot(self, bot_config, server, monkeypatch):
        # The refresh comes after a wait longer than simcord waits for the bot to go idle, not a week of every
        # other timer the bot keeps.
        monkeypatch.setattr(service, "REFRESH_INTERVAL", 4 * CEILING)
        base, routes, _requested = server
        keep_edition(bot_config.data_dir, CR_2026)
        routes["/cr.txt"] = (200, "text/plain", CR_2024.read_bytes())  # the host serves an older edition
        return CycleBot(dataclasses.replace(bot_config, rules_auto_update=True, rules_url=f"{base}/cr.txt"))

    async def test_an_older_edition_downloaded_is_kept_for_histories_and_the_newest_still_answers(
        self, simcord_env, channel, alice, bot_config
    ):
        answering = rules_cog(simcord_env).loaded
        kept = kept_editions(bot_config.data_dir)

        await simcord_env.advance_time(service.REFRESH_INTERVAL + 1)
        await wait_for(lambda: len(kept.paths()) == 2)

        assert [path.name for path in kept.paths()] == [
            "comprehensive-rules-2024-11-08.txt",
            "comprehensive-rules-2026-01-16.txt",
        ]
        assert rules_cog(simcord_env).loaded is answering
        result = await alice.slash(channel, "rule", query="changes")
        assert result.response.embeds[0].title == (
            "Rules changes: effective November 8, 2024 → effective January 16, 2026"
        )


class TestAutoUpdateOff:
    @pytest.fixture
    def simcord_bot(self, bot_config, server):
        base, _routes, _requested = server
        return CycleBot(dataclasses.replace(bot_config, rules_auto_update=False, rules_url=f"{base}/cr.txt"))

    async def test_the_first_start_says_in_one_line_how_to_load_the_full_text(self, start_logs, simcord_env):
        assert rules_lines(start_logs) == [
            "Rules: bundled excerpt; downloading is off (RULES_AUTO_UPDATE=0): load the full text with "
            "`cyclebot rules update`, or name a file in RULES_FILE"
        ]

    async def test_rules_auto_update_0_never_downloads(self, simcord_env, channel, alice, server):
        _base, _routes, requested = server
        await alice.slash(channel, "rule", query="702.29")
        await asyncio.sleep(0.2)
        assert requested == []
        assert rules_cog(simcord_env).refresh_task is None


def test_rules_auto_update_is_on_unless_set_to_0():
    assert Config.from_env({}).rules_auto_update is True
    assert Config.from_env({"RULES_AUTO_UPDATE": "0"}).rules_auto_update is False
    assert Config.from_env({"RULES_AUTO_UPDATE": "1"}).rules_auto_update is True


def test_retries_wait_longer_each_time_up_to_six_hours():
    assert [updater.retry_delay(n) for n in (1, 2, 3)] == [60.0, 120.0, 240.0]
    assert updater.retry_delay(1000) == 6 * 3600.0
