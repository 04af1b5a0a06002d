"""Taking turns to start gateway sessions: in one process, and across processes sharing a real PostgreSQL."""

from __future__ import annotations

import asyncio
import logging
import time

import pytest

from bot.storage.postgres import PostgresDatabase
from bot.storage.starts import LocalStartGate, PostgresStartGate
from tests.support import waits

# The turns are spaced exactly; when each waiter wakes is not: a loaded machine may wake one seconds late and the
# next on time, so a gap seen by the waiters is the interval less the first one's lateness. With turns spaced
# more than the suite's slack apart, a gap may lose that slack and still be seen, and turns not kept (no gap at
# all) still fail the check.
INTERVAL = waits.SLACK + 1.0
FLOOR = INTERVAL - waits.SLACK


async def start_times(gates_and_shards) -> list[float]:
    """When each (gate, shard) got its turn, all asking at once, sorted."""

    async def turn(gate, shard: int) -> float:
        await gate.wait(shard)
        return time.monotonic()

    return sorted(await asyncio.gather(*(turn(gate, shard) for gate, shard in gates_and_shards)))


def gaps(times: list[float]) -> list[float]:
    return [later - earlier for earlier, later in zip(times, times[1:], strict=False)]


@pytest.fixture
async def two_processes(postgres_url):
    """Two connection pools to one database, as two bot processes have."""
    first, second = await PostgresDatabase.open(postgres_url), await PostgresDatabase.open(postgres_url)
    try:
        yield first, second
    finally:
        await first.close()
        await second.close()


async def test_processes_sharing_postgresql_take_turns(two_processes):
    gates = [PostgresStartGate(db, interval=INTERVAL) for db in two_processes]

    times = await start_times([(gates[0], 0), (gates[1], 1), (gates[0], 2), (gates[1], 3)])

    assert all(gap >= FLOOR for gap in gaps(times)), gaps(times)
    assert times[-1] - times[0] < 3 * INTERVAL + waits.SLACK  # turns follow each other, nobody waits longer


async def test_each_bucket_has_its_own_turns(two_processes):
    # max_concurrency 2: shards 0 and 2 share bucket 0, shards 1 and 3 bucket 1.
    gates = [PostgresStartGate(db, max_concurrency=2, interval=INTERVAL) for db in two_processes]

    # Different buckets: both at once. What each gate planned, which a busy machine's late wake-ups don't change.
    assert await asyncio.gather(gates[0].wait(0), gates[1].wait(1)) == [0, 0]

    times = await start_times([(gates[0], 2), (gates[1], 4)])
    assert times[1] - times[0] >= FLOOR


async def test_without_the_database_the_turns_are_kept_in_the_process(two_processes, caplog):
    first, _ = two_processes
    gate = PostgresStartGate(first, interval=INTERVAL)
    await first.close()

    with caplog.at_level(logging.WARNING, logger="bot.storage.starts"):
        times = await start_times([(gate, 0), (gate, 1)])

    assert times[1] - times[0] >= FLOOR
    assert "spacing starts here only" in caplog.text


async def test_one_process_spaces_its_own_starts():
    gate = LocalStartGate(interval=INTERVAL)
    assert await gate.wait(0) == 0  # the first start waits for nobody
    times = await start_times([(gate, 1), (gate, 2)])
    assert all(gap >= FLOOR for gap in gaps(times))
