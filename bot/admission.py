"""Fair shares of the bot's pools: work is admitted or refused at once, never queued behind one user's flood.

Each kind of work that needs a pool (:data:`SEARCHES`, the user-written searches; :data:`LOOKUPS`, card
lookups) is a :class:`Share`: how much may be in flight at once for everyone together (``capacity``), for one
server (``per_guild``: its members together, so a server's many accounts cannot take everyone's places) and for
one user (``per_user``), and a cooldown (``rate`` uses per ``per`` seconds for one user, which the commands
apply with discord.py's cooldowns). :meth:`Admission.enter` hands out a :class:`Ticket` for one piece of work,
or raises :class:`Busy` with a sentence and the seconds after which trying again should work. Autocomplete
never goes through here: it reads an index in well under a millisecond and is never refused.

Shares are per process: a user seen by two processes gets a share in each. Everything here runs on the event
loop (no locks); nothing here knows Discord.
"""

from __future__ import annotations

import math
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from bot.carddb import SEARCH_SECONDS, SEARCH_THREADS
from bot.errors import UserFacingError


@dataclass(frozen=True)
class Share:
    """One kind of work and its limits; ``typical`` is the seconds one piece usually holds its place (the
    retry time given when everyone's share is taken); ``yours`` tells a user their own share is taken
    (``{count}``: how many they have running); ``per_guild`` is None for no limit per server."""

    name: str
    yours: str
    capacity: int
    per_user: int
    rate: int
    per: float
    typical: float
    per_guild: int | None = None


# User-written searches: as many as the search threads can run, and as many again waiting (their budget counts
# from submission, so a wait is short or the search fails); a user holds at most two, fewer than there are
# threads, so one user can never take them all; one server's members together hold at most four, so a server
# (or a handful of accounts in it) always leaves places for every other server.
SEARCHES = Share(
    "searches",
    "You already have {count} searches running",
    capacity=2 * SEARCH_THREADS,
    per_user=2,
    rate=6,
    per=20.0,
    typical=SEARCH_SECONDS,
    per_guild=2 * SEARCH_THREADS - 2,
)
# Card lookups (/card, inline [[card]]): answered from an index in a millisecond or two, a fuzzy match or the
# API now and then; the limits only stop a flood (one server's members: half of everyone's places).
LOOKUPS = Share(
    "lookups",
    "You already have {count} card lookups running",
    capacity=32,
    per_user=4,
    rate=12,
    per=20.0,
    typical=1.0,
    per_guild=16,
)


class Busy(UserFacingError):
    """The work was refused at once; ``retry_after``: seconds after which trying again should be admitted."""

    def __init__(self, message: str, retry_after: float) -> None:
        super().__init__(message)
        self.retry_after = retry_after


@dataclass(eq=False)
class Ticket:
    """A place in a share, held until :meth:`release` (called once; later calls do nothing)."""

    share: Share
    user_id: int
    guild_id: int | None
    started: float
    _release: Callable[[Ticket], None] = field(repr=False)
    released: bool = False

    def release(self) -> None:
        if not self.released:
            self.released = True
            self._release(self)

    def __enter__(self) -> Ticket:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def seconds_text(seconds: float) -> str:
    whole = max(1, math.ceil(seconds))
    return f"{whole} second" if whole == 1 else f"{whole} seconds"


class Admission:
    """The places taken in each share, by user; ``clock`` is ``time.monotonic`` unless a test gives another."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._held: dict[str, list[Ticket]] = {}
        self._by_user: dict[str, Counter[int]] = {}
        # Places by server; None, everyone outside servers, counts as one server: accounts there are the easiest
        # to make many of.
        self._by_guild: dict[str, Counter[int | None]] = {}
        self.refused: Counter[str] = Counter()  # refusals per share, for /about and the benchmarks

    def in_flight(self, share: Share, user_id: int | None = None, *, guild_id: int | None = None) -> int:
        if user_id is not None:
            return self._by_user.get(share.name, Counter())[user_id]
        if guild_id is not None:
            return self._by_guild.get(share.name, Counter())[guild_id]
        return len(self._held.get(share.name, ()))

    def enter(self, share: Share, user_id: int, guild_id: int | None = None) -> Ticket:
        """A ticket for ``user_id``'s piece of ``share``'s work (asked for in server ``guild_id``; None outside
        servers, where everyone together has one server's share), or :class:`Busy` at once."""
        held = self._held.setdefault(share.name, [])
        mine = self._by_user.setdefault(share.name, Counter())
        ours = self._by_guild.setdefault(share.name, Counter())
        now = self.clock()
        if mine[user_id] >= share.per_user:
            self.refused[share.name] += 1
            retry = self._retry_after([t for t in held if t.user_id == user_id], share, now)
            yours = share.yours.format(count=mine[user_id])
            raise Busy(f"{yours}: try again in {seconds_text(retry)}, when it's done.", retry)
        if len(held) >= share.capacity or (share.per_guild is not None and ours[guild_id] >= share.per_guild):
            # A server past its own share hears the same as everyone's being taken: it is busy, for them.
            self.refused[share.name] += 1
            waiting_on = held if len(held) >= share.capacity else [t for t in held if t.guild_id == guild_id]
            retry = self._retry_after(waiting_on, share, now)
            raise Busy(f"I'm busy right now: try again in a moment (in {seconds_text(retry)}).", retry)
        ticket = Ticket(share, user_id, guild_id, now, self._release)
        held.append(ticket)
        mine[user_id] += 1
        ours[guild_id] += 1
        return ticket

    def _release(self, ticket: Ticket) -> None:
        held = self._held.get(ticket.share.name, [])
        if ticket in held:
            held.remove(ticket)
            for counts, key in ((self._by_user, ticket.user_id), (self._by_guild, ticket.guild_id)):
                count = counts[ticket.share.name]
                count[key] -= 1
                if count[key] <= 0:
                    del count[key]

    @staticmethod
    def _retry_after(tickets: list[Ticket], share: Share, now: float) -> float:
        """When the first of ``tickets`` should be done, going by how long its kind of work usually takes."""
        ends = [ticket.started + share.typical for ticket in tickets]
        return max(1.0, min(ends, default=now + share.typical) - now)
