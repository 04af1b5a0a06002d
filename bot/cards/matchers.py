"""The one name matcher of the card data: English names, faces, nicknames and the printed names of the languages
chosen, built whenever the local copy or the printed names are loaded or swapped.

It is built in a read thread as soon as either is loaded (at start, and after each refresh), not when a player first
types, so the first choice list after an update is as good as the next. While a new one is built the previous one
answers (its names are the names of the cards still); before the first is ready a choice list waits for it a moment
(:data:`WAIT_SECONDS`, within Discord's 3 s) rather than answer nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from bot.carddb import CardDataError, CardDataUnavailable
from bot.cards.complete import card_matcher, chosen_printed, printed_choice
from bot.text import Entry, Matcher

if TYPE_CHECKING:
    from bot.carddb import CardData

log = logging.getLogger(__name__)

WAIT_SECONDS = 1.5  # a choice list waits this long at most for the first matcher; Discord allows 3 s in all


class Matchers:
    """``Matchers(card_data_of)``: the matcher of the card data ``card_data_of()`` gives (the bot's, read at each
    call, so the bot may replace it)."""

    def __init__(self, card_data_of: Callable[[], CardData | None]) -> None:
        self._card_data_of = card_data_of
        self._matcher: Matcher | None = None
        self._made_of: object = None  # the card data's version the matcher was built from
        self._building: asyncio.Task[None] | None = None
        self._followed: set[int] = set()

    def follow(self) -> None:
        """Build whenever the card data loads or swaps a copy or printed names, starting now if one is loaded."""
        card_data = self._card_data_of()
        if card_data is not None and id(card_data) not in self._followed:
            self._followed.add(id(card_data))
            card_data.watch(self.refresh)
        self.refresh()

    def refresh(self) -> None:
        """Start building a matcher of what is loaded now, unless one is built of it or being built."""
        card_data = self._card_data_of()
        if card_data is None or not card_data.loaded:
            return
        if self._made_of == card_data.version or (self._building is not None and not self._building.done()):
            return
        self._building = asyncio.ensure_future(self._build(card_data))

    async def _build(self, card_data: CardData) -> None:
        while card_data.loaded and self._made_of != card_data.version:
            version = card_data.version
            try:
                matcher = await card_data.build(card_matcher)
            except CardDataError:  # closed or swapped meanwhile: the loop tries the copy loaded now
                await asyncio.sleep(0)
                continue
            except Exception:
                log.exception("Building the card name matcher failed")
                return
            self._matcher, self._made_of = matcher, version

    def now(self) -> Matcher | None:
        """The matcher to answer with now (the previous one while a newer is built), never waited for; None before
        the first is built, or without card data."""
        card_data = self._card_data_of()
        if card_data is None or not card_data.loaded:
            return None
        self.refresh()
        return self._matcher

    async def ready(self, within: float | None = WAIT_SECONDS) -> Matcher | None:
        """The matcher, waiting up to ``within`` seconds (None: as long as it takes) for the first to be built."""
        matcher = self.now()
        building = self._building
        if matcher is not None or building is None or building.done():
            return matcher
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(within):
                await asyncio.shield(building)
        return self.now()

    async def printed(self, name: str) -> tuple[str, str] | None:
        """``(printed name, English name)`` when the matcher clearly reads ``name`` as a name printed in another
        language ("Sumpff": ``("Sumpf", "Swamp")``), else None (an English name, or nothing clear); waits for the
        first matcher as a choice list does."""
        matcher = await self.ready()
        entry = matcher.best(name) if matcher is not None else None
        if entry is None or entry.lang is None:
            return None
        return chosen_printed(entry.value) or (entry.name, entry.value)

    async def current(self) -> Matcher | None:
        """The matcher of what is loaded now, waited for as long as its build takes (tests and benchmarks)."""
        self.refresh()
        while self._building is not None and not self._building.done():
            await asyncio.shield(self._building)
            self.refresh()
        return self.now()


async def by_prefix(card_data: CardData | None, english: list[Entry], typed: str, limit: int) -> list[Entry]:
    """``english`` (the English names starting as typed), then the printed names starting so ("Printed · English"),
    at most ``limit``: the choices before the first matcher is built."""
    entries = list(english)
    if len(entries) >= limit or card_data is None or not card_data.loaded:
        return entries[:limit]
    printed = card_data.printed.starting(typed, limit)
    try:
        records = await card_data.by_oracle(each.oracle_id for each in printed)
    except CardDataUnavailable:
        return entries
    for each in printed:
        if (record := records.get(each.oracle_id)) is not None:
            value = printed_choice(each.name, record.name)
            entries.append(Entry(value, value, lang=each.lang))
    return entries[:limit]
