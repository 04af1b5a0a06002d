"""Admission's shares (core, no Discord): places waited for in turn, round-robin by server then by user, the
reserve kept for servers with nothing running, the outside share, deadlines, and the budgets and paces."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest

from bot.serving.admission import Admission, Busy
from bot.serving.pace import Budgets, Pace
from bot.serving.shares import LOOKUPS, OUTSIDE, SEARCHES
from tests.support.waits import CEILING

ONE_PLACE = replace(LOOKUPS, name="one", places=1, per_user=1, per_guild=1, outside=1, reserve=0)
FAR = 1e9  # a deadline that never comes


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


async def served_order(admission: Admission, share, asks: list[tuple[str, int, int | None]]) -> list[str]:
    """The order in which ``asks`` (label, user, server) are handed a place, one place given back at a time."""
    blocker = admission.enter(share, 0, 0)
    order: list[str] = []

    async def ask(label: str, user: int, guild: int | None) -> None:
        ticket = await admission.wait(share, user, guild, FAR)
        order.append(label)
        await asyncio.sleep(0)
        ticket.release()

    tasks = []
    for label, user, guild in asks:
        tasks.append(asyncio.create_task(ask(label, user, guild)))
        await asyncio.sleep(0)  # each in the queue before the next arrives
    blocker.release()
    await asyncio.wait_for(asyncio.gather(*tasks), CEILING)
    return order


async def test_waiting_work_is_served_round_robin_by_server_then_by_user():
    # Server 1: user 10 asks three times, then user 11 once; server 2: user 20 once. Arrival order would serve
    # user 10 three times first; turns serve each server, and each user of a server, in turn.
    asks = [("10a", 10, 1), ("10b", 10, 1), ("10c", 10, 1), ("11", 11, 1), ("20", 20, 2)]
    assert await served_order(Admission(), ONE_PLACE, asks) == ["10a", "20", "11", "10b", "10c"]


async def test_one_users_excess_is_never_served_ahead_of_someone_elses_first():
    asks = [(f"flood{n}", 10, 1) for n in range(6)] + [("other", 11, 1)]
    order = await served_order(Admission(), ONE_PLACE, asks)
    assert order.index("other") == 1


async def test_everyone_outside_servers_is_one_share_served_round_robin_by_user():
    asks = [(f"dm-flood{n}", 10, None) for n in range(5)] + [("dm-other", 11, None)]
    order = await served_order(Admission(), ONE_PLACE, asks)
    assert order.index("dm-other") == 1
    assert LOOKUPS.outside > LOOKUPS.per_guild and SEARCHES.outside >= SEARCHES.per_guild


async def test_work_waits_until_its_deadline_then_is_told_the_bot_is_busy():
    clock = Clock()
    admission = Admission(clock=clock)
    held = admission.enter(ONE_PLACE, 1, 1)
    clock.now = 5.0
    with pytest.raises(Busy, match="I'm busy right now: try again in a moment"):
        await admission.wait(ONE_PLACE, 2, 2, deadline=5.0)  # no time left: refused without waiting
    started = asyncio.get_running_loop().time()
    with pytest.raises(Busy):
        await admission.wait(ONE_PLACE, 2, 2, deadline=5.2)  # the clock stands still; the wait is real time
    assert asyncio.get_running_loop().time() - started >= 0.19
    assert admission.waiting(ONE_PLACE) == 0 and admission.refused["one"] == 2
    held.release()
    assert admission.in_flight(ONE_PLACE) == 0


async def test_a_user_past_their_own_places_is_told_so():
    admission = Admission()
    held = [admission.enter(LOOKUPS, 7, 1) for _ in range(LOOKUPS.per_user)]
    with pytest.raises(Busy, match=f"You already have {LOOKUPS.per_user} card lookups running"):
        await admission.wait(LOOKUPS, 7, 1, deadline=admission.clock() + 0.05)
    for ticket in held:
        ticket.release()


async def test_a_server_already_searching_leaves_the_last_place_to_a_server_with_none():
    admission = Admission()
    busy = [admission.enter(SEARCHES, user, guild_id=100) for user in range(SEARCHES.per_guild)]
    assert admission.in_flight(SEARCHES) == SEARCHES.places - 1
    with pytest.raises(Busy):  # server 100 may not take the last place, however many of its members ask
        admission.enter(SEARCHES, 50, guild_id=100)
    assert admission.enter(SEARCHES, 60, guild_id=200)  # a server with nothing running takes it
    for ticket in busy:
        ticket.release()


async def test_two_busy_servers_never_hold_every_place_for_long():
    # Servers 1 and 2 keep asking; whenever one of their searches ends, a third server's search waiting is served
    # before theirs, so it never waits longer than one search.
    admission = Admission()
    one = admission.enter(SEARCHES, 1, guild_id=1)
    three = admission.enter(SEARCHES, 3, guild_id=1)  # server 1's second, leaving one place free
    two = admission.enter(SEARCHES, 2, guild_id=2)  # server 2 had none running: it may take the last
    waiting = [
        asyncio.create_task(admission.wait(SEARCHES, 4, 1, FAR)),
        asyncio.create_task(admission.wait(SEARCHES, 5, 2, FAR)),
    ]
    await asyncio.sleep(0)
    third = asyncio.create_task(admission.wait(SEARCHES, 6, 3, FAR))
    await asyncio.sleep(0)
    two.release()
    ticket = await asyncio.wait_for(third, CEILING)
    assert ticket.group == 3 and not any(task.done() for task in waiting)
    for held in (one, three, ticket):
        held.release()
    for task in waiting:
        (await asyncio.wait_for(task, CEILING)).release()
    assert admission.in_flight(SEARCHES) == 0


async def test_a_waiter_cancelled_gives_its_place_on():
    admission = Admission()
    held = admission.enter(ONE_PLACE, 1, 1)
    cancelled = asyncio.create_task(admission.wait(ONE_PLACE, 2, 2, FAR))
    after = asyncio.create_task(admission.wait(ONE_PLACE, 3, 3, FAR))
    await asyncio.sleep(0)
    cancelled.cancel()
    held.release()
    assert (await asyncio.wait_for(after, CEILING)).user_id == 3
    assert admission.waiting(ONE_PLACE) == 0


def test_outside_servers_is_its_own_share():
    admission = Admission(clock=lambda: 0.0)
    strangers = [admission.enter(LOOKUPS, user) for user in range(LOOKUPS.outside)]
    assert admission._queue(LOOKUPS).by_group[OUTSIDE] == LOOKUPS.outside
    with pytest.raises(Busy):
        admission.enter(LOOKUPS, 99)
    assert admission.enter(LOOKUPS, 98, guild_id=200)
    for ticket in strangers:
        ticket.release()


def test_a_budget_is_spent_across_everything_that_spends_it_and_says_how_long_to_wait():
    clock = Clock()
    budgets = Budgets(3, 20.0, clock)
    assert [budgets.spend("alice") for _ in range(3)] == [0.0, 0.0, 0.0]
    clock.now = 5.0
    assert budgets.spend("alice") == pytest.approx(15.0)  # the first use leaves the window at 20 s
    assert budgets.spend("bob", 2) == 0.0
    assert budgets.spend("bob", 2) == pytest.approx(20.0)  # nothing spent: both would not fit
    budgets.give_back("bob")
    assert budgets.left("bob") == 2
    clock.now = 20.0
    assert budgets.spend("alice") == 0.0


def test_a_pace_gives_later_turns_rather_than_refusals_up_to_its_longest_wait():
    clock = Clock()
    pace = Pace(2, 10.0, longest_wait=15.0, clock=clock)
    assert [pace.turn("table") for _ in range(2)] == [0.0, 0.0]
    assert [pace.turn("table") for _ in range(2)] == [10.0, 10.0]
    assert pace.turn("table") is None  # its turn would be 20 s away
    assert pace.turn("other table") == 0.0
    assert pace.waiting("table") == 2
    clock.now = 10.0
    assert pace.turn("table") == 20.0
