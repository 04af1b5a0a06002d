"""/mtr and /ipg as judges type them, through the real discord.py stack (simcord): section numbers in their usual
spellings, a number naming no section answered privately whether or not the text is loaded, a penalty listing the
infractions that carry it, a short section shown whole on page one, history asked with the word last."""

from __future__ import annotations

from datetime import date

import pytest

from bot.client import CycleBot
from tests.judge.conftest import MTR_DATE, keep, newer
from tests.rules.phone import visible
from tests.rules.test_cog_history import buttons
from tests.support.judge_pdfs import make_pdf


def labels(message) -> list[str]:
    return [item.get("label") or item.get("placeholder") for item in buttons(message)]


async def test_a_number_naming_no_section_is_answered_privately_from_the_outline(simcord_env, channel, alice):
    result = await alice.slash(channel, "mtr", query="99.9")

    assert result.ephemeral
    embed = result.response.embeds[0]
    assert embed.title == "There is no section 99.9 in the MTR"
    assert visible(embed).splitlines()[1] == "The MTR has chapters 1 to 10 and appendices A to F."
    assert not simcord_env.errors


@pytest.mark.parametrize(
    ("query", "penalty"), [("game loss", "Game Loss"), ("GL", "Game Loss"), ("dq", "Disqualification")]
)
async def test_a_penalty_lists_its_infractions_with_a_menu_to_open_each(
    simcord_env, channel, alice, bob, query, penalty
):
    result = await alice.slash(channel, "ipg", query=query)

    assert not result.ephemeral
    embed = result.response.embeds[0]
    assert embed.title == f"IPG infractions · Penalty: {penalty}"
    shown = visible(embed)
    assert "Warning" not in shown and shown.count(penalty) == 1  # said once, in the title
    menu = next(item for item in buttons(result.response) if item.get("options"))
    opened = await bob.select(result.response, [menu["options"][0]["value"]])
    assert opened.ephemeral and f"Penalty: {penalty}" in visible(opened.response.embeds[0])
    assert not simcord_env.errors


class TestDownloaded:
    @pytest.fixture
    async def simcord_bot(self, bot_config, downloaded):
        bot = CycleBot(bot_config)
        yield bot
        await bot.close()

    @pytest.mark.parametrize("query", ["99.9", "MTR 99.9", "99,9"])
    async def test_a_number_naming_no_section_is_private_with_the_text_loaded_too(
        self, simcord_env, channel, alice, query
    ):
        result = await alice.slash(channel, "mtr", query=query)

        assert result.ephemeral
        assert result.response.embeds[0].title == "There is no section 99.9 in the MTR"
        assert not simcord_env.errors

    @pytest.mark.parametrize("query", ["MTR3.8", "mtr 3.8", "3,8"])
    async def test_section_numbers_as_judges_type_them(self, simcord_env, channel, alice, query):
        result = await alice.slash(channel, "mtr", query=query)

        assert not result.ephemeral
        assert result.response.embeds[0].title == "MTR 3.8 Game Markers"

    async def test_ipg_3_2_in_the_ipg_and_the_mtr_is_the_ipgs_section(self, simcord_env, channel, alice):
        for command in ("ipg", "mtr"):
            result = await alice.slash(channel, command, query="IPG 3.2")
            assert result.response.embeds[0].title == "IPG 3.2 Tournament Error — Outside Assistance"

    async def test_an_infraction_that_fits_page_one_is_shown_whole_with_no_next(self, simcord_env, channel, alice):
        result = await alice.slash(channel, "ipg", query="hce")  # its Definition and its Philosophy

        embed = result.response.embeds[0]
        lines = visible(embed).splitlines()
        assert lines[1] == "Penalty: Warning"
        assert lines[2].startswith("Definition: ") and lines[3].startswith("Philosophy: ")
        assert "Next" not in labels(result.response) and "page 1/" not in embed.footer.text


class TestTwoParagraphs:
    @pytest.fixture
    async def simcord_bot(self, bot_config):
        from bot.documents import extract_pages

        # Every made-up section of this MTR has two paragraphs, about 800 characters.
        keep(bot_config.data_dir, "mtr", extract_pages(make_pdf("mtr", MTR_DATE, sections=12, filler=2)))
        bot = CycleBot(bot_config)
        yield bot
        await bot.close()

    async def test_mtr_shows_a_two_paragraph_section_whole_on_page_one(self, simcord_env, channel, alice):
        result = await alice.slash(channel, "mtr", query="1.2")

        embed = result.response.embeds[0]
        paragraphs = visible(embed).splitlines()[1:-1]  # between the title and the footer
        assert embed.title.startswith("MTR 1.2 ") and len(paragraphs) == 2
        assert all(paragraph.endswith("tournament's report.") for paragraph in paragraphs)
        assert labels(result.response) == [] and "page 1/" not in embed.footer.text
        assert not simcord_env.errors


class TestHistory:
    @pytest.fixture
    async def simcord_bot(self, bot_config, pages):
        keep(bot_config.data_dir, "mtr", pages["mtr"])
        keep(bot_config.data_dir, "ipg", pages["ipg"])
        keep(bot_config.data_dir, "mtr", newer(pages["mtr"]), date(2026, 2, 27))
        bot = CycleBot(bot_config)
        yield bot
        await bot.close()

    @pytest.mark.parametrize(("query", "history"), [("3.8 history", False), ("3.8 history", True), ("3.8", True)])
    async def test_history_with_the_word_last_works_as_history_first(self, simcord_env, channel, alice, query, history):
        result = await alice.slash(channel, "mtr", query=query, history=history)

        embed = result.response.embeds[0]
        assert embed.title == "MTR 3.8 Game Markers · history"
        assert "~~completely~~" in embed.description
        assert not simcord_env.errors

    async def test_one_version_kept_says_so_rather_than_a_range_from_a_day_to_itself(self, simcord_env, channel, alice):
        result = await alice.slash(channel, "ipg", query="history hce")

        footer = result.response.embeds[0].footer.text
        assert (
            footer == "Magic Infraction Procedure Guide, effective September 23, 2024: only one version is kept so far"
        )
