"""When the bot acknowledges, on real sockets and the real clock: an answer ready within a second is sent without
"thinking…"; work that takes longer is deferred at one second from the interaction's creation (as Discord counts
its three seconds), publicly only when the answer will be public; a miss after a public deferral leaves nothing
in the channel."""

from __future__ import annotations

import time

import pytest

from bot.scryfall import ScryfallClient
from cogs._ui import DEFER_AFTER
from tests.support.fake_discord import DISCORD_EPOCH_MS, EPHEMERAL, FakeDiscord

SLOW_SCRYFALL = 2.0  # seconds the fake Scryfall takes to answer: past the deferral, within Discord's 3 s


def card_option(name: str) -> list[dict]:
    return [{"name": "name", "type": 3, "value": name}]


def aged(interaction: dict, seconds: float) -> dict:
    """``interaction`` as Discord would send it ``seconds`` after creating it (its id holds when it was made)."""
    made = int((time.time() - seconds) * 1000) - DISCORD_EPOCH_MS
    return interaction | {"id": str((made << 22) | 1)}


@pytest.fixture
async def cards_bot(start_bot, fake_scryfall):
    """The bot with its card commands and no local card data: every card is Scryfall's API's answer."""
    bot = await start_bot(["cogs.cards"], scryfall_api_url=fake_scryfall.base_url)
    await bot.scryfall.close()
    bot.scryfall = ScryfallClient(fake_scryfall.base_url, bot.config.data_dir, timeout=10.0, retries=0)
    return bot


async def test_a_quick_answer_is_sent_without_thinking_first(cards_bot, wired: FakeDiscord):
    interaction = await wired.send_interaction(wired.command_interaction("card", options=card_option("Street Wraith")))

    answer = await wired.callback(interaction)
    assert answer["type"] == 4 and answer["data"]["embeds"][0]["title"] == "Street Wraith {3}{B}{B}"
    assert not answer["data"].get("flags", 0) & EPHEMERAL


async def test_a_slow_answer_is_deferred_publicly_at_one_second_from_creation(
    cards_bot, wired: FakeDiscord, fake_scryfall
):
    fake_scryfall.hang_next(path="/cards/named", seconds=SLOW_SCRYFALL)
    sent = time.monotonic()
    interaction = await wired.send_interaction(wired.command_interaction("card", options=card_option("Street Wraith")))

    deferred = await wired.callback(interaction)
    waited = time.monotonic() - sent
    assert deferred["type"] == 5 and not deferred.get("data", {}).get("flags", 0) & EPHEMERAL  # public "thinking…"
    assert waited >= DEFER_AFTER - 0.1  # not before its second was up
    answer = await wired.followup(interaction)
    assert answer["embeds"][0]["title"] == "Street Wraith {3}{B}{B}"


async def test_the_second_counts_from_the_interactions_creation_not_its_arrival(
    cards_bot, wired: FakeDiscord, fake_scryfall
):
    fake_scryfall.hang_next(path="/cards/named", seconds=SLOW_SCRYFALL)
    sent = time.monotonic()
    late = aged(wired.command_interaction("card", options=card_option("Street Wraith")), 1.5)
    interaction = await wired.send_interaction(late)

    deferred = await wired.callback(interaction)
    assert deferred["type"] == 5
    # Already past its second when it arrived: deferred at once, well before Scryfall answered.
    assert time.monotonic() - sent < SLOW_SCRYFALL
    assert (await wired.followup(interaction))["embeds"][0]["title"] == "Street Wraith {3}{B}{B}"


async def test_a_miss_after_a_public_deferral_takes_the_thinking_back_and_answers_privately(
    cards_bot, wired: FakeDiscord, fake_scryfall
):
    fake_scryfall.hang_next(path="/cards/named", seconds=SLOW_SCRYFALL)
    interaction = await wired.send_interaction(wired.command_interaction("card", options=card_option("Zzyzx Qqq")))

    assert (await wired.callback(interaction))["type"] == 5
    miss = await wired.followup(interaction)
    assert miss["flags"] & EPHEMERAL and "Zzyzx Qqq" in miss["content"]
    original = f"/webhooks/{wired.app_id}/{interaction['token']}/messages/@original"
    assert any(r.method == "DELETE" and r.path == original for r in wired.requests)
