"""Where the commands may be used, and syncing them to Discord only when they changed.

Every command is declared for both kinds of installation (a server adds the bot; a user adds it to their own apps)
and for every context (servers, the bot's DM, group chats and other DMs): the defaults of the command tree, since
discord.py reads contexts on top-level commands only. A command that needs a server says so when used elsewhere.

Discord refuses commands declared for user installs while User Install is off on the Developer Portal's
Installation tab. Then the commands are synced again for servers alone, so they keep working, and one log line
says what to change; the next start tries the full declaration again.
"""

from __future__ import annotations

import hashlib
import json
import logging

import discord
from discord import app_commands

from bot.text import one_line

log = logging.getLogger(__name__)

EVERY_CONTEXT = app_commands.AppCommandContext(guild=True, dm_channel=True, private_channel=True)
EVERY_INSTALL = app_commands.AppInstallationType(guild=True, user=True)
# The command tree's defaults: every command for both installs and every context.
EVERYWHERE = {"allowed_contexts": EVERY_CONTEXT, "allowed_installs": EVERY_INSTALL}
# Without user installs: installed by servers only, used in servers and in the bot's DM (group chats and other
# DMs are reached only through a user's install).
SERVER_INSTALL = [app_commands.AppInstallationType.GUILD]
SERVER_CONTEXTS = [app_commands.AppCommandContext.GUILD, app_commands.AppCommandContext.DM_CHANNEL]
USER_INSTALL_OFF = (
    "Discord refused the commands for user installs, so they were synced for servers only: enable User Install "
    "on the Developer Portal's Installation tab (Installation Contexts) to let players add the bot to their own "
    "apps (%s)"
)


def command_payload(tree: app_commands.CommandTree, guild: discord.abc.Snowflake | None) -> list[dict]:
    return [command.to_dict(tree) for command in tree.get_commands(guild=guild)]


def for_servers_only(payload: list[dict]) -> list[dict]:
    """``payload`` declared for server installs alone (what an application without User Install accepts)."""
    return [command | {"integration_types": SERVER_INSTALL, "contexts": SERVER_CONTEXTS} for command in payload]


def refuses_user_installs(error: discord.HTTPException) -> bool:
    """Whether Discord refused a sync for the commands' installation kinds or contexts (400, Invalid Form Body,
    naming those fields), rather than for anything else about them."""
    return error.status == 400 and ("integration_types" in error.text or "contexts" in error.text)


async def sync_if_changed(bot, *, force: bool = False) -> bool:
    """Sync ``bot``'s command tree only if its schema changed since the last sync to that scope (the hash is kept
    in the database); True if it synced."""
    guild = discord.Object(bot.config.guild_id) if bot.config.guild_id else None
    if guild is not None:
        bot.tree.copy_global_to(guild=guild)
    payload = command_payload(bot.tree, guild)
    digest = hashlib.sha256(json.dumps(payload, sort_keys=True, default=str).encode()).hexdigest()
    scope = f"guild:{guild.id}" if guild else "global"
    key = f"command_sync:{bot.application_id}:{scope}"
    if not force and await bot.db.get_meta(key) == digest:
        log.info("Application commands unchanged since the last sync (%s); not syncing", scope)
        return False
    try:
        synced = await bot.tree.sync(guild=guild)
    except discord.HTTPException as error:
        # Contexts and installation kinds belong to global commands only: a server's commands are never refused
        # for them.
        if guild is not None or not refuses_user_installs(error):
            raise
        await bot.http.bulk_upsert_global_commands(bot.application_id, payload=for_servers_only(payload))
        log.warning(USER_INSTALL_OFF, one_line(error.text, 300))
        # Not remembered as synced: the next start tries the full declaration again, in case it was enabled.
        await bot.db.set_meta(key, "")
        return True
    await bot.db.set_meta(key, digest)
    log.info("Synced %d application commands (%s)", len(synced), scope)
    return True
