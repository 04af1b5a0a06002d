"""The busy-hour scenarios of ``bench_fair_shares.py``, through the whole discord.py stack (simcord), on the
synthetic 35,000-card copy, the fake Scryfall's API refusing everything:

* ``crowd``: 100 distinct players of one server ask ``/card`` within one second, each for a card of their own
  (its name in lower case). Targets: every one sees their card within 2 s, none is refused.
* ``servers``: accounts of two servers keep slow searches in flight (each sends its next a second after its last
  was answered); meanwhile players of a third server send 30 ordinary searches, one after another (five players
  taking turns, each within their own six per 20 s). Target: every one of theirs is answered within 2 s.
* ``api``: the same, the two servers' searches being ones only Scryfall's API answers (an artist's cards), the fake
  API answering each search after 1.5 s. Target: every search of the third server is answered within 2 s, and none
  is told the bot is busy.
* ``dms``: 24 users keep slow searches in flight from their DMs with the bot; five other DM users take turns with
  30 ordinary searches. Target: each answered within 1 s, none told the bot is busy.
* ``installs``: 24 users who added the app to their own apps keep slow searches in flight, each in a server of its
  own that never added the bot; five players of a server with the bot take turns with 30 ordinary searches. Target:
  each answered within 1 s, none told the bot is busy.
"""

from __future__ import annotations

import asyncio
import itertools
import random
import shutil
import tempfile
import time
from pathlib import Path

from simcord.env import Env

from bot.carddb.service import FILE_NAME
from bot.client import CycleBot
from bot.config import Config
from tests.cards.conftest import start_slash
from tests.data import SCRYFALL_CARDS
from tests.support.fake_scryfall import FakeScryfall
from tests.support.installs import add_to_my_apps, server_without_the_bot

CROWD = 100
CROWD_SECONDS = 1.0
CARD_SECONDS = 2.0
SLOW = " or ".join(f"fo:/(?:.?){{990}}[{letter}]q/" for letter in "abcdefghij")
TYPICAL = ["t:creature c:g pow>=3", "c:u t:instant mv=1", "kw:cycling mv>=5", "o:draw t:sorcery", "t:land -t:basic"]
FLOODERS_PER_SERVER = 3
SEARCH_SECONDS = 2.0
QUIET_SECONDS = 1.0  # a search's answer within a flood of DMs or user installs
SAMPLES = 30
PLAYERS = 5  # of the third server, taking turns
FLOODERS = 24  # DM users, or user installs each in a server of its own
API_SECONDS = 1.5  # the fake API's answer to each search, in the api scenario
ARTISTS = ["Ron Spencer", "Rebecca Guay", "Terese Nielsen", "Mark Tedin"]


def artist_search(n: int) -> str:
    """A search only Scryfall's API answers, never the same twice (no answer of the API's cache serves it)."""
    return f'a:"{ARTISTS[n % len(ARTISTS)]}" -o:"zq{n}"'


def final_message(result):
    """The message the player finally sees: the follow-up after a deferral, else the response."""
    return result.followups[-1] if result.followups else result.response


async def settled(result, started: float, ceiling: float = 60.0) -> float:
    """Seconds from ``started`` until ``result`` holds its final message (polled: the bot runs meanwhile)."""
    async with asyncio.timeout(ceiling):
        while True:
            message = final_message(result)
            if message is not None and (message.embeds or message.content):
                return time.perf_counter() - started
            await asyncio.sleep(0.005)


class Bot:
    """A CycleBot on a copy of the card data, in simcord, with the fake Scryfall refusing its API."""

    def __init__(self, db: Path, *, slow_api: float | None = None) -> None:
        self.db = db
        self.slow_api = slow_api  # seconds the fake API takes to answer each search; None: it refuses everything

    async def __aenter__(self) -> Env:
        self._fake = FakeScryfall(SCRYFALL_CARDS).__enter__()
        self._tmp = tempfile.TemporaryDirectory()
        shutil.copyfile(self.db, Path(self._tmp.name) / FILE_NAME)
        config = Config(data_dir=Path(self._tmp.name), scryfall_api_url=self._fake.base_url)
        self.env = Env(CycleBot(config), settle_timeout=300)
        await self.env.start()
        assert self.env.bot.card_data.loaded, "the local copy did not load"
        if self.slow_api is None:
            self._fake.refuse_api(503)
        else:
            self._fake.hang_next(10**6, r"^/cards/search", seconds=self.slow_api)
        return self.env

    async def __aexit__(self, *exc: object) -> None:
        try:
            await self.env.shutdown()
            await self.env.bot.close()
        finally:
            self._tmp.cleanup()
            self._fake.__exit__(None, None, None)


async def crowd_run(db: Path, names: list[str], seed: int) -> dict:
    rng = random.Random(seed)
    async with Bot(db) as env:
        guild = env.create_guild("Busy server")
        channel = guild.create_text_channel("cards")
        players = [guild.add_member(env.create_user(f"player-{n}")) for n in range(CROWD)]
        await env.bot.card_source.matcher()  # built as the copy loads, waited for here
        asked = [name.lower() for name in rng.sample(names, CROWD)]  # each a card of its own
        timings = []
        gap = CROWD_SECONDS / CROWD
        for player, name in zip(players, asked, strict=True):
            started = time.perf_counter()
            result = start_slash(env, player, channel, "card", name=name)
            timings.append(asyncio.ensure_future(settled(result, started)))
            timings[-1].result_of = result  # type: ignore[attr-defined]
            await asyncio.sleep(gap)
        seconds = await asyncio.gather(*timings)
        finals = [final_message(t.result_of) for t in timings]  # type: ignore[attr-defined]
    refused = sum(1 for message in finals if "busy" in (message.content or ""))
    cards = sum(
        1
        for message, name in zip(finals, asked, strict=True)
        if message.embeds and not message.ephemeral and (message.embeds[0].title or "").lower().startswith(name)
    )
    return {
        "slowest": max(seconds),
        "p50": sorted(seconds)[len(seconds) // 2],
        "refused": refused,
        "saw_a_card": cards,
        "answered_privately": sum(1 for message in finals if message.ephemeral),
    }


async def while_flooded(env: Env, flooders: list, flood_query, players: list, seed: int) -> dict:
    """``flooders`` (each an actor and where it asks) keep a search of ``flood_query(n)`` in flight, each sending its
    next a second after its last was answered; meanwhile ``players`` (the same) take turns asking ordinary searches,
    each timed from its sending to its final message."""
    rng = random.Random(seed)
    stop = asyncio.Event()
    count = itertools.count()

    async def keep_searching(who, where) -> None:
        while not stop.is_set():
            result = start_slash(env, who, where, "search", query=flood_query(next(count)))
            await settled(result, time.perf_counter(), 120)
            await asyncio.sleep(1.0)

    flood = [asyncio.create_task(keep_searching(who, where)) for who, where in flooders]
    await asyncio.sleep(1.0)  # the flood under way
    seconds, answered, busy = [], 0, 0
    try:
        for n in range(SAMPLES):
            started = time.perf_counter()
            player, room = players[n % len(players)]
            result = start_slash(env, player, room, "search", query=rng.choice(TYPICAL))
            seconds.append(await settled(result, started))
            answered += bool(final_message(result).embeds)
            busy += "busy" in (final_message(result).content or "")
            await asyncio.sleep(0.7)  # each player within their six searches per 20 s
    finally:
        stop.set()
        await asyncio.gather(*flood, return_exceptions=True)
    return {"slowest": max(seconds), "p50": sorted(seconds)[len(seconds) // 2], "answered": answered, "busy": busy}


def third_server(env: Env) -> list:
    """Five players of a server with the bot, each with the channel they ask in."""
    third = env.create_guild("Third server")
    room = third.create_text_channel("cards")
    return [(third.add_member(env.create_user(f"player-{n}")), room) for n in range(PLAYERS)]


async def servers_run(db: Path, seed: int, *, api: bool = False) -> dict:
    """Two servers' accounts flood slow searches (``api``: searches only Scryfall's API answers, answered slowly)."""
    async with Bot(db, slow_api=API_SECONDS if api else None) as env:
        flooded = [env.create_guild(f"Flooding server {n}") for n in range(2)]
        rooms = {guild.id: guild.create_text_channel("cards") for guild in flooded}
        flooders = [guild.add_member(env.create_user(f"f{guild.id}-{n}")) for guild in flooded for n in range(3)]
        query = artist_search if api else (lambda n: SLOW)
        flood = [(who, rooms[who.guild.id]) for who in flooders]
        return await while_flooded(env, flood, query, third_server(env), seed)


async def dms_run(db: Path, seed: int) -> dict:
    """24 DM users flood slow searches; five other DM users ask ordinary ones."""
    async with Bot(db) as env:
        flooders = [env.create_user(f"flooder-{n}") for n in range(FLOODERS)]
        players = [env.create_user(f"player-{n}") for n in range(PLAYERS)]
        flood = [(who, who.dm_channel) for who in flooders]
        return await while_flooded(env, flood, lambda n: SLOW, [(who, who.dm_channel) for who in players], seed)


async def installs_run(db: Path, seed: int) -> dict:
    """24 user installs flood slow searches, each in a server of its own that never added the bot."""
    async with Bot(db) as env:
        flooders = []
        for n in range(FLOODERS):
            user = env.create_user(f"installer-{n}")
            add_to_my_apps(env, user)
            channel = await server_without_the_bot(env, f"Elsewhere {n}", settle=False)
            flooders.append((channel.guild.add_member(user), channel))
        return await while_flooded(env, flooders, lambda n: SLOW, third_server(env), seed)
