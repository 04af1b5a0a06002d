"""Fair shares of the bot's pools: quick work waits its turn in a short fair queue, and is refused only when its
turn would come too late.

Each kind of work that needs a pool (:data:`SEARCHES`, the user-written searches; :data:`LOOKUPS`, card lookups) is
a :class:`Share`: how many places there are (``places``), how many one user may hold (``per_user``), one server's
members together (``per_guild``) and everyone outside servers together (``outside``: DMs and group chats, one share
larger than a server's, because there is no server to share by), and a cooldown (``rate`` uses per ``per`` seconds
for one user, which the commands apply with discord.py's cooldowns).

:meth:`Admission.wait` hands out a :class:`Ticket` for one piece of work as soon as a place is free for it, or
raises :class:`Busy` when the deadline it is given comes first. Waiting work is served round-robin: the server (or
the outside share) with the fewest places held first, ties to the one served least recently, then within it the
user with the fewest, ties the same way; so one user's excess, or one server's, waits behind everyone else's first
piece. A server already holding
a place never takes the last ``reserve`` free ones: those are for servers with nothing running, so two busy servers
cannot hold every place. Heavy work (the caller says so, or its user's last piece held its place for half its
share's ``typical`` or more: marked for ``per`` seconds) holds at most :meth:`Share.heavy_limit` places, in all and
in its group, so light work always finds one: however many users, in DMs or servers of their own, keep slow
searches waiting, a quick one is never queued behind them. :meth:`Admission.enter` is the same without waiting (for
work that is not quick, such as a hint: told at once that it is busy).

Shares are per process: a user seen by two processes gets a share in each. Everything here runs on the event
loop (no locks); nothing here knows Discord.
"""

from __future__ import annotations

import asyncio
import math
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass, field

from bot.errors import UserFacingError
from bot.serving.pace import Budgets, monotonic
from bot.serving.shares import OUTSIDE, Share

FORGET_EVERY = 4096  # places handed out between sweeps of the turn marks of users and servers long gone
SLOW = 0.5  # of a share's ``typical`` seconds: a piece that held its place this long marks its user's next as heavy


class Busy(UserFacingError):
    """The work was refused; ``retry_after``: seconds after which trying again should be admitted."""

    def __init__(self, message: str, retry_after: float) -> None:
        super().__init__(message)
        self.retry_after = retry_after


@dataclass(eq=False)
class Ticket:
    """A place in a share, held until :meth:`release` (called once; later calls do nothing)."""

    share: Share
    user_id: int
    group: object
    started: float
    _release: Callable[[Ticket], None] = field(repr=False)
    heavy: bool = False
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


def group_of(guild_id: int | None) -> object:
    """The share a piece of work counts in: its server's, or everyone's outside servers."""
    return OUTSIDE if guild_id is None else guild_id


@dataclass(eq=False)
class _Waiter:
    user_id: int
    group: object
    turn: asyncio.Future[Ticket]
    heavy: bool = False


class _Queue:
    """One share's places and its waiting work, by group (server) and user, each in turn order."""

    def __init__(self, share: Share) -> None:
        self.share = share
        self.held: list[Ticket] = []
        self.by_user: Counter[int] = Counter()
        self.by_group: Counter[object] = Counter()
        self.heavy: Counter[object] = Counter()  # heavy places held: by group, and in all (key None)
        self.slow_until: dict[int, float] = {}  # users whose last piece ran long: heavy until then
        # group → user → that user's waiting work, oldest first.
        self.waiting: dict[object, dict[int, deque[_Waiter]]] = {}
        # When each user (by id) and group (by ("group", key)) was last handed a place, as a count of places handed.
        self.served: dict[object, int] = {}
        self.serves = 0

    def may_take(self, user_id: int, group: object, heavy: bool = False) -> bool:
        share, taken = self.share, len(self.held)
        if taken >= share.places or self.by_user[user_id] >= share.per_user:
            return False
        if self.by_group[group] >= share.group_limit(group):
            return False
        if heavy and (self.heavy[None] >= share.heavy_limit() or self.heavy[group] >= share.heavy_limit(group)):
            return False
        # A group already holding a place leaves the reserve to groups holding none.
        return not self.by_group[group] or share.places - taken - 1 >= share.reserve

    def waiting_count(self) -> int:
        return sum(len(line) for users in self.waiting.values() for line in users.values())

    def next_waiter(self) -> _Waiter | None:
        """The waiter whose turn it is: of the groups with one that may take a place, the one holding fewest, ties
        to the one served least recently; within it, the same by user."""
        candidates = []
        for group, users in self.waiting.items():
            eligible = [
                (self.by_user[user], self.served.get(user, -1), user)
                for user, line in users.items()
                if self.may_take(user, group, line[0].heavy)
            ]
            if eligible:
                candidates.append(
                    (self.by_group[group], self.served.get(("group", group), -1), group, min(eligible)[2])
                )
        if not candidates:
            return None
        _, _, group, user_id = min(candidates, key=lambda candidate: candidate[:2])
        users = self.waiting[group]
        waiter = users[user_id].popleft()
        if not users[user_id]:
            del users[user_id]
        if not users:
            del self.waiting[group]
        return waiter

    def mark_served(self, user_id: int, group: object) -> None:
        """Note a place handed out: turns go to whoever was served least recently. Old marks of users and groups
        with nothing held or waiting are forgotten now and then (forgotten, they come first: as they should)."""
        self.serves += 1
        self.served[user_id] = self.served[("group", group)] = self.serves
        if self.serves % FORGET_EVERY:
            return
        for key in [key for key, seq in self.served.items() if seq < self.serves - FORGET_EVERY]:
            del self.served[key]

    def remove(self, waiter: _Waiter) -> None:
        users = self.waiting.get(waiter.group)
        line = users.get(waiter.user_id) if users is not None else None
        if line is not None and waiter in line:
            line.remove(waiter)
            if not line:
                del users[waiter.user_id]
            if not users:
                del self.waiting[waiter.group]


class Admission:
    """The places taken in each share and the work waiting for one; ``clock`` is ``time.monotonic`` unless a test
    gives another (deadlines are on this clock)."""

    def __init__(self, clock: Callable[[], float] = monotonic) -> None:
        self.clock = clock
        self._queues: dict[str, _Queue] = {}
        self.refused: Counter[str] = Counter()  # refusals per share, for /about and the benchmarks
        self.waited: Counter[str] = Counter()  # pieces of work that waited for their place, per share
        self._budgets: dict[str, Budgets] = {}

    def spend(self, share: Share, user_id: int, uses: int = 1) -> float:
        """Spend ``uses`` of ``user_id``'s budget of ``share`` (``share.rate`` per ``share.per`` seconds, one budget
        for every command and message that asks for that kind of work): 0.0 when spent, else the seconds to wait."""
        budgets = self._budgets.get(share.name)
        if budgets is None:
            budgets = self._budgets[share.name] = Budgets(share.rate, share.per, self.clock)
        return budgets.spend(user_id, uses)

    def give_back(self, share: Share, user_id: int, uses: int = 1) -> None:
        """Return uses spent for work that was answered without a pool (input refused at once)."""
        budgets = self._budgets.get(share.name)
        if budgets is not None:
            budgets.give_back(user_id, uses)

    def _queue(self, share: Share) -> _Queue:
        queue = self._queues.get(share.name)
        if queue is None:
            queue = self._queues[share.name] = _Queue(share)
        return queue

    def in_flight(self, share: Share, user_id: int | None = None, *, guild_id: int | None = None) -> int:
        """Places held: by ``user_id``, else by server ``guild_id``, else by everyone."""
        queue = self._queue(share)
        if user_id is not None:
            return queue.by_user[user_id]
        if guild_id is not None:
            return queue.by_group[guild_id]
        return len(queue.held)

    def waiting(self, share: Share) -> int:
        return self._queue(share).waiting_count()

    def enter(self, share: Share, user_id: int, guild_id: int | None = None, *, heavy: bool = False) -> Ticket:
        """A ticket for ``user_id``'s piece of ``share``'s work (asked for in server ``guild_id``; None outside
        servers; ``heavy``: work expected to be slow) if a place is free for it now and nobody waits for one, else
        :class:`Busy` at once."""
        queue = self._queue(share)
        group, heavy = group_of(guild_id), self._heavy(queue, user_id, heavy)
        if queue.may_take(user_id, group, heavy) and not queue.waiting_count():
            return self._take(queue, user_id, group, heavy)
        raise self._busy(queue, user_id, group)

    def take_now(self, share: Share, user_id: int, guild_id: int | None, *, heavy: bool = False) -> Ticket | None:
        """A ticket if a place is free for this piece of work now (see :meth:`wait`), else None."""
        queue = self._queue(share)
        group, heavy = group_of(guild_id), self._heavy(queue, user_id, heavy)
        return self._take(queue, user_id, group, heavy) if queue.may_take(user_id, group, heavy) else None

    async def wait(
        self, share: Share, user_id: int, guild_id: int | None, deadline: float, *, heavy: bool = False
    ) -> Ticket:
        """A ticket for ``user_id``'s piece of ``share``'s work as soon as it is their turn and a place is free;
        :class:`Busy` when ``deadline`` (on :attr:`clock`) comes first. A piece that may take a place when it
        arrives takes it at once: everyone waiting is waiting on limits of their own, or there would be none."""
        queue = self._queue(share)
        group, heavy = group_of(guild_id), self._heavy(queue, user_id, heavy)
        if queue.may_take(user_id, group, heavy):
            return self._take(queue, user_id, group, heavy)
        remaining = deadline - self.clock()
        if remaining <= 0:
            raise self._busy(queue, user_id, group)
        loop = asyncio.get_running_loop()
        waiter = _Waiter(user_id, group, loop.create_future(), heavy)
        queue.waiting.setdefault(group, {}).setdefault(user_id, deque()).append(waiter)
        self.waited[share.name] += 1
        # The deadline resolves the turn with None, as asyncio.sleep resolves its own future (so whatever understands
        # a sleep, such as a simulated clock in tests, understands this wait); a place hands it a ticket first.
        deadline_timer = loop.call_later(remaining, asyncio.futures._set_result_unless_cancelled, waiter.turn, None)
        try:
            ticket = await waiter.turn
        except BaseException:
            queue.remove(waiter)
            if waiter.turn.done() and not waiter.turn.cancelled() and waiter.turn.result() is not None:
                waiter.turn.result().release()  # handed a place just as it was cancelled: given on
            raise
        finally:
            deadline_timer.cancel()
        if ticket is None:
            queue.remove(waiter)
            raise self._busy(queue, user_id, group)
        return ticket

    def _heavy(self, queue: _Queue, user_id: int, heavy: bool) -> bool:
        """Whether a piece of work counts as heavy (in a share that keeps places for light work): said to be, or its
        user's last piece ran long lately."""
        if not queue.share.light or heavy:
            return heavy and bool(queue.share.light)
        until = queue.slow_until.get(user_id)
        if until is not None and until <= self.clock():
            del queue.slow_until[user_id]
            return False
        return until is not None

    def _take(self, queue: _Queue, user_id: int, group: object, heavy: bool = False) -> Ticket:
        ticket = Ticket(queue.share, user_id, group, self.clock(), self._release, heavy)
        queue.mark_served(user_id, group)
        queue.held.append(ticket)
        queue.by_user[user_id] += 1
        queue.by_group[group] += 1
        if heavy:
            queue.heavy.update((None, group))
        return ticket

    def _release(self, ticket: Ticket) -> None:
        queue = self._queue(ticket.share)
        if ticket not in queue.held:
            return
        queue.held.remove(ticket)
        now, share = self.clock(), queue.share
        if share.light and now - ticket.started >= share.typical * SLOW:
            if len(queue.slow_until) >= FORGET_EVERY:
                queue.slow_until = {user: until for user, until in queue.slow_until.items() if until > now}
            queue.slow_until[ticket.user_id] = now + share.per
        counts = [(queue.by_user, ticket.user_id), (queue.by_group, ticket.group)]
        if ticket.heavy:
            counts += [(queue.heavy, None), (queue.heavy, ticket.group)]
        for counter, key in counts:
            counter[key] -= 1
            if counter[key] <= 0:
                del counter[key]
        while (waiter := queue.next_waiter()) is not None:  # handed over here, so no later arrival overtakes it
            if not waiter.turn.done():
                waiter.turn.set_result(self._take(queue, waiter.user_id, waiter.group, waiter.heavy))

    def _busy(self, queue: _Queue, user_id: int, group: object) -> Busy:
        share = queue.share
        self.refused[share.name] += 1
        now = self.clock()
        mine = [t for t in queue.held if t.user_id == user_id]
        if len(mine) >= share.per_user:
            retry = self._retry_after(mine, share, now)
            yours = share.yours.format(count=len(mine))
            return Busy(f"{yours}: try again in {seconds_text(retry)}, when it's done.", retry)
        # A server past its own share hears the same as everyone's being taken: it is busy, for them.
        retry = self._retry_after(queue.held, share, now)
        return Busy(f"I'm busy right now: try again in a moment (in {seconds_text(retry)}).", retry)

    @staticmethod
    def _retry_after(tickets: list[Ticket], share: Share, now: float) -> float:
        """When the first of ``tickets`` should be done, going by how long its kind of work usually takes."""
        ends = [ticket.started + share.typical for ticket in tickets]
        return max(1.0, min(ends, default=now + share.typical) - now)
