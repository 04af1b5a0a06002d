"""The Scryfall client against the fake Scryfall: answers, errors, cache, rate limits, failures."""

from __future__ import annotations

import asyncio
import time

import pytest
import requests

from bot import BOT_NAME, __version__
from bot.config import Config
from bot.cycling import cycling_abilities
from bot.scryfall import (
    AmbiguousCard,
    BadQuery,
    CardNotFound,
    RateLimited,
    ScryfallClient,
    ScryfallError,
    ScryfallUnavailable,
)
from bot.scryfall.limiter import DEFAULT_PAUSE_SECONDS
from bot.scryfall.transport import ACCEPT, CACHE_FILE
from tests.support.waits import HANG, SLACK

# --------------------------------------------------------------------------- etiquette and answers


async def test_every_request_carries_user_agent_and_accept_headers(client, fake_scryfall):
    await client.named("Shimmerscale Drake")
    await client.autocomplete("drake")
    await client.search("t:drake")
    await client.collection([{"name": "Pendrell Drake"}])
    assert len(fake_scryfall.requests) == 4
    for request in fake_scryfall.requests:
        expected = (
            f"{BOT_NAME}/{__version__} (Discord bot for Magic: The Gathering players; requests/{requests.__version__})"
        )
        assert request.headers["user-agent"] == expected
        assert request.headers["accept"] == ACCEPT
    assert fake_scryfall.violations == []


async def test_named_exact_and_fuzzy_find_the_card(client):
    exact = await client.named("Shimmerscale Drake", fuzzy=False)
    fuzzy = await client.named("shimmerscale")
    assert exact.data["name"] == fuzzy.data["name"] == "Shimmerscale Drake"
    assert not exact.stale and not exact.from_cache


async def test_named_with_set_code_and_card_faces(client, fake_scryfall):
    split = await client.named("Fire", fuzzy=False, set_code="TST")
    assert split.data["layout"] == "split" and split.data["mana_cost"] == "{1}{R} // {1}{U}"
    assert fake_scryfall.requests[-1].query == {"exact": "Fire", "set": "tst"}
    dfc = await client.named("insectile aberration")
    assert dfc.data["layout"] == "transform" and "image_uris" not in dfc.data
    assert all(face["image_uris"]["normal"] for face in dfc.data["card_faces"])
    xcycler = await client.named("Test Xcycler")
    assert cycling_abilities(xcycler.data)[0].cost.has_x


async def test_exact_name_that_does_not_exist_raises_card_not_found(client):
    with pytest.raises(CardNotFound) as caught:
        await client.named("Shimmerscale", fuzzy=False)
    assert caught.value.status == 404 and "No cards found matching" in caught.value.details


async def test_ambiguous_name_raises_ambiguous_card_with_candidates(client):
    with pytest.raises(AmbiguousCard) as caught:
        await client.named("drake")
    error = caught.value
    assert error.type == "ambiguous" and "Too many cards match ambiguous name" in error.details
    assert {"Drake Haven", "Pendrell Drake", "Shimmerscale Drake"} <= set(error.candidates)
    assert "Did you mean" in error.user_message()


async def test_autocomplete_returns_names_and_nothing_for_one_letter(client, fake_scryfall):
    names = await client.autocomplete("drake")
    assert "Shimmerscale Drake" in names and len(names) <= 25
    assert await client.autocomplete("d") == []
    assert [r.path for r in fake_scryfall.requests] == ["/cards/autocomplete"]


async def test_search_with_no_results_raises_card_not_found_with_details(client):
    with pytest.raises(CardNotFound) as caught:
        await client.search("t:drake c:r")
    assert "didn’t match any cards" in caught.value.details
    assert "didn’t match any cards" in caught.value.user_message()


async def test_malformed_query_raises_bad_query_with_details_and_warnings(client):
    with pytest.raises(BadQuery) as caught:
        await client.search("frobnicate:yes")
    error = caught.value
    assert error.status == 400 and error.code == "bad_request"
    assert error.details == "All of your terms were ignored."
    assert error.warnings == ["Invalid expression “frobnicate:yes” was ignored. Unknown keyword “frobnicate”."]
    assert error.warnings[0] in error.user_message()


async def test_partly_ignored_query_answers_with_warnings(client):
    answer = await client.search("frobnicate:yes t:drake")
    assert answer.data["total_cards"] == 2
    assert "Unknown keyword" in answer.data["warnings"][0]


async def test_pagination_follows_next_page_exactly_with_175_per_page(client, fake_scryfall):
    first = await client.search("o:cycling")
    assert first.data["object"] == "list" and first.data["has_more"] is True
    assert len(first.data["data"]) == 175
    total = first.data["total_cards"]
    assert total > 175
    next_url = first.data["next_page"]
    assert next_url.startswith(fake_scryfall.base_url)
    second = await client.next_page(next_url)
    assert second.data["has_more"] is False and "next_page" not in second.data
    assert len(second.data["data"]) == total - 175
    request = fake_scryfall.requests[-1]
    assert f"{fake_scryfall.base_url}{request.path}?{request.raw_query}" == next_url
    names = [card["name"] for card in first.data["data"] + second.data["data"]]
    assert len(set(names)) == total


async def test_page_argument_reaches_scryfall(client, fake_scryfall):
    second = await client.search("o:cycling", page=2, order="cmc")
    assert len(second.data["data"]) == second.data["total_cards"] - 175
    assert fake_scryfall.requests[-1].query == {"q": "o:cycling", "order": "cmc", "unique": "cards", "page": "2"}


async def test_collection_sends_76_identifiers_in_two_requests_and_reports_not_found(client, fake_scryfall):
    names = [card["name"] for card in fake_scryfall.cards[:74]]
    identifiers = [{"name": name} for name in names]
    identifiers.append({"set": "tst", "collector_number": "4"})
    identifiers.append({"id": "f0000000-0000-4000-8000-000000000001"})
    identifiers.append({"name": "No Such Card"})
    cards, not_found = await client.collection(identifiers)
    batches = fake_scryfall.requests_to("^/cards/collection$")
    assert [r.method for r in batches] == ["POST", "POST"]
    assert [cards["name"] for cards in cards] == [*names, "Test Xcycler", "Delver of Secrets // Insectile Aberration"]
    assert not_found == [{"name": "No Such Card"}]
    assert await client.collection([]) == ([], [])


async def test_get_uri_rewrites_scryfall_uris_onto_the_base_url(client, fake_scryfall):
    card = (await client.named("Test Xcycler")).data
    rulings = await client.get_uri(card["rulings_uri"])
    assert rulings.data["object"] == "list" and len(rulings.data["data"]) == 2
    same = await client.get_uri(f"https://api.scryfall.com/cards/{card['id']}/rulings")
    assert same.data == rulings.data


@pytest.mark.parametrize(
    "uri",
    ["https://evil.example/cards/search?q=x", "http://api.scryfall.com/cards/x", "file:///etc/passwd", "/cards/x"],
)
async def test_get_uri_refuses_a_foreign_host(client, fake_scryfall, uri):
    with pytest.raises(ValueError):
        await client.get_uri(uri)
    with pytest.raises(ValueError):
        await client.next_page(uri)
    assert fake_scryfall.requests == []


def test_from_config_keeps_the_cache_in_the_data_dir(data_dir, fake_scryfall):
    config = Config(data_dir=data_dir, scryfall_api_url=fake_scryfall.base_url)
    client = ScryfallClient.from_config(config)
    assert client.cache_path == data_dir / CACHE_FILE
    assert client.base_url == fake_scryfall.base_url
    assert client.user_agent.startswith(f"{BOT_NAME}/{__version__} ")
    asyncio.run(client.close())


def test_error_objects_become_typed_exceptions():
    from bot.scryfall.errors import error_for

    assert isinstance(error_for({"status": 404, "code": "not_found", "details": "x"}), CardNotFound)
    assert isinstance(error_for({"status": 404, "type": "ambiguous", "details": "x"}), AmbiguousCard)
    assert isinstance(error_for({"status": 422, "code": "bad_request", "details": "x"}), BadQuery)
    assert isinstance(error_for({"status": 429, "details": "x"}), RateLimited)
    other = error_for({"status": 403, "code": "forbidden", "details": "No.", "warnings": ["w"]})
    assert type(other) is ScryfallError and other.user_message() == "No.\n• w"


# --------------------------------------------------------------------------- cache and coalescing


async def test_cache_answers_a_repeat_without_an_upstream_call(client, fake_scryfall):
    await client.named("Shimmerscale Drake")
    assert len(fake_scryfall.requests) == 1
    again = await client.named("Shimmerscale Drake")
    assert again.from_cache and not again.stale
    assert len(fake_scryfall.requests) == 1  # how fast a cached answer comes is benchmarks/' job


async def test_cache_lives_on_in_the_data_dir_for_the_next_client(make_client, fake_scryfall):
    first = make_client()
    await first.named("Pendrell Drake")
    await first.close()
    second = make_client()
    assert (await second.named("Pendrell Drake")).from_cache
    assert len(fake_scryfall.requests) == 1


async def test_cache_hits_do_not_wait_for_the_rate_limit(client, fake_scryfall):
    await client.named("Shimmerscale Drake")
    started = time.perf_counter()
    for _ in range(20):
        await client.named("Shimmerscale Drake")
    assert time.perf_counter() - started < SLACK  # 20 uncached lookups would take 10 s
    assert len(fake_scryfall.requests) == 1


async def test_identical_concurrent_requests_share_one_upstream_call(client, fake_scryfall):
    fake_scryfall.hang_next(seconds=0.2)
    answers = await asyncio.gather(*(client.named("Pendrell Drake") for _ in range(10)))
    assert {answer.data["name"] for answer in answers} == {"Pendrell Drake"}
    assert len(fake_scryfall.requests) == 1


# --------------------------------------------------------------------------- rate limits


async def test_rate_limits_hold_under_50_concurrent_distinct_lookups(client, fake_scryfall):
    cards = fake_scryfall.cards
    lookups = [client.named(card["name"], fuzzy=False) for card in cards[:5]]
    lookups += [client.autocomplete(card["name"][:6] + str(i)) for i, card in enumerate(cards[5:25])]
    lookups += [client.get_uri(card["rulings_uri"]) for card in cards[25:50]]
    results = await asyncio.gather(*lookups)
    assert len(results) == 50
    assert len(fake_scryfall.requests) == 50
    assert fake_scryfall.max_rate("search") <= 2
    assert fake_scryfall.max_rate("other") <= 10
    assert fake_scryfall.max_rate("all") <= 10
    assert fake_scryfall.statuses(429) == [] and fake_scryfall.violations == []


async def test_search_class_requests_are_spaced_at_least_500_ms_apart(client, fake_scryfall):
    await asyncio.gather(*(client.named(card["name"], fuzzy=False) for card in fake_scryfall.cards[:4]))
    times = [r.time for r in fake_scryfall.requests]
    assert min(b - a for a, b in zip(times, times[1:], strict=False)) >= 0.5


def test_default_pause_after_429_is_at_least_30_seconds(fake_scryfall):
    assert DEFAULT_PAUSE_SECONDS >= 30
    client = ScryfallClient(fake_scryfall.base_url, None)
    assert client.pause_seconds >= 30
    fake_scryfall.fail_next(429)
    with pytest.raises(RateLimited) as caught:
        asyncio.run(client.named("Pendrell Drake"))
    assert caught.value.retry_after >= 30 and client.paused_for("search") >= 29
    assert "try again in 30 s" in caught.value.user_message()
    asyncio.run(client.close())


async def test_429_pauses_its_class_and_the_other_class_still_works(client, fake_scryfall):
    fake_scryfall.fail_next(429, path="^/cards/named$", retry_after=1)
    with pytest.raises(RateLimited) as caught:
        await client.named("Pendrell Drake")
    assert caught.value.user_message() == "Scryfall asked us to slow down, try again in 1 s."
    sent = len(fake_scryfall.requests)
    with pytest.raises(RateLimited) as again:
        await client.search("t:drake")
    assert 0 < again.value.retry_after <= 1
    assert "Scryfall asked us to slow down, try again in 1 s" in again.value.user_message()
    assert len(fake_scryfall.requests) == sent  # nothing of the search class was sent during the pause
    assert await client.autocomplete("drake")  # the other class is not paused
    assert len(fake_scryfall.requests) == sent + 1
    await asyncio.sleep(client.paused_for("search") + 0.05)
    assert (await client.named("Pendrell Drake")).data["name"] == "Pendrell Drake"


async def test_retry_after_longer_than_the_pause_wins(client, fake_scryfall):
    fake_scryfall.fail_next(429, retry_after=45)
    with pytest.raises(RateLimited) as caught:
        await client.named("Pendrell Drake")
    assert caught.value.retry_after == 45
    assert "try again in 45 s" in caught.value.user_message()
    assert 44 < client.paused_for("search") <= 45


async def test_429_is_never_retried(client, fake_scryfall):
    fake_scryfall.fail_next(429, count=5)
    with pytest.raises(RateLimited):
        await client.named("Pendrell Drake")
    assert len(fake_scryfall.requests) == 1


async def test_requests_waiting_for_a_slot_are_not_sent_after_a_429(client, fake_scryfall):
    fake_scryfall.fail_next(429, retry_after=5)
    names = [card["name"] for card in fake_scryfall.cards[:4]]
    results = await asyncio.gather(*(client.named(n, fuzzy=False) for n in names), return_exceptions=True)
    assert all(isinstance(result, RateLimited) for result in results)
    assert len(fake_scryfall.requests) == 1


# --------------------------------------------------------------------------- failures and stale answers


async def test_5xx_is_retried_a_bounded_number_of_times(make_client, fake_scryfall):
    client = make_client(retries=2)
    fake_scryfall.fail_next(500, count=10)
    with pytest.raises(ScryfallUnavailable) as caught:
        await client.get_uri(f"{fake_scryfall.base_url}/cards/f0000000-0000-4000-8000-000000000004")
    assert len(fake_scryfall.requests) == 3
    assert "not answering" in caught.value.user_message()


async def test_a_5xx_followed_by_success_answers(client, fake_scryfall):
    fake_scryfall.fail_next(503, count=1)
    answer = await client.named("Pendrell Drake")
    assert answer.data["name"] == "Pendrell Drake" and not answer.stale
    assert [r.status for r in fake_scryfall.requests] == [503, 200]


async def test_a_hang_times_out(make_client, fake_scryfall):
    client = make_client(timeout=0.3, retries=1)
    fake_scryfall.hang_next(count=2, seconds=HANG)
    started = time.perf_counter()
    with pytest.raises(ScryfallUnavailable):
        await client.named("Pendrell Drake")
    assert time.perf_counter() - started < 2 * 0.3 + SLACK  # two timeouts, not the hang's minute
    assert len(fake_scryfall.requests) == 2


async def expired_entry(make_client, fake_scryfall, name="Pendrell Drake", **kwargs) -> ScryfallClient:
    client = make_client(cache_hours=0.2 / 3600, **kwargs)  # answers expire after 0.2 s
    assert not (await client.named(name)).stale
    await asyncio.sleep(0.25)
    return client


async def test_stale_answer_is_served_while_scryfall_is_down(make_client, fake_scryfall):
    client = await expired_entry(make_client, fake_scryfall, retries=1)
    fake_scryfall.fail_next(500, count=10)
    answer = await client.named("Pendrell Drake")
    assert answer.stale and answer.from_cache and answer.data["name"] == "Pendrell Drake"
    assert [r.status for r in fake_scryfall.requests] == [200, 500, 500]


async def test_stale_answer_is_served_while_scryfall_hangs(make_client, fake_scryfall):
    client = await expired_entry(make_client, fake_scryfall, retries=0)
    client.timeout = 0.3  # once the first answer is in: a busy machine may take longer to give it
    fake_scryfall.hang_next(seconds=HANG)
    started = time.perf_counter()
    answer = await client.named("Pendrell Drake")
    assert answer.stale and answer.data["name"] == "Pendrell Drake"
    assert time.perf_counter() - started < 0.3 + SLACK  # the timeout, not the hang's minute


async def test_stale_answer_is_served_during_a_429_pause(make_client, fake_scryfall):
    client = await expired_entry(make_client, fake_scryfall)
    fake_scryfall.fail_next(429, retry_after=1)
    assert (await client.named("Pendrell Drake")).stale
    sent = len(fake_scryfall.requests)
    during = await client.named("Pendrell Drake")
    assert during.stale and during.data["name"] == "Pendrell Drake"
    assert len(fake_scryfall.requests) == sent
    with pytest.raises(RateLimited):
        await client.named("Shimmerscale Drake")  # nothing cached for this one


async def test_a_fresh_answer_replaces_the_stale_one(make_client, fake_scryfall):
    client = await expired_entry(make_client, fake_scryfall)
    answer = await client.named("Pendrell Drake")
    assert not answer.stale and not answer.from_cache
    assert len(fake_scryfall.requests) == 2


async def test_autocomplete_is_empty_rather_than_failing(make_client, fake_scryfall):
    client = make_client(retries=0)
    fake_scryfall.fail_next(500)
    assert await client.autocomplete("drake") == []


async def test_event_loop_keeps_running_while_scryfall_is_slow(make_client, fake_scryfall):
    client = make_client()
    fake_scryfall.hang_next(seconds=2.0)
    ticks = 0

    async def ticker():
        nonlocal ticks
        while True:
            await asyncio.sleep(0.01)
            ticks += 1

    task = asyncio.create_task(ticker())
    try:
        started = time.perf_counter()
        answer = await client.named("Pendrell Drake")
        elapsed = time.perf_counter() - started
    finally:
        task.cancel()
    assert answer.data["name"] == "Pendrell Drake" and elapsed >= 2.0
    assert ticks >= 10  # ~200 at 10 ms a tick; a busy machine makes each tick longer, a blocked loop makes none


async def test_closed_client_refuses_calls(make_client):
    client = make_client()
    await client.close()
    with pytest.raises(RuntimeError):
        await client.named("Pendrell Drake")


def test_the_client_does_not_import_discord():
    import subprocess
    import sys

    code = "import sys, bot.scryfall; assert not any(m.startswith('discord') for m in sys.modules)"
    subprocess.run([sys.executable, "-c", code], check=True)


async def test_old_answers_are_pruned_when_a_client_starts(make_client, fake_scryfall):
    first = make_client()
    await first.named("Pendrell Drake")
    await first.close()
    await asyncio.sleep(0.05)
    second = make_client(keep_days=0.01 / 86400, cache_hours=0.01 / 3600, retries=0)
    fake_scryfall.fail_next(500)
    with pytest.raises(ScryfallUnavailable):  # no stale copy left to fall back on
        await second.named("Pendrell Drake")
