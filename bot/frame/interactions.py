"""Interactions in flight, unanswered and drained: what the bot does for every interaction besides its handler.

Every interaction passes through :meth:`InFlight._receive_interaction` first (the client routes discord.py's parser
through it). A click discord.py matched to nothing, or whose handlers all finished without answering, is told it
expired instead of showing "This interaction failed"; on shutdown :meth:`InFlight.drain` stops taking interactions
(newcomers hear "restarting") and gives those in flight a few seconds to answer.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

import discord

from cogs._ui import NO_MENTIONS, expired_answer, mark_received

log = logging.getLogger(__name__)

DRAIN_SECONDS = 8.0
EXPIRED = "This has expired: run the command again."
RESTARTING = "I'm restarting: try again in a moment."
# How discord.py names the tasks that run a command, a view's item, a dynamic item or a modal.
HANDLER_TASKS = ("CommandTree-invoker", "discord-ui-view-dispatch-", "discord-ui-dynamic-item-", "discord-ui-modal-")
# Component clicks (3) and modal submits (5) can be told they expired; autocomplete (4) cannot.
ANSWERABLE_TYPES = frozenset({3, 5})


class InFlight:
    """The bot's side of every interaction: a mixin of the client, which calls :meth:`start_watching` first."""

    _connection: discord.state.ConnectionState

    def start_watching(self) -> None:
        self.draining = False
        self._in_flight: dict[asyncio.Task, discord.Interaction] = {}
        self._watchers: set[asyncio.Task] = set()
        self._parsed: discord.Interaction | None = None

    def _receive_interaction(self, parse: Callable[[dict], None], data: dict) -> None:
        interaction = discord.Interaction(data=data, state=self._connection) if self.draining else None
        if interaction is not None:
            if data.get("type") in (2, *ANSWERABLE_TYPES):
                self._watch(self._answer_if_open(interaction, RESTARTING))
            return
        before = asyncio.all_tasks()
        self._parsed = None
        parse(data)
        # The tasks discord.py just started to handle this interaction (not, say, a view's timeout).
        handlers = {task for task in asyncio.all_tasks() - before if task.get_name().startswith(HANDLER_TASKS)}
        interaction, self._parsed = self._parsed, None
        if interaction is None:
            return
        for task in handlers:
            self._in_flight[task] = interaction
            task.add_done_callback(self._in_flight.pop)
        if data.get("type") in ANSWERABLE_TYPES:
            self._expire_if_unanswered(interaction, handlers)

    def dispatch(self, event_name: str, /, *args, **kwargs) -> None:
        if event_name == "interaction":
            # The Interaction discord.py built and handed to the handlers: its response state is theirs.
            self._parsed = args[0]
            mark_received(args[0])  # the acknowledging deadline and the queues' deadlines count from its creation
        super().dispatch(event_name, *args, **kwargs)

    def _watch(self, coroutine: Awaitable[None]) -> None:
        task = asyncio.create_task(coroutine)
        self._watchers.add(task)
        task.add_done_callback(self._watchers.discard)

    def _expire_if_unanswered(self, interaction: discord.Interaction, handlers: set[asyncio.Task]) -> None:
        """A click discord.py matched to nothing (a message edited meanwhile, a view from before a restart) or
        whose handlers all finished without answering would otherwise show "This interaction failed"."""
        remaining = set(handlers)

        def finished(task: asyncio.Task | None) -> None:
            remaining.discard(task)
            if not remaining and not interaction.response.is_done():
                said = expired_answer(str((interaction.data or {}).get("custom_id", "")))
                self._watch(self._answer_if_open(interaction, said or EXPIRED))

        if not handlers:
            finished(None)
        for task in handlers:
            task.add_done_callback(finished)

    async def _answer_if_open(self, interaction: discord.Interaction, message: str) -> None:
        if interaction.response.is_done():
            return
        try:
            await interaction.response.send_message(message, ephemeral=True, allowed_mentions=NO_MENTIONS)
        except discord.HTTPException as error:
            # A handler answered in the same instant, or the interaction timed out: either way nothing to add.
            log.debug("Could not answer interaction %s: %s", interaction.id, error.status)

    async def _follow_up(self, interaction: discord.Interaction, message: str) -> None:
        try:
            await interaction.followup.send(message, ephemeral=True, allowed_mentions=NO_MENTIONS)
        except discord.HTTPException as error:
            log.debug("Could not follow up interaction %s: %s", interaction.id, error.status)

    async def drain(self, grace: float = DRAIN_SECONDS) -> None:
        """Stop taking interactions (new ones hear "restarting"), and give those in flight ``grace`` seconds."""
        self.draining = True
        pending = set(self._in_flight)
        if pending:
            log.info("Shutting down: finishing %d interaction(s) in flight", len(pending))
            done, pending = await asyncio.wait(pending, timeout=grace)
        for task in pending:
            interaction = self._in_flight[task]
            if interaction.response.is_done():
                await self._follow_up(interaction, RESTARTING)
            else:
                await self._answer_if_open(interaction, RESTARTING)
            # Stopped here rather than by the closing database, which would make it report an error.
            task.cancel()
        if self._watchers:
            await asyncio.wait(set(self._watchers), timeout=grace)
        log.info("Shutting down: no interaction in flight")
