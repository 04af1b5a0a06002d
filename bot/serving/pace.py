"""Rates over time: a user's budget of uses (``Budgets``: so many per so many seconds, whatever command or
message spends them) and the pace of answers in one place (``Pace``: a channel's inline lookups, where a message
past the pace is given a later turn rather than refused).

Both are sliding windows of the times uses were made; everything here runs on the event loop (no locks) and
knows nothing of Discord.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Hashable

SWEEP_EVERY = 1024  # spends between sweeps of the keys whose uses have all left the window


def monotonic() -> float:
    """``time.monotonic()``, looked up at each call (a test's simulated clock replaces it after this is imported)."""
    return time.monotonic()


class Budgets:
    """``rate`` uses per ``per`` seconds for each key (a user): :meth:`spend` takes them or says how long to wait."""

    def __init__(self, rate: int, per: float, clock: Callable[[], float] = monotonic) -> None:
        self.rate, self.per, self.clock = rate, per, clock
        self._uses: dict[Hashable, deque[float]] = {}
        self._spends = 0

    def _window(self, key: Hashable, now: float) -> deque[float]:
        uses = self._uses.setdefault(key, deque())
        while uses and uses[0] <= now - self.per:
            uses.popleft()
        return uses

    def spend(self, key: Hashable, uses: int = 1) -> float:
        """Spend ``uses`` of ``key``'s budget: 0.0 when spent, else the seconds until they would fit (nothing
        spent). More uses than the whole budget never fit: the wait is a whole window."""
        now = self.clock()
        self._sweep(now)
        window = self._window(key, now)
        if len(window) + uses <= self.rate:
            window.extend([now] * uses)
            return 0.0
        if uses > self.rate:
            return self.per
        # The oldest uses that must leave the window for these to fit.
        return max(0.0, window[len(window) + uses - self.rate - 1] + self.per - now)

    def give_back(self, key: Hashable, uses: int = 1) -> None:
        """Return the last ``uses`` spent (input answered without the work it was spent for)."""
        window = self._uses.get(key)
        for _ in range(min(uses, len(window or ()))):
            window.pop()  # type: ignore[union-attr]

    def left(self, key: Hashable) -> int:
        return self.rate - len(self._window(key, self.clock()))

    def _sweep(self, now: float) -> None:
        self._spends += 1
        if self._spends % SWEEP_EVERY:
            return
        for key in [key for key, uses in self._uses.items() if not uses or uses[-1] <= now - self.per]:
            del self._uses[key]


class Pace:
    """At most ``rate`` answers per ``per`` seconds in each place (a channel): :meth:`turn` gives a new piece of
    work the time it may be answered, at once or later in turn, or None when that would be more than
    ``longest_wait`` seconds away (then nothing is booked)."""

    def __init__(self, rate: int, per: float, longest_wait: float, clock: Callable[[], float] = monotonic) -> None:
        self.rate, self.per, self.longest_wait, self.clock = rate, per, longest_wait, clock
        self._booked: dict[Hashable, deque[float]] = {}  # per place: the times answered or booked, in order
        self._turns = 0

    def turn(self, key: Hashable) -> float | None:
        now = self.clock()
        self._turns += 1
        if not self._turns % SWEEP_EVERY:
            for place in [
                place for place, booked in self._booked.items() if not booked or booked[-1] <= now - self.per
            ]:
                del self._booked[place]
        booked = self._booked.setdefault(key, deque())
        while booked and booked[0] <= now - self.per:
            booked.popleft()
        at = now if len(booked) < self.rate else max(now, booked[-self.rate] + self.per)
        if at - now > self.longest_wait:
            if not booked:
                del self._booked[key]
            return None
        booked.append(at)
        return at

    def waiting(self, key: Hashable) -> int:
        """Turns booked in the future for ``key``."""
        now = self.clock()
        return sum(1 for at in self._booked.get(key, ()) if at > now)
