"""The running bot keeps the judges' documents current: the first download replaces the bundled outlines, a failure
is logged once and retried with a growing wait while the outlines answer, and JUDGE_DOCS_AUTO_UPDATE=0 downloads
nothing."""

from __future__ import annotations

import asyncio
import dataclasses
import logging

import pytest

from bot.client import CycleBot
from bot.config import DEFAULT_JUDGE_DOCS_URL, Config
from bot.errors import ConfigError
from bot.judge import service as judge_service
from tests.judge.conftest import IPG_DATE, MTR_DATE
from tests.support.fake_judge_docs import FakeJudgeDocs
from tests.support.judge_pdfs import file_name
from tests.support.waits import CEILING


async def wait_for(condition, limit: float = 60.0) -> None:
    """Poll ``condition`` while the bot's background work runs (a PDF is read in a child process)."""
    async with asyncio.timeout(limit):
        while not condition():  # noqa: ASYNC110 (the condition is the bot's state, not an event we own)
            await asyncio.sleep(0.05)


@pytest.fixture
def fake(monkeypatch):
    monkeypatch.setenv("NO_PROXY", "127.0.0.1")
    with FakeJudgeDocs() as fake:
        yield fake


def full(env, key: str) -> bool:
    return env.bot.judge_docs.loaded[key].document.full


class TestFirstStartDownload:
    @pytest.fixture
    def simcord_bot(self, bot_config, fake, pdfs, monkeypatch):
        # The first check comes after any wait for the bot to go idle: the outlines answer until the clock moves.
        monkeypatch.setattr(judge_service, "FIRST_CHECK", 4 * CEILING)
        paths = []
        for key, day in (("mtr", MTR_DATE), ("ipg", IPG_DATE)):
            paths.append(f"/ContentResources/WPN/{file_name(key, day)}")
            fake.serve_pdf(paths[-1], pdfs[key])
        fake.serve_page(*paths)
        config = dataclasses.replace(bot_config, judge_docs_auto_update=True, judge_docs_url=fake.page_url)
        return CycleBot(config)

    async def test_the_text_replaces_the_outlines_once_downloaded_and_read(self, simcord_env, channel, alice):
        assert not full(simcord_env, "mtr")  # the outlines answer while the bot starts
        await simcord_env.advance_time(judge_service.FIRST_CHECK)
        await wait_for(lambda: full(simcord_env, "mtr") and full(simcord_env, "ipg"))

        result = await alice.slash(channel, "ipg", query="lec")

        embed = result.response.embeds[0]
        assert embed.footer.text.startswith("Magic Infraction Procedure Guide, effective September 23, 2024")
        assert "(outline)" not in embed.footer.text
        assert "Definition:" in embed.description
        assert not simcord_env.errors


class TestDownloadFails:
    # The waits between attempts are longer than simcord waits for the bot to go idle: each attempt comes when
    # the test moves the clock on, never while it waits for an answer (on a busy machine, a retry every few
    # tenths of a second kept the bot from ever going idle).
    @pytest.fixture
    def simcord_bot(self, bot_config, fake, monkeypatch):
        monkeypatch.setattr(judge_service, "RETRY_FIRST", 4 * CEILING)
        monkeypatch.setattr(judge_service, "FIRST_CHECK", 0.0)
        config = dataclasses.replace(bot_config, judge_docs_auto_update=True, judge_docs_url=fake.page_url)
        return CycleBot(config)

    async def test_a_failure_is_logged_once_retried_with_growing_waits_and_the_outlines_answer(
        self, simcord_env, channel, alice, fake, caplog
    ):
        await wait_for(lambda: fake.requested)
        first = len(fake.requested)

        result = await alice.slash(channel, "mtr", query="3.8")
        assert result.response.embeds[0].footer.text.endswith("(outline)")
        for _ in range(5):
            await alice.slash(channel, "ipg", query="hce")
        assert len(fake.requested) == first  # lookups never start an attempt

        wait = judge_service.RETRY_FIRST
        await simcord_env.advance_time(wait + 1)  # the second attempt, one wait later
        await wait_for(lambda: len(fake.requested) > first)
        second = len(fake.requested)
        await simcord_env.advance_time(wait + 1)  # the next wait is twice as long: nothing yet
        assert len(fake.requested) == second
        await simcord_env.advance_time(wait + 1)
        await wait_for(lambda: len(fake.requested) > second)

        records = [*caplog.get_records("setup"), *caplog.records]
        warnings = [r for r in records if r.name == "bot.judge.service" and r.levelno >= logging.WARNING]
        assert len(warnings) == 1 and "HTTP 404" in warnings[0].getMessage()  # three failures, one line
        result = await alice.slash(channel, "ipg", query="hce")
        assert result.response.embeds[0].footer.text.endswith("(outline)")


class TestAutoUpdateOff:
    @pytest.fixture
    def simcord_bot(self, bot_config, fake):
        return CycleBot(dataclasses.replace(bot_config, judge_docs_url=fake.page_url))

    async def test_nothing_is_downloaded(self, simcord_env, channel, alice, fake):
        await alice.slash(channel, "ipg", query="hce")
        await asyncio.sleep(0.2)
        assert fake.requested == []
        assert simcord_env.bot.judge_docs.refresh_task is None


def test_the_settings_default_to_wizards_page_and_daily_updates():
    assert Config.from_env({}).judge_docs_auto_update is True
    assert Config.from_env({"JUDGE_DOCS_AUTO_UPDATE": "0"}).judge_docs_auto_update is False
    assert Config.from_env({}).judge_docs_url == DEFAULT_JUDGE_DOCS_URL == "https://wpn.wizards.com/en/rules-documents"
    assert Config.from_env({"JUDGE_DOCS_URL": "http://127.0.0.1:8000/docs"}).judge_docs_url.endswith(":8000/docs")
    with pytest.raises(ConfigError, match="JUDGE_DOCS_URL must start with http"):
        Config.from_env({"JUDGE_DOCS_URL": "ftp://example.net/"})
