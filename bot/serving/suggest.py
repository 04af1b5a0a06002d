"""Autocomplete's turns: the suggestions shown while someone types run on the event loop (a name index, the rules
ranker: milliseconds each, tens at worst), so a flood of them would delay everyone's commands.

:class:`Suggestions` runs one at a time, in turn by user, each user with at most one waiting: a newer request from
the same user replaces the older one still waiting (Discord shows only the latest), and the older is told it has
no turn. Each user has one budget across every command's autocomplete; past it, or past the deadline, no turn.
No turn means an empty list of suggestions, never an error. Nothing here knows Discord.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from bot.serving.pace import Budgets, monotonic

RATE, PER = 25, 10.0  # a user's autocompletes per 10 s: fast typing in several commands, not a flood


class Suggestions:
    def __init__(self, rate: int = RATE, per: float = PER, clock: Callable[[], float] = monotonic) -> None:
        self.budgets = Budgets(rate, per, clock)
        self.clock = clock
        self.running = False
        # The users waiting, each with their latest request, in the order of their turns (a dict keeps it).
        self.waiting: dict[int, asyncio.Future[bool]] = {}
        self.superseded = 0
        self.over_budget = 0

    async def turn(self, user_id: int, deadline: float) -> bool:
        """True when it is this request's turn (the caller then runs it and calls :meth:`done`); False when the user
        is past their budget, a newer request of theirs replaced it, or ``deadline`` (on ``clock``) came first."""
        if self.budgets.spend(user_id):
            self.over_budget += 1
            return False
        older = self.waiting.pop(user_id, None)
        if older is not None and not older.done():
            self.superseded += 1
            older.set_result(False)
        if not self.running and not self.waiting:
            self.running = True
            return True
        remaining = deadline - self.clock()
        if remaining <= 0:
            return False
        loop = asyncio.get_running_loop()
        mine: asyncio.Future[bool] = loop.create_future()
        self.waiting[user_id] = mine
        # Resolved False at the deadline as asyncio.sleep resolves its own future (so a simulated clock understands it).
        timer = loop.call_later(remaining, asyncio.futures._set_result_unless_cancelled, mine, False)
        try:
            return await mine
        except BaseException:
            if mine.done() and not mine.cancelled() and mine.result():
                self.done()  # handed the turn just as it was cancelled: passed on
            raise
        finally:
            timer.cancel()
            if self.waiting.get(user_id) is mine:
                del self.waiting[user_id]

    def done(self) -> None:
        """The running request finished: the next user waiting takes the turn."""
        while self.waiting:
            user_id = next(iter(self.waiting))
            waiting = self.waiting.pop(user_id)
            if not waiting.done():
                waiting.set_result(True)
                return
        self.running = False
