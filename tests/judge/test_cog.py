"""/mtr and /ipg through the real discord.py stack (simcord): answers, paging, the outline, autocomplete, limits."""

from __future__ import annotations

import pytest

from bot import limits
from bot.client import CycleBot
from bot.documents.phone import PAGE_ONE
from tests.rules.phone import visible, visible_length

# Turning an answer's pages and reading its buttons, as /rule's tests do.
from tests.rules.test_cog_history import all_pages, buttons


def within_discord_limits(embed) -> None:
    data = embed.to_dict()
    assert len(data.get("title", "")) <= limits.EMBED_TITLE
    assert len(data.get("description", "")) <= limits.EMBED_DESCRIPTION
    assert len(data.get("fields", [])) <= limits.EMBED_FIELDS
    assert all(len(field["value"]) <= limits.EMBED_FIELD_VALUE for field in data.get("fields", []))
    assert len(visible(embed)) <= limits.EMBED_TOTAL


async def test_ipg_lec_from_the_bundled_outline_names_the_infraction_its_penalty_and_says_once_the_text_is_not_loaded(
    simcord_env, channel, alice
):
    result = await alice.slash(channel, "ipg", query="lec")

    embed = result.response.embeds[0]
    assert not result.ephemeral
    assert embed.title == "IPG 2.2 Game Play Error — Looking at Extra Cards"
    assert embed.url == "https://media.wizards.com/ContentResources/WPN/MTG_IPG_2024Sep23_EN.pdf"
    shown = visible(embed)
    assert shown.splitlines()[1] == "Penalty: Warning"
    assert shown.count("not loaded yet") == 1
    assert "more than a year ago" in shown  # the outline is from September 2024
    assert embed.footer.text == "Magic Infraction Procedure Guide, effective September 23, 2024 (outline)"
    assert not simcord_env.errors


class TestDownloaded:
    @pytest.fixture
    async def simcord_bot(self, bot_config, downloaded):
        bot = CycleBot(bot_config)
        yield bot
        await bot.close()

    async def test_a_long_infraction_keeps_page_one_short_and_every_page_within_discords_limits(
        self, simcord_env, channel, alice
    ):
        result = await alice.slash(channel, "ipg", query="3.5")  # Deck Problem: about 5,000 characters

        embeds = await all_pages(alice, result.response)
        assert len(embeds) >= 3
        assert visible_length(embeds[0]) <= PAGE_ONE
        for embed in embeds:
            within_discord_limits(embed)
        assert not simcord_env.errors

    async def test_ipg_lec_leads_with_penalty_and_definition_then_the_whole_infraction_behind_next(
        self, simcord_env, channel, alice
    ):
        result = await alice.slash(channel, "ipg", query="lec")

        first = result.response.embeds[0]
        lines = visible(first).splitlines()
        assert lines[:3] == [
            "IPG 2.2 Game Play Error — Looking at Extra Cards",
            "Penalty: Warning",
            "Definition: A player takes an action that may have enabled them to see the faces of cards that they were "
            "not entitled to see.",
        ]
        assert "not loaded" not in visible(first)
        assert first.footer.text.startswith("Magic Infraction Procedure Guide, effective September 23, 2024 · page 1/")
        rest = "\n".join(visible(embed) for embed in (await all_pages(alice, result.response))[1:])
        assert "IPG 2.2 in full" in rest and "Additional Remedy: If the cards were in the library" in rest
        assert not simcord_env.errors


async def test_words_answer_an_unsure_list_of_sections_with_a_menu_to_open_one(simcord_env, channel, alice, bob):
    result = await alice.slash(channel, "mtr", query="can players take notes during a match")

    embed = result.response.embeds[0]
    assert embed.title == "MTR: sections that may answer"
    assert "2.11 Taking Notes" in visible(embed).splitlines()[1]
    menu = next(item for item in buttons(result.response) if item.get("options"))
    opened = await bob.select(result.response, [menu["options"][0]["value"]])
    assert opened.ephemeral and opened.response.embeds[0].title == "MTR 2.11 Taking Notes"
    assert not simcord_env.errors


async def test_autocomplete_offers_infractions_by_short_name_and_title(simcord_env, channel, alice):
    by_short = await alice.autocomplete(channel, "ipg", "query", "hce")
    by_title = await alice.autocomplete(channel, "ipg", "query", "slow")

    assert [choice["value"] for choice in by_short][:1] == ["2.3"]
    assert by_short[0]["name"] == "2.3 Hidden Card Error · Warning"
    assert "3.3" in [choice["value"] for choice in by_title]
    assert len(await alice.autocomplete(channel, "mtr", "query", "")) == limits.AUTOCOMPLETE_CHOICES


async def test_nonsense_with_markdown_and_mentions_is_answered_privately_escaped_and_pings_nobody(
    simcord_env, channel, alice
):
    result = await alice.slash(channel, "mtr", query="@everyone **zzqx** <@123> [x](https://evil.example)")

    assert result.ephemeral
    embed = result.response.embeds[0]
    assert "Nothing in the MTR matches that" in embed.title
    assert "@everyone" not in (embed.description or "")
    assert "https://evil.example" not in (embed.description or "")
    assert not simcord_env.errors


class TestHistory:
    @pytest.fixture
    async def simcord_bot(self, bot_config, pages):
        from datetime import date

        from tests.judge.conftest import keep, newer

        keep(bot_config.data_dir, "mtr", pages["mtr"])
        keep(bot_config.data_dir, "mtr", newer(pages["mtr"]), date(2026, 2, 27))
        bot = CycleBot(bot_config)
        yield bot
        await bot.close()

    async def test_history_true_acknowledges_first_then_shows_the_words_changed_struck_and_bold(
        self, simcord_env, channel, alice
    ):
        result = await alice.slash(channel, "mtr", query="3.8", history=True)

        callbacks = [r.json for r in simcord_env.http_requests if r.path.endswith("/callback")]
        assert callbacks[0]["type"] == 5  # deferred while the versions are read
        assert not result.ephemeral
        embed = result.response.embeds[0]
        assert embed.title == "MTR 3.8 Game Markers · history"
        assert "~~completely~~" in embed.description
        assert embed.footer.text == "Magic Tournament Rules: 2 versions kept, November 10, 2025 to February 27, 2026"
        assert not simcord_env.errors


class TestUnreadable:
    @pytest.fixture
    async def simcord_bot(self, bot_config, monkeypatch):
        from bot.judge import outline

        monkeypatch.setattr(outline, "OUTLINES", bot_config.data_dir / "nowhere")
        bot = CycleBot(bot_config)
        yield bot
        await bot.close()

    async def test_documents_that_cannot_be_read_leave_the_bot_up_and_the_commands_saying_so(
        self, simcord_env, channel, alice
    ):
        result = await alice.slash(channel, "mtr", query="3.8")

        assert result.ephemeral
        assert "not loaded right now" in (result.response.content or result.response.embeds[0].description)
        # The one error path answered it: the tree's on_error, with the user-facing error's own sentence.
        assert ["not loaded right now" in str(error) for error in simcord_env.errors] == [True]
        assert (await alice.slash(channel, "rule", query="702.29")).response.embeds[0].title == "702.29 Cycling"
        assert await alice.autocomplete(channel, "ipg", "query", "hce") == []
