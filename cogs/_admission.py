"""Fair shares on Discord (see :mod:`bot.serving.admission`): a command's use of its user's budget, decided before
anything is deferred so a refusal is answered at once and privately, and its place in a share, waited for in turn
and held only while the work that needs it runs.

* ``@fair_share(LOOKUPS, vet=...)`` under ``@app_commands.command``: the user's budget of the share (one budget for
  every command and message asking for that kind of work), then input that can be answered without a pool (a
  syntax error, a malformed set code), told at once and privately and given back its use of the budget. For a
  share without a queue (hints) the place is taken here too, refused at once when none is free, and held until the
  handler is done.
* ``async with place(interaction, LOOKUPS):`` around the work itself (reading the card data, a search): takes a
  free place at once, or acknowledges the interaction and waits for the user's turn, up to the share's ``wait``
  from the interaction's creation; past it :class:`Refused`, with the time to wait. The place is given back
  before the answer is sent: never held across a Discord round trip. Where only the card source knows which share
  the work needs (a search answered by the local copy or by Scryfall's API), ``turn_of(interaction)`` hands it
  the same as a :data:`bot.serving.Turn`; ``turns_of(interaction)`` shares one place a share among a request's
  pieces (the message command's references).
* :class:`MessageShares` for work a message asks for (inline ``[[card]]``): the author's budget, then the places
  its references need, waited for until a deadline the caller gives.

Autocomplete has a limit of its own (:mod:`cogs._autocomplete`).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import AsyncIterator, Callable, Mapping
from typing import TypeVar

import discord
from discord import app_commands

from bot.carddb import Asker
from bot.errors import UserFacingError
from bot.serving import Admission, Busy, RateLimitedLog, Share, Ticket, Turn, Turns
from cogs._ui import acknowledge_now, created_at

log = logging.getLogger(__name__)
quiet = RateLimitedLog(log)

F = TypeVar("F", bound=Callable)


class Refused(app_commands.CheckFailure, UserFacingError):
    """A command refused: its input answered without a pool, or its user's share or everyone's taken for longer
    than it may wait (then the text gives the time to wait). The text is the whole answer."""


# What a command's input alone decides: the sentence (markdown-escaped) that answers it, or None to go on.
Vet = Callable[[discord.Interaction], str | None]


def asker_of(what: discord.Interaction | discord.Message) -> Asker:
    """Who asked, for sharing the search threads fairly (``CardData.search``): the person and their server (a user
    install inside a server counts as that server: ``guild_id`` is set there)."""
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
    """A place in ``share`` for the interaction's user until its handler is done, refused at once (a
    :class:`Refused`: the error nets answer it privately) when none is free: for work that is not quick."""
    try:
        ticket = _admission(interaction.client).enter(share, interaction.user.id, interaction.guild_id)
    except Busy as busy:
        raise Refused(str(busy)) from None
    _hold_until_done(ticket)
    return ticket


async def _ticket(interaction: discord.Interaction, share: Share, *, heavy: bool = False) -> Ticket:
    """A place in ``share`` for the interaction's user (``heavy``: work expected to be slow), waited for in turn
    until ``share.wait`` seconds from the interaction's creation, the interaction acknowledged meanwhile;
    :class:`Refused` (answered privately by the error nets) past that."""
    admission = _admission(interaction.client)
    deadline = created_at(interaction) + (share.wait or 0.0)
    who = (share, interaction.user.id, interaction.guild_id)
    try:
        ticket = admission.take_now(*who, heavy=heavy)
        if ticket is None:  # in the queue at once; a wait there may pass a second: acknowledged meanwhile
            waiting = asyncio.ensure_future(admission.wait(*who, deadline, heavy=heavy))
            try:
                await acknowledge_now(interaction)
            except BaseException:
                waiting.cancel()
                if waiting.done() and not waiting.cancelled() and waiting.exception() is None:
                    waiting.result().release()  # handed a place just as this was cancelled: given on
                raise
            ticket = await waiting
    except Busy as busy:
        quiet.warning("Work was refused: its share stayed taken past its deadline (%s)", share.name)
        raise Refused(str(busy)) from None
    return ticket


@contextlib.asynccontextmanager
async def place(interaction: discord.Interaction, share: Share, *, heavy: bool = False) -> AsyncIterator[Ticket]:
    """A place in ``share`` for the block (see :func:`_ticket`), given back when the block ends."""
    with await _ticket(interaction, share, heavy=heavy) as ticket:
        yield ticket


def turn_of(interaction: discord.Interaction, *, heavy: bool = False) -> Turn:
    """The interaction's places, for the card source to wait for in whichever share its work turns out to need."""
    return functools.partial(place, interaction, heavy=heavy)


def turns_of(interaction: discord.Interaction, *, heavy: bool = False) -> Turns:
    """As :func:`turn_of`, one place a share shared by every piece of the interaction's work."""
    return Turns(functools.partial(_ticket, interaction, heavy=heavy))


def fair_share(share: Share, *, vet: Vet | None = None) -> Callable[[F], F]:
    """A command's use of its user's budget (``share.rate`` per ``share.per`` seconds, shared with every other
    command and message spending the same share) and ``vet``, checked in that order before it runs: a user past
    their budget is told so, and input ``vet`` answers is told at once and costs nothing of the budget. A share
    without a queue (``share.wait`` None) is also taken here, refused at once when full; a queued share's place is
    the handler's to wait for (:func:`place`), around the work that needs it."""

    async def budgeted_and_vetted(interaction: discord.Interaction) -> bool:
        admission = _admission(interaction.client)
        retry_after = admission.spend(share, interaction.user.id)
        if retry_after:  # answered by the error nets as discord.py's own cooldowns are
            raise app_commands.CommandOnCooldown(app_commands.Cooldown(share.rate, share.per), retry_after)
        answer = vet(interaction) if vet is not None else None
        if answer is not None:
            admission.give_back(share, interaction.user.id)
            raise Refused(answer)
        return True

    async def taken_now(interaction: discord.Interaction) -> bool:
        await admit(interaction, share)
        return True

    def decorator(func: F) -> F:
        # discord.py runs a command's checks in the order they were added: the innermost decorator's first.
        func = app_commands.check(budgeted_and_vetted)(func)
        return app_commands.check(taken_now)(func) if share.wait is None else func

    return decorator


class MessageShares:
    """Admission for the work messages ask for: the author's budgets (the same as their commands'), then places."""

    @staticmethod
    def spend(client: discord.Client, message: discord.Message, *shares: Share, uses: Mapping[Share, int]) -> None:
        """Spend the author's budget of each of ``shares`` (``uses``: how much of a share's budget the message
        spends, 1 unless given: a message asking for three searches spends three, as three /search commands
        would); :class:`Busy` (with the time to wait) past it, and nothing spent."""
        admission, spent = _admission(client), []
        for share in shares:
            count = uses.get(share, 1)
            retry_after = admission.spend(share, message.author.id, count)
            if retry_after:
                for earlier, earlier_count in spent:
                    admission.give_back(earlier, message.author.id, earlier_count)
                quiet.warning("Work asked for by messages is past a user's budget (%s)", share.name)
                raise Busy("Slow down a little.", retry_after)
            spent.append((share, count))

    @staticmethod
    def turns(client: discord.Client, message: discord.Message, deadline: float, *, heavy: bool = False) -> Turns:
        """The places the message's references need, one a share, each waited for in turn until ``deadline`` (on
        ``time.monotonic``'s clock) when a reference first needs it; :class:`Busy` past it."""
        guild_id = message.guild.id if message.guild is not None else None

        async def take(share: Share) -> Ticket:
            return await _admission(client).wait(share, message.author.id, guild_id, deadline, heavy=heavy)

        return Turns(take)
