"""A sandbox for hostile input: a function run in a child process that can't freeze, crash or fill the bot.

Drawing an SVG or reading a PDF from another host runs a library written for well-meaning files. A hostile file can
make it hold the GIL for minutes, crash the process with a deep recursion, or ask for gigabytes. Here
``await run_limited(func, *args, limits=Limits(wall=5, cpu=5, memory=512 << 20))`` runs ``func(*args)`` in a fresh
interpreter and returns its result; the child is killed past its wall-clock limit, and the kernel stops it past its
CPU seconds (``RLIMIT_CPU``) and address space (``RLIMIT_AS``). Anything that goes wrong is a :class:`SandboxError`
whose ``reason`` says what: ``"timeout"``, ``"cpu"``, ``"memory"``, ``"crashed"`` (a signal such as SIGSEGV) or
``"failed"`` (``func`` raised, or the child could not start).

The child inherits nothing it does not need: a new interpreter (no fork of the bot's memory, threads or locks), in
isolated mode, with an environment of its own (no token), no file descriptor but its three pipes, no core dumps and
no file it writes past a megabyte. It dies with its parent (:func:`bot.runtime.lifeline.die_with_parent`). It may
step aside (``Limits.nice``), as the goldfish review worker does: it stays in the bot's session (where the kernel
weighs its priority against the bot's own threads, not apart from them) in a process group of its own (a Ctrl-C in
the terminal is the bot's to handle, not the child's). The waiting runs in a thread: the event loop never blocks,
and cancelling the await kills the child.

``func`` is a top-level function of an importable module (it is pickled by name). The result must be plain data:
``None``, booleans, numbers, strings, bytes, and lists, tuples, sets and dicts of them. It is read back by an
unpickler that refuses every class, so a child taken over by its input can't make the bot run anything.
"""

from __future__ import annotations

import asyncio
import io
import logging
import os
import pickle
import signal
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable
from dataclasses import astuple, dataclass
from pathlib import Path
from typing import Any, Literal

log = logging.getLogger(__name__)

Reason = Literal["timeout", "memory", "cpu", "crashed", "failed"]
STDERR_BYTES = 1 << 20  # what the child may write to stderr (RLIMIT_FSIZE on its stderr file)
STDERR_KEPT = 2000  # the end of it, read back to tell running out of memory from another crash
# The child's first lines: stdlib only, before anything of the caller's is imported.
BOOT = (
    "import pickle, sys; header = pickle.load(sys.stdin.buffer); sys.path[:] = header['path']; "
    "import bot.runtime.sandbox; bot.runtime.sandbox._child(header)"
)
MEMORY_WORDS = ("MemoryError", "memory allocation of", "Cannot allocate memory", "out of memory", "bad_alloc")


@dataclass(frozen=True)
class Limits:
    """What a sandboxed call may take: ``wall`` seconds of wall clock from the child's start, its interpreter's start
    included (about 0.1 s, more on a busy machine), then the child is killed; ``cpu`` seconds of CPU (``RLIMIT_CPU``,
    its interpreter's start included: about 0.25 s); ``memory`` bytes of address space (``RLIMIT_AS``: the
    interpreter itself takes about 30 MB of it); ``nice``: how much lower than the bot's its scheduling priority is
    (:data:`bot.runtime.lifeline.BACKGROUND_NICE` for work nobody waits for)."""

    wall: float
    cpu: int
    memory: int
    nice: int = 0


class SandboxError(Exception):
    """The sandboxed call gave no result; ``reason`` says why (see the module), ``str(e)`` in one line."""

    def __init__(self, reason: Reason, message: str) -> None:
        super().__init__(" ".join(message.split()))
        self.reason: Reason = reason


async def run_limited(func: Callable[..., Any], *args: Any, limits: Limits) -> Any:
    """``func(*args)`` in a limited child process, awaited without blocking the loop; raises SandboxError."""
    child = _Child(func, args, limits)
    try:
        return await asyncio.to_thread(child.run)
    finally:
        child.kill()  # cancelled, say: the child goes now, not at its wall-clock limit


def run_limited_sync(func: Callable[..., Any], *args: Any, limits: Limits) -> Any:
    """``func(*args)`` in a limited child process, waited for (the terminal, worker threads); raises SandboxError."""
    return _Child(func, args, limits).run()


class _Child:
    def __init__(self, func: Callable[..., Any], args: tuple, limits: Limits) -> None:
        self.func, self.args, self.limits = func, args, limits
        self.name = getattr(func, "__qualname__", repr(func))
        self._lock = threading.Lock()
        self._process: subprocess.Popen | None = None
        self._killed = False

    def kill(self) -> None:
        with self._lock:
            self._killed = True
            if self._process is not None and self._process.poll() is None:
                self._process.kill()

    def run(self) -> Any:
        try:
            payload = pickle.dumps((self.func, self.args), protocol=pickle.HIGHEST_PROTOCOL)
        except (pickle.PicklingError, TypeError, AttributeError) as error:
            raise SandboxError("failed", f"{self.name} can't be sent to a child process: {error}") from None
        header = {"path": _import_path(), "parent": os.getpid(), "limits": astuple(self.limits), "name": self.name}
        with tempfile.TemporaryFile() as stderr:
            with self._lock:
                if self._killed:
                    raise SandboxError("failed", f"{self.name} was cancelled before it started")
                try:
                    self._process = process = subprocess.Popen(
                        [sys.executable, "-I", "-c", BOOT],
                        stdin=subprocess.PIPE,
                        stdout=subprocess.PIPE,
                        stderr=stderr,
                        env=_environment(),
                        cwd=tempfile.gettempdir(),
                        close_fds=True,
                        process_group=0,  # a Ctrl-C in the terminal is the bot's to handle, not the child's
                    )
                except OSError as error:  # no process to be had: too many, no memory, no interpreter
                    raise SandboxError("failed", f"{self.name} could not start a child ({error.strerror})") from None
            try:
                out, _ = process.communicate(pickle.dumps(header) + payload, timeout=self.limits.wall)
            except subprocess.TimeoutExpired:
                process.kill()
                process.communicate()
                raise SandboxError("timeout", f"{self.name} took more than {self.limits.wall:g} s") from None
            stderr.seek(max(0, stderr.seek(0, io.SEEK_END) - STDERR_KEPT))
            tail = stderr.read().decode("utf-8", "replace")
        return self._result(process.returncode, out, tail)

    def _result(self, code: int, out: bytes, tail: str) -> Any:
        if self._killed:
            raise SandboxError("failed", f"{self.name} was cancelled")
        if code == 0 and out:
            try:
                status, value = _PlainUnpickler(io.BytesIO(out)).load()
            except Exception as error:  # anything a garbled or hostile answer can raise
                raise SandboxError("failed", f"{self.name} gave an unreadable answer ({error})") from None
            if status == "ok":
                return value
            raise SandboxError(status, value)
        if code < 0:
            number = -code
            if number in (signal.SIGABRT, signal.SIGKILL, signal.SIGSEGV) and _out_of_memory(tail):
                raise SandboxError("memory", f"{self.name} needed more than {self.limits.memory >> 20} MB")
            # SIGXCPU at the soft CPU limit; SIGKILL, not sent by us, at the hard one a second later.
            if number in (signal.SIGXCPU, signal.SIGKILL):
                raise SandboxError("cpu", f"{self.name} used more than {self.limits.cpu} s of CPU")
            try:
                name = signal.Signals(number).name
            except ValueError:
                name = f"signal {number}"
            raise SandboxError("crashed", f"{self.name} crashed ({name})")
        if _out_of_memory(tail):
            raise SandboxError("memory", f"{self.name} needed more than {self.limits.memory >> 20} MB")
        last = tail.strip().splitlines()[-1:] or [f"exit code {code}"]
        log.debug("Sandboxed %s ended with exit code %s: %s", self.name, code, tail[-500:])
        raise SandboxError("failed", f"{self.name} failed: {last[0][:200]}")


def _out_of_memory(tail: str) -> bool:
    return any(word in tail for word in MEMORY_WORDS)


def _import_path() -> list[str]:
    """The parent's import path, relative entries made absolute (the child runs elsewhere), this package's root
    first: the child imports ``func`` as the parent would."""
    root = str(Path(__file__).resolve().parents[1])
    return [root, *(os.path.abspath(entry) if isinstance(entry, str) else entry for entry in sys.path)]


def _environment() -> dict[str, str]:
    """Only what an interpreter needs: nothing of the bot's settings, and no token."""
    keep = ("PATH", "SYSTEMROOT", "TMPDIR", "TEMP", "TMP")  # SYSTEMROOT: Windows can't start Python without it
    env = {key: os.environ[key] for key in keep if key in os.environ}
    return env | {"LC_ALL": "C.UTF-8", "PYTHONIOENCODING": "utf-8"}


class _PlainUnpickler(pickle.Unpickler):
    """Plain data only: a pickle naming any class or function (what a taken-over child would send) is refused."""

    def find_class(self, module: str, name: str) -> Any:
        raise pickle.UnpicklingError(f"refusing {module}.{name}")


# ------------------------------------------------------------------ in the child


def _limit(limits: Limits) -> None:
    try:
        import resource
    except ImportError:  # Windows: the wall-clock limit alone
        return
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the file limit fails instead of killing
    for which, value in (
        (resource.RLIMIT_CPU, (limits.cpu, limits.cpu + 1)),  # SIGXCPU at the soft limit, SIGKILL a second later
        (resource.RLIMIT_AS, (limits.memory, limits.memory)),
        (resource.RLIMIT_CORE, (0, 0)),
        (resource.RLIMIT_FSIZE, (STDERR_BYTES, STDERR_BYTES)),
    ):
        try:
            resource.setrlimit(which, value)
        except (ValueError, OSError):  # a limit the system won't lower this far: the others still hold
            log.debug("Could not set resource limit %s", which)
    if limits.nice:
        try:
            os.nice(limits.nice)
        except OSError:  # a system that won't lower it: the limits above still hold
            log.debug("Could not lower the child's priority")


def _child(header: dict) -> None:
    """The child's side: limits, the parent watch, then the call; its answer pickled to stdout."""
    from bot.runtime.lifeline import die_with_parent

    die_with_parent(header["parent"])
    _limit(Limits(*header["limits"]))
    out = sys.stdout.buffer
    try:
        func, args = pickle.load(sys.stdin.buffer)
        answer: tuple[str, Any] = ("ok", func(*args))
        data = pickle.dumps(answer, protocol=pickle.HIGHEST_PROTOCOL)
    except MemoryError:
        data = pickle.dumps(("memory", f"{header['name']} needed more than {header['limits'][2] >> 20} MB"))
    except BaseException as error:  # noqa: BLE001 (every failure is the caller's to hear about, in one line)
        data = pickle.dumps(("failed", f"{type(error).__name__}: {error}"[:300]))
    out.write(data)
    out.flush()
    os._exit(0)  # no interpreter teardown: nothing to clean up, and a hostile library's destructors are not run
