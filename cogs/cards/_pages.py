"""Previous/Next over a page source, with buttons that answer even after a restart.

A page source says how many pages there are and draws one (possibly fetching it). A pager (in the bot's ``Pagers``)
remembers a source, its owner and the page shown, under a random key that the buttons carry in
their custom ids. The buttons are dynamic items, so every click is answered: the live pager turns
the page (whatever version of the message the click came from), and a click on a pager this
process no longer holds (expired, or from before a restart) hears that it has expired.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from typing import Protocol

import discord

from bot.errors import UserFacingError
from cogs._pagers import Pager, Pagers
from cogs._ui import guarded, reply

log = logging.getLogger(__name__)

COG_NAME = "Cards"
NOT_YOURS = "These buttons belong to whoever asked; run the command yourself."
EXPIRED = "These pages have expired; run the command again."


class PageSource(Protocol):
    """Pages to show one at a time."""

    @property
    def page_count(self) -> int: ...

    async def page(self, index: int) -> discord.Embed:
        """Page ``index`` (0-based); may fetch it. A UserFacingError keeps the current page."""


class ListSource:
    """Pages already drawn; each footer gains ``page n/N``."""

    def __init__(self, pages: Sequence[discord.Embed]) -> None:
        if not pages:
            raise ValueError("a page source needs at least one page")
        self.pages = list(pages)
        if len(self.pages) > 1:
            for number, page in enumerate(self.pages, start=1):
                footer = page.footer.text or ""
                page.set_footer(text=f"{footer} · page {number}/{len(self.pages)}".lstrip(" ·"))

    @property
    def page_count(self) -> int:
        return len(self.pages)

    async def page(self, index: int) -> discord.Embed:
        return self.pages[index]


def pager_view(key: str, pager: Pager) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(PageButton(key, "prev", disabled=pager.index == 0))
    view.add_item(PageButton(key, "next", disabled=pager.index >= pager.source.page_count - 1))
    return view


async def send_pages(
    interaction: discord.Interaction, pagers: Pagers, source: PageSource, *, ephemeral: bool = False
) -> None:
    """Send the first page, with Previous/Next when there is more than one."""
    first = await source.page(0)
    if source.page_count <= 1:
        await reply(interaction, embed=first, ephemeral=ephemeral)
        return
    key = pagers.add(source, interaction.user.id)
    await reply(interaction, embed=first, view=pager_view(key, pagers.get(key)), ephemeral=ephemeral)


class PageButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"cards:page:(?P<key>[0-9a-f]{12}):(?P<step>prev|next)",
):
    """Previous or Next of the pager whose key is in the custom id."""

    def __init__(self, key: str, step: str, *, disabled: bool = False) -> None:
        label = "Previous" if step == "prev" else "Next"
        custom_id = f"cards:page:{key}:{step}"
        super().__init__(discord.ui.Button(label=label, custom_id=custom_id, disabled=disabled))
        self.key, self.step = key, step

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /):
        return cls(**match.groupdict())

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        pagers = getattr(interaction.client, "pagers", None)
        pager = pagers.get(self.key) if isinstance(pagers, Pagers) else None
        if pager is None:
            await reply(interaction, EXPIRED, ephemeral=True)
            return
        if pager.owner_id is not None and interaction.user.id != pager.owner_id:
            await reply(interaction, NOT_YOURS, ephemeral=True)
            return
        await interaction.response.defer()
        async with pager.lock:  # a double click turns two pages, one after the other
            target = max(0, min(pager.source.page_count - 1, pager.index + (1 if self.step == "next" else -1)))
            try:
                embed = await pager.source.page(target)
            except UserFacingError as error:
                await reply(interaction, str(error), ephemeral=True)  # the page stays; clicking again retries
                return
            pager.index = min(target, pager.source.page_count - 1)
            await interaction.edit_original_response(embed=embed, view=pager_view(self.key, pager))
