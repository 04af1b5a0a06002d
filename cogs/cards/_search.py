"""/search results: a page of names with cost and type, the count, Previous/Next and a card picker.

The pages of a local search keep no state in this process: the message's footer carries the search
(its last line), the buttons' custom ids carry the owner and the page to show, so Previous and Next
work the same after a restart; the select carries each card's Scryfall id.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot import limits
from bot.carddb import CardRecord, QueryError, SearchPage, heavy_search
from bot.carddb.query import warning_sentence
from bot.cards import CardSource, as_card, origin_text, render_card, search_result_line
from bot.errors import UserFacingError
from bot.hosts import PLAIN, SymbolText
from bot.scryfall import BadQuery, CardNotFound, ScryfallError
from bot.text import clip, escape, one_line, plural
from cogs._admission import asker_of, turn_of
from cogs._symbols import symbols_for, with_symbols
from cogs._ui import guarded, reply
from cogs.cards._pages import NOT_YOURS
from cogs.cards._render import CARD_COLOUR, RESULTS_PER_PAGE, failure_text, to_embed

BROAD = 1000
CARD_ID = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"


def result_line(card: CardRecord | dict[str, Any]) -> str:
    """``Name {cost} — Type line``, escaped; a double-faced card's cost is its front's (no dangling ``//``)."""
    return search_result_line(as_card(card), markdown=True)


WORD_JOINER = "\u2060"


def query_of(message: discord.Message | None) -> str | None:
    """The search a results message shows: the last line of its first embed's footer."""
    if message is None or not message.embeds:
        return None
    footer = message.embeds[0].footer.text or ""
    _, newline, query = footer.rpartition("\n")
    query = query.replace(WORD_JOINER, "")
    return query if newline and query else None


def search_embed(query: str, found: SearchPage, origin: str, note: str = "") -> discord.Embed:
    lines = [result_line(card) for card in found.cards]
    embed = discord.Embed(
        title=clip(f"Search: {plural(found.total, 'card')}", limits.EMBED_TITLE),
        description=clip("\n".join(lines), limits.EMBED_DESCRIPTION) or "No more results.",
        colour=CARD_COLOUR,
    )
    notes = [warning_sentence(found.warnings)] if found.warnings else []
    if found.total > BROAD and found.page == 0:
        notes.append(f"That's a broad search ({found.total:,} cards): here are the first pages; add terms to narrow it")
    if note:
        notes.append(note)
    if notes:  # they quote the search's own words: a {G} typed there stays text
        text = "\n".join(f"• {escape(one_line(n, 300), typed=True)}" for n in notes)
        embed.add_field(name="Note", value=clip(text, limits.EMBED_FIELD_VALUE), inline=False)
    # Footers show no markdown and ping nobody: the search is kept there as typed, for the buttons to read (a {G}
    # typed there is the player's text, not a symbol: a word joiner after its brace, taken off when read back).
    stats = f"{plural(found.total, 'card')} · page {found.page + 1}/{found.page_count} · {origin}"
    embed.set_footer(text=f"{stats}\n{query.replace('{', '{' + WORD_JOINER)}")
    return embed


class SearchPageButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"search:page:(?P<owner>\d{1,20}):(?P<page>\d{1,5}):(?P<label>prev|next)",
):
    """Previous or Next of a /search result; the page and the owner are in the custom id."""

    def __init__(self, owner: int, page: int, label: str, *, disabled: bool = False) -> None:
        text = "Previous" if label == "prev" else "Next"
        custom_id = f"search:page:{owner}:{page}:{label}"
        super().__init__(discord.ui.Button(label=text, custom_id=custom_id, disabled=disabled))
        self.owner, self.page, self.label = owner, page, label

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /):
        return cls(int(match["owner"]), int(match["page"]), match["label"])

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        if interaction.user.id != self.owner:
            await reply(interaction, NOT_YOURS, ephemeral=True)
            return
        query = query_of(interaction.message)
        source: CardSource | None = getattr(interaction.client, "card_source", None)
        if query is None or source is None:
            raise UserFacingError("These pages can't be turned any more; run /search again.")
        await interaction.response.defer()  # a page turn shows nothing while it waits: deferred at once
        turn, asker = turn_of(interaction, heavy=heavy_search(query)), asker_of(interaction)
        found = await source.search(query, page=self.page, page_size=RESULTS_PER_PAGE, asker=asker, turn=turn)
        if not isinstance(found, SearchPage):
            raise UserFacingError("The local card data can't answer this search now; run /search again.")
        symbols = symbols_for(interaction)
        await interaction.edit_original_response(**search_message(source, query, found, self.owner, symbols=symbols))


class OpenCardSelect(discord.ui.DynamicItem[discord.ui.Select], template=r"search:open"):
    """A select of the page's cards; the card picked is shown to whoever picked it."""

    def __init__(self, options: list[discord.SelectOption] | None = None) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id="search:open",
                placeholder="Open a card…",
                options=options or [discord.SelectOption(label="-")],
            )
        )

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match[str], /):
        return cls(list(item.options))

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        values = (interaction.data or {}).get("values") or []
        card_id = values[0] if values else ""
        source: CardSource | None = getattr(interaction.client, "card_source", None)
        if not re.fullmatch(CARD_ID, card_id) or source is None:
            raise UserFacingError("That card can't be opened; run /search again.")
        await interaction.response.defer(ephemeral=True, thinking=True)
        answer = await source.by_id(card_id)
        display = render_card(answer.card, shown=answer.shown)
        await reply(interaction, embed=to_embed(display), ephemeral=True)


def search_view(owner: int, found: SearchPage) -> discord.ui.View | None:
    view = discord.ui.View(timeout=None)
    if found.page_count > 1:
        view.add_item(SearchPageButton(owner, max(0, found.page - 1), "prev", disabled=found.page == 0))
        last = found.page >= found.page_count - 1
        view.add_item(SearchPageButton(owner, min(found.page + 1, found.page_count - 1), "next", disabled=last))
    options = [
        discord.SelectOption(
            label=one_line(card.name, limits.SELECT_OPTION_LABEL),
            value=card.id,
            description=one_line(card.type_line, limits.SELECT_OPTION_DESCRIPTION) or None,
        )
        for card in found.cards
        if re.fullmatch(CARD_ID, card.id)
    ][: limits.SELECT_OPTIONS]
    if options:
        view.add_item(OpenCardSelect(options))
    return view if view.children else None


def search_message(
    source: CardSource, query: str, found: SearchPage, owner: int, note: str = "", *, symbols: SymbolText = PLAIN
) -> dict[str, Any]:
    """``embed`` and ``view`` keyword arguments for a page of local results (costs as ``symbols`` show them)."""
    embed = with_symbols(search_embed(query, found, origin_text("local", source.data_date()), note), symbols)
    view = search_view(owner, found)
    return {"embed": embed, "view": view if view is not None else discord.utils.MISSING}


def query_error_text(error: QueryError) -> str:
    return clip(escape(str(error)), limits.MESSAGE_CONTENT)


def search_failure_text(error: Exception, nothing: str = "No cards match that search.") -> str | None:
    """What a search that failed answers (``nothing`` when no card matched), or None for an error that is not a
    search's: /search and /cycling read their failures the same way."""
    if isinstance(error, QueryError):
        return query_error_text(error)
    if isinstance(error, CardNotFound):
        note = warning_sentence([str(w) for w in error.warnings]) if error.warnings else ""
        return clip(f"{nothing} {escape(note)}".strip(), limits.MESSAGE_CONTENT)
    if isinstance(error, BadQuery):
        return clip(f"Scryfall could not read that search: {error}", limits.MESSAGE_CONTENT)
    if isinstance(error, ScryfallError):
        return failure_text(error)
    return None
