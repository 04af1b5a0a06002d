"""A small fake of Discord on 127.0.0.1: the REST routes and the gateway the bot uses, nothing more.

It answers like Discord does (status codes, JSON shapes, opcodes, sequence numbers, close codes), records
every REST request and gateway frame, and lets a test push INTERACTION_CREATE events and wait for the bot's
answers. Anything it does not know is answered 404 and kept in ``unexpected``.

It serves shards like Discord: a connection identifies as ``shard: [id, count]`` (none means ``[0, 1]``), gets a
READY naming its shard and the GUILD_CREATE of the guilds it owns, ``(guild_id >> 22) % count == id``, and each
guild's events, interactions included, arrive on the connection that owns it.
"""

from __future__ import annotations

import asyncio
import base64
import itertools
import json
import re
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from aiohttp import WSMsgType, web

from tests.support.waits import CEILING

API = "/api/v10"
DISCORD_EPOCH_MS = 1_420_070_400_000
EPHEMERAL, LOADING = 1 << 6, 1 << 7
GUILD_MEMBERS, GUILD_PRESENCES, MESSAGE_CONTENT = 1 << 1, 1 << 8, 1 << 15
PRIVILEGED = GUILD_MEMBERS | GUILD_PRESENCES | MESSAGE_CONTENT
APP_FLAG_MESSAGE_CONTENT, APP_FLAG_MESSAGE_CONTENT_LIMITED = 1 << 18, 1 << 19
PERMISSIONS = "2248473465835073"  # what the bot and the members may do in the one channel
SEND_MESSAGES, EMBED_LINKS, ATTACH_FILES = 1 << 11, 1 << 14, 1 << 15
TOKEN_SECONDS = 15 * 60  # how long an interaction's token answers (Discord: 15 minutes)
COMMAND_NAME = re.compile(r"^[-_\w]{1,32}$")
# Which callback types Discord accepts for each interaction type (2 command, 3 component, 4 autocomplete, 5 modal).
CALLBACK_TYPES = {2: {4, 5, 9}, 3: {4, 5, 6, 7, 9}, 4: {8}, 5: {4, 5, 6, 7}}
# Discord's upload limit for a server without boosts (what interactions carry as attachment_size_limit), and the
# most files one message may carry.
ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024
ATTACHMENTS_PER_MESSAGE = 10


def _now() -> str:
    return datetime.now(UTC).isoformat()


def _json(data: Any, status: int = 200) -> web.Response:
    # Discord's Content-Type is exactly "application/json"; discord.py only decodes that.
    return web.Response(status=status, body=json.dumps(data).encode(), headers={"Content-Type": "application/json"})


def _error(status: int, message: str, code: int = 0) -> web.Response:
    return _json({"message": message, "code": code}, status)


async def _body(request: web.Request) -> Any:
    """The request's JSON body (aiohttp caches the bytes, so every handler may read it again)."""
    return await request.json() if request.body_exists and request.content_type == "application/json" else None


def _command_problem(item: Any, option: bool = False) -> str | None:
    """Why Discord would reject this command or option (400 Invalid Form Body), or None."""
    name = item.get("name") if isinstance(item, dict) else None
    if not option and isinstance(item, dict) and item.get("type") in (2, 3):
        # A user or message command ("Look up cards"): 1-32 characters, capitals and spaces allowed, nothing else.
        if not isinstance(name, str) or not 1 <= len(name) <= 32:
            return f"invalid name {name!r}"
        return f"{name}: context menu commands take no description or options" if item.get("options") else None
    if not isinstance(name, str) or not COMMAND_NAME.match(name):
        return f"invalid name {name!r}"
    if (option or item.get("type", 1) == 1) and (
        name != name.lower() or not 1 <= len(item.get("description") or "") <= 100
    ):
        return f"{name}: slash commands and options need a lower-case name and a 1-100 character description"
    options = item.get("options") or []
    if len(options) > 25:
        return f"{name}: more than 25 options"
    return next(filter(None, (_command_problem(o, option=True) for o in options)), None)


@dataclass
class Session:
    """One gateway connection that identified as a shard."""

    ws: web.WebSocketResponse
    send: Callable
    session_id: str
    shard: tuple[int, int]  # (id, count)
    seq: int = 0
    ready: bool = False
    history: list[dict] = field(default_factory=list)  # dispatches of the session, replayed on RESUME

    def owns(self, guild_id: str) -> bool:
        shard_id, count = self.shard
        return (int(guild_id) >> 22) % count == shard_id


@dataclass
class Recorded:
    method: str
    path: str  # without the /api/v10 prefix
    query: dict[str, str]
    json: Any
    authorization: str | None
    status: int = 0  # what the fake answered; 0 until then


RECORD = web.RequestKey("record", Recorded)


def _accepted(record: Recorded) -> Any:
    assert 200 <= record.status < 300, f"the fake refused {record.method} {record.path} ({record.status})"
    return record.json


class FakeDiscord:
    def __init__(self, token: str, *, message_content_enabled: bool = False, shard_count: int = 1) -> None:
        self.token = token
        self.message_content_enabled = message_content_enabled
        self.user_install_enabled = True  # the Developer Portal's Installation tab lets users add the app
        self.shard_count = shard_count  # what GET /gateway/bot recommends
        self._ids = itertools.count()
        self.app_id = self.bot_id = self.snowflake()
        self.guilds: dict[str, dict] = {}  # guild id -> {"name", "channel_id"}
        self.guild_id = self.add_guild("Magic night")
        self.channel_id = self.guilds[self.guild_id]["channel_id"]
        self.bot_user = {"id": self.bot_id, "username": "Cyclebot", "discriminator": "0", "global_name": None}
        self.bot_user |= {"avatar": None, "bot": True, "verified": True, "mfa_enabled": True, "flags": 0}
        self.users = {name: self._user(name) for name in ("alice", "bob")}
        self.requests: list[Recorded] = []
        self.unexpected: list[Recorded] = []
        self.gateway_received: list[dict] = []
        self.heartbeat_interval = 41250  # milliseconds, as HELLO tells the bot (Discord's: 41.25 s)
        self.heartbeats: list[float] = []  # when each heartbeat arrived (time.monotonic()); each is acknowledged
        self.gateway_close_codes: list[int | None] = []  # how each gateway connection ended
        self.commands: dict[str, list[dict]] = {}  # "global" or a guild id -> commands as Discord stores them
        self.interactions: dict[str, dict] = {}
        self.acknowledged: set[str] = set()
        self.messages: dict[str, dict] = {}
        self.attachment_data: dict[str, bytes] = {}  # attachment id -> the uploaded bytes
        self.application_emojis: dict[str, dict] = {}  # emoji id -> the emoji, as Discord lists it
        self.emoji_images: dict[str, bytes] = {}  # emoji id -> the uploaded image
        self.original: dict[str, str] = {}  # interaction token -> id of its original response
        self.sessions: dict[int, Session] = {}  # shard id -> its current session
        self.identified_shards: list[tuple[int, int]] = []  # the [id, count] of every IDENTIFY, in order
        # Discord's session start limit: one IDENTIFY per bucket (shard id % max_concurrency) every
        # ``identify_interval`` seconds for the whole bot; one too soon is answered with INVALID_SESSION.
        # None: not enforced (tests of one process reconnecting quickly).
        self.max_concurrency = 1
        self.identify_interval: float | None = None
        self.identify_times: list[tuple[float, int]] = []  # (time.monotonic(), shard id) of every IDENTIFY
        self.refused_identifies: list[int] = []  # shard ids whose IDENTIFY came too soon
        self._owner_token: dict[str, str] = {}  # message id -> token of the interaction that made it
        self._send_lock = asyncio.Lock()
        self._changed = asyncio.Condition()
        self._sockets: set[web.WebSocketResponse] = set()
        self._closed_by_fake: dict[web.WebSocketResponse, int] = {}
        self._runner: web.AppRunner | None = None
        self.port = 0
        self.wait_timeout = CEILING  # how long a test waits for the bot (see tests/support/waits.py)
        # What the bot is denied in every channel, as a member overwrite (EMBED_LINKS: a channel where it can't embed).
        self.bot_denied = 0
        self.token_seconds: float = TOKEN_SECONDS
        self._sent_at: dict[str, float] = {}  # interaction token -> time.monotonic() it was sent to the bot

    # -- lifecycle ---------------------------------------------------------------------------------------

    async def start(self) -> FakeDiscord:
        app = web.Application(middlewares=[self._middleware])
        r = app.router
        r.add_get(f"{API}/users/@me", self._answer(lambda: self.bot_user))
        r.add_get(f"{API}/oauth2/applications/@me", self._answer(self._application))
        r.add_get(f"{API}/gateway", self._answer(lambda: {"url": self.gateway_url}))
        r.add_get(f"{API}/gateway/bot", self._answer(lambda: self._session_start_limit() | self._recommended()))
        for path in ("/applications/{app_id}/commands", "/applications/{app_id}/guilds/{guild_id}/commands"):
            r.add_put(API + path, self._put_commands)
        r.add_get(API + "/applications/{app_id}/emojis", self._list_emojis)
        r.add_post(API + "/applications/{app_id}/emojis", self._create_emoji)
        r.add_post(API + "/interactions/{interaction_id}/{token}/callback", self._callback)
        r.add_post(API + "/webhooks/{app_id}/{token}", self._followup)
        for method in ("GET", "PATCH"):
            r.add_route(method, API + "/webhooks/{app_id}/{token}/messages/{message_id}", self._webhook_message)
        r.add_patch(API + "/channels/{channel_id}/messages/{message_id}", self._edit_channel_message)
        r.add_get("/gateway", self._gateway)
        r.add_get("/attachments/{attachment_id}/{filename}", self._attachment)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        await web.TCPSite(self._runner, "127.0.0.1", 0).start()
        self.port = self._runner.addresses[0][1]
        return self

    async def close(self) -> None:
        for ws in list(self._sockets):
            await self._close(ws, 1001, b"shutting down")
        if self._runner is not None:
            await self._runner.cleanup()

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.port}{API}"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    # -- waiting -----------------------------------------------------------------------------------------

    async def _until(self, found: Callable[[], Any], what: str) -> Any:
        """Wait until ``found()`` is truthy and return it; fail after ``wait_timeout`` rather than hang."""
        try:
            async with self._changed:
                return await asyncio.wait_for(self._changed.wait_for(found), self.wait_timeout)
        except TimeoutError:
            raise AssertionError(f"waited {self.wait_timeout:g} s in vain for {what}") from None

    async def wait_for(self, predicate: Callable[[Recorded], bool]) -> Recorded:
        """The first answered REST request matching ``predicate``, past or future."""
        found = lambda: next((r for r in self.requests if r.status and predicate(r)), None)  # noqa: E731
        return await self._until(found, "a matching request from the bot")

    async def wait_for_gateway(self, op: int) -> dict:
        """The first gateway frame with opcode ``op`` the bot sent."""
        found = lambda: next((p for p in self.gateway_received if p.get("op") == op), None)  # noqa: E731
        return await self._until(found, f"a gateway frame with op {op}")

    async def wait_until_connected(self, *shard_ids: int) -> None:
        """Until the bot identified (or resumed) and got its READY and GUILD_CREATE on ``shard_ids`` (default:
        every shard of the recommended count)."""
        wanted = shard_ids or tuple(range(self.shard_count))

        def connected() -> bool:
            return all(shard_id in self.sessions and self.sessions[shard_id].ready for shard_id in wanted)

        await self._until(connected, f"the bot to connect shard(s) {', '.join(map(str, wanted))} to the gateway")

    async def wait_for_new_session(self, shard_id: int, old: Session | None) -> Session:
        """Until shard ``shard_id`` is connected on a session other than ``old`` (a restarted process's)."""

        def found() -> Session | None:
            session = self.sessions.get(shard_id)
            return session if session is not None and session is not old and session.ready else None

        return await self._until(found, f"a new session on shard {shard_id}")

    @property
    def session_id(self) -> str | None:
        """Shard 0's session (the only one of an unsharded bot)."""
        session = self.sessions.get(0)
        return session.session_id if session else None

    async def callback(self, interaction: dict) -> dict:
        """The body the bot POSTed to answer ``interaction``."""
        path = f"/interactions/{interaction['id']}/{interaction['token']}/callback"
        return _accepted(await self.wait_for(lambda r: r.method == "POST" and r.path == path))

    async def followup(self, interaction: dict) -> dict:
        """The body of the bot's first follow-up to ``interaction``."""
        path = f"/webhooks/{self.app_id}/{interaction['token']}"
        return _accepted(await self.wait_for(lambda r: r.method == "POST" and r.path == path))

    def command_syncs(self) -> list[Recorded]:
        return [r for r in self.requests if r.method == "PUT" and r.path.endswith("/commands")]

    async def _notify(self) -> None:
        async with self._changed:
            self._changed.notify_all()

    # -- payloads ----------------------------------------------------------------------------------------

    def snowflake(self) -> str:
        return str(((int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22) | (next(self._ids) % 4096))

    def _user(self, name: str) -> dict:
        user = {"id": self.snowflake(), "username": name, "discriminator": "0", "global_name": name.title()}
        return user | {"avatar": None, "flags": 0}

    def _member(self, user: dict) -> dict:
        member = {"user": user, "roles": [], "joined_at": _now(), "deaf": False, "mute": False, "flags": 0}
        return member | {"nick": None, "avatar": None, "pending": False}

    def _application(self) -> dict:
        flags = APP_FLAG_MESSAGE_CONTENT if self.message_content_enabled else APP_FLAG_MESSAGE_CONTENT_LIMITED
        app = {"id": self.app_id, "name": "Cyclebot", "description": "", "summary": "", "flags": flags}
        app |= {"bot_public": True, "bot_require_code_grant": False, "owner": self.users["alice"], "bot": self.bot_user}
        return app | {"verify_key": "0" * 64} | dict.fromkeys(("icon", "team", "interactions_endpoint_url"))

    def add_guild(self, name: str, *, shard: int | None = None) -> str:
        """A guild with one text channel, "cycling"; on ``shard`` (of the recommended count) if given."""
        guild_id = self.snowflake()
        if shard is not None:
            # A snowflake's top bits are its timestamp: step it back until the guild lands on the shard.
            timestamp = int(guild_id) >> 22
            timestamp -= (timestamp - shard) % self.shard_count
            guild_id = str(timestamp << 22 | (int(guild_id) & (1 << 22) - 1))
        self.guilds[guild_id] = {"name": name, "channel_id": self.snowflake()}
        return guild_id

    def shard_of(self, guild_id: str) -> int:
        return (int(guild_id) >> 22) % self.shard_count

    def _guild_of_channel(self, channel_id: str) -> str:
        return next(guild_id for guild_id, guild in self.guilds.items() if guild["channel_id"] == channel_id)

    def channel(self, guild_id: str | None = None) -> dict:
        guild_id = guild_id or self.guild_id
        channel_id = self.guilds[guild_id]["channel_id"]
        channel = {"id": channel_id, "type": 0, "guild_id": guild_id, "name": "cycling", "position": 0}
        denied = {"id": self.bot_id, "type": 1, "allow": "0", "deny": str(self.bot_denied)}
        overwrites = [denied] if self.bot_denied else []
        channel |= {"permission_overwrites": overwrites, "nsfw": False, "rate_limit_per_user": 0, "flags": 0}
        return channel | dict.fromkeys(("parent_id", "topic", "last_message_id"))

    def bot_permissions(self) -> int:
        """What the bot may do in a channel, as Discord computes it: the overwrite applied, and without Send Messages
        no Embed Links or Attach Files either."""
        allowed = int(PERMISSIONS) & ~self.bot_denied
        return allowed & ~(EMBED_LINKS | ATTACH_FILES) if not allowed & SEND_MESSAGES else allowed

    def guild(self, guild_id: str | None = None) -> dict:
        guild_id = guild_id or self.guild_id
        everyone = {"id": guild_id, "name": "@everyone", "permissions": PERMISSIONS, "position": 0, "flags": 0}
        everyone |= dict.fromkeys(("hoist", "managed", "mentionable"), False) | {"color": 0}
        name, owner = self.guilds[guild_id]["name"], self.users["alice"]["id"]
        guild = {"id": guild_id, "name": name, "icon": None, "owner_id": owner}
        guild |= {"unavailable": False, "large": False, "joined_at": _now(), "preferred_locale": "en-US"}
        # Without the (privileged) GUILD_MEMBERS intent Discord sends only the bot's own member.
        guild |= {"member_count": 1 + len(self.users), "members": [self._member(self.bot_user)]}
        guild |= {"channels": [self.channel(guild_id)], "roles": [everyone]}
        guild |= dict.fromkeys(("premium_tier", "verification_level", "mfa_level", "nsfw_level"), 0)
        lists = "features threads presences voice_states emojis stickers stage_instances guild_scheduled_events"
        return guild | {key: [] for key in [*lists.split(), "soundboard_sounds"]}

    def _interaction(self, kind: int, data: dict, user: str, guild_id: str, **extra: Any) -> dict:
        member = self._member(self.users[user]) | {"permissions": PERMISSIONS}
        token = f"interaction-token-{self.snowflake()}"
        channel = self.channel(guild_id)
        interaction = {"id": self.snowflake(), "application_id": self.app_id, "type": kind, "data": data}
        interaction |= {"token": token, "version": 1, "member": member, "app_permissions": str(self.bot_permissions())}
        interaction |= {"guild_id": guild_id, "guild": {"id": guild_id, "locale": "en-US", "features": []}}
        interaction |= {"channel_id": channel["id"], "channel": channel, "entitlements": [], "context": 0}
        interaction |= {"locale": "en-GB", "guild_locale": "en-US", "attachment_size_limit": ATTACHMENT_SIZE_LIMIT}
        return interaction | {"authorizing_integration_owners": {"0": guild_id}} | extra

    def command_interaction(
        self,
        name: str,
        *,
        user: str = "alice",
        options: list | None = None,
        guild_id: str | None = None,
        resolved: dict | None = None,
    ) -> dict:
        """A CHAT_INPUT interaction for a command the bot synced (Discord only knows synced commands), in the
        channel of ``guild_id`` (default: the first guild); ``resolved`` as Discord sends it (the attachments of
        attachment options: :meth:`upload`)."""
        guild_id = guild_id or self.guild_id
        for scope, commands in self.commands.items():
            for command in commands:
                if command["name"] == name and scope in ("global", guild_id):
                    data = {"id": command["id"], "name": name, "type": 1, "options": options or []}
                    data |= {} if scope == "global" else {"guild_id": scope}
                    data |= {"resolved": resolved} if resolved else {}
                    return self._interaction(2, data, user, guild_id)
        raise AssertionError(f"/{name} was never synced to Discord")

    def message_command_interaction(
        self, name: str, content: str, *, user: str = "alice", author: str = "bob", guild_id: str | None = None
    ) -> dict:
        """A message command (``name``, such as "Look up cards") chosen on a message ``author`` wrote: Discord sends
        the message, its text included, in ``resolved.messages`` whatever the bot's intents."""
        command = next((c for c in self.commands.get("global", []) if c["name"] == name and c.get("type") == 3), None)
        assert command is not None, f"the message command {name!r} was never synced to Discord"
        guild_id = guild_id or self.guild_id
        message = {"id": self.snowflake(), "type": 0, "channel_id": self.guilds[guild_id]["channel_id"]}
        message |= {"author": self.users[author], "content": content, "embeds": [], "components": []}
        message |= {"attachments": [], "mentions": [], "mention_roles": [], "mention_everyone": False}
        message |= {"pinned": False, "tts": False, "flags": 0, "timestamp": _now(), "edited_timestamp": None}
        data = {"id": command["id"], "name": name, "type": 3, "target_id": message["id"]}
        data |= {"resolved": {"messages": {message["id"]: message}}}
        return self._interaction(2, data, user, guild_id)

    def user_install_interaction(
        self, name: str, *, user: str = "alice", guild_id: str | None = None, options: list | None = None
    ) -> dict:
        """A CHAT_INPUT interaction from someone who added the app to their own apps, where no server added it: in
        the bot's DM (no ``guild_id``: Discord sends it to shard 0) or in a server the bot is not in (``guild_id``,
        not one of the fake's guilds: sent to the shard that server maps to, though no shard has it)."""
        command = next((c for c in self.commands.get("global", []) if c["name"] == name), None)
        assert command is not None and 1 in (command.get("integration_types") or []), f"/{name} is not user-installable"
        data = {"id": command["id"], "name": name, "type": 1, "options": options or []}
        token, people = f"interaction-token-{self.snowflake()}", self.users[user]
        interaction = {"id": self.snowflake(), "application_id": self.app_id, "type": 2, "data": data}
        interaction |= {"token": token, "version": 1, "entitlements": [], "locale": "en-GB"}
        interaction |= {"authorizing_integration_owners": {"1": people["id"]}}
        interaction |= {"attachment_size_limit": ATTACHMENT_SIZE_LIMIT}
        if guild_id is None:
            channel = {"id": self.snowflake(), "type": 1, "recipients": [people], "flags": 0, "last_message_id": None}
            # ATTACH_FILES | EMBED_LINKS | MENTION_EVERYONE | USE_EXTERNAL_EMOJIS, as documented for the bot's DM.
            return (
                interaction
                | {"user": people, "channel_id": channel["id"], "channel": channel, "context": 1}
                | {"app_permissions": str((1 << 15) | (1 << 14) | (1 << 17) | (1 << 18))}
            )
        channel = {"id": self.snowflake(), "type": 0, "guild_id": guild_id, "name": "general", "position": 0}
        channel |= {"permission_overwrites": [], "nsfw": False, "rate_limit_per_user": 0, "flags": 0}
        member = self._member(people) | {"permissions": PERMISSIONS}
        interaction |= {"member": member, "guild_id": guild_id, "context": 0, "app_permissions": PERMISSIONS}
        interaction |= {"guild": {"id": guild_id, "locale": "en-US", "features": []}, "guild_locale": "en-US"}
        return interaction | {"channel_id": channel["id"], "channel": channel}

    def upload(self, filename: str, data: bytes) -> dict:
        """A file a player attaches to a command: Discord stores it on its CDN (here, this fake's
        ``/attachments/…``, served to anyone) and sends its attachment object in ``resolved.attachments``."""
        attachment_id = self.snowflake()
        self.attachment_data[attachment_id] = data
        url = f"http://127.0.0.1:{self.port}/attachments/{attachment_id}/{filename}"
        return {"id": attachment_id, "filename": filename, "size": len(data), "url": url, "proxy_url": url}

    async def _attachment(self, request: web.Request) -> web.Response:
        data = self.attachment_data.get(request.match_info["attachment_id"])
        if data is None:
            return _error(404, "404: Not Found")
        return web.Response(body=data, content_type="application/octet-stream")

    def modal_submit_interaction(self, custom_id: str, values: dict[str, str], *, user: str = "alice") -> dict:
        """A form the bot answered an interaction with, filled in and submitted: ``values`` by text input."""
        inputs = [{"type": 4, "custom_id": key, "value": value} for key, value in values.items()]
        rows = [{"type": 1, "components": [text_input]} for text_input in inputs]
        return self._interaction(5, {"custom_id": custom_id, "components": rows}, user, self.guild_id)

    def component_interaction(
        self, message: dict, custom_id: str, *, user: str = "alice", values: list[str] | None = None
    ) -> dict:
        """A click on the button ``custom_id`` of a message the bot sent, or with ``values`` a choice in its select
        menu ``custom_id``."""
        guild_id = self._guild_of_channel(message["channel_id"])
        data = {"custom_id": custom_id, "component_type": 2}
        if values is not None:
            data |= {"component_type": 3, "values": values}
        return self._interaction(3, data, user, guild_id, message=message)

    def _message(self, token: str, body: dict, flags: int, kind: int = 0) -> dict:
        channel_id = next(i["channel_id"] for i in self.interactions.values() if i["token"] == token)
        message = {"id": self.snowflake(), "type": kind, "channel_id": channel_id, "author": self.bot_user}
        message |= {"content": body.get("content") or ""} | {k: body.get(k) or [] for k in ("embeds", "components")}
        message |= {"flags": flags, "timestamp": _now(), "edited_timestamp": None, "attachments": [], "mentions": []}
        message |= {"mention_roles": [], "mention_everyone": False, "pinned": False, "tts": False}
        message |= {"application_id": self.app_id, "webhook_id": self.app_id}
        self.messages[message["id"]] = message
        self._owner_token[message["id"]] = token
        return message

    @staticmethod
    def _edit(message: dict, body: dict) -> dict:
        for key in ("content", "embeds", "components"):
            if key in body:
                message[key] = body[key] if body[key] is not None else ([] if key != "content" else "")
        message["flags"] &= ~LOADING
        message["edited_timestamp"] = _now()
        return message

    # -- REST --------------------------------------------------------------------------------------------

    @web.middleware
    async def _middleware(self, request: web.Request, handler) -> web.StreamResponse:
        if request.path == "/gateway":
            return await handler(request)
        body = await _body(request)
        path = request.path.removeprefix(API)
        record = Recorded(request.method, path, dict(request.query), body, request.headers.get("Authorization"))
        request[RECORD] = record  # a multipart body is read by its handler, which fills in ``json``
        self.requests.append(record)
        # Interaction callbacks and webhooks are authorised by their token in the path, not by a header.
        # The CDN's files (an attachment's URL) are public.
        needs_auth = not path.startswith(("/interactions/", "/webhooks/", "/attachments/")) and path != "/gateway"
        if needs_auth and record.authorization != f"Bot {self.token}":
            response = _error(401, "401: Unauthorized")
        else:
            try:
                response = await handler(request)
            except web.HTTPException as error:  # no such route (404) or method (405)
                self.unexpected.append(record)
                response = _error(error.status, f"{error.status}: {error.reason}")
        record.status = response.status
        await self._notify()
        return response

    @staticmethod
    def _answer(make: Callable[[], Any]) -> Callable:
        async def handler(request: web.Request) -> web.Response:
            return _json(make())

        return handler

    # Application emoji (https://discord.com/developers/docs/resources/emoji#list-application-emojis): listed as
    # {"items": [...]}; a name is 2–32 letters, digits or underscores and unique (else 400, 50035,
    # APPLICATION_EMOJI_NAME_ALREADY_TAKEN); the image a PNG, JPEG, GIF or WebP data URI of at most 256 KiB.

    async def _list_emojis(self, request: web.Request) -> web.Response:
        if request.match_info["app_id"] != self.app_id:
            return _error(403, "Missing Access", 50001)
        return _json({"items": list(self.application_emojis.values())})

    async def _create_emoji(self, request: web.Request) -> web.Response:
        if request.match_info["app_id"] != self.app_id:
            return _error(403, "Missing Access", 50001)
        body = await _body(request) or {}
        name, image = body.get("name"), body.get("image") or ""
        if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z0-9_]{2,32}", name):
            return self._form_error("name", "BASE_TYPE_BAD_LENGTH", "Must be between 2 and 32 in length.")
        if any(emoji["name"] == name for emoji in self.application_emojis.values()):
            taken = "Application emoji name already taken."
            return self._form_error("name", "APPLICATION_EMOJI_NAME_ALREADY_TAKEN", taken)
        match = re.fullmatch(r"data:image/(png|jpeg|gif|webp);base64,([A-Za-z0-9+/=]+)", image)
        data = base64.b64decode(match[2]) if match else b""
        if not match or len(data) > 256 * 1024 or not data.startswith((b"\x89PNG", b"\xff\xd8", b"GIF8", b"RIFF")):
            return self._form_error("image", "IMAGE_INVALID", "Invalid image data.")
        emoji = {
            "id": self.snowflake(),
            "name": name,
            "roles": [],
            "user": self.bot_user,
            "require_colons": True,
            "managed": False,
            "animated": False,
            "available": True,
        }
        self.application_emojis[emoji["id"]] = emoji
        self.emoji_images[emoji["id"]] = data
        return _json(emoji, 201)

    @staticmethod
    def _form_error(field: str, code: str, message: str) -> web.Response:
        errors = {field: {"_errors": [{"code": code, "message": message}]}}
        return _json({"message": "Invalid Form Body", "code": 50035, "errors": errors}, 400)

    def _recommended(self) -> dict:
        return {"url": self.gateway_url, "shards": self.shard_count}

    def _scope(self, request: web.Request) -> str | None:
        if request.match_info["app_id"] != self.app_id:
            return None
        return request.match_info.get("guild_id", "global")

    async def _put_commands(self, request: web.Request) -> web.Response:
        scope, body = self._scope(request), await _body(request)
        if scope is None:
            return _error(403, "Missing Access", 50001)
        if not isinstance(body, list) or len(body) > 100:
            return _error(400, "Invalid Form Body", 50035)
        problem = next(filter(None, map(_command_problem, body)), None)
        if problem:
            return _error(400, f"Invalid Form Body ({problem})", 50035)
        for index, command in enumerate(body):
            # User Install off on the Developer Portal's Installation tab: commands for user installs are refused.
            if scope == "global" and not self.user_install_enabled and 1 in (command.get("integration_types") or []):
                problem = {"code": "APPLICATION_COMMAND_INTEGRATION_TYPE_NOT_SUPPORTED"}
                problem["message"] = "User install is not enabled for this application."
                errors = {str(index): {"integration_types": {"_errors": [problem]}}}
                return _json({"message": "Invalid Form Body", "code": 50035, "errors": errors}, 400)
        known = {c["name"]: c["id"] for c in self.commands.get(scope, [])}
        stored = []
        for command in body:
            # Discord answers every command with a description, "" for user and message commands.
            entry = {"type": 1, "description": "", "options": [], "default_member_permissions": None, "nsfw": False}
            entry |= command
            entry |= {"id": known.get(command["name"]) or self.snowflake(), "application_id": self.app_id}
            entry |= {"version": self.snowflake()} | ({} if scope == "global" else {"guild_id": scope})
            stored.append(entry)
        self.commands[scope] = stored
        return _json(stored)

    async def _callback(self, request: web.Request) -> web.StreamResponse:
        interaction_id, token = request.match_info["interaction_id"], request.match_info["token"]
        interaction = self.interactions.get(interaction_id)
        if interaction is None or interaction["token"] != token:
            return _error(404, "Unknown interaction", 10062)
        if interaction_id in self.acknowledged:
            return _error(400, "Interaction has already been acknowledged.", 40060)
        body = await _body(request) or {}
        kind, data = body.get("type"), body.get("data") or {}
        if kind not in CALLBACK_TYPES[interaction["type"]]:
            return _error(400, "Invalid Form Body (type)", 50035)
        self.acknowledged.add(interaction_id)
        message = None
        if kind in (4, 5):
            flags = (data.get("flags") or 0) & EPHEMERAL | (LOADING if kind == 5 else 0)
            message = self._message(token, data, flags, 20 if interaction["type"] == 2 else 0)
        elif kind in (6, 7):
            message = self.messages.setdefault(interaction["message"]["id"], interaction["message"])
            message = self._edit(message, data) if kind == 7 else message
        if message is not None:
            self.original[token] = message["id"]
        if request.query.get("with_response") not in ("1", "true"):
            return web.Response(status=204)
        flags = message["flags"] if message else 0
        answer = {"id": interaction_id, "type": interaction["type"], "response_message_loading": bool(flags & LOADING)}
        answer |= {"response_message_ephemeral": bool(flags & EPHEMERAL)}
        if message is None:
            return _json({"interaction": answer})
        answer["response_message_id"] = message["id"]
        return _json({"interaction": answer, "resource": {"type": kind, "message": message}})

    def _token(self, request: web.Request) -> str | None:
        token = request.match_info["token"]
        known = any(i["token"] == token and i["id"] in self.acknowledged for i in self.interactions.values())
        return token if known and request.match_info["app_id"] == self.app_id else None

    def _expired(self, token: str) -> bool:
        return time.monotonic() - self._sent_at.get(token, time.monotonic()) > self.token_seconds

    def expire_tokens(self) -> None:
        """Every interaction sent so far is older than its token lasts (its edits and follow-ups get 401, 50027)."""
        for token in self._sent_at:
            self._sent_at[token] = time.monotonic() - self.token_seconds - 1

    async def _followup(self, request: web.Request) -> web.Response:
        token, body = self._token(request), await _body(request) or {}
        if token is None:
            return _error(404, "Unknown Webhook", 10015)
        if self._expired(token):
            return _error(401, "Invalid Webhook Token", 50027)
        original = self.messages.get(self.original.get(token, ""))
        if original is not None and original["flags"] & LOADING:
            message = self._edit(original, body)  # the first follow-up after a defer replaces "thinking..."
        else:
            message = self._message(token, body, (body.get("flags") or 0) & EPHEMERAL)
        return _json(message) if request.query.get("wait") in ("1", "true") else web.Response(status=204)

    async def _webhook_message(self, request: web.Request) -> web.StreamResponse:
        """The interaction's own messages: its original response (for a press, the message pressed) and follow-ups;
        its token stops answering after ``token_seconds``."""
        token, message_id = self._token(request), request.match_info["message_id"]
        original = message_id == "@original"
        if token is not None and original:
            message_id = self.original.get(token, "")
        message = self.messages.get(message_id)
        if token is not None and self._expired(token):
            return _error(401, "Invalid Webhook Token", 50027)
        if token is None or message is None or (not original and self._owner_token.get(message_id, token) != token):
            return _error(404, "Unknown Message", 10008)
        if request.method != "PATCH":
            return _json(message)
        # The interaction's own answer: no permission of the bot's is asked (Discord grants embeds and files there).
        return await self._apply_edit(request, message, check=False)

    async def _multipart(self, request: web.Request) -> tuple[dict, dict[int, tuple[str, bytes]]] | web.Response:
        """A multipart message body: its ``payload_json`` and its ``files[n]``, or Discord's refusal of a file over
        the upload limit (413, code 40005) or of more files than a message may carry."""
        payload: dict = {}
        files: dict[int, tuple[str, bytes]] = {}
        reader = await request.multipart()
        while (part := await reader.next()) is not None:
            if part.name == "payload_json":
                payload = json.loads(await part.text())
            elif part.name and (found := re.fullmatch(r"files\[(\d+)\]", part.name)):
                data = bytearray()
                while chunk := await part.read_chunk():
                    data += chunk
                    if len(data) > ATTACHMENT_SIZE_LIMIT:
                        return _error(413, "Request entity too large", 40005)
                files[int(found[1])] = (part.filename or "file", bytes(data))
        if len(files) > ATTACHMENTS_PER_MESSAGE:
            return _error(400, "Invalid Form Body (files: too many)", 50035)
        request[RECORD].json = payload
        return payload, files

    async def _edit_channel_message(self, request: web.Request) -> web.Response:
        """Edit a message of the bot (its own only, 50005 otherwise): content, embeds, components, attachments.
        ``attachments`` lists what the message keeps: existing ones by id, new uploads by their ``files[n]``
        index; the uploaded bytes are kept in ``attachment_data`` by attachment id."""
        message = self.messages.get(request.match_info["message_id"])
        if message is None or message["channel_id"] != request.match_info["channel_id"]:
            return _error(404, "Unknown Message", 10008)
        if message["author"]["id"] != self.bot_id:
            return _error(403, "Cannot edit a message authored by another user", 50005)
        return await self._apply_edit(request, message, check=True)

    async def _apply_edit(self, request: web.Request, message: dict, *, check: bool) -> web.Response:
        """Apply an edit (JSON or multipart); ``check``: with the bot's own permissions, where embeds need Embed Links
        and files Attach Files (else 403, 50013)."""
        multipart = request.content_type == "multipart/form-data"
        if check and multipart and not self.bot_permissions() & ATTACH_FILES:
            return _error(403, "Missing Permissions", 50013)
        if multipart:
            parsed = await self._multipart(request)
            if isinstance(parsed, web.Response):
                return parsed
            body, files = parsed
        else:
            body, files = await _body(request) or {}, {}
        if check and body.get("embeds") and not self.bot_permissions() & EMBED_LINKS:
            return _error(403, "Missing Permissions", 50013)
        if "attachments" in body:
            kept = {a["id"]: a for a in message.get("attachments") or []}
            attachments = []
            for item in body["attachments"] or []:
                if str(item.get("id")) in kept:
                    attachments.append(kept[str(item["id"])])
                    continue
                upload = files.get(int(item["id"])) if str(item.get("id")).isdigit() else None
                if upload is None:
                    return _error(400, "Invalid Form Body (attachments: unknown id)", 50035)
                filename, data = upload
                attachment_id = self.snowflake()
                self.attachment_data[attachment_id] = data
                attachments.append(
                    {"id": attachment_id, "filename": item.get("filename") or filename, "size": len(data)}
                    | {"description": item.get("description"), "url": f"https://cdn.fake/{attachment_id}/{filename}"}
                    | {"proxy_url": f"https://media.fake/{attachment_id}/{filename}"}
                )
            message["attachments"] = attachments
        return _json(self._edit(message, body))

    # -- gateway -----------------------------------------------------------------------------------------

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        self._sockets.add(ws)
        compressor = zlib.compressobj() if request.query.get("compress") == "zlib-stream" else None

        async def send(payload: dict) -> None:
            async with self._send_lock:
                text = json.dumps(payload)
                if compressor is None:
                    await ws.send_str(text)
                else:
                    await ws.send_bytes(compressor.compress(text.encode()) + compressor.flush(zlib.Z_SYNC_FLUSH))

        try:
            if request.query.get("v") != "10" or request.query.get("encoding") != "json":
                await self._close(ws, 4012, b"Invalid API version")
                return ws
            await send({"op": 10, "d": {"heartbeat_interval": self.heartbeat_interval}, "s": None, "t": None})
            identified = False
            session: Session | None = None
            async for frame in ws:
                if frame.type is not WSMsgType.TEXT:
                    break
                payload = json.loads(frame.data)
                self.gateway_received.append(payload)
                await self._notify()
                op, data = payload.get("op"), payload.get("d") or {}
                if op == 1:
                    self.heartbeats.append(time.monotonic())
                    await send({"op": 11, "d": None, "s": None, "t": None})
                elif op in (2, 6) and identified:
                    await self._close(ws, 4005, b"Already authenticated")
                elif op in (2, 6) and data.get("token") != self.token:
                    await self._close(ws, 4004, b"Authentication failed")
                elif op == 2:
                    intents = data.get("intents")
                    enabled = MESSAGE_CONTENT if self.message_content_enabled else 0
                    shard = data.get("shard", [0, 1])
                    if not isinstance(intents, int) or intents < 0:
                        await self._close(ws, 4013, b"Invalid intent(s)")
                    elif intents & PRIVILEGED & ~enabled:
                        await self._close(ws, 4014, b"Disallowed intent(s)")
                    elif not (isinstance(shard, list) and len(shard) == 2 and 0 <= shard[0] < shard[1]):
                        await self._close(ws, 4010, b"Invalid shard")
                    elif self._too_soon(shard[0]):
                        self.refused_identifies.append(shard[0])
                        await send({"op": 9, "d": False, "s": None, "t": None})  # INVALID_SESSION
                    else:
                        identified = True
                        session = await self._identify(ws, send, (shard[0], shard[1]))
                elif op == 6:
                    session = await self._resume(ws, send, data)
                    identified = session is not None
                elif op == 3 and identified:
                    pass  # presence update
                elif not identified:
                    await self._close(ws, 4003, b"Not authenticated")
                else:
                    await self._close(ws, 4001, b"Unknown opcode")
        finally:
            self.gateway_close_codes.append(self._closed_by_fake.pop(ws, ws.close_code))
            self._sockets.discard(ws)
            if session is not None and session.ws is ws:
                session.ready = False
        return ws

    async def _close(self, ws: web.WebSocketResponse, code: int, reason: bytes) -> None:
        self._closed_by_fake.setdefault(ws, code)
        await ws.close(code=code, message=reason)

    def _session_start_limit(self) -> dict:
        limit = {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": self.max_concurrency}
        return {"session_start_limit": limit}

    def _too_soon(self, shard_id: int) -> bool:
        """Whether this IDENTIFY breaks the session start limit (it is recorded when it doesn't)."""
        now, bucket = time.monotonic(), shard_id % self.max_concurrency
        last = [at for at, shard in self.identify_times if shard % self.max_concurrency == bucket]
        if self.identify_interval is not None and last and now - last[-1] < self.identify_interval:
            return True
        self.identify_times.append((now, shard_id))
        return False

    async def _identify(self, ws: web.WebSocketResponse, send, shard: tuple[int, int]) -> Session:
        session = Session(ws, send, self.snowflake(), shard)
        self.sessions[shard[0]] = session
        self.identified_shards.append(shard)
        application = {"id": self.app_id, "flags": self._application()["flags"]}
        owned = [guild_id for guild_id in self.guilds if session.owns(guild_id)]
        ready = {"v": 10, "user": self.bot_user, "guilds": [{"id": g, "unavailable": True} for g in owned]}
        ready |= {"session_id": session.session_id, "session_type": "normal", "resume_gateway_url": self.gateway_url}
        ready |= {"application": application, "private_channels": [], "relationships": [], "presences": []}
        await self._dispatch_to(session, "READY", ready | {"shard": list(shard)})
        for guild_id in owned:
            await self._dispatch_to(session, "GUILD_CREATE", self.guild(guild_id))
        session.ready = True
        await self._notify()
        return session

    async def _resume(self, ws: web.WebSocketResponse, send, data: dict) -> Session | None:
        session = next((s for s in self.sessions.values() if s.session_id == data.get("session_id")), None)
        if session is None or not isinstance(data.get("seq"), int):
            await send({"op": 9, "d": False, "s": None, "t": None})  # INVALID_SESSION, not resumable
            return None
        session.ws, session.send, session.ready = ws, send, True
        for payload in session.history:
            if payload["s"] > data["seq"]:
                await send(payload)
        await self._dispatch_to(session, "RESUMED", {})
        await self._notify()
        return session

    def session_for(self, guild_id: str | None) -> Session:
        """The connected session that owns ``guild_id`` (shard 0's for events of no guild)."""
        for session in self.sessions.values():
            if session.ready and (session.owns(guild_id) if guild_id else session.shard[0] == 0):
                return session
        raise AssertionError(f"the bot has no gateway session for guild {guild_id}")

    async def _dispatch_to(self, session: Session, event: str, data: dict) -> None:
        session.seq += 1
        payload = {"op": 0, "t": event, "s": session.seq, "d": data}
        session.history.append(payload)
        await session.send(payload)

    async def dispatch(self, event: str, data: dict) -> None:
        """Send a DISPATCH (op 0) on the connection owning the event's guild, with its next sequence number."""
        await self._dispatch_to(self.session_for(data.get("guild_id")), event, data)

    async def send_interaction(self, interaction: dict) -> dict:
        """Push INTERACTION_CREATE to the bot; Discord then expects a callback within 3 seconds."""
        self.interactions[interaction["id"]] = interaction
        self._sent_at[interaction["token"]] = time.monotonic()
        await self.dispatch("INTERACTION_CREATE", interaction)
        return interaction

    async def drop_connection(self, code: int = 4000, *, shard: int = 0) -> None:
        """Close a shard's gateway like Discord does on a hiccup (4000: unknown error, the client may resume)."""
        session = self.sessions.get(shard)
        if session is not None and session.ready:
            session.ready = False
            await self._close(session.ws, code, b"Unknown error")
