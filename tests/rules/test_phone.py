"""/rule on a phone (simcord): page one within about 1,200 visible characters, one title line, the deciding
words first, at most three related rules, the whole rule behind Next, and menus that never offer what the page
already shows."""

from __future__ import annotations

import dataclasses
import re

import pytest

from bot.client import CycleBot
from bot.documents.phone import PAGE, PAGE_ONE, RELATED
from tests.data import CR_2026
from tests.rules.phone import visible, visible_length

# A rule whose text a page shows: its number in bold at the start of a line (not a "•" item that only names it).
SHOWN_RULE = re.compile(r"(?m)^\*\*(\d{3}\.\d+[a-z]?)\.?\*\*")
# The rule a title names: "702.29 Cycling", "Flash · 702.8", "State-Based Actions · 704".
TITLE_RULE = re.compile(r"(?<![\d.])(\d{3}(?:\.\d+[a-z]?)?)(?![\d.])")
QUERIES = [
    "sba",
    "702.29",
    "704.5",
    "cycling",
    "how does trample work",
    "what happens if I draw from an empty library",
    "can I respond to a spell being cast by tapping my lands for mana",
    "100",
    "702",
    "613",
    "flash",
    "beginning phase",
]


def components(message) -> list[dict]:
    return [item for row in message.components for item in row.get("components", [])]


def menu(message) -> list[str]:
    return [option["value"] for item in components(message) for option in item.get("options", [])]


def labels(message) -> list[str]:
    return [item.get("label") for item in components(message) if item.get("label")]


def check_page_one(message) -> str:
    """What every first page must be on a phone; returns its visible text."""
    embed = message.embeds[0]
    shown = visible(embed)
    assert visible_length(embed) <= PAGE_ONE, (embed.title, visible_length(embed))
    assert "\n" not in embed.title and 0 < len(embed.title) <= 120
    assert shown.count(embed.title) == 1, embed.title  # one title, never again as a line of its own
    assert embed.fields == []  # no "See also" field beside the menu
    items = [line for line in (embed.description or "").split("\n") if line.startswith("• ")]
    assert len(items) <= max(RELATED, 5)
    on_page = set(SHOWN_RULE.findall(embed.description or "")) | set(TITLE_RULE.findall(embed.title))
    assert not on_page & set(menu(message)), on_page & set(menu(message))
    listed = {item.split("**")[1].rstrip(".") for item in items if item.count("**") >= 2}
    assert not on_page & listed, on_page & listed  # a related line never names what the page shows
    return shown


class TestFullRules:
    @pytest.fixture
    def simcord_bot(self, bot_config):
        return CycleBot(dataclasses.replace(bot_config, rules_file=CR_2026))

    @pytest.mark.parametrize("query", QUERIES)
    async def test_page_one_fits_a_phone_and_the_menu_never_repeats_it(self, simcord_env, channel, alice, query):
        result = await alice.slash(channel, "rule", query=query)
        message = result.response
        check_page_one(message)
        while "Next" in labels(message) and not all(
            item.get("disabled") for item in components(message) if item.get("label") == "Next"
        ):
            message = (await alice.click(message, label="Next")).response
            assert visible_length(message.embeds[0]) <= PAGE
            assert message.embeds[0].title == result.response.embeds[0].title
        assert not simcord_env.errors

    async def test_sba_opens_on_the_list_of_state_based_actions_and_keeps_704_behind_next(
        self, simcord_env, channel, alice
    ):
        result = await alice.slash(channel, "rule", query="sba")
        embed = result.response.embeds[0]
        assert embed.title == "State-Based Actions · 704"
        lines = embed.description.split("\n")
        assert lines[0].startswith("Game actions that happen automatically whenever certain conditions")
        assert lines[1] == "**704.5.** The state-based actions are as follows:"
        assert lines[2].startswith("**704.5a** If a player has 0 or less life") and len(lines) >= 5
        assert "**704.1.**" not in embed.description  # the list players want, not the rule's first words
        related = [line for line in lines if line.startswith("• ")]
        assert len(related) <= RELATED and not any("704.2" in line or "704.3" in line for line in related)
        whole = (await alice.click(result.response, label="Next")).response.embeds[0]
        assert whole.description.startswith("**Rule 704 State-Based Actions**")

    async def test_a_sure_question_is_titled_with_its_rule_and_shows_the_deciding_words_first(
        self, simcord_env, channel, alice
    ):
        result = await alice.slash(channel, "rule", query="do +1/+1 and -1/-1 counters cancel out")
        embed = result.response.embeds[0]
        assert embed.title == "704.5q State-Based Actions"
        assert embed.description.startswith("If a permanent has both a +1/+1 counter and a -1/-1 counter on it")
        assert "Best match" not in visible(embed)

    async def test_an_unsure_answer_is_public_and_lists_the_rules_that_may_answer(
        self, simcord_env, channel, alice, bob
    ):
        result = await alice.slash(
            channel, "rule", query="can I respond to a spell being cast by tapping my lands for mana"
        )
        embed = result.response.embeds[0]
        if embed.title != "Rules that may answer this":
            pytest.skip("the ranking is sure of this question now")
        assert not result.ephemeral and channel.history(viewer=bob)
        items = [line for line in embed.description.split("\n") if line.startswith("• ")]
        assert 3 <= len(items) <= 5
        assert all(len(item) <= 110 for item in items)  # each a one-line title
        assert menu(result.response) == [item.split("**")[1].rstrip(".") for item in items]


async def test_the_excerpt_s_page_one_fits_a_phone_too(simcord_env, channel, alice):
    for query in ("702.29", "sba", "first strike", "how does trample work", "613.1"):
        result = await alice.slash(channel, "rule", query=query)
        shown = check_page_one(result.response)
        assert "bundled excerpt" in shown
