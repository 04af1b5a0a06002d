"""CardData's two thread pools: searches users write can fill their own pool without holding up the lookups
that serve everyone (names, decklists, rulings, the names index a rules question reads), and a search's budget
counts from when it was asked for, time spent waiting for a thread included."""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path

import pytest

from bot.carddb import Asker, CardData
from bot.carddb.query import QueryTooSlow
from bot.carddb.service import GUILD_SEARCH_THREADS, SEARCH_THREADS, USER_SEARCH_THREADS
from tests.support.fake_bulk import FakeBulk
from tests.support.waits import HANG, SLACK, until


@pytest.fixture
async def card_data(fake_bulk: FakeBulk, data_dir: Path):
    opened = await CardData.open(data_dir, fake_bulk.base_url, refresh_seconds=3600)
    await opened.refresh()
    yield opened
    await opened.close()


@pytest.fixture
def searches_held(card_data: CardData):
    """Every search thread busy (as with users' slow searches) until the test lets them go."""
    release = threading.Event()
    started = threading.Barrier(SEARCH_THREADS + 1)

    def hold() -> None:
        started.wait()
        release.wait(HANG)

    for _ in range(SEARCH_THREADS):
        card_data._searchers.submit(hold)
    started.wait()
    yield release
    release.set()


async def test_lookups_answer_while_every_search_thread_is_busy(card_data: CardData, searches_held):
    async with asyncio.timeout(SLACK):  # far less than the searches hold their threads
        assert (await card_data.named("strret wraith")).card.name == "Street Wraith"  # a fuzzy match: a thread
        found = await card_data.collection(["Fling", "Street Wraith"])
        assert all(found.values())
        rulings = await card_data.rulings(found["Fling"].oracle_id)
        assert rulings is not None
        names = await card_data.derived("test-names", lambda store: len(store.name_rows()))
        assert names > 100
        assert await card_data.cycling("basic")
        assert (await card_data.search_all("kw:cycling", user_written=False)).cards


async def test_a_search_waiting_for_a_thread_spends_its_budget_waiting(card_data: CardData, searches_held):
    asyncio.get_running_loop().call_later(0.5, searches_held.set)  # the other searches take half a second
    started = time.monotonic()
    with pytest.raises(QueryTooSlow, match="took over 0.2 s"):
        await card_data.search("t:creature", budget=0.2)
    assert time.monotonic() - started < 0.5 + SLACK  # refused once it got a thread, not after the others' HANG


async def test_a_search_that_got_its_thread_in_time_is_answered(card_data: CardData, searches_held):
    asked = asyncio.ensure_future(card_data.search("t:creature", budget=2.0))
    await asyncio.sleep(0.2)
    searches_held.set()  # the other searches finish; this one still has most of its budget
    assert (await asked).total > 0


# Ten patterns of 900 optional characters over every card's text: about a second on the sample cards.
SLOW = " or ".join(f"o:/(?:.?){{900}}[{letter}]q/" for letter in "abcdefghij")


async def test_one_persons_slow_searches_leave_a_thread_for_the_rest_of_their_server(card_data: CardData):
    alice, bob = Asker(1, guild=100), Asker(2, guild=100)
    slow = [asyncio.ensure_future(card_data.search(SLOW, asker=alice)) for _ in range(3)]
    await until(lambda: card_data._search_lanes.running(), "Alice's searches to start")

    assert card_data._search_lanes.running(("user", alice.user)) == USER_SEARCH_THREADS == 1
    assert (await card_data.search("t:creature", asker=bob)).total > 0
    assert not any(search.done() for search in slow)  # answered while Alice's were still searching
    await asyncio.gather(*slow, return_exceptions=True)
    assert card_data._search_lanes.running() == 0


async def test_one_servers_slow_searches_leave_a_thread_for_every_other_server(card_data: CardData):
    raid = [Asker(user, guild=100) for user in (1, 1, 2, 2, 3, 3)]
    slow = [asyncio.ensure_future(card_data.search(SLOW, asker=who)) for who in raid]
    await until(lambda: card_data._search_lanes.running() >= GUILD_SEARCH_THREADS, "the server's searches to start")

    assert card_data._search_lanes.running(("guild", 100)) == GUILD_SEARCH_THREADS == SEARCH_THREADS - 1
    assert (await card_data.search("t:creature", asker=Asker(4, guild=200))).total > 0
    assert (await card_data.search("t:creature", asker=Asker(5))).total > 0  # outside servers too
    assert not any(search.done() for search in slow)
    results = await asyncio.gather(*slow, return_exceptions=True)
    assert all(isinstance(result, QueryTooSlow) for result in results)  # each within its own budget
    assert card_data._search_lanes.running() == 0


async def test_accounts_outside_servers_together_leave_a_thread_for_the_servers(card_data: CardData):
    # Accounts that message the bot directly are the easiest to make many of: together they are one server.
    strangers = [Asker(user) for user in range(10, 16)]
    slow = [asyncio.ensure_future(card_data.search(SLOW, asker=who)) for who in strangers]
    await until(lambda: card_data._search_lanes.running() >= GUILD_SEARCH_THREADS, "the strangers' searches to start")

    assert card_data._search_lanes.running(("guild", None)) == GUILD_SEARCH_THREADS
    assert (await card_data.search("t:creature", asker=Asker(4, guild=200))).total > 0
    assert not any(search.done() for search in slow)
    await asyncio.gather(*slow, return_exceptions=True)
    assert card_data._search_lanes.running() == 0


async def test_a_search_cancelled_while_waiting_for_its_lane_gives_nothing_away(card_data: CardData):
    alice = Asker(1, guild=100)
    first = asyncio.ensure_future(card_data.search("t:creature", asker=alice))
    waiting = asyncio.ensure_future(card_data.search("t:creature", asker=alice))
    await asyncio.sleep(0)
    waiting.cancel()
    assert (await first).total > 0
    with pytest.raises(asyncio.CancelledError):
        await waiting
    assert card_data._search_lanes.running() == 0
    assert (await card_data.search("t:creature", asker=alice)).total > 0
