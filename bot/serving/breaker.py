"""A circuit breaker for a service the bot calls (Scryfall's API, an operator's language model): after
:data:`CIRCUIT_FAILURES` failed requests in a row (from any callers), nothing is sent for a while (doubled while it
keeps failing, up to :data:`MAX_CIRCUIT_SECONDS`), so a storm of errors is answered at once instead of multiplied by
the retries of everyone queued behind it. A success closes it."""

from __future__ import annotations

import time
from collections.abc import Callable

CIRCUIT_FAILURES = 3
MAX_CIRCUIT_SECONDS = 120.0


class Breaker:
    """``seconds``: the first pause; ``clock`` is ``time.monotonic`` unless a test gives another."""

    def __init__(self, seconds: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.seconds = float(seconds)
        self.clock = clock
        self.failures = 0  # failed requests in a row
        self._open_until = 0.0

    def open_for(self) -> float:
        """Seconds left during which nothing is sent (0 when requests go out)."""
        return max(0.0, self._open_until - self.clock())

    def failed(self) -> float:
        """Count a failed request; the seconds of the pause it opened, or 0 when it opened none."""
        self.failures += 1
        if self.failures < CIRCUIT_FAILURES or self.open_for():
            return 0.0
        rounds = self.failures - CIRCUIT_FAILURES
        pause = min(self.seconds * 2 ** min(rounds, 16), max(MAX_CIRCUIT_SECONDS, self.seconds))
        self._open_until = self.clock() + pause
        return pause

    def succeeded(self) -> None:
        self.failures = 0
        self._open_until = 0.0
