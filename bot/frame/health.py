"""Whether the bot is alive, for a container's health check and ``cyclebot health``, and its database kept
compact: the heartbeat file written while every shard answers, and the regular WAL checkpoint."""

from __future__ import annotations

import asyncio
import json
import logging
import math
import sqlite3
import time

from discord.ext import tasks

log = logging.getLogger(__name__)

HEARTBEAT_SECONDS = 30
# The -wal file holds every write since the last checkpoint; folding it into the main file regularly keeps it small
# and keeps the main file close to current.
CHECKPOINT_SECONDS = 300


class Health:
    """A mixin of the client: the heartbeat and checkpoint loops (started in its ``setup_hook``), and the shards'
    latencies."""

    def shard_latencies(self) -> dict[int, float | None]:
        """This process's shards and the latency of each in seconds (None until its connection measured one)."""
        known = {shard_id: latency for shard_id, latency in self.latencies}
        shard_ids = self.shard_ids or range(self.shard_count or 0)
        return {
            shard_id: known[shard_id] if math.isfinite(known.get(shard_id, math.inf)) else None
            for shard_id in shard_ids
        }

    @property
    def heartbeat_path(self):
        return self.config.data_dir / "heartbeat"

    def heartbeat_record(self) -> dict:
        latencies = self.shard_latencies()
        shards = [{"id": shard_id, "latency": latency} for shard_id, latency in latencies.items()]
        return {"time": int(time.time()), "shard_count": self.shard_count, "shards": shards}

    def is_connected(self) -> bool:
        """Ready, and every shard of this process open and answering its heartbeats in time."""
        if not self.is_ready() or self.is_closed():
            return False
        shards = [self.get_shard(shard_id) for shard_id in self.shard_latencies()]
        return all(shard is not None and not shard.is_closed() for shard in shards) and all(
            latency < HEARTBEAT_SECONDS for _, latency in self.latencies
        )

    @tasks.loop(seconds=HEARTBEAT_SECONDS)
    async def heartbeat(self) -> None:
        """Write a file while connected, so a container health check can tell a live bot from a stuck one; it
        names this process's shards and their latency for ``cyclebot health``."""
        if self.is_connected():
            record = json.dumps(self.heartbeat_record())
            await asyncio.to_thread(self.heartbeat_path.write_text, record)

    @heartbeat.before_loop
    async def _wait_for_ready(self) -> None:
        await self.wait_until_ready()

    @tasks.loop(seconds=CHECKPOINT_SECONDS)
    async def checkpoint(self) -> None:
        try:
            await self.db.checkpoint()
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) and "busy" not in str(error):
                raise
            # It met a transaction in progress: the next one will do.
            log.warning("WAL checkpoint postponed: %s", error)
        except Exception:
            # A failing checkpoint is tried again next time; the bot keeps serving meanwhile.
            log.exception("WAL checkpoint failed")

    @checkpoint.before_loop
    async def _skip_first_checkpoint(self) -> None:
        await asyncio.sleep(CHECKPOINT_SECONDS)
