"""Heavy work leaves room for light work (core, no Discord): a search made to be slow never takes the last search
thread, nor the last of its server's or of the DMs', so however many people flood slow searches a quick one is
served at once; a user whose last search ran long counts as heavy for a while; one request's pieces share one
place a share (turns); and what makes a search heavy, judged from its shape."""

from __future__ import annotations

import asyncio

import pytest

from bot.carddb.query.cost import heavy
from bot.serving import API_SEARCHES, SEARCHES, Admission, Busy, Turns
from bot.serving.admission import SLOW
from tests.support.waits import CEILING

FAR = 1e9
SLOW_REGEX = " or ".join(f"fo:/(?:.?){{990}}[{letter}]q/" for letter in "abc")


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_heavy_searches_never_hold_the_last_thread_in_all_or_of_their_group():
    admission = Admission()
    assert SEARCHES.heavy_limit() == SEARCHES.places - 1 and SEARCHES.heavy_limit(None) == SEARCHES.places - 1
    # Two DM users' heavy searches: the DMs' share runs one at a time, and keeps its other place for light work.
    first = admission.enter(SEARCHES, 1, None, heavy=True)
    with pytest.raises(Busy):
        admission.enter(SEARCHES, 2, None, heavy=True)
    light_dm = admission.enter(SEARCHES, 3, None)
    # Servers of their own (user installs): heavy searches take every thread but the last.
    second = admission.enter(SEARCHES, 4, 400, heavy=True)
    light_dm.release()
    assert admission.take_now(SEARCHES, 5, 500, heavy=True) is None
    light = admission.take_now(SEARCHES, 6, 600)
    assert light is not None, "a light search takes the thread heavy ones leave"
    for ticket in (first, second, light):
        ticket.release()
    assert admission.in_flight(SEARCHES) == 0


async def test_a_light_search_overtakes_every_heavy_one_waiting_and_they_are_served_in_turn_after():
    admission = Admission()
    running = [admission.enter(SEARCHES, n, 100 + n, heavy=True) for n in range(SEARCHES.heavy_limit())]
    order: list[str] = []

    async def ask(label: str, user: int, guild: int | None, is_heavy: bool) -> None:
        ticket = await admission.wait(SEARCHES, user, guild, FAR, heavy=is_heavy)
        order.append(label)
        await asyncio.sleep(0)
        ticket.release()

    # Twenty-four user installs, each in its own server, and twenty-four DM users keep heavy searches waiting.
    waiting = [asyncio.create_task(ask(f"install-{n}", 10 + n, 1000 + n, True)) for n in range(24)]
    waiting += [asyncio.create_task(ask(f"dm-{n}", 50 + n, None, True)) for n in range(24)]
    await asyncio.sleep(0)
    assert admission.waiting(SEARCHES) == 48
    quick = asyncio.create_task(ask("light", 99, None, False))
    await asyncio.wait_for(quick, CEILING)
    assert order == ["light"], "served at once, ahead of every heavy search waiting"
    for ticket in running:
        ticket.release()
    await asyncio.wait_for(asyncio.gather(*waiting), CEILING)
    assert sorted(order[1:]) == sorted([f"install-{n}" for n in range(24)] + [f"dm-{n}" for n in range(24)])
    assert admission.refused["searches"] == 0 and admission.in_flight(SEARCHES) == 0


def test_a_user_whose_last_search_ran_long_counts_as_heavy_for_a_while():
    clock = Clock()
    admission = Admission(clock=clock)
    ticket = admission.enter(SEARCHES, 7, 1)
    clock.now += SEARCHES.typical * SLOW  # it held its thread for half a search's budget
    ticket.release()
    held = admission.enter(SEARCHES, 8, 2, heavy=True)
    other = admission.enter(SEARCHES, 9, 3, heavy=True)
    assert admission.take_now(SEARCHES, 7, 1) is None, "user 7 counts as heavy: the last thread is not theirs"
    assert admission.take_now(SEARCHES, 10, 1) is not None, "another member of the server is light"
    clock.now += SEARCHES.per
    for ticket in (held, other):
        ticket.release()
    assert admission.take_now(SEARCHES, 7, 1, heavy=False).heavy is False, "forgiven once the window is past"


def test_a_quick_search_marks_no_one_and_shares_without_light_places_ignore_heaviness():
    clock = Clock()
    admission = Admission(clock=clock)
    quick = admission.enter(SEARCHES, 7, 1)
    clock.now += 0.01
    quick.release()
    assert not admission.enter(SEARCHES, 7, 1).heavy
    remote = [admission.enter(API_SEARCHES, n, 10 + n, heavy=True) for n in range(API_SEARCHES.places)]
    assert all(not ticket.heavy for ticket in remote)


async def test_one_requests_pieces_share_one_place_a_share_and_give_it_back_with_the_last():
    admission = Admission()
    taken: list[str] = []

    async def take(share):
        taken.append(share.name)
        return await admission.wait(share, 1, 1, FAR)

    turns = Turns(take)
    inside = asyncio.Event()

    async def piece() -> None:
        async with turns(SEARCHES):
            assert admission.in_flight(SEARCHES) == 1
            await inside.wait()

    pieces = [asyncio.create_task(piece()) for _ in range(5)]
    await asyncio.sleep(0.01)
    assert admission.in_flight(SEARCHES) == 1 and taken == ["searches"]
    inside.set()
    await asyncio.wait_for(asyncio.gather(*pieces), CEILING)
    assert admission.in_flight(SEARCHES) == 0
    async with turns(API_SEARCHES):  # a share the pieces before never needed: asked for only now
        assert admission.in_flight(API_SEARCHES) == 1 and admission.in_flight(SEARCHES) == 0
    assert taken == ["searches", "Scryfall searches"]


async def test_a_place_that_comes_too_late_is_every_pieces_refusal_and_nothing_is_held():
    admission = Admission()
    blockers = [admission.enter(SEARCHES, 50 + n, 50 + n) for n in range(SEARCHES.places)]
    turns = Turns(lambda share: admission.wait(share, 1, 1, admission.clock() + 0.05))

    async def piece() -> None:
        async with turns(SEARCHES):
            pass

    results = await asyncio.gather(piece(), piece(), return_exceptions=True)
    assert all(isinstance(result, Busy) for result in results)
    for ticket in blockers:
        ticket.release()
    assert admission.in_flight(SEARCHES) == 0 and admission.waiting(SEARCHES) == 0


@pytest.mark.parametrize(
    ("search", "expected"),
    [
        ("t:creature c:g pow>=3", False),
        ("o:draw t:sorcery", False),
        ("kw:cycling mv>=5 -t:land", False),
        ("lightning bolt", False),
        (" or ".join(f'o:"w{n}"' for n in range(7)), False),
        ('a:"Ron Spencer" -o:"zq1"', False),  # Scryfall's to answer: no thread of ours
        ('"unclosed', False),  # answered at once, unread
        (SLOW_REGEX, True),
        ("o:/draw/", True),
        ("/^a.*z$/", True),
        (" or ".join(f'fo:"w{n}"' for n in range(8)), True),
        ("(" + " or ".join(f'fo:"{word}"' for word in ["zzz", "qqq", "xyz", "jjj", "kkk"] * 11) + ")", True),
        (" ".join(f"w{n}" for n in range(16)), True),
    ],
)
def test_a_search_is_heavy_for_a_regular_expression_or_many_reads_of_every_cards_text(search, expected):
    assert heavy(search) is expected
