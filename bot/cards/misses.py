"""What a card lookup that found nothing says, the same in Discord and the terminal.

A set that does not exist says so; a card that is not in the set asked for lists the sets it is in (the API's
prints search, the rare path); a nickname whose card the local copy lacks names the card; the suggestions are the
ones autocomplete offers, and never repeat what was typed. The words are built here once, for Discord (names in
bold, outside text escaped) or for a terminal (plain).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from bot.carddb import normalise, resolve_nickname, set_codes
from bot.cards.lookup import CardSource
from bot.scryfall import ScryfallError
from bot.text import Entry, escape, one_line, plural

MAX_SUGGESTIONS = 5
MAX_SETS = 10
MAX_SET_CHECKS = 3  # set codes in one search checked with Scryfall when it found nothing
MAX_ECHO = 100  # what the user typed, quoted back on one line
CHOICES_SECONDS = 2.0  # the matcher answers in milliseconds; a slow one gives no choices, not a late reply


@dataclass(frozen=True)
class Marks:
    """How outside text is shown: what the user typed (``typed``), a card's name (``card``), anything else."""

    markdown: bool

    def typed(self, text: str) -> str:
        return self.plain(one_line(text, MAX_ECHO))

    def card(self, name: str) -> str:
        return f"**{escape(name)}**" if self.markdown else name

    def plain(self, text: str) -> str:
        return escape(text) if self.markdown else text


DISCORD = Marks(markdown=True)
TERMINAL = Marks(markdown=False)


async def miss_text(source: CardSource, name: str, set_code: str | None, error: ScryfallError, marks: Marks) -> str:
    """What a miss says, in lines: why nothing was found, then the names autocomplete would offer."""
    if set_code:
        said, found = await set_miss(source, name, set_code, marks)
        if found:  # the card exists: the sets it is in are the answer, not other names
            return said
    else:
        nickname = resolve_nickname(name)
        if nickname is not None and normalise(nickname) != normalise(name):
            return (
                f"“{marks.typed(name)}” is what players call {marks.card(nickname)}, which the local card data "
                "doesn't hold yet."
            )
        said = f"No card is called “{marks.typed(name)}”."
        if error.type != "local":
            said += f" Scryfall says: {error.user_message(safe=marks.markdown)}"
    shown = normalise(name)
    offered = [s for s in await suggestions(source, name) if normalise(s) != shown]
    if offered:
        said += "\nDid you mean " + ", ".join(marks.card(s) for s in offered[:MAX_SUGGESTIONS]) + "?"
    return said


async def autocomplete_choices(source: CardSource, typed: str, prefer: str | None = None) -> list[Entry]:
    """The card names autocomplete offers for ``typed`` (never refused for being busy: before the matcher is
    built, names by prefix), ``prefer``'s printed names first (a language's code); none when they take too long."""
    try:
        async with asyncio.timeout(CHOICES_SECONDS):
            return await source.complete(typed, prefer=prefer)
    except TimeoutError:
        return []


async def suggestions(source: CardSource, name: str) -> list[str]:
    """Card names for ``name``, the way autocomplete offers them; none when the matcher is slow or failing."""
    try:
        return [entry.value for entry in await autocomplete_choices(source, name)]
    except ScryfallError:
        return []


async def set_miss(source: CardSource, name: str, set_code: str, marks: Marks) -> tuple[str, bool]:
    """Why ``name`` wasn't found in set ``set_code`` (no such set, or the sets the card is in), and whether the
    card itself was found."""
    code = marks.plain(set_code.upper())
    if await source.set_exists(set_code) is False:
        return no_set_text([set_code], marks), False
    try:
        found = (await source.named(name)).card
    except ScryfallError:
        found = None
    if found is None:
        return f"No card is called “{marks.typed(name)}” in {code}.", False
    card = marks.card(found.get("name", ""))
    sets = await source.printings(found)
    if not sets:
        return f"{card} has no printing in {code}.", True
    shown = ", ".join(f"{marks.plain(set_name)} ({marks.plain(each.upper())})" for each, set_name in sets[:MAX_SETS])
    more = f" and {plural(len(sets) - MAX_SETS, 'more set')}" if len(sets) > MAX_SETS else ""
    return f"{card} isn't in {code}. It was printed in: {shown}{more}.", True


async def unknown_sets(source: CardSource, query: str) -> list[str]:
    """The set codes a search asks for that no set has (Scryfall's ``/sets/:code`` says so), for a search that
    found nothing: "set:zzz t:frog" found nothing because there is no set zzz, not because no frog matched."""
    codes = set_codes(query)[:MAX_SET_CHECKS]
    known = await asyncio.gather(*(source.set_exists(code) for code in codes))
    return [code for code, exists in zip(codes, known, strict=True) if exists is False]


def no_set_text(codes: list[str], marks: Marks) -> str:
    """ "There is no set with the code ZZZ." for set codes no set has, the same for /card, /search and inline."""
    shown = " or ".join(marks.plain(code.upper()) for code in codes)
    return f"There is no set with the code {shown}. Set codes are 2–6 letters or digits, like MH2 or AKH."
