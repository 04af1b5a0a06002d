"""/card through the whole discord.py stack (simcord): from the local copy of the cards, and against
the fake Scryfall's API.

Local copy (a synthetic 35,000-card oracle-cards file, imported before the bot starts, while the
fake Scryfall's API refuses every request; medians over ``--runs``):

* /card of distinct names (exact, lower case, prefixes, misspellings): interaction to reply, bot
  side: p99 ≤ 5 ms.
* /card autocomplete on 1–6 letter prefixes, the bot's handler: p99 ≤ 5 ms.
* 100 concurrent distinct /card lookups: all answered with a card within 2 s, and no API request.

The API (no local copy, ``--skip-api`` leaves it out):

* Cached /card: time from the interaction reaching the bot to its reply (bot side), and the full
  simcord round trip of ``alice.slash`` (which also waits for the bot to go idle).
* 100 distinct /card lookups in flight at once: every interaction must be acknowledged (deferred)
  within Discord's 3 s; the fake measures the upstream rate per endpoint class (Scryfall allows
  2/s for the search class, 10/s overall); and the time until the last reply.

simcord runs one actor operation at a time, so the concurrent part delivers the 100
INTERACTION_CREATE events itself (``start_slash``, as the tests do) and then waits for the bot.

Run from the project root: ``python benchmarks/bench_cards.py [--runs N] [--skip-api]`` (about a
minute for the API part, half a minute a local run). simcord's
virtual clock does not affect the rate limits: the client spaces requests on ``time.perf_counter``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import discord  # noqa: E402
from _bench import Report, median, percentile  # noqa: E402
from _synthetic_bulk import FULL_SIZE, synthetic_copy, typed  # noqa: E402
from simcord.env import Env  # noqa: E402

from bot.carddb.service import FILE_NAME  # noqa: E402
from bot.carddb.update import update_from_file  # noqa: E402
from bot.client import CycleBot  # noqa: E402
from bot.config import Config  # noqa: E402
from tests.cards.conftest import start_slash  # noqa: E402
from tests.data import SCRYFALL_CARDS  # noqa: E402
from tests.support.fake_scryfall import FakeScryfall  # noqa: E402

CARDS = SCRYFALL_CARDS
CACHED_LOOKUPS = 300
CONCURRENT = 100
ACK_LIMIT = 3.0
LOCAL_LOOKUPS = 1000
LOCAL_P99_MS = 5.0
LOCAL_CONCURRENT_SECONDS = 2.0


class Stopwatch:
    """Times of the first acknowledgement and the reply of each interaction, by interaction id."""

    def __init__(self) -> None:
        self.acked: dict[int, float] = {}
        self.replied: dict[int, float] = {}
        # The bot's own time on an interaction: the command's whole run minus the time spent
        # waiting for the (fake) Discord to take the acknowledgement and the reply.
        self.handling: dict[int, float] = {}
        self.in_discord: dict[str, float] = {}
        self.reply_events: dict[str, asyncio.Event] = {}
        self._originals = (discord.InteractionResponse.defer, discord.Webhook.send)
        self._invoke = discord.app_commands.Command._invoke_with_namespace

    def install(self) -> None:
        defer, send = self._originals
        watch = self

        invoke = self._invoke

        async def timed_defer(response, *args, **kwargs):
            called = time.perf_counter()
            result = await defer(response, *args, **kwargs)
            watch.acked.setdefault(response._parent.id, time.perf_counter())
            token = response._parent.token
            watch.in_discord[token] = watch.in_discord.get(token, 0.0) + time.perf_counter() - called
            return result

        async def timed_send(webhook, *args, **kwargs):
            called = time.perf_counter()
            result = await send(webhook, *args, **kwargs)
            token = webhook.token or ""
            watch.replied.setdefault(token, time.perf_counter())
            watch.reply_events.setdefault(token, asyncio.Event()).set()
            watch.in_discord[token] = watch.in_discord.get(token, 0.0) + time.perf_counter() - called
            return result

        async def timed_invoke(command, interaction, namespace):
            called = time.perf_counter()
            try:
                return await invoke(command, interaction, namespace)
            finally:
                watch.handling[interaction.id] = time.perf_counter() - called

        discord.InteractionResponse.defer = timed_defer
        discord.Webhook.send = timed_send
        discord.app_commands.Command._invoke_with_namespace = timed_invoke

    async def wait_for_reply(self, token: str) -> None:
        async with asyncio.timeout(10):
            await self.reply_events.setdefault(token, asyncio.Event()).wait()

    def bot_side(self, interaction) -> float:
        """Seconds the bot itself spent on ``interaction``: its command's run, Discord's waits excluded."""
        return self.handling[interaction.id] - self.in_discord.get(interaction.token, 0.0)

    def uninstall(self) -> None:
        discord.InteractionResponse.defer, discord.Webhook.send = self._originals
        discord.app_commands.Command._invoke_with_namespace = self._invoke


async def local_run(bulk_db: Path, names: list[str], seed: int) -> dict[str, float]:
    """One run of the bot over a loaded local copy, the fake Scryfall's API refusing everything."""
    import shutil

    rng = random.Random(seed)
    watch = Stopwatch()
    with FakeScryfall(CARDS) as fake, tempfile.TemporaryDirectory() as tmp:
        shutil.copyfile(bulk_db, Path(tmp) / FILE_NAME)
        config = Config(data_dir=Path(tmp), scryfall_api_url=fake.base_url)
        env = Env(CycleBot(config), settle_timeout=60)
        await env.start()
        try:
            assert env.bot.card_data.loaded, "the local copy did not load"
            fake.refuse_api(503)
            guild = env.create_guild("Bench")
            channel = guild.create_text_channel("cards")
            alice = guild.add_member(env.create_user("alice"))
            cog = env.bot.get_cog("Cards")
            watch.install()
            # Warm-up: the fuzzy index is built on the first misspelling, connections per reader thread.
            for name in typed(names, 20, rng):
                await alice.slash(channel, "card", name=name)

            bot_side, round_trip = [], []
            for name in typed(names, LOCAL_LOOKUPS, rng):
                started = time.perf_counter()
                result = start_slash(env, alice, channel, "card", name=name)
                # Wait for the reply itself, not with simcord's settle(): its polling shares the
                # event loop and would be counted against the bot while the lookup is in flight.
                await watch.wait_for_reply(result._interaction.token)
                await env.settle()
                bot_side.append(watch.bot_side(result._interaction))
                round_trip.append(watch.replied[result._interaction.token] - started)

            complete = []
            for prefix in (name[: rng.randint(1, 6)] for name in rng.sample(names, LOCAL_LOOKUPS)):
                started = time.perf_counter()
                await cog.card_name_autocomplete(None, prefix)
                complete.append(time.perf_counter() - started)

            chosen = rng.sample(names, CONCURRENT)
            started = time.perf_counter()
            results = [start_slash(env, alice, channel, "card", name=name) for name in chosen]
            await env.settle(timeout=60)
            replies = [watch.replied[r._interaction.token] - started for r in results]
            right = sum(
                1
                for name, r in zip(chosen, results, strict=True)
                if r.response is not None and r.response.embeds and r.response.embeds[0].title.startswith(name)
            )
            api_requests = len(fake.api_requests())
        finally:
            watch.uninstall()
            await env.shutdown()
            await env.bot.close()
    return {
        "card_p50": percentile(bot_side, 0.5) * 1000,
        "card_p99": percentile(bot_side, 0.99) * 1000,
        "trip_p50": percentile(round_trip, 0.5) * 1000,
        "complete_p50": percentile(complete, 0.5) * 1000,
        "complete_p99": percentile(complete, 0.99) * 1000,
        "concurrent": max(replies),
        "right": right,
        "api": api_requests,
    }


async def local_report(runs: int) -> Report:
    with synthetic_copy() as copy:
        names = copy.names
        db = copy.data_dir / FILE_NAME
        update_from_file(db, copy.bulk)
        results = []
        for run in range(runs):
            results.append(await local_run(db, names, seed=run))
            print(f"local run {run + 1}: {results[-1]}", flush=True)

    def mid(key: str) -> float:
        return median([r[key] for r in results])

    report = Report(f"/card from the local copy ({FULL_SIZE:,} cards, API refusing), medians of {runs} runs")
    report.add("/card, bot side: p50", mid("card_p50"), " ms")
    report.add("/card, bot side: p99", mid("card_p99"), " ms", at_most=LOCAL_P99_MS)
    report.add("/card, emit → reply through simcord: p50", mid("trip_p50"), " ms")
    report.add("autocomplete handler: p50", mid("complete_p50"), " ms")
    report.add("autocomplete handler: p99", mid("complete_p99"), " ms", at_most=LOCAL_P99_MS)
    report.add(
        f"{CONCURRENT} concurrent /card: time to the last reply",
        mid("concurrent"),
        " s",
        at_most=LOCAL_CONCURRENT_SECONDS,
    )
    report.check(
        f"{CONCURRENT} concurrent /card: each answered with its card",
        all(r["right"] == CONCURRENT for r in results),
        f"{min(r['right'] for r in results)}",
    )
    report.check("no request reached the API", all(r["api"] == 0 for r in results), f"{max(r['api'] for r in results)}")
    return report


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="runs of the local part (medians are reported)")
    parser.add_argument("--skip-api", action="store_true", help="leave out the part against the fake API")
    args = parser.parse_args()
    local = await local_report(max(1, args.runs))
    local.print()
    if args.skip_api:
        return local.exit_code()
    return max(local.exit_code(), await api_main())


async def api_main() -> int:
    names = sorted({json.loads(line)["name"] for line in CARDS.open(encoding="utf-8")})
    watch = Stopwatch()
    with FakeScryfall(CARDS) as fake, tempfile.TemporaryDirectory() as tmp:
        config = Config(data_dir=Path(tmp), scryfall_api_url=fake.base_url)
        env = Env(CycleBot(config), settle_timeout=180)
        await env.start()
        try:
            guild = env.create_guild("Bench")
            channel = guild.create_text_channel("cards")
            alice = guild.add_member(env.create_user("alice"))
            watch.install()

            # --- cached /card
            await alice.slash(channel, "card", name="Street Wraith")
            bot_side, round_trip = [], []
            for _ in range(CACHED_LOOKUPS):
                started = time.perf_counter()
                result = start_slash(env, alice, channel, "card", name="Street Wraith")
                token = result._interaction.token
                await env.settle()
                round_trip.append(time.perf_counter() - started)
                bot_side.append(watch.replied[token] - started)
            simcord_trip = []
            for _ in range(50):
                started = time.perf_counter()
                await alice.slash(channel, "card", name="Street Wraith")
                simcord_trip.append(time.perf_counter() - started)

            # --- 100 distinct lookups at once
            fake.reset()
            chosen = [name for name in names if name != "Street Wraith"][:CONCURRENT]
            started = time.perf_counter()
            results = [start_slash(env, alice, channel, "card", name=name) for name in chosen]
            await env.settle(timeout=180)
            finished = time.perf_counter()
            acks = [watch.acked[r._interaction.id] - started for r in results]
            replies = [watch.replied[r._interaction.token] - started for r in results]
            answered = sum(1 for r in results if r.response is not None and r.response.embeds)
        finally:
            watch.uninstall()
            await env.shutdown()
            await env.bot.close()

    report = Report("/card through simcord, fake Scryfall on 127.0.0.1")
    report.add("cached /card, bot side: median", median(bot_side) * 1000, " ms", at_most=15)
    report.add("cached /card, bot side: p99", percentile(bot_side, 0.99) * 1000, " ms", at_most=50)
    report.add("cached /card, emit → idle: median", median(round_trip) * 1000, " ms")
    report.add("cached /card, alice.slash round trip: median", median(simcord_trip) * 1000, " ms")
    report.add(f"{CONCURRENT} concurrent /card: answered with a card", answered, at_least=CONCURRENT)
    report.add(
        f"{CONCURRENT} concurrent /card: slowest acknowledgement", max(acks) * 1000, " ms", at_most=ACK_LIMIT * 1000
    )
    report.add("upstream requests", len(fake.requests))
    report.add("upstream max search-class requests in any 1 s", fake.max_rate("search"), at_most=2)
    report.add("upstream max requests in any 1 s", fake.max_rate("all"), at_most=10)
    report.add("upstream 429 answers", len(fake.statuses(429)), at_most=0)
    # 100 search-class lookups spaced 0.58 s cannot take less than 58 s; more means the limiter stalls.
    report.add("time to the last reply", max(replies), " s", at_most=CONCURRENT * 0.58 + 10)
    report.add("time until the bot settled", finished - started, " s")
    report.print()
    return report.exit_code()


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
