"""Goldfish on the Discord side: one cycle action end to end, and many channels playing at once.

1. Latency of one cycle action through simcord (the real discord.py stack): from the select
   interaction to the edited game message, including the SQLite write. Each sample is a fresh
   channel with the same seeded game, so every sample cycles the same card.
2. The same action through ``GameService.act`` alone (load → engine → versioned save), to show how
   much of (1) is the simulated Discord round trip.
3. Throughput with many games playing at once. simcord runs one operation at a time, so
   this drives the game service (``GameService.act``: per-game lock, load, engine,
   transactional save) concurrently with ``asyncio.gather`` against a real on-disk Database;
   each game is played like a player clicking (keep, play a land, cycle, next turn), one game a
   channel (``--channels``), and with ``--crowded N`` the same number of games in N channels too (several players
   a channel, each with their own game), which must cost at most 10 % more CPU time per action (the process's, the
   database thread's included) than one game a channel: on a machine shared with other work the rates swing by
   half from run to run, the CPU time an action takes much less. Both rates are reported too. The two settings
   run by turns, each going first every other run, so both meet the same load.

Run: ``python benchmarks/bench_goldfish.py [--samples 200] [--channels 500] [--crowded 50] [--actions 20] [--runs 3]``
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import simcord  # noqa: E402

from benchmarks._bench import Report, median, percentile  # noqa: E402
from bot.client import CycleBot  # noqa: E402
from bot.config import Config  # noqa: E402
from bot.goldfish import GameKey, GameService, GameStore, StatsDelta  # noqa: E402
from bot.goldfish.decks import preset_decks  # noqa: E402
from bot.goldfish.engine import Action, Game  # noqa: E402
from bot.storage import Database  # noqa: E402

SEED = 12  # slide: keep, play Plains, then Secluded Steppe (Cycling {W}) is affordable
TARGET_MEDIAN_MS, TARGET_P99_MS, TARGET_RATE = 10.0, 50.0, 500.0
TARGET_CROWDED = 1.1  # games in fewer channels: CPU time per action against one game a channel, at most
PLAYER = 7


def option(message, prefix: str, label: str) -> tuple[str, str]:
    for row in message.components:
        for component in row.get("components", []):
            if component.get("custom_id", "").startswith(prefix):
                for choice in component["options"]:
                    if choice["label"] == label:
                        return component["custom_id"], choice["value"]
    raise LookupError(f"no {label!r} in {prefix}")


async def simcord_cycle_latency(samples: int, data_dir: Path) -> list[float]:
    """Milliseconds from the cycle select to the updated game message, one fresh channel a sample."""
    timings, bot = [], CycleBot(Config(data_dir=data_dir))
    try:
        await measure_cycles(bot, samples, timings)
    finally:
        await bot.close()  # simcord detaches the bot without closing it (its database threads would stay)
    return timings


async def measure_cycles(bot: CycleBot, samples: int, timings: list[float]) -> None:
    async with simcord.run(bot) as env:
        guilds = [env.create_guild(f"bench {n}") for n in range((samples + 399) // 400)]
        users = [env.create_user("player")]
        members = [guild.add_member(users[0]) for guild in guilds]
        for index in range(samples):
            guild, member = guilds[index // 400], members[index // 400]
            channel = guild.create_text_channel(f"goldfish-{index}")
            message = (await member.slash(channel, "goldfish start", deck="slide", seed=SEED)).response
            await member.click(message, label="Keep")
            custom_id, value = option(message, "gf:land:", "Plains")
            await member.select(message, [value], custom_id=custom_id)
            custom_id, value = option(message, "gf:cycle:", "Cycle Secluded Steppe")
            start = time.perf_counter()
            result = await member.select(message, [value], custom_id=custom_id)
            timings.append((time.perf_counter() - start) * 1000)
            if result.ephemeral or "Cycled Secluded Steppe" not in str(result.response.embeds[0].to_dict()):
                raise RuntimeError("the benchmark's cycle action did not happen")


def service_on(db: Database) -> GameService:
    return GameService(GameStore(db))


async def new_games(store: GameStore, games: int, *, channels: int | None = None, user_id: int = PLAYER):
    """``games`` fresh games spread over channels 1..``channels`` (default: one a channel), each of its own player
    (``user_id``, ``user_id + 1``… within a channel); their keys."""
    slide = preset_decks()["slide"]
    channels = channels or games
    keys = []
    for n in range(games):
        game = Game.new(slide, seed=n + 1)
        created = await store.create(
            channel_id=1 + n % channels,
            guild_id=1,
            owner_id=user_id + n // channels,
            shared=False,
            state=game.to_dict(),
            stats=StatsDelta(games=1),
        )
        keys.append(created.key)
    return keys


def next_action(game: Game) -> Action | None:
    """What a player practising cycling does next."""
    if game.phase == "over":
        return None
    if game.phase == "mulligan":
        return Action("keep")
    decision = game.decision()
    if decision.kind == "discard":  # cleanup (514.1): discard the first cards down to seven
        return Action("discard", cards=decision.choices[: decision.count])
    if decision.kind == "echo":
        return decision.actions[0]
    lands = game.playable_lands()
    if lands:
        return Action("play", lands[0].iid)
    cycle = [o for o in game.cycle_options() if o.affordable]
    if cycle:
        return Action("cycle", cycle[0].iid, cycle[0].ability_index)
    return Action("next")


async def act_latency(samples: int, data_dir: Path) -> list[float]:
    """Milliseconds for one cycle through ``GameService.act`` alone, same games as the simcord run."""
    db = await Database.open(data_dir / "act.sqlite3")
    try:
        service, timings = service_on(db), []
        slide = preset_decks()["slide"]
        for channel_id in range(1, samples + 1):
            game = Game.new(slide, seed=SEED)
            key = (
                await service.store.create(
                    channel_id=channel_id, guild_id=1, owner_id=PLAYER, shared=False, state=game.to_dict()
                )
            ).key
            await service.act(key, PLAYER, Action("keep"))
            record = await service.act(key, PLAYER, Action("play", plains(game)))
            steppe = next(o for o in record.game.cycle_options() if o.name == "Secluded Steppe" and o.affordable)
            start = time.perf_counter()
            await service.act(key, PLAYER, Action("cycle", steppe.iid, steppe.ability_index))
            timings.append((time.perf_counter() - start) * 1000)
        return timings
    finally:
        await db.close()


def plains(game: Game) -> int:
    return next(card.iid for card in game.zones.hand if card.name == "Plains")


async def throughput(games: int, channels: int, actions: int, data_dir: Path) -> tuple[int, float, list[float], float]:
    """(actions done, seconds, per-action ms, CPU ms per action) with ``games`` games in ``channels`` channels
    playing at once."""
    db = await Database.open(data_dir / "throughput.sqlite3")
    try:
        service = service_on(db)
        keys = await new_games(service.store, games, channels=channels)
        played = {key: (await service.load(key)).game for key in keys}
        latencies: list[float] = []

        async def play(key: GameKey) -> int:
            done = 0
            game = played[key]
            for _ in range(actions):
                action = next_action(game)
                if action is None:
                    break
                start = time.perf_counter()
                game = (await service.act(key, key.player_id, action)).game
                latencies.append((time.perf_counter() - start) * 1000)
                done += 1
            return done

        start, cpu = time.perf_counter(), time.process_time()
        counts = await asyncio.gather(*(play(key) for key in keys))
        elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
        players = {key.player_id for key in keys}
        started = [await service.store.get_stats(player) for player in players]
        if sum(stats.games for stats in started if stats is not None) != games:
            raise RuntimeError("statistics were not written")
        return sum(counts), elapsed, latencies, cpu * 1000 / max(1, sum(counts))
    finally:
        await db.close()


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument("--channels", type=int, default=500, help="games in the throughput run, one a channel")
    parser.add_argument("--crowded", type=int, help="also play as many games in this many channels, and compare")
    parser.add_argument("--actions", type=int, default=20, help="actions per channel in the throughput run")
    parser.add_argument("--runs", type=int, default=3, help="throughput runs (the median is reported)")
    args = parser.parse_args()
    logging.disable(logging.WARNING)

    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        (base / "simcord").mkdir()
        (base / "act").mkdir()
        via_discord = await simcord_cycle_latency(args.samples, base / "simcord")
        via_act = await act_latency(args.samples, base / "act")
        runs, crowded = [], []
        for run in range(args.runs):
            # The two settings take turns going first, so neither always meets what the other left behind.
            order = [(runs, args.channels), (crowded, args.crowded)] if args.crowded else [(runs, args.channels)]
            for results, channels in order if run % 2 == 0 else reversed(order):
                folder = base / f"run{run}-{channels}"
                folder.mkdir()
                results.append(await throughput(args.channels, channels, args.actions, folder))
    rates = [done / elapsed for done, elapsed, *_ in runs]
    _, _, under_load, _ = sorted(runs, key=lambda r: r[0] / r[1])[len(runs) // 2]  # the median run's latencies

    report = Report("Goldfish actions (milliseconds)")
    report.add("one cycle via simcord: median", median(via_discord), " ms", at_most=TARGET_MEDIAN_MS)
    report.add("one cycle via simcord: p99", percentile(via_discord, 0.99), " ms", at_most=TARGET_P99_MS)
    report.add("one cycle via GameService.act: median", median(via_act), " ms", at_most=TARGET_MEDIAN_MS)
    report.add("one cycle via GameService.act: p99", percentile(via_act, 0.99), " ms", at_most=TARGET_P99_MS)
    report.add(f"{args.channels} channels at once: act() median (queueing included)", median(under_load), " ms")
    report.add(f"{args.channels} channels at once: act() p99", percentile(under_load, 0.99), " ms")
    report.add(
        f"{args.channels} channels at once: actions per second (median of {args.runs})",
        median(rates),
        "/s",
        at_least=TARGET_RATE,
    )
    if crowded:
        crowded_rates = [done / elapsed for done, elapsed, *_ in crowded]
        cpu, crowded_cpu = median([r[3] for r in runs]), median([r[3] for r in crowded])
        report.add(
            f"{args.channels} games in {args.crowded} channels: actions per second (median of {args.runs})",
            median(crowded_rates),
            "/s",
        )
        report.add(f"{args.channels} channels at once: CPU per action (median)", cpu, " ms")
        report.add(f"{args.channels} games in {args.crowded} channels: CPU per action (median)", crowded_cpu, " ms")
        report.add(
            f"{args.channels} games in {args.crowded} channels against one game a channel (CPU per action)",
            crowded_cpu / cpu,
            "×",
            at_most=TARGET_CROWDED,
        )
    report.print()
    print("  actions per second by run: " + ", ".join(f"{rate:.0f}" for rate in rates))
    if crowded:
        print(f"  in {args.crowded} channels, by run: " + ", ".join(f"{rate:.0f}" for rate in crowded_rates))
    return report.exit_code()


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
