"""Names as printed in other languages, and names the local copy does not know yet, for the card lookups.

A printed name finds its card through the printed names index (``card_data.printed``) and the card's oracle id; a
choice of the name matcher sends "Printed · English" (:func:`bot.cards.complete.printed_choice`), which finds the
English card and the printed name the player chose. A name nobody has printed on a card the local copy holds is
asked of Scryfall once, and a miss is remembered for an hour (:class:`RecentMisses`), so the same miss never asks
twice.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from typing import TYPE_CHECKING

from bot.carddb import CardRecord, PrintedName
from bot.cards.complete import chosen_printed
from bot.text import escape

if TYPE_CHECKING:
    from bot.carddb import CardData

MISS_SECONDS = 3600.0
MISSES_KEPT = 10_000


async def printed_cards(card_data: CardData, name: str) -> list[tuple[CardRecord, PrintedName]]:
    """The cards of the local copy ``name`` is the printed name of, each with that name (see
    ``CardData.by_printed_name``)."""
    return await card_data.by_printed_name(name)


async def chosen_card(card_data: CardData, text: str) -> tuple[CardRecord, PrintedName | None] | None:
    """The card of a choice's "Printed · English" value, with its printed name when the card has it; None when
    ``text`` is no such value or names no card of the local copy."""
    parts = chosen_printed(text)
    if parts is None:
        return None
    printed, english = parts
    record = (await card_data.collection([english])).get(english)
    if record is None:
        return None
    same = [each for each in card_data.printed.named(printed) if each.oracle_id == record.oracle_id]
    return record, (same[0] if same else None)


def printed_note(printed: PrintedName | None, *, markdown: bool = True) -> str:
    """The line that says which printed name was asked for: ``**Blitzschlag** · [German printing](link)``; the
    terminal's without markup."""
    if printed is None:
        return ""
    if not markdown:
        return f"{printed.name} · {printed.language} printing: {printed.url}"
    return f"**{escape(printed.name)}** · [{printed.language} printing]({printed.url})"


class RecentMisses:
    """Names asked of Scryfall that it found no card for, each remembered for ``seconds`` (at most ``kept`` of them,
    the oldest forgotten first)."""

    def __init__(self, seconds: float = MISS_SECONDS, kept: int = MISSES_KEPT) -> None:
        self.seconds = seconds
        self.kept = kept
        self._until: OrderedDict[str, float] = OrderedDict()

    def __contains__(self, key: str) -> bool:
        until = self._until.get(key)
        if until is None:
            return False
        if until <= time.monotonic():
            del self._until[key]
            return False
        return True

    def add(self, key: str) -> None:
        self._until[key] = time.monotonic() + self.seconds
        self._until.move_to_end(key)
        while len(self._until) > self.kept:
            self._until.popitem(last=False)
