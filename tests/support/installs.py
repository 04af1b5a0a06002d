"""Where the app is installed, as Discord tells the bot: simcord brought to Discord's behaviour for user installs.

simcord 3.2 knows one kind of installation (the bot is a member of every server it sees), sends every interaction
with ``authorizing_integration_owners`` empty, ``context`` 0 or 1 and ``app_permissions`` "0" in DMs, and has no
group chats. Discord (https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-object):

* ``context``: 0 in a server, 1 in the DM with the app's bot user, 2 in group chats and DMs between users.
* ``authorizing_integration_owners``: ``{"0": guild id}`` where the server added the app (``"0"`` in the bot's DM),
  ``{"1": user id}`` where the user added it to their apps; a server that never added it sends only the second.
* ``app_permissions``: in a server, what the app may do in the channel (where only a user installed it, what the
  server's @everyone may do there); ``ATTACH_FILES | EMBED_LINKS | MENTION_EVERYONE`` in group chats and DMs between
  users, and ``USE_EXTERNAL_EMOJIS`` as well in the DM with the bot.
* The bot receives no gateway events from where it is not (a server that never added it, a group chat), only the
  interactions; it cannot post or read there with its token (403, 50001 Missing Access), only answer through the
  interaction's own responses, follow-ups and webhook edits.
* A server may stop its members from using external apps (the Use External Apps permission): their replies are
  then shown to the user alone (Discord makes them ephemeral).
* A user install where the server did not add the app may send 5 follow-ups an interaction (40094 past them).
* Commands declared for user installs (``integration_types`` with 1) are refused while User Install is off on the
  Developer Portal's Installation tab (400, 50035 Invalid Form Body, naming the field).
* A command is offered only where its ``contexts`` and ``integration_types`` allow: in a group chat or a server
  that never added the app, only to a user who added it, and only if it is declared for user installs.

:func:`install` (called from the conftest) applies these; :class:`Places` holds the arrangement of one test.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass, field
from typing import Any

import discord
import simcord.actors
import simcord.backend.access
import simcord.backend.command_access
import simcord.backend.ops.base
import simcord.gateway
import simcord.interactions
from simcord.backend import errors, serializers
from simcord.backend.errors import BackendError
from simcord.builders import ChannelHandle
from simcord.enums import AppCommandType, InteractionType
from simcord.http.routes import commands, interactions
from simcord.results import InteractionResult, to_discord_message

GUILD, BOT_DM, PRIVATE_CHANNEL = 0, 1, 2
GUILD_INSTALL, USER_INSTALL = "0", "1"
GROUP_DM = 3  # Discord's channel type of a group chat (simcord's enum stops at the types it models)
EPHEMERAL = 1 << 6
FOLLOW_UPS = 5  # per interaction, for an app only a user installed there
_P = discord.Permissions
# The documented app_permissions outside servers.
PRIVATE_PERMISSIONS = _P(attach_files=True, embed_links=True, mention_everyone=True).value
BOT_DM_PERMISSIONS = PRIVATE_PERMISSIONS | _P(use_external_emojis=True).value


@dataclass
class Places:
    """One test's arrangement: who added the app to their apps, the servers that never added it, the group chats."""

    user_install_enabled: bool = True  # the Developer Portal's Installation tab
    users: set[int] = field(default_factory=set)  # users who added the app to their apps
    outside: dict[int, int | None] = field(default_factory=dict)  # server -> app_permissions there (None: @everyone's)
    private: dict[int, list[int]] = field(default_factory=dict)  # group chat (or DM between users) -> members
    external_apps_blocked: set[int] = field(default_factory=set)  # servers whose members may not use external apps
    interactions: dict[int, dict[str, str]] = field(default_factory=dict)  # interaction id -> its owners
    follow_ups: dict[int, int] = field(default_factory=dict)  # interaction id -> follow-ups sent

    def forced_private(self, record) -> bool:
        """Whether Discord shows this interaction's replies to its user alone (a server blocking external apps)."""
        owners = self.interactions.get(record.id, {})
        return record.guild_id in self.external_apps_blocked and GUILD_INSTALL not in owners


def places(env_or_backend) -> Places:
    backend = getattr(env_or_backend, "backend", env_or_backend)
    found = getattr(backend, "cyclebot_places", None)
    if found is None:
        found = backend.cyclebot_places = Places()
    return found


# ------------------------------------------------------------------ arranging


def add_to_my_apps(env, *users) -> None:
    """The users add the app to their own apps ("Add to My Apps")."""
    places(env).users.update(user.id for user in users)


async def server_without_the_bot(
    env, name: str = "Elsewhere", *, external_apps: bool = True, app_permissions: int | None = None, settle: bool = True
) -> ChannelHandle:
    """A channel of a server that never added the bot (its members may have added it to their own apps).

    ``external_apps``: whether the server lets its members use external apps (Discord's default; otherwise replies
    are shown to the user alone). ``app_permissions``: what Discord says the app may do there (default: what the
    server's @everyone may do in the channel). ``settle``: wait for the bot to go idle (a benchmark's bot, busy with
    other work, only needs a moment to hear the server is gone)."""
    guild = env.create_guild(name)
    channel = guild.create_text_channel("general")
    backend = env.backend
    everyone = backend.get_guild(guild.id).everyone_role
    everyone.permissions = _P(everyone.permissions) | _P(use_external_apps=external_apps)
    everyone.permissions = everyone.permissions.value
    backend.remove_member(guild.id, backend.bot_user.id)
    backend.emit("GUILD_DELETE", {"id": str(guild.id)})  # as if it had never seen it
    arranged = places(env)
    arranged.outside[guild.id] = app_permissions
    if not external_apps:
        arranged.external_apps_blocked.add(guild.id)
    if settle:
        await env.settle()
    else:
        await asyncio.sleep(0.05)
    return channel


def group_chat(env, *users, name: str | None = "Friends") -> ChannelHandle:
    """A group chat of ``users``; the bot is not in it."""
    backend = env.backend
    channel = backend.create_channel(None, name, type=GROUP_DM)
    channel.recipient_ids = [user.id for user in users]
    places(env).private[channel.id] = list(channel.recipient_ids)
    return ChannelHandle(env, None, channel)


def say(env, channel: ChannelHandle, author, content: str) -> discord.Message:
    """``author`` writes ``content`` in a group chat or a server without the bot (the bot is not told)."""
    return to_discord_message(env, env.backend.create_message(channel.id, author.id, content))


async def message_command(actor, channel: ChannelHandle, name: str, message) -> InteractionResult:
    """``actor`` runs the message command ``name`` ("Look up cards") on ``message``, wherever they are: the message
    comes in ``resolved.messages``, its text included (no Message Content intent needed), as Discord sends it."""
    env = actor._env
    if getattr(actor, "guild", None) is not None:
        return await actor.context_menu(channel, name, message)
    with _operation(env, "context_menu"):
        simcord.actors._check_actor_channel(actor, channel)
        stored = env.backend.get_message(channel.id, message.id)
        root = simcord.actors._resolve_visible_command(actor, channel.id, name, AppCommandType.MESSAGE)
        resolved = {"messages": {str(message.id): dict(serializers.message_payload(env.backend, stored))}}
        data = {"id": root["id"], "name": root["name"], "type": AppCommandType.MESSAGE}
        data |= {"target_id": str(message.id), "resolved": resolved}
        return await simcord.actors._dispatch_actor_interaction(
            actor, InteractionType.APPLICATION_COMMAND, channel, data
        )


async def slash(actor, channel: ChannelHandle, name: str, /, **options: Any) -> InteractionResult:
    """``actor.slash`` in any channel: a member's in a server, a user's in their DM or a group chat."""
    if getattr(actor, "guild", None) is not None:
        return await actor.slash(channel, name, **options)
    with _operation(actor._env, "slash"):
        return await simcord.actors._slash(actor, channel, name, options)


async def autocomplete(actor, channel: ChannelHandle, name: str, option: str, value: str, /, **filled: Any) -> list:
    """What the bot offers while ``actor`` types ``value`` into ``option`` of ``name``, wherever they are."""
    if getattr(actor, "guild", None) is not None:
        return await actor.autocomplete(channel, name, option, value, **filled)
    with _operation(actor._env, "autocomplete"):
        return await simcord.actors._autocomplete(actor, channel, name, option, value, filled)


async def click(actor, message, *, label: str | None = None, custom_id: str | None = None) -> InteractionResult:
    """A press on a button of ``message``, wherever it is."""
    if getattr(actor, "guild", None) is not None:
        return await actor.click(message, label=label, custom_id=custom_id)
    with _operation(actor._env, "click"):
        return await simcord.actors._component_click(actor, message, label=label, custom_id=custom_id)


async def select(actor, message, values, *, custom_id: str | None = None) -> InteractionResult:
    """A choice in a select menu of ``message``, wherever it is."""
    if getattr(actor, "guild", None) is not None:
        return await actor.select(message, values, custom_id=custom_id)
    with _operation(actor._env, "select"):
        return await simcord.actors._component_select(actor, message, values, custom_id=custom_id)


@contextlib.contextmanager
def _operation(env, name: str):
    """One simcord operation at a time, as its own actors take them."""
    env._begin_operation(name)
    try:
        yield
    finally:
        env._end_operation()


# ------------------------------------------------------------------ Discord's behaviour


def _context(backend, channel, guild_id: int | None, user_id: int) -> tuple[int, dict[str, str], int | None]:
    """The interaction's ``context``, ``authorizing_integration_owners`` and ``app_permissions`` (None: as
    simcord computed them, for a server that added the bot)."""
    arranged = places(backend)
    mine = {USER_INSTALL: str(user_id)} if user_id in arranged.users else {}
    if guild_id is not None:
        if guild_id in arranged.outside:
            return GUILD, mine, arranged.outside[guild_id] or _everyone_permissions(backend, guild_id, channel)
        return GUILD, {GUILD_INSTALL: str(guild_id)} | mine, None
    if channel.id == backend.dm_channels.get(user_id):
        return BOT_DM, {GUILD_INSTALL: "0"} | mine, BOT_DM_PERMISSIONS
    return PRIVATE_CHANNEL, mine, PRIVATE_PERMISSIONS


def _everyone_permissions(backend, guild_id: int, channel) -> int:
    guild = backend.get_guild(guild_id)
    allowed = guild.everyone_role.permissions
    overwrite = next((o for o in channel.overwrites if o.target_id == guild_id), None)
    return allowed if overwrite is None else (allowed & ~overwrite.deny) | overwrite.allow


def _base_payload(original):
    def base_payload(backend, *, type, channel_id, guild_id, user_id, data):
        record, payload = original(
            backend, type=type, channel_id=channel_id, guild_id=guild_id, user_id=user_id, data=data
        )
        channel = backend.get_channel(channel_id)
        context, owners, app_permissions = _context(backend, channel, guild_id, user_id)
        payload |= {"context": context, "authorizing_integration_owners": owners}
        if app_permissions is not None:
            payload["app_permissions"] = str(app_permissions)
        if guild_id is not None and guild_id in places(backend).outside:
            # The partial guild Discord sends where the bot is not a member.
            payload["guild"] = {"id": str(guild_id), "locale": "en-US", "features": []}
        if channel.id in places(backend).private:
            recipients = [serializers.user_payload(backend.users[uid]) for uid in channel.recipient_ids]
            payload["channel"] = {"id": str(channel.id), "type": GROUP_DM, "name": channel.name}
            payload["channel"] |= {"recipients": recipients, "owner_id": str(channel.recipient_ids[0])}
        places(backend).interactions[record.id] = owners
        return record, payload

    return base_payload


def _command_access(original):
    def command_access(backend, command, *, user_id, channel_id):
        """Where a command is offered: its contexts and installation kinds, and who installed the app."""
        arranged = places(backend)
        channel = backend.get_channel(channel_id)
        installs = command.get("integration_types") or [0]
        contexts = command.get("contexts")
        if channel.guild_id in arranged.outside or channel_id in arranged.private:
            context = GUILD if channel.guild_id is not None else PRIVATE_CHANNEL
            allowed = user_id in arranged.users and 1 in installs and (contexts is None or context in contexts)
            return simcord.backend.command_access.Access(allowed, None if allowed else "context")
        return original(backend, command, user_id=user_id, channel_id=channel_id)

    return command_access


def _channel_accessible(original):
    def channel_accessible(backend, channel_id, viewer_id, *, history=False):
        members = places(backend).private.get(channel_id)
        if members is not None:  # a group chat: its members, never the bot
            return viewer_id in members
        return original(backend, channel_id, viewer_id, history=history)

    return channel_accessible


def _check_user_dm_channel(original):
    def check(actor, channel_id):
        if actor.id in places(actor._env.backend).private.get(channel_id, ()):
            return
        original(actor, channel_id)

    return check


def _feed(original):
    def feed(self, event, payload):
        """Nothing but interactions reaches the bot from where it is not."""
        arranged = places(self._backend)
        guild_id = payload.get("guild_id") if isinstance(payload, dict) else None
        channel_id = payload.get("channel_id") if isinstance(payload, dict) else None
        if event != "INTERACTION_CREATE" and (
            (guild_id is not None and int(guild_id) in arranged.outside)
            or (channel_id is not None and int(channel_id) in arranged.private)
        ):
            self._backend.transcript.append(("DROPPED", event, "the bot is not there"))
            return
        original(self, event, payload)

    return feed


def _commands_refused_without_user_install(original):
    def bulk_upsert_global_commands(ctx):
        if not places(ctx.backend).user_install_enabled:
            for index, command in enumerate(ctx.json or []):
                if 1 in (command.get("integration_types") or []):
                    problem = {"code": "APPLICATION_COMMAND_INTEGRATION_TYPE_NOT_SUPPORTED"}
                    problem["message"] = "User install is not enabled for this application."
                    body = {str(index): {"integration_types": {"_errors": [problem]}}}
                    raise errors.invalid_form_body(errors=body)
        return original(ctx)

    return bulk_upsert_global_commands


def _forced_private(original, *, callback: bool):
    def handler(ctx):
        backend = ctx.backend
        if callback:
            record = backend.interactions.get(ctx.int_arg("interaction_id"))
        else:
            try:
                record = backend.interaction_by_token(ctx.args["token"])
            except Exception:  # a channel webhook's token: not an interaction
                record = None
        arranged = places(backend)
        if not callback and record is not None and not record.loading:  # a new message, not the deferred answer
            if GUILD_INSTALL not in arranged.interactions.get(record.id, {GUILD_INSTALL: ""}):
                arranged.follow_ups[record.id] = sent = arranged.follow_ups.get(record.id, 0) + 1
                if sent > FOLLOW_UPS:
                    raise BackendError(400, 40094, "This interaction has hit the maximum number of follow up messages")
        if record is not None and arranged.forced_private(record) and isinstance(ctx.json, dict):
            body = dict(ctx.json)
            if callback and body.get("type") in (4, 5):
                data = dict(body.get("data") or {})
                data["flags"] = int(data.get("flags") or 0) | EPHEMERAL
                body["data"] = data
            elif not callback:
                body["flags"] = int(body.get("flags") or 0) | EPHEMERAL
            ctx.json = body
        return original(ctx)

    return handler


def install() -> None:
    from tests.support.simcord_discord import _replace

    simcord.interactions.base_payload = _base_payload(simcord.interactions.base_payload)
    simcord.actors.command_access = _command_access(simcord.actors.command_access)
    for module in (simcord.backend.access, simcord.backend.ops.base):
        module.channel_accessible = _channel_accessible(module.channel_accessible)
    simcord.actors._check_user_dm_channel = _check_user_dm_channel(simcord.actors._check_user_dm_channel)
    simcord.gateway.FakeGateway.feed = _feed(simcord.gateway.FakeGateway.feed)
    upsert = commands.bulk_upsert_global_commands
    _replace("PUT", upsert, _commands_refused_without_user_install(upsert))
    _replace(
        "POST", interactions.interaction_callback, _forced_private(interactions.interaction_callback, callback=True)
    )
    _replace("POST", interactions.execute_webhook, _forced_private(interactions.execute_webhook, callback=False))
