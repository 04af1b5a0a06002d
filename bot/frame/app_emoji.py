"""The Discord side of the mana symbols: the application's own emoji, uploaded once and reused after restarts.

``await mana_emoji(bot, images)`` lists the application's emoji first and creates only what is missing, by
name, so a restart uploads nothing and two shards starting together do not race: a name taken meanwhile (Discord
answers 400 with ``APPLICATION_EMOJI_NAME_ALREADY_TAKEN``) is listed again and that emoji used. It returns the
:class:`~bot.hosts.symbols.SymbolText` that shows each symbol as its emoji. When Discord refuses, the text form stays
(``{2}{G}``), logged once. Like ``bot.client``, this module is the bot's frame, not its Discord-free core.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping

import discord

from bot.hosts import SymbolImage, SymbolText

log = logging.getLogger(__name__)

NAME_TAKEN = "APPLICATION_EMOJI_NAME_ALREADY_TAKEN"


def _name_taken(error: discord.HTTPException) -> bool:
    return error.status == 400 and (NAME_TAKEN in str(error) or "already" in str(error).lower())


async def _listed(client: discord.Client) -> dict[str, discord.Emoji]:
    return {emoji.name: emoji for emoji in await client.fetch_application_emojis()}


async def mana_emoji(client: discord.Client, images: Mapping[str, SymbolImage]) -> SymbolText:
    """The application's emoji for ``images`` (created where missing); raises discord.HTTPException when
    Discord refuses to list or create them."""
    existing = await _listed(client)
    created = 0
    for image in images.values():
        if image.name in existing:
            continue
        try:
            existing[image.name] = await client.create_application_emoji(name=image.name, image=image.png())
            created += 1
        except discord.HTTPException as error:
            if not _name_taken(error):
                raise
            # Another process of this bot created it between our list and our create: use theirs.
            existing = await _listed(client)
            if image.name not in existing:
                raise
    if created:
        log.info("Uploaded %d mana symbols as application emoji", created)
    return SymbolText({symbol: str(existing[image.name]) for symbol, image in images.items() if image.name in existing})
