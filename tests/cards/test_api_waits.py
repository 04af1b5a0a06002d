"""Cards only Scryfall's API has (before the first import): a lookup that must wait its turn there is acknowledged
as soon as it is found to wait, whatever the clock, and a long wait is told to the asker alone before their card
follows for everyone."""

from __future__ import annotations

import discord

import cogs._ui as ui
from bot.scryfall.limiter import RateLimiter
from bot.serving import waiting


async def test_a_long_wait_at_scryfall_is_told_privately_at_once_then_the_card_follows(
    cards, channel, alice, monkeypatch
):
    reserve = RateLimiter.reserve

    async def queued(self, klass, stop=None):
        waiting(40.0)  # forty seconds of other players' lookups ahead of this one
        await reserve(self, klass, stop)

    monkeypatch.setattr(RateLimiter, "reserve", queued)
    result = await alice.slash(channel, "card", name="Street Wraith")
    assert result.ephemeral and result.response.content.endswith("your card comes here in about 40 s.")
    (card,) = result.followups
    assert not card.ephemeral and card.embeds[0].title.startswith("Street Wraith")


async def test_a_short_wait_is_acknowledged_at_once_with_thinking(cards, channel, alice, monkeypatch):
    reserve, defer = RateLimiter.reserve, discord.InteractionResponse.defer
    happened = []

    async def queued(self, klass, stop=None):
        waiting(0.5)
        happened.append("found waiting")
        await reserve(self, klass, stop)
        happened.append("its turn")

    async def deferred(response, *args, **kwargs):
        happened.append(f"deferred ({'private' if kwargs.get('ephemeral') else 'public'})")
        return await defer(response, *args, **kwargs)

    monkeypatch.setattr(RateLimiter, "reserve", queued)
    monkeypatch.setattr(discord.InteractionResponse, "defer", deferred)
    monkeypatch.setattr(ui, "DEFER_AFTER", 600.0)  # the second's timer out of the way: only the wait can defer
    result = await alice.slash(channel, "card", name="Street Wraith")
    # "thinking…" in the channel as soon as the lookup is found to wait
    assert happened[0] == "found waiting" and "deferred (public)" in happened
    assert not result.ephemeral and result.response.embeds[0].title.startswith("Street Wraith")
