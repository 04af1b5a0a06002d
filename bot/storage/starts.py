"""Taking turns to start gateway sessions, across every process of one bot.

Discord lets a bot start (IDENTIFY) one session per bucket every 5 seconds, the bucket being
``shard_id % max_concurrency``; the limit is the bot's, whichever process the shards run in, and a
start too soon is refused. One process spaces its own starts; processes sharing a PostgreSQL database
take their turn from a row per bucket (``gateway_starts``, migration 0003), timed by the server's clock
so the processes' clocks never matter, the way they share Scryfall's budget.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.storage.postgres import PostgresDatabase

log = logging.getLogger(__name__)

# Seconds between two session starts of one bucket: Discord's 5, and a margin for the moments between taking
# the turn and the IDENTIFY reaching Discord, which differ from process to process.
START_INTERVAL = 5.5


class LocalStartGate:
    """Turns kept in this process: right when it holds every shard of the bot."""

    def __init__(self, max_concurrency: int = 1, interval: float = START_INTERVAL) -> None:
        self.max_concurrency = max(1, max_concurrency)
        self.interval = interval
        self._next_at: dict[int, float] = {}  # bucket -> time.monotonic() of its next free turn

    async def wait(self, shard_id: int) -> float:
        """Wait for this shard's turn to start a session; the seconds waited."""
        bucket = shard_id % self.max_concurrency
        now = time.monotonic()
        slot = max(now, self._next_at.get(bucket, 0.0))
        self._next_at[bucket] = slot + self.interval
        await asyncio.sleep(slot - now)
        return slot - now


class PostgresStartGate:
    """Turns kept in PostgreSQL, shared by every process of the bot. If the database can't be asked, the turn
    is taken in this process alone (and the warning logged), rather than not starting at all."""

    def __init__(self, db: PostgresDatabase, max_concurrency: int = 1, interval: float = START_INTERVAL) -> None:
        self.db = db
        self.max_concurrency = max(1, max_concurrency)
        self.interval = interval
        self._fallback = LocalStartGate(max_concurrency, interval)

    async def wait(self, shard_id: int) -> float:
        try:
            delay = await self._lease(shard_id % self.max_concurrency)
        except Exception as error:  # the database is down or unreachable: never keep the bot from starting
            log.warning(
                "Could not take a shared turn to start shard %s (%s); spacing starts here only", shard_id, error
            )
            return await self._fallback.wait(shard_id)
        await asyncio.sleep(delay)
        return delay

    async def _lease(self, bucket: int) -> float:
        """Claim the bucket's next turn (one interval after the last one claimed); how long until it comes."""
        async with self.db.transaction() as conn:
            await conn.execute(
                "INSERT INTO gateway_starts (bucket, next_at) VALUES (?, 0) ON CONFLICT (bucket) DO NOTHING", (bucket,)
            )
            async with conn.execute(
                "SELECT next_at FROM gateway_starts WHERE bucket = ? FOR UPDATE", (bucket,)
            ) as cursor:
                next_at = (await cursor.fetchone())["next_at"]
            # Read once the row is locked: the turn is measured from the moment this process owns it.
            async with conn.execute("SELECT extract(epoch FROM clock_timestamp())::float8 AS now") as cursor:
                now = (await cursor.fetchone())["now"]
            slot = max(now, next_at)
            await conn.execute(
                "UPDATE gateway_starts SET next_at = ?::float8 WHERE bucket = ?", (slot + self.interval, bucket)
            )
        return slot - now
