"""/card through the whole discord.py stack (simcord) against the fake Scryfall.

* Cached /card: time from the interaction reaching the bot to its reply (bot side), and the full
  simcord round trip of ``alice.slash`` (which also waits for the bot to go idle).
* 100 distinct /card lookups in flight at once: every interaction must be acknowledged (deferred)
  within Discord's 3 s; the fake measures the upstream rate per endpoint class (Scryfall allows
  2/s for the search class, 10/s overall); and the time until the last reply.

simcord runs one actor operation at a time, so the concurrent part delivers the 100
INTERACTION_CREATE events itself (``start_slash``, as the tests do) and then waits for the bot.

Run from the project root: ``python benchmarks/bench_cards.py`` (about a minute). simcord's
virtual clock does not affect the rate limits: the client spaces requests on ``time.perf_counter``.
"""

from __future__ import annotations

import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import discord  # noqa: E402
from _bench import Report, median, percentile  # noqa: E402
from simcord.env import Env  # noqa: E402

from bot.client import CycleBot  # noqa: E402
from bot.config import Config  # noqa: E402
from tests.cards.conftest import start_slash  # noqa: E402
from tests.support.fake_scryfall import FakeScryfall  # noqa: E402

CARDS = ROOT.parent / "shared" / "scryfall" / "cycling-cards.jsonl"
CACHED_LOOKUPS = 300
CONCURRENT = 100
ACK_LIMIT = 3.0


class Stopwatch:
    """Times of the first acknowledgement and the reply of each interaction, by interaction id."""

    def __init__(self) -> None:
        self.acked: dict[int, float] = {}
        self.replied: dict[int, float] = {}
        self._originals = (discord.InteractionResponse.defer, discord.Webhook.send)

    def install(self) -> None:
        defer, send = self._originals
        watch = self

        async def timed_defer(response, *args, **kwargs):
            result = await defer(response, *args, **kwargs)
            watch.acked.setdefault(response._parent.id, time.perf_counter())
            return result

        async def timed_send(webhook, *args, **kwargs):
            result = await send(webhook, *args, **kwargs)
            token = webhook.token or ""
            watch.replied.setdefault(token, time.perf_counter())
            return result

        discord.InteractionResponse.defer = timed_defer
        discord.Webhook.send = timed_send

    def uninstall(self) -> None:
        discord.InteractionResponse.defer, discord.Webhook.send = self._originals


async def main() -> int:
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
