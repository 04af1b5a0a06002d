"""Functions the sandbox tests run in a child process: each behaves as a hostile input makes a library behave. They
live in a module of their own because the child imports them by name."""

from __future__ import annotations

import ctypes
import os
import re
import time
from pathlib import Path


def add(a: int, b: int) -> int:
    return a + b


def hold_the_gil(seconds: float) -> int:
    """Catastrophic backtracking in ``re``, which never lets the GIL go while it matches, for about ``seconds``."""
    rounds = 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        re.match(r"(a+)+$", "a" * 22 + "b")
        rounds += 1
    return rounds


def fill_memory() -> int:
    kept = []
    while True:
        kept.append(bytearray(16 << 20))


def crash() -> None:
    ctypes.string_at(0)  # a read of address 0: SIGSEGV, as a C library meeting a deep recursion


def refuse(text: str) -> None:
    raise ValueError(text)


def what_it_inherits() -> tuple[dict[str, str], list[int]]:
    """Its environment, and its open file descriptors (beyond stdin, stdout and stderr)."""
    descriptors = []
    for name in os.listdir("/proc/self/fd"):
        try:
            os.fstat(int(name))
        except OSError:  # the listing's own descriptor, closed by now
            continue
        descriptors.append(int(name))
    return dict(os.environ), sorted(descriptors)


def where_it_runs() -> tuple[int, int, int, int]:
    """Its niceness, session, process group and process id."""
    return os.nice(0), os.getsid(0), os.getpgid(0), os.getpid()


def note_pid_then_sleep(path: str, seconds: float) -> None:
    Path(path).write_text(str(os.getpid()))
    time.sleep(seconds)


class Trap:
    """Unpickling this runs ``touch``: what a child taken over by its input could send back to the bot."""

    def __init__(self, path: str) -> None:
        self.path = path

    def __reduce__(self):
        return (Path.touch, (Path(self.path),))


def answer_with_a_trap(path: str) -> Trap:
    return Trap(path)


def draw_unless_told_to_crash(svgs: list[bytes]) -> list[bytes | str]:
    """:func:`bot.hosts.svg.render_many`, but a batch holding an SVG titled "crash" ends as a renderer's bug would
    end it (SIGSEGV): an SVG that passes every check and still breaks the library."""
    from bot.hosts.svg import render_many

    if any(b"<title>crash</title>" in svg for svg in svgs):
        crash()
    return render_many(svgs)
