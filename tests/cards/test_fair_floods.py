"""Floods that must not reach anyone else, through the real discord.py stack: searches only Scryfall's API answers,
which wait for the API's own share and never hold a search thread or a lookup place meant for the local copy, and
floods of heavy searches from two dozen DM users or user installs, which leave a quick search its thread. Each
test pins who is served and in what order (the speed is bench_fair_shares.py's)."""

from __future__ import annotations

import pytest

from bot.serving import API_SEARCHES, LOOKUPS, SEARCHES
from tests.cards.conftest import only_refusals, start_slash, wait_until
from tests.cards.test_fair_shares import answered_at, callback_of
from tests.support.installs import add_to_my_apps, server_without_the_bot

# A search a regular expression makes heavy, quick on the sample cards: who is served first is admission's doing.
HEAVY = "o:/draw/"
LIGHT = "t:creature c:g pow>=4"
FLOODERS = 24


@pytest.fixture
def bot_config(loaded_config):
    return loaded_config


@pytest.fixture
def cards(local_cards):
    return local_cards


def final(result):
    return result.followups[-1] if result.followups else result.response


def answered(result) -> bool:
    message = final(result)
    return message is not None and bool(message.embeds or message.content)


def found(result) -> bool:
    """Answered with a page of results (not a refusal, not a failure)."""
    message = final(result)
    return message is not None and bool(message.embeds) and message.embeds[0].title.startswith("Search: ")


async def test_searches_only_scryfall_answers_hold_no_search_thread_and_a_local_search_goes_first(
    cards, simcord_env, fake_scryfall
):
    admission = simcord_env.bot.admission
    fake_scryfall.hang_next(2, r"^/cards/search", seconds=1.5)  # Scryfall answering slowly
    servers = [simcord_env.create_guild(f"Artists {n}") for n in range(2)]
    askers = [(server.add_member(simcord_env.create_user(f"a{n}")), server) for n, server in enumerate(servers)]
    remote = [
        start_slash(
            simcord_env, who, server.create_text_channel("cards"), "search", query=f'a:"Scott M. Fischer" -o:zq{n}'
        )
        for n, (who, server) in enumerate(askers)
    ]
    await wait_until(lambda: len(fake_scryfall.requests_to(r"^/cards/search")) >= 1)
    assert admission.in_flight(API_SEARCHES) == 2 and admission.in_flight(SEARCHES) == 0

    third = simcord_env.create_guild("Third server")
    erin = third.add_member(simcord_env.create_user("erin"))
    local = start_slash(simcord_env, erin, third.create_text_channel("cards"), "search", query=LIGHT)
    await wait_until(lambda: answered(local))

    assert found(local) and callback_of(simcord_env, local)["type"] == 4, "answered at once, never waiting"
    assert admission.in_flight(API_SEARCHES) >= 1, "while Scryfall's searches were still being answered"
    await simcord_env.settle(timeout=60)
    assert all(found(r) for r in remote), "Scryfall's answers, each in turn"
    assert admission.refused["searches"] == 0 and admission.refused["Scryfall searches"] == 0
    assert admission.in_flight(API_SEARCHES) == 0 and only_refusals(simcord_env)


async def test_an_inline_printing_holds_no_lookup_place_while_scryfall_answers_it(cards, simcord_env, channel, alice):
    admission = simcord_env.bot.admission
    held = [admission.enter(LOOKUPS, 9000 + n, 9000 + n) for n in range(LOOKUPS.places)]  # other servers'

    await alice.send(channel, "[[Test Xcycler|tst]]")

    (reply,) = [m for m in channel.history() if m.author.bot]
    assert reply.embeds[0].title == "Test Xcycler {3}{U}"
    assert admission.waited["lookups"] == 0 and admission.refused["lookups"] == 0
    for ticket in held:
        ticket.release()


async def test_a_dm_user_is_served_at_once_while_two_dozen_dm_users_flood_heavy_searches(cards, simcord_env):
    admission = simcord_env.bot.admission
    running = admission.enter(SEARCHES, 9000, None, heavy=True)  # a DM user's heavy search, still running
    flooders = [simcord_env.create_user(f"flooder-{n}") for n in range(FLOODERS)]
    flood = [start_slash(simcord_env, who, who.dm_channel, "search", query=HEAVY) for who in flooders]
    await wait_until(lambda: admission.waiting(SEARCHES) == FLOODERS)

    other = simcord_env.create_user("other")
    quick = start_slash(simcord_env, other, other.dm_channel, "search", query=LIGHT)
    await wait_until(lambda: answered(quick))

    assert found(quick) and admission.waiting(SEARCHES) == FLOODERS, "served ahead of every heavy search waiting"
    running.release()
    await simcord_env.settle(timeout=60)
    assert all(found(r) for r in flood), "then the flood, each in turn, none told the bot is busy"
    assert answered_at(simcord_env, quick) < min(answered_at(simcord_env, r) for r in flood)
    assert admission.refused["searches"] == 0 and not simcord_env.errors


async def test_a_player_is_served_at_once_while_two_dozen_user_installs_flood_heavy_searches(
    cards, simcord_env, channel, alice
):
    admission = simcord_env.bot.admission
    # Heavy searches of two servers still running: every thread heavy work may hold.
    running = [admission.enter(SEARCHES, 9000 + n, 9000 + n, heavy=True) for n in range(SEARCHES.heavy_limit())]
    flood = []
    for n in range(FLOODERS):
        user = simcord_env.create_user(f"installer-{n}")
        add_to_my_apps(simcord_env, user)
        elsewhere = await server_without_the_bot(simcord_env, f"Elsewhere {n}", settle=False)
        flood.append(start_slash(simcord_env, elsewhere.guild.add_member(user), elsewhere, "search", query=HEAVY))
    await wait_until(lambda: admission.waiting(SEARCHES) == FLOODERS)

    quick = start_slash(simcord_env, alice, channel, "search", query=LIGHT)
    await wait_until(lambda: answered(quick))

    assert found(quick) and admission.waiting(SEARCHES) == FLOODERS, "served ahead of every heavy search waiting"
    for ticket in running:
        ticket.release()
    await simcord_env.settle(timeout=60)
    assert all(found(r) for r in flood), "then the flood, each in turn, none told the bot is busy"
    assert admission.refused["searches"] == 0 and not simcord_env.errors
