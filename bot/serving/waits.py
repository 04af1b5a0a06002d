"""Work about to wait its turn for a service (Scryfall's rate limit) says so, so that whoever asked is told at once:
acknowledged without waiting for a timer, and told how long when it is long.

The one who asked sets what to do (``with on_wait(callback):``, for the work it runs); the work, however deep, calls
:func:`waiting` with the seconds it is about to wait. Nothing happens when nobody listens.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from contextvars import ContextVar

_listener: ContextVar[Callable[[float], None] | None] = ContextVar("waiting_listener", default=None)


def waiting(seconds: float) -> None:
    """Say that the work in hand waits ``seconds`` for its turn before it goes on."""
    listener = _listener.get()
    if listener is not None and seconds > 0:
        listener(seconds)


@contextlib.contextmanager
def on_wait(callback: Callable[[float], None]) -> Iterator[None]:
    """Call ``callback(seconds)`` (at once, on the caller's loop: it must not block) whenever the work run inside, or
    any task it starts, is about to wait for its turn."""
    token = _listener.set(callback)
    try:
        yield
    finally:
        _listener.reset(token)
