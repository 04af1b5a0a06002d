"""How long a test waits for what it expects: until a condition holds, within one generous ceiling.

A test goes on the moment its condition holds, so a ceiling costs nothing when things go well: it is only how
long a test keeps waiting before it says that what it expected never came. The ceilings are long because a
2-core machine running the suite beside other work (a build, a second suite, a browser) can stall any process
for many seconds, and a test must fail on what it checks, never on how busy the machine is.

``TEST_PATIENCE`` in the environment multiplies every ceiling here (default 1): 2 on a very slow runner, 0.25
to hear sooner about a hang while working on one test.

Where a deadline is what a test checks (a 1 s timeout ends the request), the test keeps its check with
:data:`SLACK` seconds of room over the deadline, against a fake that holds on far longer (:data:`HANG`), so the
check still fails when the deadline is not enforced but not when the machine is slow.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def _patience() -> float:
    try:
        value = float(os.environ.get("TEST_PATIENCE") or 1)
    except ValueError:
        raise SystemExit("TEST_PATIENCE must be a number, such as 2") from None
    if not value > 0:
        raise SystemExit("TEST_PATIENCE must be more than 0")
    return value


PATIENCE = _patience()
# How long a test waits for one thing (a reply, a process to start or exit, the bot to go idle). Twice that for
# a long job (building a wheel, running a make target).
CEILING = 120.0 * PATIENCE
# How long one test may run in all before pytest-timeout stops it: several ceilings, for a test that waits for
# several things in turn; only a test that hangs reaches it.
TEST_LIMIT = 600.0 * PATIENCE
# Room over a deadline a test checks: a busy machine may start or end the timed work this much late.
SLACK = 5.0 * PATIENCE
# How long a fake host holds a request when a test checks that a deadline cuts it short: far past the deadline
# and its slack, so a deadline not enforced fails the check. Fakes let go of it when they stop.
HANG = 60.0


def clock() -> float:
    """Real seconds, for ceilings: simcord makes ``time.monotonic`` virtual inside the bot, never this."""
    return time.perf_counter()


async def until(condition: Callable[[], T], what: str, *, within: float = CEILING, every: float = 0.02) -> T:
    """``condition()`` as soon as it is truthy, checked every ``every`` seconds while the event loop runs the
    bot; an AssertionError naming ``what`` once ``within`` seconds have passed without it."""
    deadline = clock() + within
    while not (value := condition()):
        if clock() > deadline:
            raise AssertionError(f"waited {within:g} s in vain for {what}")
        await asyncio.sleep(every)
    return value


def until_sync(condition: Callable[[], T], what: str, *, within: float = CEILING, every: float = 0.02) -> T:
    """:func:`until` for a test that has no event loop of its own (the condition comes from a thread or a
    process)."""
    deadline = clock() + within
    while not (value := condition()):
        if clock() > deadline:
            raise AssertionError(f"waited {within:g} s in vain for {what}")
        time.sleep(every)
    return value
