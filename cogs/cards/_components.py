"""The cards' components: info buttons that survive restarts, the picker for ambiguous names, and
the lazy Scryfall source behind /cycling's pages."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from typing import Any

import discord

from bot import limits
from bot.cards import (
    CardAnswer,
    CardList,
    CardSource,
    as_card,
    cycling_result_line,
    image_url,
    is_multi_faced,
    render_card,
    render_faces,
    render_image,
)
from bot.errors import UserFacingError
from bot.hosts import PLAIN, SymbolText
from bot.scryfall import ScryfallError
from bot.text import one_line
from cogs._symbols import symbols_for, with_symbols
from cogs._ui import GuardedView, guarded, reply
from cogs.cards._pages import ListSource, send_pages
from cogs.cards._render import (
    RESULTS_PER_PAGE,
    echo,
    failure_text,
    legality_embed,
    page_count,
    prices_embed,
    results_embed,
    rulings_embeds,
    to_embed,
)

CARD_ID = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
INFO_LABELS = {
    "image": "Picture",
    "rulings": "Rulings",
    "legality": "Legality",
    "prices": "Prices",
    "faces": "Other faces",
}


class CardInfoButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=rf"card:(?P<action>image|rulings|legality|prices|faces):(?P<card_id>{CARD_ID})",
):
    """The full-size Picture, Rulings, Legality, Prices or Other faces of the card whose Scryfall id is in the
    custom id.

    Read-only information: anyone may press, and the answer is shown only to whoever pressed.
    """

    def __init__(self, action: str, card_id: str) -> None:
        super().__init__(
            discord.ui.Button(
                label=INFO_LABELS[action],
                style=discord.ButtonStyle.secondary,
                custom_id=f"card:{action}:{card_id}",
            )
        )
        self.action = action
        self.card_id = card_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /
    ) -> CardInfoButton:
        return cls(match["action"], match["card_id"])

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        await show_info(interaction, self.action, self.card_id)


async def show_info(interaction: discord.Interaction, action: str, card_id: str) -> None:
    """The answer to a card's info button, from the bot's card source; Scryfall's failures reach the user
    through ``guarded``."""
    source: CardSource | None = getattr(interaction.client, "card_source", None)
    if source is None:
        raise UserFacingError("Card lookups are not available right now.")
    await interaction.response.defer(ephemeral=True, thinking=True)
    answer = await source.by_id(card_id)
    card = answer.card
    if action == "rulings":
        name = card.get("name") or "this card"
        symbols = symbols_for(interaction)
        pages = [with_symbols(page, symbols) for page in rulings_embeds(name, await source.rulings(card))]
        if not pages:
            await reply(interaction, f"Scryfall has no rulings for {echo(name)}.", ephemeral=True)
            return
        await send_pages(interaction, interaction.client.pagers, ListSource(pages), ephemeral=True)
    elif action == "image":
        await reply(interaction, embed=to_embed(render_image(card, origin=answer.origin)), ephemeral=True)
    elif action == "legality":
        await reply(interaction, embed=legality_embed(card), ephemeral=True)
    elif action == "prices":
        await reply(interaction, embed=prices_embed(card, answer.prices_date), ephemeral=True)
    else:
        faces = render_faces(card)[: limits.EMBEDS_PER_MESSAGE]
        await reply(interaction, embeds=[to_embed(display) for display in faces], ephemeral=True)


def card_buttons(card: dict) -> discord.ui.View | None:
    card_id = str(card.get("id") or "")
    if not re.fullmatch(CARD_ID, card_id):
        return None
    view = discord.ui.View(timeout=None)
    actions = ["image", "rulings", "legality", "prices"] if image_url(card) else ["rulings", "legality", "prices"]
    if is_multi_faced(card):
        actions.append("faces")
    for action in actions:
        view.add_item(CardInfoButton(action, card_id))
    return view


def card_message(answer: CardAnswer) -> dict[str, Any]:
    """``embed`` and ``view`` keyword arguments for a full card answer (its symbols shown as :func:`reply` decides
    for the place it goes to)."""
    card = answer.card
    view = card_buttons(card)
    embed = to_embed(render_card(card, shown=answer.shown, note=answer.note))
    return {"embed": embed, "view": view if view is not None else discord.utils.MISSING}


class CandidatePicker(GuardedView):
    """A select menu of the cards an ambiguous name could mean; only the requester may pick."""

    def __init__(self, owner_id: int, candidates: Sequence[str], set_code: str | None) -> None:
        super().__init__(owner_id, timeout=300)
        self.set_code = set_code
        names = dict.fromkeys(one_line(name, limits.SELECT_OPTION_VALUE) for name in candidates)
        self.choice.options = [discord.SelectOption(label=name, value=name) for name in names][: limits.SELECT_OPTIONS]

    @discord.ui.select(placeholder="Which card did you mean?")
    async def choice(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        await interaction.response.defer()
        name = select.values[0]
        try:
            answer = await interaction.client.card_source.exact(name, set_code=self.set_code)
        except ScryfallError as error:
            await reply(interaction, failure_text(error), ephemeral=True)
            return
        self.stop()
        # The question was the asker's; the card they picked helps the table, so it is posted for everyone.
        await interaction.edit_original_response(
            content=f"Picked **{echo(answer.card.get('name') or name)}**.", view=None
        )
        await reply(interaction, **card_message(answer))


class SearchSource:
    """/cycling results as pages: a local list drawn a page at a time, or Scryfall's pages fetched
    only when the reader gets there."""

    def __init__(
        self,
        source: CardSource,
        heading: str,
        first: CardList,
        *,
        title: str = "Cycling cards",
        line: Callable[[dict], str] = functools.partial(cycling_result_line, markdown=True),
        symbols: SymbolText = PLAIN,
    ) -> None:
        self.symbols = symbols
        self.source = source
        self.title = title
        self.line = line
        self.heading = heading
        self.cards = list(first.cards)
        self.total = first.total
        self.next_url = first.next_page
        self.warnings = list(first.warnings)
        self.origin = first.origin

    @property
    def page_count(self) -> int:
        return page_count(self.total if self.next_url else len(self.cards))

    async def page(self, index: int) -> discord.Embed:
        while self.next_url is not None and len(self.cards) < (index + 1) * RESULTS_PER_PAGE:
            more = await self.source.next_page(self.next_url)
            self.cards.extend(more.cards)
            self.next_url = more.next_page
        index = min(index, self.page_count - 1)
        start = index * RESULTS_PER_PAGE
        lines = [self.line(as_card(card)) for card in self.cards[start : start + RESULTS_PER_PAGE]]
        return with_symbols(self._page(index, lines), self.symbols)

    def _page(self, index: int, lines: list[str]) -> discord.Embed:
        return results_embed(
            f"{self.title}: {self.heading}",
            lines,
            self.total,
            index,
            self.page_count,
            self.warnings,
            self.origin,
        )
