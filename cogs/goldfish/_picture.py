"""The table's picture on Discord: drawn in the background after each change, then attached to the table.

The text table answers first, as always; the picture follows by an edit once its card images are ready
(:class:`bot.hosts.images.CardImages`, the bot's). A newer change of the same game replaces a drawing still
under way. When the image host does not give every image, the table stays text alone (no error shown) and
the next change tries again; a card the card data has no image for (or only one on another host) is drawn
as a frame. Until a local copy of the card data is loaded (a first import under way) tables are text only. A player or a
server that turned pictures off (``/goldfish view``) gets the text table only. Where the bot may not attach files
(Attach Files, and Send Messages, without which Discord takes Attach Files away too), no picture is drawn, and the
table's footer says what it needs. The picture is attached the way the table is edited (:mod:`cogs.goldfish._edits`).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import io
import logging
from collections import OrderedDict
from functools import partial

import discord

from bot.goldfish import DisplayStore, GameKey, StoredGame, is_loadable
from bot.goldfish.table import CardImageSource, TableView, render_table, table_view
from bot.storage import StorageUnavailable
from bot.text import clip, plural
from cogs._permissions import LABELS, MissingNotes, app_permissions, channel_permissions
from cogs.goldfish._edits import TableEdits

log = logging.getLogger(__name__)

FILE_NAME = "goldfish-table.webp"
PICTURED = 4096
# Drawings at once: each is CPU work in a thread; more would only queue behind the cores.
DRAWING_AT_ONCE = 2
ALT_TEXT = 1024
# What a picture needs of the channel: without Send Messages, Discord takes Attach Files away as well.
PICTURE_NEEDS = ("send_messages", "attach_files")


def no_picture(flags: list[str]) -> str:
    """The footer's line for a table without its picture: "… needs the Attach Files permission here"."""
    names = " and ".join(LABELS[flag] for flag in flags)
    return f"The picture of the table needs the {names} {'permission' if len(flags) == 1 else 'permissions'} here."


def alt_text(view: TableView) -> str:
    """What the picture shows, in words (the attachment's description, read by screen readers)."""
    lands = sum(p.count for p in view.lands)
    tapped = sum(p.tapped for p in view.lands)
    others = ", ".join(p.card.title + (f" ×{p.count}" if p.count > 1 else "") for p in view.permanents)
    hand = (
        ", ".join(
            card.title + (f" (cycling {' or '.join(c.text for c in card.cycling)})" if card.cycling else "")
            for card in view.hand
        )
        or "empty"
    )
    text = (
        f"Goldfish table, turn {view.turn}, {view.phase_label.lower()}. {'Players' if view.shared else 'You'} "
        f"{view.life}, opponent "
        f"{view.opponent_life}. {plural(lands, 'land')}, {tapped} tapped" + (f"; {others}" if others else "") + ". "
        f"Library {view.library_count}, graveyard {view.graveyard_count}. Hand: {hand}."
    )
    return clip(text, ALT_TEXT)


class TablePictures:
    """Draws and attaches tables' pictures for one cog; ``close()`` stops the drawings under way."""

    def __init__(self, bot: discord.Client, display: DisplayStore, edits: TableEdits) -> None:
        self.bot = bot
        self.display = display
        self.edits = edits
        self.tasks: dict[GameKey, asyncio.Task[None]] = {}
        self.source = CardImageSource(getattr(bot, "card_data", None), self.images)
        # game → (the message showing a picture, the game version it shows)
        self._pictured: OrderedDict[GameKey, tuple[int, int]] = OrderedDict()
        self._drawing = asyncio.Semaphore(DRAWING_AT_ONCE)
        self.notes = MissingNotes()

    @property
    def images(self):
        return getattr(self.bot, "card_images", None)

    def follow(self, record: StoredGame, message_id: int) -> None:
        """Draw ``record``'s table and attach it to ``message_id`` in the background (tracked, errors logged)."""
        if not self.source.ready or not is_loadable(record):
            return  # no card data yet (a first import under way): the text table alone
        channel = self.bot.get_channel(record.channel_id)
        if channel is not None and not channel_permissions(channel, self.bot).attach_files:
            return  # the footer says so (``footnote``)
        key = record.key
        if self._pictured.get(key) == (message_id, record.version) and key not in self.tasks:
            return  # the same game on the same message (a choice being made): the picture is already there
        previous = self.tasks.pop(key, None)
        if previous is not None:
            previous.cancel()
        task = asyncio.create_task(self._draw(record, message_id), name=f"goldfish-picture-{key.channel_id}")
        self.tasks[key] = task
        task.add_done_callback(functools.partial(self._finished, key))

    def _finished(self, key: GameKey, task: asyncio.Task[None]) -> None:
        if self.tasks.get(key) is task:
            del self.tasks[key]
        if not task.cancelled() and task.exception() is not None:
            log.error("Drawing a goldfish table in channel %s failed", key.channel_id, exc_info=task.exception())

    async def footnote(self, interaction: discord.Interaction, record: StoredGame) -> str | None:
        """Where the bot may not attach files and the table would have a picture, the line its footer adds: what the
        picture needs (the admin's log hears it once for the channel)."""
        permissions = app_permissions(interaction)
        lacking = [flag for flag in PICTURE_NEEDS if not getattr(permissions, flag)]
        if not lacking or not self.source.ready or not is_loadable(record):
            return None
        try:
            if not await self.display.pictures_on(record.guild_id, record.owner_id):
                return None
        except StorageUnavailable:
            return None
        for flag in lacking:
            self.notes.note(interaction.channel, flag, "goldfish tables shown without their picture")
        return no_picture(lacking)

    async def settled(self) -> None:
        """Wait for the drawings under way."""
        while self.tasks:
            await asyncio.gather(*self.tasks.values(), return_exceptions=True)

    async def close(self) -> None:
        tasks = list(self.tasks.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    # ------------------------------------------------------------------ drawing

    async def _draw(self, record: StoredGame, message_id: int) -> None:
        key, channel_id = record.key, record.channel_id
        try:
            wanted = await self.display.pictures_on(record.guild_id, record.owner_id)
        except StorageUnavailable:
            log.info("No goldfish picture for channel %s: the database did not answer", channel_id)
            return
        if not wanted:
            await self.remove(key, message_id)
            return
        view = table_view(record.game, shared=record.shared)
        images = await self.source.images(view.keys())
        if images is None:
            # The image host did not answer, or answered nonsense: the text table alone, tried again next time.
            await self.remove(key, message_id)
            return
        async with self._drawing:
            symbols = getattr(self.bot, "symbol_pngs", None) or {}
            data = await asyncio.to_thread(partial(render_table, view, images, symbols=symbols))
        picture = discord.File(io.BytesIO(data), filename=FILE_NAME, description=alt_text(view))
        try:
            await self.edits.edit(channel_id, message_id, attachments=[picture])
        except discord.NotFound:
            return  # the table was deleted meanwhile
        except discord.HTTPException as error:
            # Without Attach Files in this channel (403), or Discord in trouble: the text table stays.
            log.info("Could not attach the goldfish picture in channel %s: HTTP %s", channel_id, error.status)
            return
        self._pictured[key] = (message_id, record.version)
        self._pictured.move_to_end(key)
        while len(self._pictured) > PICTURED:
            self._pictured.popitem(last=False)

    async def clear(self, key: GameKey, message_id: int) -> None:
        """Take any picture off ``message_id`` (the game's table), whether or not this process attached it."""
        task = self.tasks.pop(key, None)
        if task is not None:
            task.cancel()
        self._pictured.pop(key, None)
        with contextlib.suppress(discord.HTTPException):
            await self.edits.edit(key.channel_id, message_id, attachments=[])

    async def remove(self, key: GameKey, message_id: int | None = None) -> None:
        """Take the picture off the game's table (``message_id``: only if it is that message)."""
        shown = self._pictured.get(key, (None, 0))[0]
        if shown is None or (message_id is not None and shown != message_id):
            return
        del self._pictured[key]
        with contextlib.suppress(discord.HTTPException):
            await self.edits.edit(key.channel_id, shown, attachments=[])
