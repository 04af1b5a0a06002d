"""Fair shares in a busy hour, through the whole discord.py stack (simcord), on a synthetic 35,000-card
oracle-cards file (Scryfall's real size), the fake Scryfall's API refusing everything (or, in ``api``, answering
slowly). Six scenarios (``--scenario``, all by default): ``crowd``, ``servers``, ``api``, ``dms`` and ``installs``
(see ``_fair_scenarios.py``: 100 players of one server asking ``/card`` within a second all see their card within
2 s and none is refused; a third server's searches all answered within 2 s, none told the bot is busy, while two
servers flood slow searches, or searches only Scryfall's API answers; other users' searches answered within 1 s,
none told the bot is busy, while 24 DM users, or 24 user installs each in a server of its own, flood slow
searches), and ``flood``, below.

The flood: one user keeps 4 searches of a slow family (ten regular expressions of 990 optional characters each,
``or``-ed: seconds of matching over every card's text) and 40 of a heavy one (55 phrases ``or``-ed over every
card's full text) in flight: each is sent again a second after it is answered, refused or not. Meanwhile other
users (six, taking turns) send ``/search``, ``/card`` and a ``/rule`` question naming a card, one every
``--every`` seconds, and the time from the interaction reaching the bot to its final message is measured.

Targets (median over ``--runs`` runs of each run's figure):

* another user's ``/search``, ``/card`` and card question: final message within 1 s at the 99th percentile, at
  least 30 samples of each in every run;
* no interaction expires: every one (the flood's included) is acknowledged within Discord's 3 s.

``--accounts N`` spreads the flood over N accounts (each then within its own share, all of them together past
everyone's: other users' searches may then be told the bot is busy, at once, which the figures count).
``--elsewhere`` sends the flood from another server than the other users' (one server's members together have a
share of their own, and two of the three search threads at most); then a further target: none of the other
users' searches is told the bot is busy.

Run from the project root:
``python benchmarks/bench_fair_shares.py [--scenario all|crowd|servers|api|dms|installs|flood] [--runs N] [--samples N]
[--accounts N] [--elsewhere]``.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import discord  # noqa: E402
from _bench import Report, median, percentile  # noqa: E402
from _fair_scenarios import (  # noqa: E402
    CARD_SECONDS,
    CROWD,
    CROWD_SECONDS,
    FLOODERS,
    QUIET_SECONDS,
    SAMPLES,
    SEARCH_SECONDS,
    crowd_run,
    dms_run,
    installs_run,
    servers_run,
)
from _synthetic_bulk import FULL_SIZE, synthetic_copy, typed  # noqa: E402
from simcord.env import Env  # noqa: E402

from bot.carddb.service import FILE_NAME  # noqa: E402
from bot.carddb.update import update_from_file  # noqa: E402
from bot.client import CycleBot  # noqa: E402
from bot.config import Config  # noqa: E402
from tests.cards.conftest import start_slash  # noqa: E402
from tests.data import SCRYFALL_CARDS  # noqa: E402
from tests.support import installs, simcord_discord  # noqa: E402
from tests.support.fake_scryfall import FakeScryfall  # noqa: E402

simcord_discord.install()
installs.install()  # user installs, as Discord sends their interactions

SLOW = [" or ".join(f"fo:/(?:.?){{990}}[{letter}]q/" for letter in "abcdefghij")]
HEAVY = ["(" + " or ".join(f'fo:"{word}"' for word in ["zzz", "qqq", "xyz", "jjj", "kkk"] * 11) + ")"]
SLOW_IN_FLIGHT, HEAVY_IN_FLIGHT = 4, 40
RESEND_SECONDS = 1.0
VICTIMS = 6
TYPICAL = ["t:creature c:g pow>=3", "c:u t:instant mv=1", "kw:cycling mv>=5", "o:draw t:sorcery", "t:land -t:basic"]
FINAL_P99_SECONDS = 1.0
ACK_SECONDS = 3.0
MIN_SAMPLES = 30


class Stopwatch:
    """When each interaction was first acknowledged and when its final message was sent, by token."""

    def __init__(self) -> None:
        self.acked: dict[str, float] = {}
        self.deferred: set[str] = set()
        self.busy: set[str] = set()  # told the bot is busy
        self.refused: set[str] = set()  # told the bot is busy, to slow down, or that their own place is taken
        self.final: dict[str, float] = {}
        self.events: dict[str, asyncio.Event] = {}
        self._originals = (
            discord.InteractionResponse.defer,
            discord.InteractionResponse.send_message,
            discord.Webhook.send,
        )

    def _finished(self, token: str) -> None:
        now = time.perf_counter()
        self.acked.setdefault(token, now)
        self.final.setdefault(token, now)
        self.events.setdefault(token, asyncio.Event()).set()

    def install(self) -> None:
        defer, send_message, send = self._originals
        watch = self

        async def timed_defer(response, *args, **kwargs):
            result = await defer(response, *args, **kwargs)
            watch.acked.setdefault(response._parent.token, time.perf_counter())
            watch.deferred.add(response._parent.token)
            return result

        def note_busy(token: str, args: tuple, kwargs: dict) -> None:
            text = str(args[0] if args else kwargs.get("content") or "")
            if "busy" in text:
                watch.busy.add(token)
            if any(words in text for words in ("busy", "Slow down", "You already have")):
                watch.refused.add(token)

        async def timed_send_message(response, *args, **kwargs):
            result = await send_message(response, *args, **kwargs)
            note_busy(response._parent.token, args, kwargs)
            watch._finished(response._parent.token)
            return result

        async def timed_send(webhook, *args, **kwargs):
            result = await send(webhook, *args, **kwargs)
            note_busy(webhook.token or "", args, kwargs)
            watch._finished(webhook.token or "")
            return result

        discord.InteractionResponse.defer = timed_defer
        discord.InteractionResponse.send_message = timed_send_message
        discord.Webhook.send = timed_send

    def uninstall(self) -> None:
        discord.InteractionResponse.defer, discord.InteractionResponse.send_message, discord.Webhook.send = (
            self._originals
        )

    async def wait(self, token: str, seconds: float = 60.0) -> None:
        async with asyncio.timeout(seconds):
            await self.events.setdefault(token, asyncio.Event()).wait()


async def one_run(
    db: Path, names: list[str], samples: int, every: float, accounts: int, elsewhere: bool, seed: int
) -> dict:
    rng = random.Random(seed)
    watch = Stopwatch()
    sent: dict[str, float] = {}  # token → when the interaction was delivered
    kinds: dict[str, str] = {}
    with FakeScryfall(SCRYFALL_CARDS) as fake, tempfile.TemporaryDirectory() as tmp:
        shutil.copyfile(db, Path(tmp) / FILE_NAME)
        env = Env(CycleBot(Config(data_dir=Path(tmp), scryfall_api_url=fake.base_url)), settle_timeout=300)
        await env.start()
        stop = asyncio.Event()
        try:
            assert env.bot.card_data.loaded, "the local copy did not load"
            fake.refuse_api(503)
            guild = env.create_guild("Flood")
            channel = guild.create_text_channel("cards")
            flooders = [guild.add_member(env.create_user(f"flooder-{n}")) for n in range(accounts)]
            theirs = env.create_guild("Players") if elsewhere else guild
            victims = [theirs.add_member(env.create_user(f"player-{n}")) for n in range(VICTIMS)]
            channels = {guild.id: channel, theirs.id: theirs.create_text_channel("table") if elsewhere else channel}
            watch.install()

            def deliver(actor, command: str, kind: str, **options) -> str:
                result = start_slash(env, actor, channels[actor.guild.id], command, **options)
                token = result._interaction.token
                sent[token], kinds[token] = time.perf_counter(), kind
                return token

            async def keep_sending(attacker, query: str, kind: str) -> None:
                while not stop.is_set():
                    token = deliver(attacker, "search", kind, query=query)
                    await watch.wait(token, 120)
                    await asyncio.sleep(RESEND_SECONDS)

            queries = [(q, "slow") for q in SLOW * SLOW_IN_FLIGHT] + [(q, "heavy") for q in HEAVY * HEAVY_IN_FLIGHT]
            flood = [
                asyncio.create_task(keep_sending(flooders[n % accounts], query, kind))
                for n, (query, kind) in enumerate(queries)
            ]
            await asyncio.sleep(1.0)  # the flood under way before anyone else asks

            asks = []
            card_names = typed(names, samples, rng)
            question_cards = rng.sample(names, samples)
            for n in range(samples):
                for turn, kind in enumerate(("search", "card", "question")):
                    victim = victims[(n + 2 * turn) % VICTIMS]  # each player's searches well within their cooldown
                    if kind == "search":
                        token = deliver(victim, "search", kind, query=rng.choice(TYPICAL))
                    elif kind == "card":
                        token = deliver(victim, "card", kind, name=card_names[n])
                    else:
                        question = f"If I cycle {question_cards[n]}, does it trigger my cycling abilities?"
                        token = deliver(victim, "rule", kind, query=question)
                    asks.append(token)
                    await asyncio.sleep(every)
            for token in asks:
                await watch.wait(token, 60)
            stop.set()
            await asyncio.gather(*flood, return_exceptions=True)  # the flood's last answers are waited for
        finally:
            stop.set()
            watch.uninstall()
            await env.shutdown()
            await env.bot.close()

    def finals(kind: str) -> list[float]:
        return [watch.final[t] - sent[t] for t in asks if kinds[t] == kind]

    acks = [watch.acked[t] - sent[t] for t in sent if t in watch.acked]
    flood = [t for t in sent if kinds[t] in ("slow", "heavy")]
    busy = [t for t in asks if kinds[t] == "search" and t in watch.busy]
    return {
        **{f"{kind}_p99": percentile(finals(kind), 0.99) for kind in ("search", "card", "question")},
        **{f"{kind}_p50": percentile(finals(kind), 0.5) for kind in ("search", "card", "question")},
        "samples": min(len(finals(kind)) for kind in ("search", "card", "question")),
        "slowest_ack": max(acks),
        "unacknowledged": len(sent) - len(acks),
        "flood_sent": len(flood),
        "flood_searched": sum(1 for t in flood if t not in watch.refused and t in watch.final),
        "searches_told_busy": len(busy),
    }


async def flood(args: argparse.Namespace, db: Path, names: list[str], report: Report) -> None:
    results = []
    for run in range(args.runs):
        results.append(await one_run(db, names, args.samples, args.every, args.accounts, args.elsewhere, seed=run))
        print(f"flood, run {run + 1}: {results[-1]}", flush=True)

    def mid(key: str) -> float:
        return median([r[key] for r in results])

    who = "one user's" if args.accounts == 1 else f"{args.accounts} accounts'"
    where = " from another server" if args.elsewhere else ""
    report.add(f"flood ({who}{where}): searches sent per run", mid("flood_sent"))
    report.add("flood: searches run per run (the rest refused, privately)", mid("flood_searched"))
    # A flood from another server must leave this one's places: none of its searches is told the bot is busy.
    report.add(
        "other users' searches told the bot is busy, per run",
        mid("searches_told_busy"),
        at_most=0 if args.elsewhere else None,
    )
    for kind, label in (("search", "/search"), ("card", "/card"), ("question", "/rule card question")):
        report.add(f"another user's {label}: final message p50", mid(f"{kind}_p50") * 1000, " ms")
        report.add(
            f"another user's {label}: final message p99",
            mid(f"{kind}_p99"),
            " s",
            at_most=FINAL_P99_SECONDS,
        )
    report.add("samples of each kind per run (fewest)", min(r["samples"] for r in results), at_least=MIN_SAMPLES)
    report.add("slowest first acknowledgement", max(r["slowest_ack"] for r in results), " s", at_most=ACK_SECONDS)
    report.add("interactions never acknowledged", max(r["unacknowledged"] for r in results), at_most=0)


async def crowd(args: argparse.Namespace, db: Path, names: list[str], report: Report) -> None:
    results = []
    for run in range(args.runs):
        results.append(await crowd_run(db, names, seed=run))
        print(f"crowd, run {run + 1}: {results[-1]}", flush=True)
    label = f"{CROWD} players of one server asking /card within {CROWD_SECONDS:g} s"
    report.add(f"{label}: median", median([r["p50"] for r in results]), " s")
    slowest = median([r["slowest"] for r in results])
    report.add(f"{label}: slowest to see their answer", slowest, " s", at_most=CARD_SECONDS)
    report.add(f"{label}: told the bot is busy", max(r["refused"] for r in results), at_most=0)
    report.add(f"{label}: saw their card", min(r["saw_a_card"] for r in results), at_least=CROWD)


# Each flood of searches: how it is run, what it is called, and how soon the others' searches must be answered.
FLOODS = {
    "servers": (servers_run, "a third server's /search while two servers flood slow searches", SEARCH_SECONDS),
    "api": (
        functools.partial(servers_run, api=True),
        "a third server's /search while two servers flood searches only Scryfall's API answers",
        SEARCH_SECONDS,
    ),
    "dms": (dms_run, f"a DM user's /search while {FLOODERS} DM users flood slow searches", QUIET_SECONDS),
    "installs": (
        installs_run,
        f"a player's /search while {FLOODERS} user installs, each in its own server, flood slow searches",
        QUIET_SECONDS,
    ),
}


async def flooded(scenario: str, args: argparse.Namespace, db: Path, report: Report) -> None:
    run, label, seconds = FLOODS[scenario]
    results = []
    for n in range(args.runs):
        results.append(await run(db, seed=n))
        print(f"{scenario}, run {n + 1}: {results[-1]}", flush=True)
    report.add(f"{label}: median", median([r["p50"] for r in results]), " s")
    report.add(f"{label}: slowest", median([r["slowest"] for r in results]), " s", at_most=seconds)
    report.add(f"{label}: answered (of {SAMPLES})", min(r["answered"] for r in results), at_least=SAMPLES)
    report.add(f"{label}: told the bot is busy", max(r["busy"] for r in results), at_most=0)


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--scenario", choices=["all", "flood", "crowd", *FLOODS], default="all")
    parser.add_argument("--samples", type=int, default=MIN_SAMPLES, help="of each kind of request, per run")
    parser.add_argument("--every", type=float, default=0.25, help="seconds between the other users' requests")
    parser.add_argument("--accounts", type=int, default=1, help="the flood spread over this many accounts")
    parser.add_argument("--elsewhere", action="store_true", help="the flood from another server than the others'")
    args = parser.parse_args()
    report = Report(f"Fair shares on {FULL_SIZE:,} cards, medians of {args.runs} runs")
    with synthetic_copy() as copy:
        db = copy.data_dir / FILE_NAME
        update_from_file(db, copy.bulk)
        if args.scenario in ("all", "crowd"):
            await crowd(args, db, copy.names, report)
        for scenario in FLOODS:
            if args.scenario in ("all", scenario):
                await flooded(scenario, args, db, report)
        if args.scenario in ("all", "flood"):
            await flood(args, db, copy.names, report)
    report.print()
    return report.exit_code()


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
