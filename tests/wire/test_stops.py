"""Clean stops of the real bot process: SIGTERM ends every process it started (the simulation pool's workers, their
resource tracker, a pool started while it was stopping), and a bot killed with SIGKILL leaves no worker behind: each
notices its parent is gone and exits by itself."""

from __future__ import annotations

import asyncio
import signal
import time

from tests.support.fake_discord import FakeDiscord
from tests.support.processes import command_line, descendants, linux_only, running, wait_until_ended
from tests.wire.test_lifecycle import wait_for_output

pytestmark = linux_only

SETTINGS = {"CARD_DATA_AUTO_UPDATE": "0", "RULES_AUTO_UPDATE": "0", "MANA_EMOJI": "0"}
# Generous ceilings for a busy machine; the figures measured on one are in the closing of each test's failure
# message, and the targets (10 s) in docs/scale.md.
CEILING = 60.0
ORPHAN_CEILING = 30.0


def simulate(games: int) -> list[dict]:
    sub = {"type": 1, "name": "simulate", "options": [{"name": "games", "type": 4, "value": games}]}
    return [sub]


async def ready(spawn_bot, fake: FakeDiscord):
    fake.wait_timeout = CEILING
    bot = await spawn_bot(**SETTINGS)
    await fake.wait_until_connected()
    await fake.wait_for(lambda r: r.method == "PUT" and r.path.endswith("/commands"))
    return bot


class Watch:
    """Every process below the bot's, as often as /proc can be read, until the bot exits."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.seen: set[int] = set()
        self.task = asyncio.create_task(self._watch())

    async def _watch(self) -> None:
        while True:
            self.seen |= descendants(self.pid)
            await asyncio.sleep(0.05)

    async def until(self, count: int) -> None:
        async with asyncio.timeout(CEILING):
            while len(self.seen) < count:  # noqa: ASYNC110 (other processes: nothing to await but /proc)
                await asyncio.sleep(0.05)

    def stop(self) -> set[int]:
        self.task.cancel()
        return self.seen

    async def all_ended(self, bot, since: float) -> tuple[float, float]:
        """Seconds from ``since`` until every process the bot started had ended, and until the bot itself had; the
        watch runs on meanwhile, so a pool started during the stop is counted too."""
        children = exited = since
        async with asyncio.timeout(CEILING):
            while True:
                now = time.monotonic()
                if any(running(pid) for pid in self.seen):
                    children = now
                if bot.process.returncode is None:
                    exited = now
                elif children < now:
                    break
                await asyncio.sleep(0.02)
        self.stop()
        return children - since, exited - since


def workers(pids: set[int]) -> list[str]:
    return [command_line(pid) for pid in pids]


async def test_sigterm_ends_every_process_the_bot_started_even_a_pool_started_while_it_was_stopping(
    spawn_bot, fake_discord: FakeDiscord
):
    bot = await ready(spawn_bot, fake_discord)
    watch = Watch(bot.process.pid)
    # The first simulation starts the pool (its two workers and the resource tracker) while the bot is stopping:
    # the interaction is in flight when SIGTERM comes, and the drain lets it go on.
    interaction = await fake_discord.send_interaction(
        fake_discord.command_interaction("goldfish", options=simulate(5000))
    )
    assert (await fake_discord.callback(interaction))["type"] == 5
    bot.process.send_signal(signal.SIGTERM)
    stopped = time.monotonic()
    await watch.until(2)
    children, exited = await watch.all_ended(bot, stopped)

    assert bot.process.returncode == 0, bot.stderr
    assert len(watch.seen) >= 2, workers(watch.seen)
    assert "Traceback" not in bot.stderr, bot.stderr
    print(
        f"SIGTERM, a simulation in flight: {len(watch.seen)} children ended in {children:.1f} s, the bot {exited:.1f} s"
    )


async def test_sigterm_ends_the_workers_of_a_pool_that_has_finished_its_work(spawn_bot, fake_discord: FakeDiscord):
    bot = await ready(spawn_bot, fake_discord)
    watch = Watch(bot.process.pid)
    interaction = await fake_discord.send_interaction(
        fake_discord.command_interaction("goldfish", options=simulate(50))
    )
    assert (await fake_discord.callback(interaction))["type"] == 5
    await wait_for_output(bot, "Simulated 50 games", CEILING)  # answered: the workers are idle
    await watch.until(2)

    bot.process.send_signal(signal.SIGTERM)
    children, exited = await watch.all_ended(bot, time.monotonic())

    assert bot.process.returncode == 0, bot.stderr
    assert "Traceback" not in bot.stderr, bot.stderr
    print(f"SIGTERM, idle workers: {len(watch.seen)} children ended in {children:.1f} s, the bot {exited:.1f} s")


async def test_workers_of_a_bot_killed_with_sigkill_exit_by_themselves(spawn_bot, fake_discord: FakeDiscord):
    bot = await ready(spawn_bot, fake_discord)
    watch = Watch(bot.process.pid)
    # Workers busy with a long simulation, and so unable to hear from a queue: only their own watch can end them.
    interaction = await fake_discord.send_interaction(
        fake_discord.command_interaction("goldfish", options=simulate(5000))
    )
    assert (await fake_discord.callback(interaction))["type"] == 5
    await watch.until(2)
    await asyncio.sleep(0.5)  # the workers at their games
    started = set(watch.seen)

    bot.process.send_signal(signal.SIGKILL)
    assert await bot.wait(CEILING) == -signal.SIGKILL
    watch.stop()
    took = await wait_until_ended(started, ORPHAN_CEILING)

    print(f"SIGKILL: the bot's {len(started)} children ended {took:.1f} s after it")


async def test_the_temporary_files_of_interrupted_updates_are_removed_when_the_bot_starts(
    spawn_bot, fake_discord: FakeDiscord, tmp_path
):
    data = tmp_path / "data"
    leftovers = [
        data / ".comprehensive-rules.txt.k9x2ab.tmp",  # kill -9 during `cyclebot rules update`
        data / "rules-editions" / ".comprehensive-rules-2026-01-16.txt.q1w2e3.tmp",
        data / "symbols" / ".mana_G.png.z8y7x6.tmp",  # a bot killed while it drew its symbols
        data / "symbols" / ".symbols.json.a1b2c3.tmp",
    ]
    for leftover in leftovers:
        leftover.parent.mkdir(parents=True, exist_ok=True)
        leftover.write_bytes(b"half of something")
    kept = data / "symbols" / "mana_U.png"
    kept.write_bytes(b"a picture drawn before")

    await ready(spawn_bot, fake_discord)

    assert [leftover.name for leftover in leftovers if leftover.exists()] == []
    assert kept.read_bytes() == b"a picture drawn before"
