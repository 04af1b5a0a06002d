"""Where simcord 3.2 and Discord differ, simcord is brought to Discord's behaviour here (imported by conftest).

- A follow-up after the deleted "thinking…" original of a deferred response: Discord sends it as a new message
  with its own flags (discord/discord-api-docs#2739, fixed in 2021); simcord answers Unknown Message, as Discord
  did before that fix.
"""

from __future__ import annotations

from simcord.http import router
from simcord.http.routes import interactions

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
    routes = router._ROUTES["DELETE"]
    for position, (template, handler) in enumerate(routes):
        if template == _ORIGINAL and handler is interactions.delete_original_response:
            routes[position] = (template, _delete_original_response)
            return
    if not any(handler is _delete_original_response for _, handler in routes):
        raise RuntimeError("simcord's delete-original route moved: review tests/support/simcord_discord.py")
