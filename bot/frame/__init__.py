"""The bot's frame on Discord, beside ``bot/client.py``. May import `bot.hosts`, `bot.text`.

Where the commands may be used and their sync only when they changed (command_sync), and the application's
own emoji for the mana symbols (app_emoji). With the client and the command line, the only part of ``bot/``
that imports discord.
"""

from bot.frame.app_emoji import mana_emoji
from bot.frame.command_sync import EVERY_CONTEXT, EVERY_INSTALL, command_payload, sync_if_changed

__all__ = ["EVERY_CONTEXT", "EVERY_INSTALL", "command_payload", "mana_emoji", "sync_if_changed"]
