"""Goldfish actions per second across many channels, by database: SQLite in one process, PostgreSQL in one
process, PostgreSQL shared by two processes.

Every channel plays its own game at once like a player clicking (keep, play a land, cycle, next turn), through
``GameService.act`` (per-game lock, load, engine, one transaction with the versioned save and the statistics).
Each figure is the median over ``--runs`` runs. Target: PostgreSQL in one process at least 500 actions a second;
the other figures are reported.

PostgreSQL: ``--database-url postgresql://…`` (an empty database it may fill), or by default a throwaway server
started from the PostgreSQL binaries of this machine as the tests do, but durable like a real one (fsync, full
page writes and synchronous commits on).

Run: ``python benchmarks/bench_storage.py [--channels 500] [--actions 20] [--runs 3]``
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks._bench import Report, median  # noqa: E402
from benchmarks.bench_goldfish import new_games, next_action  # noqa: E402
from bot.goldfish import GameKey, GameService, GameStore  # noqa: E402
from bot.storage import Database  # noqa: E402
from bot.storage.postgres import PostgresDatabase  # noqa: E402

TARGET_POSTGRES_RATE = 500.0
PLAYER = 7


async def open_db(target: str):
    if target.startswith("postgresql://"):
        return await PostgresDatabase.open(target)
    return await Database.open(Path(target))


async def seed(target: str, channels: int) -> None:
    """Fresh games in channels 1..channels (earlier runs' rows removed)."""
    db = await open_db(target)
    try:
        async with db.transaction() as conn:
            await conn.execute("DELETE FROM goldfish_games")
            await conn.execute("DELETE FROM goldfish_stats")
        await new_games(GameStore(db), channels, user_id=PLAYER)  # one game a channel, all PLAYER's
    finally:
        await db.close()


async def play(target: str, first: int, count: int, actions: int) -> dict[str, float]:
    """Play channels first..first+count-1 at once; the number of actions and when they started and ended."""
    db = await open_db(target)
    try:
        service = GameService(GameStore(db))
        keys = [GameKey(channel_id, PLAYER) for channel_id in range(first, first + count)]
        games = {key: (await service.load(key)).game for key in keys}

        async def one(key: GameKey) -> int:
            done, game = 0, games[key]
            for _ in range(actions):
                action = next_action(game)
                if action is None:
                    break
                game = (await service.act(key, PLAYER, action)).game
                done += 1
            return done

        start = time.time()
        done = sum(await asyncio.gather(*(one(key) for key in keys)))
        return {"done": done, "start": start, "end": time.time()}
    finally:
        await db.close()


async def one_process(target: str, channels: int, actions: int) -> float:
    await seed(target, channels)
    result = await play(target, 1, channels, actions)
    return result["done"] / (result["end"] - result["start"])


def two_processes(target: str, channels: int, actions: int) -> float:
    """Both halves of the channels played at once by two processes on the same database."""
    asyncio.run(seed(target, channels))
    half = channels // 2
    workers = [
        subprocess.Popen(
            [sys.executable, __file__, "--worker", target, str(first), str(count), str(actions)],
            stdout=subprocess.PIPE,
            text=True,
        )
        for first, count in ((1, half), (half + 1, channels - half))
    ]
    results = []
    for worker in workers:
        out, _ = worker.communicate(timeout=600)
        if worker.returncode:
            raise RuntimeError(f"a worker process failed (exit code {worker.returncode})")
        results.append(json.loads(out.strip().splitlines()[-1]))
    elapsed = max(r["end"] for r in results) - min(r["start"] for r in results)
    return sum(r["done"] for r in results) / elapsed


@contextlib.contextmanager
def postgres(url: str | None):
    if url:
        yield url
        return
    from tests.support.postgres import running_postgres

    with running_postgres(durable=True) as server:  # fsync and full page writes on, as a real server runs
        yield server.create_database()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--channels", type=int, default=500)
    parser.add_argument("--actions", type=int, default=20, help="actions per channel")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--database-url", help="an empty PostgreSQL database (default: a throwaway server)")
    parser.add_argument("--worker", nargs=4, metavar=("TARGET", "FIRST", "COUNT", "ACTIONS"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    logging.disable(logging.WARNING)
    if args.worker:
        target, first, count, actions = args.worker
        print(json.dumps(asyncio.run(play(target, int(first), int(count), int(actions)))))
        return 0

    rates: dict[str, list[float]] = {"sqlite": [], "postgresql": [], "postgresql2": []}
    with tempfile.TemporaryDirectory() as tmp, postgres(args.database_url) as url:
        sqlite_path = str(Path(tmp) / "bench.sqlite3")
        for _ in range(args.runs):
            rates["sqlite"].append(asyncio.run(one_process(sqlite_path, args.channels, args.actions)))
            rates["postgresql"].append(asyncio.run(one_process(url, args.channels, args.actions)))
            rates["postgresql2"].append(two_processes(url, args.channels, args.actions))

    report = Report(f"Goldfish actions per second, {args.channels} channels at once (median of {args.runs} runs)")
    report.add("SQLite, one process", median(rates["sqlite"]), "/s")
    report.add("PostgreSQL, one process", median(rates["postgresql"]), "/s", at_least=TARGET_POSTGRES_RATE)
    report.add("PostgreSQL, two processes together", median(rates["postgresql2"]), "/s")
    report.print()
    for name, values in rates.items():
        print(f"  {name}: " + ", ".join(f"{v:.0f}" for v in values))
    return report.exit_code()


if __name__ == "__main__":
    sys.exit(main())
