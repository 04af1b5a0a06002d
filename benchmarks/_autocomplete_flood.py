"""One user's flood of autocompletes against another user's ``/rule``, for ``bench_autocomplete.py``: through the
whole discord.py stack (simcord) on the synthetic 35,000-card copy. One user sends 400 card-name autocompletes
(what typing looks like: prefixes of real names, one after another, all within a second or two); meanwhile
another user asks ``/rule`` (numbers, terms and questions), one every 50 ms, and the time from the interaction
reaching the bot to its answer is measured.

Target: the other user's ``/rule`` p99 under 200 ms. Reported: how many of the flood got suggestions (its
budget: 25 per 10 s; the rest, and those replaced by a newer request, get an empty list).
"""

from __future__ import annotations

import asyncio
import random
import shutil
import tempfile
import time
from pathlib import Path

from _bench import percentile
from _fair_scenarios import settled
from simcord.env import Env

from bot.carddb.service import FILE_NAME
from bot.client import CycleBot
from bot.config import Config
from tests.cards.conftest import start_autocomplete, start_slash
from tests.data import SCRYFALL_CARDS
from tests.support import simcord_discord
from tests.support.fake_scryfall import FakeScryfall

simcord_discord.install()

FLOOD = 400
RULE_P99_MS = 200.0
QUERIES = ["702.29", "cycling", "704.5", "can I cycle a card with no mana", "trample", "what is the stack", "601.2"]
ASKED = 60


def choices_of(env, result) -> list | None:
    path = f"/interactions/{result._interaction.id}/"
    bodies = [r.json for r in env.http_requests if r.path.startswith(path) and r.path.endswith("/callback")]
    return bodies[0]["data"].get("choices") if bodies else None


async def flood_run(db: Path, names: list[str], seed: int) -> dict:
    rng = random.Random(seed)
    with FakeScryfall(SCRYFALL_CARDS) as fake, tempfile.TemporaryDirectory() as tmp:
        shutil.copyfile(db, Path(tmp) / FILE_NAME)
        env = Env(CycleBot(Config(data_dir=Path(tmp), scryfall_api_url=fake.base_url)), settle_timeout=300)
        await env.start()
        try:
            fake.refuse_api(503)
            await env.bot.card_source.matcher()  # built as the copy loads, waited for here
            guild = env.create_guild("Server")
            channel = guild.create_text_channel("rules")
            typist, asker = (guild.add_member(env.create_user(name)) for name in ("typist", "asker"))
            for query in QUERIES:  # warm, as a running bot is: the rules index and the card names a question reads
                await settled(start_slash(env, asker, channel, "rule", query=query), time.perf_counter())
            texts = []
            while len(texts) < FLOOD:
                name = rng.choice(names).lower()
                texts += [name[:n] for n in range(2, len(name) + 1)]

            async def flood() -> list:
                sent = []
                for typed in texts[:FLOOD]:
                    sent.append(start_autocomplete(env, typist, channel, "card", "name", typed))
                    await asyncio.sleep(0.004)
                return sent

            flooding = asyncio.create_task(flood())
            await asyncio.sleep(0.05)
            times, slowest = [], (0.0, "")
            for n in range(ASKED):
                started = time.perf_counter()
                result = start_slash(env, asker, channel, "rule", query=QUERIES[n % len(QUERIES)])
                times.append(await settled(result, started))
                slowest = max(slowest, (times[-1], QUERIES[n % len(QUERIES)]))
                await asyncio.sleep(0.05)
            sent = await flooding
            await env.settle(timeout=120)
            answered = [choices_of(env, result) for result in sent]
        finally:
            await env.shutdown()
            await env.bot.close()
    return {
        "rule_p50_ms": percentile(times, 0.5) * 1000,
        "rule_p99_ms": percentile(times, 0.99) * 1000,
        "flood_with_choices": sum(1 for choices in answered if choices),
        "flood_answered": sum(1 for choices in answered if choices is not None),
        "slowest_rule": f"{slowest[1]} ({slowest[0] * 1000:.0f} ms)",
    }
