"""Turning the pages of an /mtr or /ipg answer, showing a private one in the channel, opening a listed section.

The state is in the custom id (the document, the page, who asked, what was asked), so the buttons keep working
after a restart. As under /rule, the asker turns a public answer's pages and anyone else gets a private copy at
the page they asked for. The documents are reached through the bot (``interaction.client.judge_docs``).
"""

from __future__ import annotations

import asyncio
import re

import discord

from bot import limits
from bot.errors import UserFacingError
from bot.judge import JudgeDocs
from bot.rules import Answer, clip
from cogs._ui import defer_public, guarded, reply, reply_private
from cogs.rules import render_pages

# "jd:ipg:next:3:123456789012345678:" leaves the rest of the 100 characters for what was asked.
PAGE_ID = r"jd:(?P<doc>mtr|ipg):(?P<action>prev|next|show):(?P<page>\d{1,3}):(?P<owner>\d{1,20}):(?P<key>.*)"
OPEN_ID = r"jd:(?P<doc>mtr|ipg):open"
LABELS = {"prev": "Previous", "next": "Next", "show": "Show in channel"}


def documents_of(interaction: discord.Interaction) -> JudgeDocs:
    docs = getattr(interaction.client, "judge_docs", None)
    if docs is None:
        raise UserFacingError("The judges' documents are not loaded right now; try again in a minute.")
    return docs


def key_of(doc: str, query: str) -> str:
    """What to look up again for a button: the query if it fits in a custom id, else nothing (no paging)."""
    query = " ".join(query.split())
    room = limits.CUSTOM_ID - len(f"jd:{doc}:next:999:18446744073709551615:")
    return query if len(query) <= room else ""


async def send(interaction: discord.Interaction, doc: str, query: str, page: int, *, ephemeral: bool) -> None:
    """A page of the answer to ``query`` as a new message: private when nothing answers."""
    docs = documents_of(interaction)
    if docs.waits(query) and not interaction.response.is_done():
        await (interaction.response.defer(ephemeral=True, thinking=True) if ephemeral else defer_public(interaction))
    answer = await answer_of(docs, doc, query)
    pages = render_pages(answer)
    page = max(0, min(page, len(pages) - 1))
    private = ephemeral or not answer.found
    view = answer_view(doc, answer, key_of(doc, query), page, len(pages), owner=interaction.user.id, private=private)
    if private:
        await reply_private(interaction, embed=pages[page], view=view or discord.utils.MISSING)
    else:
        await reply(interaction, embed=pages[page], view=view or discord.utils.MISSING)


async def answer_of(docs: JudgeDocs, doc: str, query: str) -> Answer:
    """The answer, from memory at once; a history, which reads the versions kept, in a thread."""
    if docs.waits(query):
        return await asyncio.to_thread(docs.answer, doc, query)
    return docs.answer(doc, query)


async def turn(interaction: discord.Interaction, doc: str, key: str, page: int, owner: int) -> None:
    """Turn the message under a button to ``page``."""
    docs = documents_of(interaction)
    if docs.waits(key):
        await interaction.response.defer()
    answer = await answer_of(docs, doc, key)
    pages = render_pages(answer)
    page = max(0, min(page, len(pages) - 1))
    private = interaction.message is not None and interaction.message.flags.ephemeral
    view = answer_view(doc, answer, key, page, len(pages), owner=owner, private=private)
    if interaction.response.is_done():
        await interaction.edit_original_response(embed=pages[page], view=view)
    else:
        await interaction.response.edit_message(embed=pages[page], view=view)


class PageButton(discord.ui.DynamicItem[discord.ui.Button], template=PAGE_ID):
    def __init__(self, doc: str, action: str, page: int, owner: int, key: str, *, disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                label=LABELS[action],
                style=discord.ButtonStyle.primary if action == "show" else discord.ButtonStyle.secondary,
                disabled=disabled,
                custom_id=f"jd:{doc}:{action}:{page}:{owner}:{key}"[: limits.CUSTOM_ID],
            )
        )
        self.doc, self.action, self.page, self.owner, self.key = doc, action, page, owner, key

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /):
        return cls(match["doc"], match["action"], int(match["page"]), int(match["owner"]), match["key"])

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        if self.action == "show":  # shown to everyone; its buttons now belong to whoever showed it
            await send(interaction, self.doc, self.key, self.page, ephemeral=False)
            return
        target = self.page + (1 if self.action == "next" else -1)
        message = interaction.message
        if message is None or message.flags.ephemeral or interaction.user.id == self.owner:
            await turn(interaction, self.doc, self.key, target, self.owner)
        else:
            await send(interaction, self.doc, self.key, target, ephemeral=True)


class OpenSelect(discord.ui.DynamicItem[discord.ui.Select], template=OPEN_ID):
    """Opens a section the answer lists, privately, for whoever picks it."""

    def __init__(self, doc: str, answer: Answer | None = None) -> None:
        select = discord.ui.Select(placeholder="Open a section…", custom_id=f"jd:{doc}:open")
        for choice in ([*answer.related, *answer.parts] if answer else [])[: limits.SELECT_OPTIONS]:
            select.add_option(label=clip(choice.name, 100), value=choice.value[:100])
        if not select.options:  # rebuilt from its custom id: the options come with the interaction
            select.add_option(label="-")
        super().__init__(select)
        self.doc = doc

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match[str], /):
        return cls(match["doc"])

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        values = (interaction.data or {}).get("values") or []
        if not values or not isinstance(values[0], str):
            raise UserFacingError("Pick one of the sections in the menu.")
        await send(interaction, self.doc, values[0][:100], 0, ephemeral=True)


def answer_view(
    doc: str, answer: Answer, key: str, page: int, total: int, *, owner: int, private: bool
) -> discord.ui.View | None:
    view = discord.ui.View(timeout=None)
    if total > 1 and key:
        view.add_item(PageButton(doc, "prev", page, owner, key, disabled=page <= 0))
        view.add_item(PageButton(doc, "next", page, owner, key, disabled=page >= total - 1))
    if private and answer.found and key:
        view.add_item(PageButton(doc, "show", page, owner, key))
    if answer.related or answer.parts:
        view.add_item(OpenSelect(doc, answer))
    return view if view.children else None
