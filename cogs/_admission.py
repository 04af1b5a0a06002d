"""Fair shares on Discord (see :mod:`bot.admission`): a command's cooldown and its place in a pool, decided before
anything is deferred, so a refusal is answered at once and privately, with the time to wait.

* ``@fair_share(SEARCHES, vet=...)`` under ``@app_commands.command``: a per-user cooldown (discord.py's), then
  input that can be answered without a pool (a syntax error, a malformed set code), told at once and privately
  and given back its use of the cooldown, then a place in the share, held until the command's handler is done
  (whatever way it ends). The input is read only within the cooldown, so a flood is not parsed.
* ``await admit(interaction, SEARCHES)`` first thing in a button's callback: the same place, no cooldown.
* :class:`MessageShares` for work a message asks for (inline ``[[card]]``): the same limits; a refusal is the
  caller's to show (a reaction, not a reply: a reply to each message of a flood would be the flood).

Autocomplete is never refused: discord.py runs a command's checks for the command, not for its autocomplete.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping
from typing import TypeVar

import discord
from discord import app_commands
from discord.ext import commands

from bot.admission import Admission, Busy, Share, Ticket
from bot.carddb import Asker
from bot.errors import UserFacingError
from bot.lograte import RateLimitedLog

log = logging.getLogger(__name__)
quiet = RateLimitedLog(log)

F = TypeVar("F", bound=Callable)


class Refused(app_commands.CheckFailure, UserFacingError):
    """A command refused before it ran: its input answered without a pool, or its user's share or everyone's
    taken (then the text gives the time to wait). The text is the whole answer."""


# What a command's input alone decides: the sentence (markdown-escaped) that answers it, or None to go on.
Vet = Callable[[discord.Interaction], str | None]


def asker_of(what: discord.Interaction | discord.Message) -> Asker:
    """Who asked, for sharing the search threads fairly (``CardData.search``): the person and their server."""
    if isinstance(what, discord.Message):
        return Asker(what.author.id, what.guild.id if what.guild is not None else None)
    return Asker(what.user.id, what.guild_id)


def _admission(client: discord.Client) -> Admission:
    return client.admission  # type: ignore[attr-defined]


def _hold_until_done(ticket: Ticket) -> None:
    """Release ``ticket`` when the task handling the interaction ends: returned, raised or cancelled."""
    task = asyncio.current_task()
    if task is None:  # pragma: no cover - checks and callbacks always run in a task
        ticket.release()
        return
    task.add_done_callback(lambda _: ticket.release())


async def admit(interaction: discord.Interaction, share: Share) -> Ticket:
    """A place in ``share`` for the interaction's user until its handler is done; :class:`Refused` at once
    (a :class:`UserFacingError`: the error nets answer it privately) when their share or everyone's is taken."""
    try:
        ticket = _admission(interaction.client).enter(share, interaction.user.id, interaction.guild_id)
    except Busy as busy:
        raise Refused(str(busy)) from None
    _hold_until_done(ticket)
    return ticket


def fair_share(share: Share, *, vet: Vet | None = None) -> Callable[[F], F]:
    """A command's per-user cooldown (discord.py's), ``vet`` and its place in ``share``, checked in that order
    before it runs: a user past their cooldown is told so and takes no place, and input ``vet`` answers is told
    at once and costs nothing of the cooldown or the share."""
    cooldowns = commands.CooldownMapping.from_cooldown(share.rate, share.per, lambda interaction: interaction.user.id)

    async def cooled_and_vetted(interaction: discord.Interaction) -> bool:
        bucket = cooldowns.get_bucket(interaction)
        if bucket is None:  # pragma: no cover - keyed by user, always a bucket
            return True
        retry_after = bucket.update_rate_limit()
        if retry_after:
            raise app_commands.CommandOnCooldown(bucket, retry_after)
        answer = vet(interaction) if vet is not None else None
        if answer is not None:
            if bucket.get_tokens() < bucket.rate:
                bucket.update_rate_limit(tokens=-1)  # the use given back (discord.py's cooldowns have no refund)
            raise Refused(answer)
        return True

    async def place(interaction: discord.Interaction) -> bool:
        await admit(interaction, share)
        return True

    def decorator(func: F) -> F:
        # discord.py runs a command's checks in the order they were added: the innermost decorator's first.
        func = app_commands.check(cooled_and_vetted)(func)
        return app_commands.check(place)(func)

    return decorator


class MessageShares:
    """Admission for the work messages ask for, per user: a cooldown, then places in shares."""

    def __init__(self, *shares: Share) -> None:
        self.cooldowns = {
            share.name: commands.CooldownMapping.from_cooldown(share.rate, share.per, commands.BucketType.user)
            for share in shares
        }

    def admit(
        self, client: discord.Client, message: discord.Message, *shares: Share, uses: Mapping[Share, int] | None = None
    ) -> list[Ticket]:
        """A ticket in each of ``shares`` for the message's author, held by the caller until the work is done;
        :class:`Busy` (with the time to wait) when the author's cooldown or a share refuses. ``uses``: how much of
        a share's cooldown the message spends (1 unless given: a message asking for three searches spends three,
        as three /search commands would)."""
        for share in shares:
            bucket = self.cooldowns[share.name].get_bucket(message)
            retry_after = bucket.update_rate_limit(tokens=(uses or {}).get(share, 1)) if bucket is not None else None
            if retry_after:
                quiet.warning("Work asked for by messages is cooling down for a user (%s)", share.name)
                raise Busy("Slow down a little.", retry_after)
        tickets: list[Ticket] = []
        try:
            for share in shares:
                guild_id = message.guild.id if message.guild is not None else None
                tickets.append(_admission(client).enter(share, message.author.id, guild_id))
        except Busy:
            for ticket in tickets:
                ticket.release()
            quiet.warning("Work asked for by a message was refused: the share is taken")
            raise
        return tickets
