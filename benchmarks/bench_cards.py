"""/card through the whole discord.py stack (simcord): from the local copy of the cards, and against
the fake Scryfall's API.

The players are players: each asks at most ``PER_PLAYER`` cards in a run (fewer than the per-user cooldown of
``LOOKUPS.rate`` lookups per ``LOOKUPS.per`` s allows, whatever the pace), many players take turns, and one told
to wait (the cooldown, a full share: "try again in 2 s") asks again after the time given, as a person would.
Every answer counts, whichever way the bot sent it (``_stopwatch``): a lookup no answer comes to within
``ANSWER_SECONDS`` is counted as lost, and the benchmark goes on to report.

Local copy (a synthetic 35,000-card oracle-cards file, imported before the bot starts, while the
fake Scryfall's API refuses every request; medians over ``--runs``):

* /card of distinct names (exact, lower case, prefixes, misspellings), one at a time, players taking turns:
  interaction to answer, bot side: p99 ≤ 5 ms; every lookup answered, none told to wait.
* /card autocomplete on 1–6 letter prefixes, the bot's handler: p99 ≤ 5 ms.
* 100 players of one server asking /card at once: each sees their card within 2 s, and no API request.

The API (no local copy, ``--skip-api`` leaves it out):

* Cached /card: time from the interaction reaching the bot to its answer, and the full simcord round trip of
  ``slash`` (which also waits for the bot to go idle).
* 100 players asking distinct cards at once: every interaction must be acknowledged within Discord's 3 s, and
  each player gets their card, or one private line saying it is coming (then the card, within their patience) or
  why not; the fake measures the upstream rate per endpoint class (Scryfall allows 2/s for the search class, 10/s
  overall); and the time until the last card.

simcord runs one actor operation at a time, so the concurrent parts deliver the INTERACTION_CREATE events
themselves (``start_slash``, as the tests do) and wait for the answers.

Run from the project root: ``python benchmarks/bench_cards.py [--runs N] [--skip-api]`` (about a
minute for the API part, half a minute a local run). simcord's
virtual clock does not affect the rate limits: the client spaces requests on ``time.perf_counter``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from _bench import Report, median, percentile  # noqa: E402
from _stopwatch import Stopwatch  # noqa: E402
from _synthetic_bulk import FULL_SIZE, synthetic_copy, typed  # noqa: E402
from simcord.env import Env  # noqa: E402

from bot.carddb.service import FILE_NAME  # noqa: E402
from bot.carddb.update import update_from_file  # noqa: E402
from bot.client import CycleBot  # noqa: E402
from bot.config import Config  # noqa: E402
from bot.serving import LOOKUPS  # noqa: E402
from tests.cards.conftest import start_slash  # noqa: E402
from tests.data import SCRYFALL_CARDS  # noqa: E402
from tests.support import simcord_discord  # noqa: E402
from tests.support.fake_scryfall import FakeScryfall  # noqa: E402

simcord_discord.install()  # simcord brought to Discord's behaviour, as in the tests

CARDS = SCRYFALL_CARDS
CACHED_LOOKUPS = 300
ROUND_TRIPS = 50
CONCURRENT = 100
ACK_LIMIT = 3.0
LOCAL_LOOKUPS = 1000
WARM_UP = 20
LOCAL_P99_MS = 5.0
LOCAL_CONCURRENT_SECONDS = 2.0
PER_PLAYER = 10  # cards one player asks in a part of a run
TRIES = 5  # a player told to wait asks again after the time given, up to this many times in all
ANSWER_SECONDS = 60.0  # how long one lookup's answer is waited for before it counts as lost
IDLE_SECONDS = 120.0  # how long the bot is given to finish what a lookup started (simcord's settle)
COMING = "your card comes here"  # the words of the private line telling a player their card is on its way
assert PER_PLAYER < LOOKUPS.rate, "a player would hit the cooldown whatever the pace"


@dataclass
class Asked:
    """What one player saw for one card: each delivery's acknowledgement, how often they were told to wait (and
    asked again after the time given, as a player would), and the card or the other answer they got at last."""

    acks: list[float] = field(default_factory=list)  # seconds from each delivery to its acknowledgement
    unacknowledged: int = 0
    told_to_wait: int = 0
    lost: int = 0  # deliveries never answered within ANSWER_SECONDS
    title: str | None = None  # the card's embed title, when a card came
    answered_at: float | None = None  # perf_counter of the card
    text: str | None = None  # an answer that was neither a card nor "try again"
    token: str = ""  # of the last interaction asked
    coming: bool = False  # first told privately that the card is coming (it then came, or not, within patience)


async def ask(env, watch: Stopwatch, player, channel, name: str) -> Asked:
    """``/card name`` from ``player``, asked again when told to wait (``TRIES`` times in all, as a person would
    before giving up), until a card or another answer comes."""
    asked = Asked()
    for _ in range(TRIES):
        delivered = time.perf_counter()
        result = start_slash(env, player, channel, "card", name=name)
        token = asked.token = result._interaction.token
        answered = await watch.wait_for_answer(token, ANSWER_SECONDS)
        if token in watch.acked:
            asked.acks.append(watch.acked[token] - delivered)
        else:
            asked.unacknowledged += 1
        if not answered:
            asked.lost += 1
            return asked
        said = watch.said[token]
        if said.titles:
            asked.title, asked.answered_at = said.titles[0], watch.answered[token]
            return asked
        if said.content and COMING in said.content:  # told it is coming: the card follows
            asked.coming = True
            if await watch.wait_for_card(token, ANSWER_SECONDS):
                asked.answered_at = watch.cards[token]
                asked.title = "(card)"
            return asked
        wait = said.retry_after()
        if wait is None:
            asked.text = said.content
            return asked
        asked.told_to_wait += 1
        await asyncio.sleep(wait)
    return asked


async def idle(env, count: list[int]) -> None:
    """Let the bot finish what a lookup started (simcord's settle), within its ceiling; a bot still busy past it
    is counted (a figure of the report) rather than ending the benchmark before it reports."""
    try:
        await env.settle()
    except TimeoutError:
        count[0] += 1


def members(env, guild, prefix: str, count: int) -> list:
    return [guild.add_member(env.create_user(f"{prefix}-{n}")) for n in range(count)]


def players_for(lookups: int) -> int:
    """Enough players that none asks more than ``PER_PLAYER`` cards."""
    return -(-lookups // PER_PLAYER)


async def local_run(bulk_db: Path, names: list[str], seed: int) -> dict:
    """One run of the bot over a loaded local copy, the fake Scryfall's API refusing everything."""
    rng = random.Random(seed)
    with FakeScryfall(CARDS) as fake, tempfile.TemporaryDirectory() as tmp, Stopwatch() as watch:
        shutil.copyfile(bulk_db, Path(tmp) / FILE_NAME)
        config = Config(data_dir=Path(tmp), scryfall_api_url=fake.base_url)
        env = Env(CycleBot(config), settle_timeout=IDLE_SECONDS)
        await env.start()
        try:
            assert env.bot.card_data.loaded, "the local copy did not load"
            fake.refuse_api(503)
            guild = env.create_guild("Bench")
            channel = guild.create_text_channel("cards")
            cog = env.bot.get_cog("Cards")
            # Warm-up: the fuzzy index is built on the first misspelling, connections per reader thread.
            warmers = members(env, guild, "warm", players_for(WARM_UP))
            for n, name in enumerate(typed(names, WARM_UP, rng)):
                await warmers[n % len(warmers)].slash(channel, "card", name=name)

            players = members(env, guild, "player", players_for(LOCAL_LOOKUPS))
            bot_side, round_trip, unanswered, busy = [], [], [], [0]
            for n, name in enumerate(typed(names, LOCAL_LOOKUPS, rng)):
                started = time.perf_counter()
                result = start_slash(env, players[n % len(players)], channel, "card", name=name)
                token = result._interaction.token
                # Wait for the answer itself, not with simcord's settle(): its polling shares the
                # event loop and would be counted against the bot while the lookup is in flight.
                answered = await watch.wait_for_answer(token, ANSWER_SECONDS)
                await idle(env, busy)
                own = watch.bot_side(token)
                if not answered or own is None or watch.said[token].retry_after() is not None:
                    # Lost, or refused: the player did not get what they asked for.
                    unanswered.append(watch.said[token].content if answered else "(no answer)")
                    continue
                bot_side.append(own)
                round_trip.append(watch.answered[token] - started)

            complete = []
            for prefix in (name[: rng.randint(1, 6)] for name in rng.sample(names, LOCAL_LOOKUPS)):
                started = time.perf_counter()
                await cog.card_name_autocomplete(None, prefix)
                complete.append(time.perf_counter() - started)

            chosen = rng.sample(names, CONCURRENT)
            crowd = members(env, guild, "crowd", CONCURRENT)
            started = time.perf_counter()
            asked = await asyncio.gather(
                *(ask(env, watch, player, channel, name) for player, name in zip(crowd, chosen, strict=True))
            )
            await idle(env, busy)
            right = sum(1 for name, a in zip(chosen, asked, strict=True) if (a.title or "").startswith(name))
            api_requests = len(fake.api_requests())
        finally:
            await env.shutdown()
            await env.bot.close()
    cards = [a.answered_at - started for a in asked if a.answered_at is not None]
    return {
        "card_p50": percentile(bot_side, 0.5) * 1000,
        "card_p99": percentile(bot_side, 0.99) * 1000,
        "trip_p50": percentile(round_trip, 0.5) * 1000,
        "unanswered": len(unanswered),
        "unanswered_said": sorted(set(unanswered))[:3],
        "complete_p50": percentile(complete, 0.5) * 1000,
        "complete_p99": percentile(complete, 0.99) * 1000,
        "concurrent": max(cards, default=float("inf")),
        "right": right,
        "told_to_wait": sum(a.told_to_wait for a in asked),
        "api": api_requests,
        "never_idle": busy[0],
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
    report.add("/card, emit → answer through simcord: p50", mid("trip_p50"), " ms")
    report.add(
        f"/card one at a time: of {LOCAL_LOOKUPS}, lost or told to wait",
        max(r["unanswered"] for r in results),
        at_most=0,
    )
    report.add("autocomplete handler: p50", mid("complete_p50"), " ms")
    report.add("autocomplete handler: p99", mid("complete_p99"), " ms", at_most=LOCAL_P99_MS)
    report.add(
        f"{CONCURRENT} players' /card at once: time to the last card",
        mid("concurrent"),
        " s",
        at_most=LOCAL_CONCURRENT_SECONDS,
    )
    report.check(
        f"{CONCURRENT} players' /card at once: each answered with its card",
        all(r["right"] == CONCURRENT for r in results),
        f"{min(r['right'] for r in results)}",
    )
    report.add(f"{CONCURRENT} players' /card at once: times told to wait", mid("told_to_wait"))
    report.check("no request reached the API", all(r["api"] == 0 for r in results), f"{max(r['api'] for r in results)}")
    report.add(f"bot still busy {IDLE_SECONDS:g} s after a lookup (times)", max(r["never_idle"] for r in results))
    return report


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="runs of the local part (medians are reported)")
    parser.add_argument("--skip-api", action="store_true", help="leave out the part against the fake API")
    parser.add_argument("--api-only", action="store_true", help="only the part against the fake API")
    args = parser.parse_args()
    if args.api_only:
        return await api_main()
    local = await local_report(max(1, args.runs))
    local.print()
    if args.skip_api:
        return local.exit_code()
    return max(local.exit_code(), await api_main())


async def api_main() -> int:
    """The API part (``--api-only`` runs it alone)."""
    names = sorted({json.loads(line)["name"] for line in CARDS.open(encoding="utf-8")})
    with FakeScryfall(CARDS) as fake, tempfile.TemporaryDirectory() as tmp, Stopwatch() as watch:
        config = Config(data_dir=Path(tmp), scryfall_api_url=fake.base_url)
        env = Env(CycleBot(config), settle_timeout=180)
        await env.start()
        try:
            guild = env.create_guild("Bench")
            channel = guild.create_text_channel("cards")

            # --- cached /card
            players = members(env, guild, "player", players_for(CACHED_LOOKUPS + 1))
            await players[-1].slash(channel, "card", name="Street Wraith")
            to_answer, round_trip, unanswered, busy = [], [], 0, [0]
            for n in range(CACHED_LOOKUPS):
                started = time.perf_counter()
                result = start_slash(env, players[n % len(players)], channel, "card", name="Street Wraith")
                token = result._interaction.token
                answered = await watch.wait_for_answer(token, ANSWER_SECONDS)
                await idle(env, busy)
                round_trip.append(time.perf_counter() - started)
                if not answered or not watch.said[token].titles:
                    unanswered += 1
                    continue
                to_answer.append(watch.answered[token] - started)
            simcord_trip = []
            others = members(env, guild, "other", players_for(ROUND_TRIPS))
            for n in range(ROUND_TRIPS):
                started = time.perf_counter()
                await others[n % len(others)].slash(channel, "card", name="Street Wraith")
                simcord_trip.append(time.perf_counter() - started)

            # --- 100 players asking distinct cards at once
            fake.reset()
            chosen = [name for name in names if name != "Street Wraith"][:CONCURRENT]
            crowd = members(env, guild, "crowd", CONCURRENT)
            started = time.perf_counter()
            asked = await asyncio.gather(
                *(ask(env, watch, player, channel, name) for player, name in zip(crowd, chosen, strict=True))
            )
            await env.settle(timeout=180)
            finished = time.perf_counter()
            sent = len([token for token in watch.cards if token in {a.token for a in asked}])
        finally:
            await env.shutdown()
            await env.bot.close()

    acks = [ack for a in asked for ack in a.acks]
    cards = [a.answered_at - started for a in asked if a.answered_at is not None]
    report = Report("/card through simcord, fake Scryfall on 127.0.0.1")
    report.add("cached /card, emit → answer: median", median(to_answer) * 1000, " ms", at_most=15)
    report.add("cached /card, emit → answer: p99", percentile(to_answer, 0.99) * 1000, " ms", at_most=50)
    report.add(f"cached /card: of {CACHED_LOOKUPS}, lost or not a card", unanswered, at_most=0)
    report.add("cached /card, emit → idle: median", median(round_trip) * 1000, " ms")
    report.add(f"bot still busy {IDLE_SECONDS:g} s after a cached lookup (times)", busy[0])
    report.add("cached /card, slash round trip: median", median(simcord_trip) * 1000, " ms")
    why_not = [a for a in asked if a.title is None and not a.coming and (a.text is not None or a.told_to_wait)]
    coming = [a for a in asked if a.coming]
    report.add(
        f"{CONCURRENT} players' /card at once: their card, or a private line (coming, or why not)",
        sum(1 for a in asked if a.title is not None or a.coming) + len(why_not),
        at_least=CONCURRENT,
    )
    report.add(f"{CONCURRENT} players' /card at once: their card within their patience", len(cards))
    report.add(f"{CONCURRENT} players' /card at once: told their card is coming", len(coming))
    had = sum(1 for a in coming if a.title)
    report.add(f"{CONCURRENT} players' /card at once: ...of whom had it within a minute", had)
    report.add(f"{CONCURRENT} players' /card at once: told why not (no card)", len(why_not))
    report.add(f"{CONCURRENT} players' /card at once: cards sent in all, once the bot settled", sent)
    report.add(f"{CONCURRENT} players' /card at once: times told to wait", sum(a.told_to_wait for a in asked))
    report.add(
        f"{CONCURRENT} players' /card at once: slowest acknowledgement",
        max(acks, default=float("inf")) * 1000,
        " ms",
        at_most=ACK_LIMIT * 1000,
    )
    report.add("interactions never acknowledged", sum(a.unacknowledged for a in asked), at_most=0)
    report.add("upstream requests", len(fake.requests))
    report.add("upstream max search-class requests in any 1 s", fake.max_rate("search"), at_most=2)
    report.add("upstream max requests in any 1 s", fake.max_rate("all"), at_most=10)
    report.add("upstream 429 answers", len(fake.statuses(429)), at_most=0)
    # 100 search-class lookups spaced 0.58 s cannot take less than 58 s; more means the limiter stalls.
    report.add("time to the last card", max(cards, default=float("inf")), " s", at_most=CONCURRENT * 0.58 + 10)
    report.add("time until the bot settled", finished - started, " s")
    report.print()
    return report.exit_code()


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
