"""The sandbox for hostile input: a call in a child process that can freeze, crash or fill only itself."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest

from bot.runtime import BACKGROUND_NICE
from bot.runtime.sandbox import Limits, SandboxError, run_limited, run_limited_sync
from tests.support import sandboxed
from tests.support.processes import EXIT_TARGET, linux_only, running, wait_until_ended
from tests.support.waits import CEILING, SLACK

ROOT = Path(__file__).resolve().parents[2]
ROOMY = Limits(wall=CEILING, cpu=int(CEILING), memory=512 << 20)
# How long a child holds the GIL before its wall-clock limit kills it: in a thread of this process the event loop
# would stand still that long; a busy machine may hold the loop back for the suite's slack, never for all of it.
HOLD = 2 * SLACK


def test_a_call_returns_its_result():
    assert run_limited_sync(sandboxed.add, 2, 3, limits=ROOMY) == 5


async def test_a_call_that_holds_the_gil_leaves_the_event_loop_running_and_is_killed_at_its_wall_limit():
    gaps: list[float] = []

    async def tick() -> None:
        last = time.monotonic()
        while True:
            await asyncio.sleep(0.01)
            now = time.monotonic()
            gaps.append(now - last)
            last = now

    ticker = asyncio.create_task(tick())
    started = time.monotonic()
    try:
        with pytest.raises(SandboxError) as raised:
            limits = Limits(wall=HOLD, cpu=int(CEILING), memory=512 << 20)
            await run_limited(sandboxed.hold_the_gil, 6 * HOLD, limits=limits)
    finally:
        ticker.cancel()
    assert raised.value.reason == "timeout" and str(raised.value) == f"hold_the_gil took more than {HOLD:g} s"
    assert HOLD <= time.monotonic() - started < HOLD + SLACK  # not the whole call: killed at its limit
    assert len(gaps) > 20 and max(gaps) < SLACK, max(gaps)


def test_a_call_past_its_cpu_seconds_is_stopped_by_the_kernel():
    with pytest.raises(SandboxError) as raised:
        # A second of CPU may take many more of wall clock on a busy machine: the wall-clock limit is out of its way.
        run_limited_sync(sandboxed.hold_the_gil, 600.0, limits=Limits(wall=CEILING, cpu=1, memory=512 << 20))
    assert raised.value.reason == "cpu" and "more than 1 s of CPU" in str(raised.value)


def test_a_call_past_its_memory_is_refused_and_this_process_does_not_grow():
    with pytest.raises(SandboxError) as raised:
        run_limited_sync(sandboxed.fill_memory, limits=Limits(wall=CEILING, cpu=30, memory=256 << 20))
    assert raised.value.reason == "memory" and str(raised.value) == "fill_memory needed more than 256 MB"


def test_a_crash_is_the_childs_alone():
    with pytest.raises(SandboxError) as raised:
        run_limited_sync(sandboxed.crash, limits=ROOMY)
    assert raised.value.reason == "crashed" and str(raised.value) == "crash crashed (SIGSEGV)"


def test_an_exception_is_one_line_naming_it():
    with pytest.raises(SandboxError) as raised:
        run_limited_sync(sandboxed.refuse, "no\nway", limits=ROOMY)
    assert raised.value.reason == "failed" and str(raised.value) == "ValueError: no way"


def test_a_function_that_cannot_be_sent_is_refused_before_any_child_starts():
    with pytest.raises(SandboxError) as raised:
        run_limited_sync(lambda: 1, limits=ROOMY)
    assert raised.value.reason == "failed" and "can't be sent to a child process" in str(raised.value)


def test_a_child_that_cannot_be_started_is_a_sandbox_error_too(monkeypatch, tmp_path):
    monkeypatch.setattr(sys, "executable", str(tmp_path / "no-python-here"))
    with pytest.raises(SandboxError) as raised:
        run_limited_sync(sandboxed.add, 1, 2, limits=ROOMY)
    assert raised.value.reason == "failed"
    assert str(raised.value) == "add could not start a child (No such file or directory)"


@linux_only
def test_the_child_inherits_no_token_no_setting_and_no_socket(monkeypatch):
    monkeypatch.setenv("DISCORD_TOKEN", "MTE5.sandbox-test.token")
    monkeypatch.setenv("DATABASE_URL", "postgresql://bot:secret@db/bot")
    with socket.socket() as listening:
        listening.bind(("127.0.0.1", 0))
        listening.listen()
        os.set_inheritable(listening.fileno(), True)  # even a descriptor marked inheritable stays behind
        environment, descriptors = run_limited_sync(sandboxed.what_it_inherits, limits=ROOMY)
    assert "DISCORD_TOKEN" not in environment and "DATABASE_URL" not in environment
    assert "MTE5" not in str(environment)
    assert descriptors == [0, 1, 2]


@linux_only
def test_the_child_steps_aside_within_the_bots_session_in_a_process_group_of_its_own():
    nice, session, group, pid = run_limited_sync(sandboxed.where_it_runs, limits=replace(ROOMY, nice=BACKGROUND_NICE))
    assert nice == min(19, os.nice(0) + BACKGROUND_NICE), "as low as the goldfish review worker"
    assert session == os.getsid(0), "weighed against the bot's own threads, not apart from them"
    assert group == pid != os.getpgid(0), "a Ctrl-C in the terminal is the bot's, not the child's"
    assert run_limited_sync(sandboxed.where_it_runs, limits=ROOMY)[0] == os.nice(0)


def test_an_answer_that_would_run_code_when_read_is_refused(tmp_path: Path):
    trap = tmp_path / "ran"
    with pytest.raises(SandboxError) as raised:
        run_limited_sync(sandboxed.answer_with_a_trap, str(trap), limits=ROOMY)
    assert raised.value.reason == "failed" and "unreadable answer" in str(raised.value)
    assert not trap.exists()


@linux_only
async def test_cancelling_the_await_kills_the_child_at_once(tmp_path: Path):
    pid_file = tmp_path / "pid"
    call = asyncio.create_task(run_limited(sandboxed.note_pid_then_sleep, str(pid_file), 600.0, limits=ROOMY))
    async with asyncio.timeout(CEILING):
        while not pid_file.is_file() or not pid_file.read_text():  # noqa: ASYNC110 (the child's file: nothing to await)
            await asyncio.sleep(0.02)
    pid = int(pid_file.read_text())
    assert running(pid)

    call.cancel()
    with pytest.raises(asyncio.CancelledError):
        await call
    await wait_until_ended({pid}, CEILING)


PARENT = """
import sys
from bot.runtime.sandbox import Limits, run_limited_sync
from tests.support import sandboxed
run_limited_sync(sandboxed.note_pid_then_sleep, sys.argv[1], 600.0, limits=Limits(wall=600, cpu=600, memory=512 << 20))
"""


@linux_only
async def test_a_child_whose_parent_is_killed_ends_too(tmp_path: Path):
    pid_file = tmp_path / "pid"
    env = os.environ | {"PYTHONPATH": str(ROOT)}
    parent = await asyncio.create_subprocess_exec(sys.executable, "-c", PARENT, str(pid_file), cwd=ROOT, env=env)
    try:
        async with asyncio.timeout(CEILING):
            while not pid_file.is_file() or not pid_file.read_text():  # noqa: ASYNC110
                await asyncio.sleep(0.02)
        child = int(pid_file.read_text())
        assert running(child)

        parent.send_signal(signal.SIGKILL)
        await parent.wait()
        await wait_until_ended({child}, EXIT_TARGET + SLACK)  # it would sleep on for ten minutes
    finally:
        if parent.returncode is None:
            parent.kill()
            await parent.wait()
