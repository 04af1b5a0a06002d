"""When the bot acknowledged and answered each interaction, whichever way it answered: what the benchmarks that
drive the real discord.py stack (simcord) time, and how they wait for an answer.

An interaction is answered on one of several paths: a deferral then a follow-up (``Webhook.send``), an answer
at once (``InteractionResponse.send_message``: a lookup the local data decides, a cooldown's "slow down", a
refusal), or an edit of the deferred response. The stopwatch wraps them all, so an answer on a path a benchmark
did not expect is seen and counted for what it is (the benchmark reads what was sent) instead of being waited
for in vain. Everything is keyed by the interaction's token.
"""

from __future__ import annotations

import asyncio
import re
import threading
import time
from dataclasses import dataclass

import discord

# A player told to wait ("try again in 2 s", "in 1 second") asks again after that long; this when not told.
RETRY_TEXT = re.compile(r"try again in (?:a moment \(in )?(\d+) s")
DEFAULT_RETRY_SECONDS = 1.0


@dataclass(frozen=True)
class Said:
    """What an answer held: its text and its embeds' titles (a private answer after a public deferral replaces
    the deleted original, so simcord's result for the interaction may show nothing: this is what was sent)."""

    content: str | None
    titles: tuple[str, ...]

    @classmethod
    def of(cls, args: tuple, kwargs: dict) -> Said:
        content = args[0] if args else kwargs.get("content")
        embeds = kwargs.get("embeds") or ([kwargs["embed"]] if kwargs.get("embed") else [])
        return cls(None if content is None else str(content), tuple(embed.title or "" for embed in embeds))

    def retry_after(self) -> float | None:
        """The seconds a refusal tells the player to wait, or None when this is no refusal."""
        if self.titles or not self.content or "try again" not in self.content:
            return None
        told = RETRY_TEXT.search(self.content)
        return float(told[1]) if told else DEFAULT_RETRY_SECONDS


class Stopwatch:
    """Install it around the part being timed (``with Stopwatch() as watch:``); ``perf_counter`` seconds."""

    def __init__(self) -> None:
        self.acked: dict[str, float] = {}  # the first acknowledgement: a deferral or an answer
        self.deferred: set[str] = set()
        self.answered: dict[str, float] = {}  # the first answer the player sees (not a deferral)
        self.said: dict[str, Said] = {}  # what that answer held
        self.cards: dict[str, float] = {}  # the first answer holding a card (after a line saying it is coming, say)
        # The bot's own time on a command: its whole run minus the time spent waiting for the (fake) Discord to
        # take the acknowledgement and the answer.
        self.handling: dict[str, float] = {}
        self.in_discord: dict[str, float] = {}
        self._events: dict[str, asyncio.Event] = {}
        self._originals = (
            discord.InteractionResponse.defer,
            discord.InteractionResponse.send_message,
            discord.Interaction.edit_original_response,
            discord.Webhook.send,
            discord.app_commands.Command._invoke_with_namespace,
        )

    def _event(self, token: str) -> asyncio.Event:
        return self._events.setdefault(token, asyncio.Event())

    def _answer(self, token: str, called: float, said: Said) -> None:
        now = time.perf_counter()
        self.said.setdefault(token, said)
        self.acked.setdefault(token, now)
        self.answered.setdefault(token, now)
        self.in_discord[token] = self.in_discord.get(token, 0.0) + now - called
        self._event(token).set()
        if said.titles:
            self.cards.setdefault(token, now)
            self._event("card:" + token).set()

    def install(self) -> Stopwatch:
        defer, send_message, edit_original, send, invoke = self._originals
        watch = self

        async def timed_defer(response, *args, **kwargs):
            called = time.perf_counter()
            result = await defer(response, *args, **kwargs)
            token, now = response._parent.token, time.perf_counter()
            watch.acked.setdefault(token, now)
            watch.deferred.add(token)
            watch.in_discord[token] = watch.in_discord.get(token, 0.0) + now - called
            return result

        async def timed_send_message(response, *args, **kwargs):
            called = time.perf_counter()
            result = await send_message(response, *args, **kwargs)
            watch._answer(response._parent.token, called, Said.of(args, kwargs))
            return result

        async def timed_edit_original(interaction, *args, **kwargs):
            called = time.perf_counter()
            result = await edit_original(interaction, *args, **kwargs)
            watch._answer(interaction.token, called, Said.of(args, kwargs))
            return result

        async def timed_send(webhook, *args, **kwargs):
            called = time.perf_counter()
            result = await send(webhook, *args, **kwargs)
            watch._answer(webhook.token or "", called, Said.of(args, kwargs))
            return result

        async def timed_invoke(command, interaction, namespace):
            called = time.perf_counter()
            try:
                return await invoke(command, interaction, namespace)
            finally:
                watch.handling[interaction.token] = time.perf_counter() - called

        discord.InteractionResponse.defer = timed_defer
        discord.InteractionResponse.send_message = timed_send_message
        discord.Interaction.edit_original_response = timed_edit_original
        discord.Webhook.send = timed_send
        discord.app_commands.Command._invoke_with_namespace = timed_invoke
        return self

    def uninstall(self) -> None:
        (
            discord.InteractionResponse.defer,
            discord.InteractionResponse.send_message,
            discord.Interaction.edit_original_response,
            discord.Webhook.send,
            discord.app_commands.Command._invoke_with_namespace,
        ) = self._originals

    def __enter__(self) -> Stopwatch:
        return self.install()

    def __exit__(self, *exc: object) -> None:
        self.uninstall()

    async def wait_for_answer(self, token: str, within: float) -> bool:
        """Whether the interaction was answered within ``within`` seconds (by any path); a benchmark counts one
        that was not as unanswered and goes on, so it always gets to report."""
        try:
            await asyncio.wait_for(self._event(token).wait(), within)
        except TimeoutError:
            return False
        return True

    async def wait_for_card(self, token: str, within: float) -> bool:
        """Whether an answer holding a card came within ``within`` seconds of the clock on the wall (by any path, after
        other answers): a player's patience, which simcord's clock of the bot's timers must not shorten. A timer
        thread keeps it, so that waiting players add no work to the loop."""
        event = self._event("card:" + token)
        if event.is_set():
            return True
        loop = asyncio.get_running_loop()
        out_of_patience = asyncio.Event()
        timer = threading.Timer(within, loop.call_soon_threadsafe, args=(out_of_patience.set,))
        timer.daemon = True
        timer.start()
        waits = [asyncio.ensure_future(event.wait()), asyncio.ensure_future(out_of_patience.wait())]
        try:
            await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        finally:
            timer.cancel()
            for wait in waits:
                wait.cancel()
        return event.is_set()

    def bot_side(self, token: str) -> float | None:
        """Seconds the bot itself spent on the command, Discord's waits excluded; None when the command never
        ran (a check refused it: a cooldown, a full share)."""
        if token not in self.handling:
            return None
        return self.handling[token] - self.in_discord.get(token, 0.0)
