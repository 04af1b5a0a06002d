"""What a /card miss says, consistently and to the asker alone: a set that does not exist says so; a card that is not
in the set asked for lists the sets it is in (the API's prints search, the rare path); a nickname whose card the
local copy lacks names the card; the suggestions never repeat what was typed."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bot import limits
from bot.carddb import normalise, resolve_nickname
from bot.cards import CardSource
from bot.scryfall import ScryfallError
from bot.text import clip, escape, plural
from cogs.cards._render import echo


async def miss_message(
    source: CardSource,
    suggestions: Callable[[str], Awaitable[list[str]]],
    name: str,
    set_code: str | None,
    error: ScryfallError,
) -> str:
    """What a miss says, consistently: a set that does not exist says so; a card that is not in the set asked
    for lists the sets it is in; a nickname whose card the local copy lacks says which card it stands for;
    the suggestions never repeat what was typed."""
    lines: list[str] = []
    if set_code:
        lines.append(await set_miss(source, name, set_code))
    else:
        nickname = resolve_nickname(name)
        if nickname is not None and normalise(nickname) != normalise(name):
            lines.append(
                f"“{echo(name)}” is what players call **{escape(nickname)}**, which the local card data doesn't "
                "hold yet."
            )
        elif error.type == "local":
            lines.append(f"No card is called “{echo(name)}”.")
        else:
            lines.append(f"No card is called “{echo(name)}”. Scryfall says: {error}")
    typed = normalise(name)
    suggestions = [s for s in await suggestions(name) if normalise(s) != typed]
    if suggestions and not lines[0].startswith("**"):
        lines.append("Did you mean " + ", ".join(f"**{echo(s)}**" for s in suggestions[:5]) + "?")
    return clip("\n".join(lines), limits.MESSAGE_CONTENT)


async def set_miss(source: CardSource, name: str, set_code: str) -> str:
    """Why ``name`` wasn't found in set ``set_code``: no such set, or the sets the card is in."""
    code = escape(set_code.upper())
    exists = await source.set_exists(set_code)
    if exists is False:
        return f"There is no set with the code {code}. Set codes are 2–6 letters or digits, like MH2 or AKH."
    try:
        card = (await source.named(name)).card
    except ScryfallError:
        card = None
    if card is None:
        return f"No card is called “{echo(name)}” in {code}."
    sets = await source.printings(card)
    if not sets:
        return f"**{escape(card.get('name'))}** has no printing in {code}."
    shown = ", ".join(f"{escape(set_name)} ({escape(code_.upper())})" for code_, set_name in sets[:10])
    more = f" and {plural(len(sets) - 10, 'more set')}" if len(sets) > 10 else ""
    return f"**{escape(card.get('name'))}** isn't in {code}. It was printed in: {shown}{more}."
