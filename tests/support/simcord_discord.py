"""Where simcord 3.2 and Discord differ, simcord is brought to Discord's behaviour here (imported by conftest).

- A follow-up after the deleted "thinking…" original of a deferred response: Discord sends it as a new message
  with its own flags (discord/discord-api-docs#2739, fixed in 2021); simcord answers Unknown Message, as Discord
  did before that fix.
- Application emoji: their names are checked and unique, their images must be images, and there are at most
  2,000 (below).
- Starting a bot (``Env.start``, ``restart_bot``) waits for it to go idle within a fixed 5 s, whatever the env's
  ``settle_timeout``: a bot that reads its rules and card data on a busy machine takes longer. That wait gets
  the env's own ceiling, as every other settle does (below).
- A message the bot posts or edits in a server channel with its own token needs Embed Links for embeds, Attach
  Files for files and Read Message History to reply (Discord answers 403, code 50013, Missing Permissions); simcord
  checks only Send Messages.

And one check of the bot rather than of Discord: every message it sends or edits shows card symbols one way, all as
emoji or all as text (``rendering_faults``, which the suite's conftest asserts empty after each test).
"""

from __future__ import annotations

import base64
import contextvars
import re
from typing import Any

import discord
import simcord.env
from simcord.backend import errors, serializers
from simcord.http import router
from simcord.http.routes import application, interactions

_ORIGINAL = ["webhooks", "{webhook_id}", "{token}", "messages", "@original"]


def _delete_original_response(ctx: router.RequestContext):
    record = interactions._record(ctx)
    result = interactions.delete_original_response(ctx)
    if record.loading:
        # The deferred original is gone: later follow-ups are messages of their own.
        record.complete_deferred()
        record.message_id = None
    return result


def install() -> None:
    _patient_attach()
    if getattr(router.dispatch, "cyclebot_checked", False) is False:
        router.dispatch = _checked(router.dispatch)
    _replace("POST", application.create_application_emoji, _create_application_emoji)
    routes = router._ROUTES["DELETE"]
    for position, (template, handler) in enumerate(routes):
        if template == _ORIGINAL and handler is interactions.delete_original_response:
            routes[position] = (template, _delete_original_response)
            return
    if not any(handler is _delete_original_response for _, handler in routes):
        raise RuntimeError("simcord's delete-original route moved: review tests/support/simcord_discord.py")


# -------------------------------------------------------------- application emoji
#
# simcord 3.2.1 keeps an application emoji's name and discards its image, accepts any name, and lets two emoji
# share one. Discord (https://discord.com/developers/docs/resources/emoji#create-application-emoji): the name is 2–32
# characters of letters, digits and underscores and unique among the application's emoji (a second one is a 400,
# code 50035, APPLICATION_EMOJI_NAME_ALREADY_TAKEN); the image is a PNG, JPEG, GIF or WebP data URI of at most
# 256 KiB; an application has at most 2,000 emoji (30008 past that).

APPLICATION_EMOJI_LIMIT = 2000
EMOJI_IMAGE_BYTES = 256 * 1024
EMOJI_NAME = re.compile(r"[A-Za-z0-9_]{2,32}")
IMAGE_URI = re.compile(r"data:image/(png|jpeg|gif|webp);base64,([A-Za-z0-9+/=]+)")
SIGNATURES = {"png": b"\x89PNG\r\n\x1a\n", "jpeg": b"\xff\xd8\xff", "gif": b"GIF8", "webp": b"RIFF"}
# The images the fake was sent, by emoji id: what a test can look at.
application_emoji_images: dict[int, bytes] = {}


def _form_error(field: str, code: str, message: str) -> errors.BackendError:
    return errors.invalid_form_body(errors={field: {"_errors": [{"code": code, "message": message}]}})


def _create_application_emoji(ctx: router.RequestContext):
    backend = ctx.backend
    body = ctx.fields("name", "image")
    name, image = body.get("name"), body.get("image")
    if not isinstance(name, str) or not EMOJI_NAME.fullmatch(name):
        raise _form_error("name", "BASE_TYPE_BAD_LENGTH", "Must be between 2 and 32 in length.")
    if any(emoji.name == name for emoji in backend.application_emojis.values()):
        raise _form_error("name", "APPLICATION_EMOJI_NAME_ALREADY_TAKEN", "Application emoji name already taken.")
    match = IMAGE_URI.fullmatch(image or "")
    data = base64.b64decode(match[2]) if match else b""
    if not match or not data.startswith(SIGNATURES[match[1]]):
        raise _form_error("image", "IMAGE_INVALID", "Invalid image data.")
    if len(data) > EMOJI_IMAGE_BYTES:
        raise _form_error("image", "BINARY_TYPE_MAX_SIZE", f"File cannot be larger than {EMOJI_IMAGE_BYTES} bytes.")
    if len(backend.application_emojis) >= APPLICATION_EMOJI_LIMIT:
        raise errors.BackendError(400, 30008, "Maximum number of emojis reached (2000)")
    emoji = backend.create_application_emoji(name)
    application_emoji_images[emoji.id] = data
    return serializers.guild_emoji_payload(backend, emoji)


def _replace(method: str, handler, replacement) -> None:
    routes = router._ROUTES[method]
    for position, (template, current) in enumerate(routes):
        if current is handler:
            routes[position] = (template, replacement)
            return
    if not any(current is replacement for _, current in routes):
        raise RuntimeError("simcord's routes moved: review tests/support/simcord_discord.py")


# -------------------------------------------------------------- starting a bot

_attaching: contextvars.ContextVar[bool] = contextvars.ContextVar("attaching", default=False)
ATTACH_SECONDS = 5.0  # what simcord 3.2 passes to its settle while it attaches a bot


def _patient_attach() -> None:
    attach, settle = simcord.env._attach_bot, simcord.env.Env._settle_internal
    if getattr(attach, "patient", False):
        return
    if settle.__code__.co_kwonlyargcount < 1 or "timeout" not in settle.__code__.co_varnames:
        raise RuntimeError("simcord's settle changed: review tests/support/simcord_discord.py")

    async def patient_attach(env, bot):
        token = _attaching.set(True)
        try:
            return await attach(env, bot)
        finally:
            _attaching.reset(token)

    async def settle_internal(env, *, timeout=None, **kwargs):  # noqa: ASYNC109 (simcord's own signature)
        if _attaching.get() and timeout == ATTACH_SECONDS:
            timeout = max(timeout, env.settle_timeout)
        return await settle(env, timeout=timeout, **kwargs)

    patient_attach.patient = True
    simcord.env._attach_bot = patient_attach
    simcord.env.Env._settle_internal = settle_internal


# -------------------------------------------------------------- what every message is checked for
#
# Discord (https://discord.com/developers/docs/resources/message#create-message): posting in a server channel needs
# Send Messages, a reply (``message_reference``) Read Message History, embeds Embed Links and files Attach Files;
# editing a message to add embeds or files needs the same. Interaction responses and follow-ups go through the
# interaction's webhook and are not checked against the bot member's permissions.

CHANNEL_MESSAGE = re.compile(r"/channels/(\d+)/messages(?:/\d+)?")
# A card symbol left as text, and one drawn as an application emoji (bot.hosts.symbols names them mana_*, tap, …).
# A brace a player typed carries a word joiner after it: it is their text quoted, not a symbol.
TEXT_SYMBOL = re.compile(r"\{[^{}\s\u2060]{1,12}\}")
EMOJI_SYMBOL = re.compile(r"<a?:(?:mana_\w+|tap|untap|energy|planeswalker|chaos|acorn|ticket):\d+>")
# Messages that showed some symbols as emoji and others as text, since the last clear (a test's own).
rendering_faults: list[str] = []


def _checked(dispatch):
    def checked(backend, method: str, path: str, *, json: Any | None = None, files=None, **kwargs):
        body = json if isinstance(json, dict) else {}
        message = body.get("data") if isinstance(body.get("data"), dict) and "type" in body else body
        if method in ("POST", "PATCH"):
            _check_rendering(path, message)
            found = CHANNEL_MESSAGE.fullmatch(path)
            if found is not None:
                _check_permissions(backend, int(found[1]), body, files, editing=method == "PATCH")
        return dispatch(backend, method, path, json=json, files=files, **kwargs)

    checked.cyclebot_checked = True
    return checked


def _check_permissions(backend, channel_id: int, body: dict, files, *, editing: bool) -> None:
    channel = backend.channels.get(channel_id)
    if channel is None or channel.guild_id is None:
        return
    needed = []
    if body.get("embeds"):
        needed.append("embed_links")
    if files:
        needed.append("attach_files")
    if body.get("message_reference") and not editing:
        needed.append("read_message_history")
    granted = backend.compute_permissions(channel.guild_id, backend.bot_user.id, channel_id)
    if any(not granted & getattr(discord.Permissions, name).flag for name in needed):
        raise errors.missing_permissions()


def _texts(message: dict) -> list[str]:
    texts = [message.get("content") or ""]
    for embed in message.get("embeds") or []:
        if not isinstance(embed, dict):
            continue
        texts += [embed.get("title") or "", embed.get("description") or ""]
        texts += [(embed.get("footer") or {}).get("text") or "", (embed.get("author") or {}).get("name") or ""]
        for field in embed.get("fields") or []:
            texts += [field.get("name") or "", field.get("value") or ""]
    return texts


def _check_rendering(path: str, message: dict) -> None:
    texts = _texts(message)
    as_text = [found for text in texts for found in TEXT_SYMBOL.findall(text)]
    if as_text and any(EMOJI_SYMBOL.search(text) for text in texts):
        rendering_faults.append(f"{path}: emoji next to {', '.join(sorted(set(as_text)))} in one message")
