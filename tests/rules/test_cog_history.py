"""/rule history:True through the real discord.py stack (simcord), over the seven real editions kept in the
data folder: embeds within Discord's limits, pages, escaping, and answers to bad input."""

from __future__ import annotations

import dataclasses
import os

import pytest

from bot import limits
from bot.client import CycleBot
from bot.documents.phone import PAGE_ONE
from bot.rules.editions.editions import rules_files
from bot.rules.editions.history import HistoryCache
from bot.rules.editions.history_text import history_answer
from bot.rules.editions.sources import kept_editions
from tests.data import CR_DIR
from tests.rules.phone import visible_length

CR_2026 = CR_DIR / "MagicCompRules-2026-01-16.txt"
EDITIONS = ["2009-10-01", "2013-05-01", "2017-04-28", "2020-04-17", "2022-11-18", "2024-11-08", "2026-01-16"]


def keep_editions(data_dir) -> None:
    """The seven editions as the bot keeps them (links, not copies: the files are large)."""
    kept = kept_editions(data_dir).folder
    kept.mkdir()
    for path in rules_files(CR_DIR):
        os.symlink(path, kept / path.name)


def buttons(message) -> list[dict]:
    return [item for row in message.components for item in row.get("components", [])]


def callbacks(env) -> list[dict]:
    return [request.json for request in env.http_requests if request.path.endswith("/callback")]


def assert_pings_nobody(env) -> None:
    sent = [r for r in env.http_requests if ("/webhooks/" in r.path or "/callback" in r.path) and r.json]
    payloads = [r.json.get("data", r.json) for r in sent]
    assert [p.get("allowed_mentions") for p in payloads if "embeds" in p] == [{"parse": []}] * sum(
        "embeds" in p for p in payloads
    )
    assert any("embeds" in p for p in payloads)


async def all_pages(user, message) -> list:
    embeds = [message.embeds[0]]
    while any(b.get("label") == "Next" and not b.get("disabled") for b in buttons(message)):
        message = (await user.click(message, label="Next")).response
        embeds.append(message.embeds[0])
    return embeds


def final(result):
    """The message that answered: the response, or after a miss taken back from the channel, the follow-up."""
    return result.response if result.response is not None else result.followups[-1]


class TestKeptEditions:
    @pytest.fixture
    def simcord_bot(self, bot_config):
        keep_editions(bot_config.data_dir)
        return CycleBot(dataclasses.replace(bot_config, rules_file=CR_2026))

    async def test_history_of_702_29_follows_cycling_through_every_edition(self, simcord_env, channel, alice):
        result = await alice.slash(channel, "rule", query="702.29", history=True)

        assert not result.ephemeral
        pages = await all_pages(alice, result.response)
        first = pages[0]
        assert first.title == "History of 702.29 · Cycling"
        assert first.description.startswith(
            "Numbers: 702.26 (2009-10-01) → 702.27 (2013-05-01) → 702.28 (2017-04-28, 2020-04-17) → "
            "702.29 (2022-11-18 to 2026-01-16)"
        )
        assert visible_length(first) <= PAGE_ONE
        text = "\n".join(page.description for page in pages)
        assert [edition for edition in EDITIONS if f"**{edition}**" in text] == EDITIONS
        assert "702.28d added" in text
        # Rule text is escaped: its brackets do not become markdown, its quotes stay.
        assert "\\[this card\\]" in text
        assert first.footer.text.startswith("Comprehensive Rules history: 7 editions, 2009-10-01 to 2026-01-16")
        assert first.url == "https://yawgatog.com/resources/magic-rules/#R70229"
        assert all(len(page) <= limits.EMBED_TOTAL for page in pages)
        assert not simcord_env.errors

    async def test_a_second_history_answers_at_once_without_deferring(self, simcord_env, channel, alice):
        await alice.slash(channel, "rule", query="702.29", history=True)
        result = await alice.slash(channel, "rule", query="509.2", history=True)

        assert callbacks(simcord_env)[-1]["type"] == 4  # answered directly: the editions are indexed
        description = "\n".join(page.description for page in await all_pages(alice, result.response))
        assert result.response.embeds[0].title == "History of 509.2 · Declare Blockers Step"
        assert "**2024-11-08** 509.2 (was 509.4)" in description
        # The word diff: removed words struck through, added words in bold.
        assert "changes: ~~Fourth,~~ **Second,** the active player gets …" in description
        assert "was: “Fourth, the active player gets priority." in description
        assert "now: “Second, the active player gets priority." in description

    async def test_a_term_is_followed_by_the_rule_it_names(self, simcord_env, channel, alice):
        result = await alice.slash(channel, "rule", query="cycling", history=True)
        assert result.response.embeds[0].title == "History of 702.29 · Cycling"

    async def test_typing_history_in_the_query_works_without_the_option(self, simcord_env, channel, alice):
        result = await alice.slash(channel, "rule", query="history 702.26 in 2009")
        assert result.response.embeds[0].title == "History of 702.26 · Cycling"

    async def test_next_turns_the_pages_of_the_history_not_of_the_rule(self, simcord_env, channel, alice):
        result = await alice.slash(channel, "rule", query="702", history=True)
        message = result.response
        assert message.embeds[0].title == "History of 702 · Keyword Abilities"
        total = int(message.embeds[0].footer.text.rsplit("/", 1)[1])
        assert total >= 2
        turned = await alice.click(message, label="Next")
        assert turned.response.embeds[0].title == "History of 702 · Keyword Abilities"
        assert turned.response.embeds[0].footer.text.endswith(f"page 2/{total}")

    async def test_pages_of_a_history_asked_with_a_long_query_stay_the_history(self, simcord_env, channel, alice):
        # Too long for a button's id: the buttons carry what the answer is about instead.
        query = "what happened over the years to the state-based actions, rule 704.5, " + "please " * 20
        result = await alice.slash(channel, "rule", query=query, history=True)
        message = result.response
        assert message.embeds[0].title == "History of 704.5 · State-Based Actions"
        total = int(message.embeds[0].footer.text.rsplit("/", 1)[1])
        assert total >= 2
        turned = await alice.click(message, label="Next")
        assert turned.response.embeds[0].title == "History of 704.5 · State-Based Actions"
        assert turned.response.embeds[0].footer.text.endswith(f"page 2/{total}")

    @pytest.mark.parametrize(
        ("query", "title"),
        [
            ("999.99", "No rule 999.99 in the editions known"),
            ("x" * 6000, "Which rule?"),
            ("@everyone **hi** <@1>", "Which rule?"),
            ("702.29 in 1990", "No edition for 1990"),
        ],
    )
    async def test_bad_input_gets_a_clear_private_answer(self, simcord_env, channel, alice, bob, query, title):
        result = await alice.slash(channel, "rule", query=query, history=True)

        message = final(result)
        assert message.ephemeral and channel.history(viewer=bob) == []
        embed = message.embeds[0]
        assert embed.title == title
        assert "@everyone" not in (embed.description or "") and "<@1>" not in (embed.description or "")
        assert not message.message.mention_everyone
        assert_pings_nobody(simcord_env)
        assert not simcord_env.errors

    async def test_markdown_and_a_mention_around_a_number_still_find_the_rule(self, simcord_env, channel, alice):
        result = await alice.slash(channel, "rule", query="<@1> **702.29c** ||spoiler||", history=True)
        embed = result.response.embeds[0]
        assert embed.title == "History of 702.29c · Cycling"
        assert "spoiler" not in embed.title
        assert_pings_nobody(simcord_env)


class TestANewEdition:
    @pytest.fixture
    def simcord_bot(self, bot_config):
        kept = kept_editions(bot_config.data_dir).folder
        kept.mkdir()
        for path in rules_files(CR_DIR)[:-1]:
            os.symlink(path, kept / path.name)
        return CycleBot(bot_config)

    async def test_the_history_grows_when_an_edition_is_added(self, simcord_env, channel, alice, bot_config):
        before = await alice.slash(channel, "rule", query="history 702.29")
        assert before.response.embeds[0].footer.text.startswith("Comprehensive Rules history: 6 editions")

        # What the updater does when the rules change: keep the new edition beside the others.
        os.symlink(CR_2026, kept_editions(bot_config.data_dir).folder / "comprehensive-rules-2026-01-16.txt")
        after = await alice.slash(channel, "rule", query="702.29", history=True)

        embed = after.response.embeds[0]
        assert embed.footer.text.startswith("Comprehensive Rules history: 7 editions, 2009-10-01 to 2026-01-16")
        assert "702.29 (2022-11-18 to 2026-01-16)" in embed.description


class TestNoEditionsKept:
    async def test_history_on_the_bundled_excerpt_explains_that_no_edition_is_kept(self, simcord_env, channel, alice):
        result = await alice.slash(channel, "rule", query="702.29", history=True)
        embed = final(result).embeds[0]
        assert final(result).ephemeral
        assert embed.title == "No rules history yet"
        assert "Each edition the bot downloads is kept" in embed.description
        assert not simcord_env.errors


@pytest.fixture(scope="module")
def seven():
    return HistoryCache().get(rules_files(CR_DIR))


@pytest.mark.parametrize("number", ["702.29", "509.2", "702", "7", "509", "100.1", "603.2e", "702.184"])
def test_every_page_of_a_history_fits_discords_limits_and_names_every_edition(seven, number):
    from cogs.rules import render_pages

    answer = history_answer(seven, number)
    pages = render_pages(answer)
    assert all(len(page) <= limits.EMBED_TOTAL for page in pages)
    assert all(len(page.description) <= limits.EMBED_DESCRIPTION for page in pages)
    assert visible_length(pages[0]) <= PAGE_ONE
    shown = "\n".join(page.description for page in pages)
    assert all(f"**{line.number}**" in shown for line in answer.lines if line.number)
