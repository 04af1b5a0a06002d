"""Where simcord 3.2 and Discord differ, simcord is brought to Discord's behaviour here (imported by conftest).

- A follow-up after the deleted "thinking…" original of a deferred response: Discord sends it as a new message
  with its own flags (discord/discord-api-docs#2739, fixed in 2021); simcord answers Unknown Message, as Discord
  did before that fix.
- Application emoji: their names are checked and unique, their images must be images, and there are at most
  2,000 (below).
- Starting a bot (``Env.start``, ``restart_bot``) waits for it to go idle within a fixed 5 s, whatever the env's
  ``settle_timeout``: a bot that reads its rules and card data on a busy machine takes longer. That wait gets
  the env's own ceiling, as every other settle does (below).
"""

from __future__ import annotations

import base64
import contextvars
import re

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
