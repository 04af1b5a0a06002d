"""Processes the bot starts end with it: a child that outlives its parent exits by itself, and a stopping bot ends
the children it still has.

A worker of a process pool blocks on its task queue forever once its parent is killed (``kill -9``, a crash, the
out-of-memory killer): nothing tells it the other end is gone. :func:`watch_parent` gives it a daemon thread that
notices (its parent's id changes when the parent dies: the orphan is adopted by init or a subreaper) and ends the
process. Linux can also have the kernel send a signal when the parent goes (``PR_SET_PDEATHSIG``), but the signal
comes when the *thread* that started the child ends, not the process, and a pool's workers are started from whatever
thread submits first: :func:`die_with_parent` is for children whose starting thread waits for them to end (the
sandbox), and falls back on the watching thread elsewhere.

:func:`start_worker` is a pool worker's initializer (the watch, and a lower priority), :func:`end_pool` stops a
pool without waiting for the work in progress, and :func:`end_children` is the last net of a stop: every
``multiprocessing`` child still running (a pool started while the bot was shutting down, say) is terminated, then
killed.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import logging
import multiprocessing
import os
import signal
import sys
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import resource_tracker

log = logging.getLogger(__name__)

WATCH_SECONDS = 0.5  # an orphan notices within this (a worker busy in C code, once the GIL is free again)
BACKGROUND_NICE = 19  # the lowest priority: work nobody waits for (a game's review, drawing the mana symbols)
PR_SET_PDEATHSIG = 1
ORPHAN_EXIT_CODE = 3


def watch_parent(parent: int | None = None, interval: float = WATCH_SECONDS) -> threading.Thread:
    """Exit this process (at once, without cleanup: there is nobody left to report to) when ``parent`` (this
    process's parent now, by default) is no longer its parent."""
    parent = os.getppid() if parent is None else parent
    if os.getppid() != parent:
        os._exit(ORPHAN_EXIT_CODE)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(interval)
        os._exit(ORPHAN_EXIT_CODE)

    thread = threading.Thread(target=watch, name="parent-watch", daemon=True)
    thread.start()
    return thread


def die_with_parent(parent: int) -> None:
    """Have the kernel kill this process when the thread that started it ends (Linux), and watch ``parent`` with a
    thread as well (every system: it also covers a parent that died before the kernel was asked)."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:
        os._exit(ORPHAN_EXIT_CODE)
    watch_parent(parent)


def start_worker(nice: int, parent: int) -> None:
    """A pool worker's first act (its ``initializer``): end with the bot ``parent`` (its id, given by the bot: a
    worker still starting when the bot was killed has been adopted already), then step aside by ``nice``."""
    watch_parent(parent)
    if nice:
        os.nice(nice)


def end_pool(executor: ProcessPoolExecutor, grace: float = 2.0) -> None:
    """Stop ``executor`` without waiting for the work its workers are doing: they are ended, not finished (a
    stopping bot must not wait minutes for a simulation nobody will read)."""
    terminate = getattr(executor, "terminate_workers", None)  # Python 3.14
    if terminate is not None:
        terminate()
        return
    workers = list((getattr(executor, "_processes", None) or {}).values())
    executor.shutdown(wait=False, cancel_futures=True)
    for worker in workers:
        with contextlib.suppress(OSError, ValueError, AttributeError):
            worker.terminate()
    for worker in workers:
        with contextlib.suppress(OSError, ValueError, AttributeError, AssertionError):
            worker.join(grace)


def end_children(grace: float = 2.0) -> int:
    """Terminate every ``multiprocessing`` child of this process still running, kill those still there after
    ``grace`` seconds, and wait for them; how many there were."""
    children = multiprocessing.active_children()
    for child in children:
        with contextlib.suppress(OSError, ValueError):
            child.terminate()
    deadline = time.monotonic() + grace
    for child in children:
        child.join(max(0.0, deadline - time.monotonic()))
        if child.is_alive():
            with contextlib.suppress(OSError, ValueError):
                child.kill()
            child.join(grace)
    if children:
        log.info("Stopped %d worker process(es) still running", len(children))
    _stop_resource_tracker()
    return len(children)


def _stop_resource_tracker() -> None:
    """End multiprocessing's resource tracker now rather than when this process has finished exiting (seconds
    later on a busy machine: the tracker waits for every holder of its pipe to close it). Its ``_stop`` is not
    public, but the same in every supported Python; without it the tracker ends a little later, by itself."""
    tracker = getattr(resource_tracker, "_resource_tracker", None)
    stop = getattr(tracker, "_stop", None)
    if stop is not None and getattr(tracker, "_pid", None) is not None:
        with contextlib.suppress(Exception):  # whatever it meets, the tracker still ends with this process
            stop()
