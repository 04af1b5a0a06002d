"""The bot's frame on Discord, beside ``bot/client.py``. May import `bot.hosts`, `bot.text`, `cogs._ui`.

Where the commands may be used and their sync only when they changed (command_sync), the application's own emoji for
the mana symbols (app_emoji), every interaction's life besides its handler: expired, in flight, drained on shutdown
(interactions), and whether the bot is alive: the heartbeat file and the database checkpoint (health). With the
client and the command line, the only part of ``bot/`` that imports discord.
"""

from bot.frame.app_emoji import mana_emoji
from bot.frame.command_sync import EVERY_CONTEXT, EVERY_INSTALL, EVERYWHERE, command_payload, sync_if_changed
from bot.frame.health import HEARTBEAT_SECONDS, Health
from bot.frame.interactions import EXPIRED, RESTARTING, InFlight

__all__ = [
    "EVERY_CONTEXT",
    "EVERY_INSTALL",
    "EVERYWHERE",
    "EXPIRED",
    "HEARTBEAT_SECONDS",
    "RESTARTING",
    "Health",
    "InFlight",
    "command_payload",
    "mana_emoji",
    "sync_if_changed",
]
