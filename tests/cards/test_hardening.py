"""Card commands stay safe and answer every click when users, Scryfall or a restart get in the way."""

from __future__ import annotations

import re

import pytest

from bot.scryfall.transport import CACHE_FILE

LIVE_LINK = re.compile(r"\[[^\]]*\]\(\s*<?https?://")


def reply_texts(result) -> list[str]:
    messages = [m for m in (result.response, *result.followups) if m is not None]
    texts = [m.content or "" for m in messages]
    for message in messages:
        for embed in message.embeds:
            texts.extend([embed.title or "", embed.description or ""])
            texts.extend(f"{field.name}\n{field.value}" for field in embed.fields)
    return texts


@pytest.mark.parametrize(
    "name",
    ["[Free Nitro](https://evil.example/login)", "[Free Nitro](<https://evil.example/login>)", "**[x](http://e.vil)**"],
)
async def test_a_masked_link_as_a_card_name_is_echoed_without_a_live_link(cards, channel, alice, name):
    result = await alice.slash(channel, "card", name=name)
    texts = reply_texts(result)
    assert any("Free Nitro" in text or "e.vil" in text for text in texts)  # echoed, so the user sees why
    assert not any(LIVE_LINK.search(text) for text in texts)
    assert not any("https://evil" in text or "http://e.vil" in text for text in texts)


async def test_bidirectional_controls_in_a_card_name_are_not_echoed(cards, channel, alice):
    result = await alice.slash(channel, "card", name="Street \u202eWraith\u2066x")
    assert not any(ch in text for text in reply_texts(result) for ch in "\u202e\u2066")


async def test_a_masked_link_in_an_inline_reference_is_not_echoed_live(cards, channel, alice):
    await alice.send(channel, "[[[Free Nitro](https://evil.example/login)]] [[Street Wraith]]")
    replies = sorted((m for m in channel.history() if m.author.bot), key=lambda m: m.id)
    assert replies and not LIVE_LINK.search(replies[-1].content or "")


async def test_a_masked_link_in_a_cycling_query_is_not_shown_live(cards, channel, alice):
    result = await alice.slash(channel, "cycling", query="[Free Nitro](https://evil.example/login)")
    assert not any(LIVE_LINK.search(text) for text in reply_texts(result))


async def test_pages_from_before_a_restart_say_they_have_expired(cards, channel, alice, simcord_env):
    result = await alice.slash(channel, "cycling")
    await simcord_env.bot.reload_extension("cogs.cards")
    simcord_env.bot.pagers.clear()  # the bot's pagers are gone, as after a restart
    clicked = await alice.click(result.response.message, label="Next")
    assert clicked.ephemeral and "expired" in clicked.response.content
    assert "page 1/16" in result.response.embeds[0].footer.text


async def test_a_double_click_with_the_first_versions_button_is_answered(cards, channel, alice):
    result = await alice.slash(channel, "cycling")
    button = next(c for row in result.response.components for c in row["components"] if c.get("label") == "Next")
    first = await alice.click(result.response.message, custom_id=button["custom_id"])
    second = await alice.click(result.response.message, custom_id=button["custom_id"])  # sent before the edit
    assert first.acknowledged and second.acknowledged
    assert "page 3/16" in result.response.embeds[0].footer.text


async def test_rulings_pages_and_card_buttons_answer_after_a_restart(cards, channel, alice, simcord_env):
    result = await alice.slash(channel, "card", name="Test Xcycler")
    await simcord_env.bot.reload_extension("cogs.cards")
    rulings = await alice.click(result.response.message, label="Rulings")
    assert rulings.ephemeral and rulings.response.embeds  # the card buttons carry the card's id


@pytest.fixture
def damaged_cache(data_dir):
    (data_dir / CACHE_FILE).write_bytes(b"<html>not a database</html>" * 200)
    return data_dir / CACHE_FILE


async def test_a_damaged_scryfall_cache_at_start_does_not_stop_card_lookups(damaged_cache, cards, channel, alice):
    result = await alice.slash(channel, "card", name="Street Wraith")
    assert result.response.embeds[0].title.startswith("Street Wraith")
    assert list(damaged_cache.parent.glob(CACHE_FILE + ".damaged-*"))
    commands = {command.name for command in cards.bot.tree.get_commands()}
    assert {"card", "cycling"} <= commands
