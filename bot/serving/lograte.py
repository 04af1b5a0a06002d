"""Log lines a stranger can cause, at most one a minute: the next line says how many were left out.

A user who sends a search that trips a limit on purpose, a thousand times, must not fill the operator's log.
"""

from __future__ import annotations

import logging
import threading
import time


class RateLimitedLog:
    """``RateLimitedLog(log).warning("…%s", x)`` logs the first line, then at most one every ``seconds``."""

    def __init__(self, log: logging.Logger, seconds: float = 60.0) -> None:
        self.log = log
        self.seconds = seconds
        self._lock = threading.Lock()
        self._next = 0.0
        self._left_out = 0

    def warning(self, message: str, *args: object) -> bool:
        """Log ``message`` at WARNING unless a line was logged in the last ``seconds``; whether it was logged."""
        with self._lock:
            now = time.monotonic()
            if now < self._next:
                self._left_out += 1
                return False
            self._next = now + self.seconds
            left_out, self._left_out = self._left_out, 0
        if left_out:
            message += " (%d more like it in the last %g s were not logged)"
            args = (*args, left_out, self.seconds)
        self.log.warning(message, *args)
        return True
