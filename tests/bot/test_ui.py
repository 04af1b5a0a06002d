"""Shared interaction helpers: paging that only the requester can turn, guarded dynamic items."""

from __future__ import annotations

import pytest

from bot.client import CycleBot
from bot.text.lines import chunk_lines, clip, escape, fit_lines, one_line


def test_chunk_lines_never_loses_or_cuts_a_line_that_fits():
    lines = [f"line {i:03d}" for i in range(100)]
    blocks = chunk_lines(lines, limit=50)
    assert all(len(block) <= 50 for block in blocks)
    assert "\n".join(blocks).split("\n") == lines


def test_chunk_lines_splits_an_overlong_line_without_losing_text():
    blocks = chunk_lines(["x" * 120, "tail"], limit=50)
    assert "".join(blocks).replace("\n", "") == "x" * 120 + "tail"
    assert all(len(block) <= 50 for block in blocks)


@pytest.fixture
def simcord_bot(bot_config):
    return CycleBot(bot_config, extensions=["tests.support.boom_cog"])


async def test_pages_turn_for_the_requester_and_refuse_anyone_else(simcord_env, channel, alice, bob):
    result = await alice.slash(channel, "pages", count=3)
    message = result.response.message
    first = message.embeds[0]
    total = len(chunk_lines([f"line {i}" for i in range(30)], limit=70))
    assert total > 2
    assert first.footer.text.endswith(f"page 1/{total}")

    turned = await alice.click(message, label="Next")
    assert turned.acknowledged
    assert channel.last_message.embeds[0].footer.text.endswith(f"page 2/{total}")

    refused = await bob.click(channel.last_message, label="Next")
    assert refused.ephemeral
    assert "belong to whoever asked" in refused.response.content
    assert channel.last_message.embeds[0].footer.text.endswith(f"page 2/{total}")

    await alice.click(channel.last_message, label="Previous")
    assert channel.last_message.embeds[0].description == first.description


async def test_pages_disable_their_buttons_when_they_time_out(simcord_env, channel, alice):
    await alice.slash(channel, "pages", count=3)
    await simcord_env.advance_time(601)
    buttons = [c for row in channel.last_message.components for c in row.children]
    assert buttons and all(button.disabled for button in buttons)


async def test_a_single_page_has_no_buttons(simcord_env, channel, alice):
    result = await alice.slash(channel, "pages", count=0)
    assert result.response.message.components == []


async def test_a_failing_dynamic_button_still_answers_the_user(simcord_env, channel, alice):
    result = await alice.slash(channel, "buttons")
    message = result.response.message

    polite = await alice.click(message, label="Boom 0")
    assert polite.ephemeral and polite.response.content == "That button is out of order."

    unexpected = await alice.click(message, label="Boom 1")
    assert unexpected.ephemeral and "error id" in unexpected.response.content


async def test_a_dynamic_button_that_deferred_before_failing_still_tells_the_user(simcord_env, channel, alice):
    result = await alice.slash(channel, "buttons")

    late = await alice.click(result.response.message, label="Boom 2")

    assert late.acknowledged
    assert late.followups, "the answer comes as a follow-up once the click was deferred"
    [followup] = late.followups
    assert followup.content == "That took too long and still failed."
    assert followup.flags.ephemeral


def test_escape_makes_a_masked_link_inert():
    text = escape("[Free Nitro](https://evil.example/login)")
    assert "[Free Nitro](" not in text and "\\[Free Nitro\\](" in text and "https://" not in text
    assert "Free Nitro" in text and "evil.example/login" in text


def test_escape_drops_bidirectional_controls_and_breaks_mass_mentions():
    text = escape("\u202eevil\u2066 @everyone <@123>")
    assert "\u202e" not in text and "\u2066" not in text
    assert "@everyone" not in text and "<@123>" not in text


def test_escape_neutralises_every_markdown_starter():
    text = escape("**bold** __u__ ~~s~~ `code` ||spoiler|| > quote # heading - list")
    for raw in ("**", "__", "~~", "||"):
        assert raw not in text.replace("\\" + raw[0], "")


def test_fit_lines_says_how_many_did_not_fit_and_stays_within_the_limit():
    items = [f"card number {i}" for i in range(200)]
    text = fit_lines(items, 300)
    assert len(text) <= 300
    shown = text.count("card number")
    assert text.endswith(f"… and {200 - shown} more")


def test_fit_lines_keeps_everything_that_fits_and_clips_an_overlong_first_item():
    assert fit_lines(["a", "b"], 10) == "a\nb"
    assert fit_lines([], 10) == "—"
    text = fit_lines(["x" * 50, "y"], 30)
    assert len(text) <= 30 and text.startswith("xxx") and "…\ny" in text
    assert fit_lines(["x" * 50, "y" * 50], 30).endswith("…\n… and 1 more")


def test_clip_and_one_line():
    assert clip("abcdef", 4) == "abc…"
    assert clip(None, 3) == ""
    assert one_line("a\n  b\tc", 100) == "a b c"
