"""The client survives a Scryfall (or a proxy in front of it) that lies, stalls, floods or loops."""

from __future__ import annotations

import asyncio
import logging
import math
import time
import tracemalloc

import pytest
import requests

from bot.scryfall import CardNotFound, RateLimited, ScryfallClient, ScryfallError, ScryfallUnavailable
from bot.scryfall.limiter import MAX_PAUSE_SECONDS, retry_after_seconds
from bot.scryfall.transport import CACHE_FILE, MAX_REDIRECTS
from tests.support.waits import CEILING, HANG, SLACK

NAME = "Pendrell Drake"


def cached_keys(client: ScryfallClient) -> list[str]:
    return list(client.transport.cache.responses.keys())


# --------------------------------------------------------------------------- cache poisoning


@pytest.mark.parametrize("fault", ["truncated", "html", "empty", "not_object"])
async def test_a_broken_200_is_never_cached_and_the_next_lookup_asks_again(client, fake_scryfall, fault):
    fake_scryfall.break_next(fault, path="/cards/named")
    with pytest.raises(ScryfallUnavailable):
        await client.named(NAME)
    answer = await client.named(NAME)
    assert answer.data["name"] == NAME and not answer.from_cache
    assert len(fake_scryfall.requests_to("/cards/named")) == 2


async def test_a_non_json_404_is_never_cached(client, fake_scryfall):
    fake_scryfall.break_next("html_404", path="/cards/named")
    with pytest.raises(ScryfallUnavailable):
        await client.named(NAME)
    assert (await client.named(NAME)).data["name"] == NAME


async def test_a_real_not_found_is_still_cached(client, fake_scryfall):
    for _ in range(2):
        with pytest.raises(CardNotFound):
            await client.named("Zzyzx Qqq Nonexistent", fuzzy=False)
    assert len(fake_scryfall.requests) == 1


async def test_a_poisoned_entry_already_in_the_cache_is_evicted_not_served(make_client, fake_scryfall, data_dir):
    first = make_client()
    prepared = first.transport.session.prepare_request(
        requests.Request("GET", fake_scryfall.base_url + "/cards/named", params={"fuzzy": NAME})
    )
    key = first.transport.key(prepared)
    fake_scryfall.break_next("html")
    url, headers = fake_scryfall.base_url + "/cards/named", dict(prepared.headers)
    html = await asyncio.to_thread(requests.get, url, headers=headers, timeout=CEILING)
    first.transport.cache.save_response(html, cache_key=key)  # what an older bot stored
    await first.close()

    client = make_client()
    answer = await client.named(NAME)
    assert answer.data["name"] == NAME and not answer.from_cache
    assert (await client.named(NAME)).from_cache


# --------------------------------------------------------------------------- damaged cache file


async def test_a_damaged_cache_file_is_moved_aside_and_lookups_work(make_client, data_dir, caplog):
    (data_dir / CACHE_FILE).write_bytes(b"this is not an SQLite database" * 100)
    with caplog.at_level(logging.WARNING, logger="bot.scryfall"):
        client = make_client()
    answer = await client.named(NAME)
    assert answer.data["name"] == NAME
    assert (await client.named(NAME)).from_cache  # the new cache file works
    assert [p.name for p in data_dir.glob(CACHE_FILE + ".damaged-*")]
    warnings = [r for r in caplog.records if "unusable" in r.getMessage()]
    assert len(warnings) == 1 and str(data_dir / CACHE_FILE) in warnings[0].getMessage()


# --------------------------------------------------------------------------- Retry-After


@pytest.mark.parametrize(
    "header", ["inf", "nan", "-5", "1e9", "Wed, 01 Jan 2099 00:00:00 GMT", "Thu, 01 Jan 1970 00:00:00 GMT", "soon"]
)
def test_retry_after_is_clamped_between_the_minimum_pause_and_a_few_minutes(header):
    seconds = retry_after_seconds(header, minimum=30, maximum=MAX_PAUSE_SECONDS)
    assert math.isfinite(seconds) and 30 <= seconds <= MAX_PAUSE_SECONDS


@pytest.mark.parametrize("header", ["inf", "1e9", "Wed, 01 Jan 2099 00:00:00 GMT"])
async def test_an_absurd_retry_after_pauses_a_few_minutes_at_most_and_raises_nothing_else(
    make_client, fake_scryfall, header
):
    client = make_client(pause_seconds=30)
    fake_scryfall.fail_next(429, path="/cards/named", retry_after=header)
    with pytest.raises(RateLimited) as caught:
        await client.named(NAME)
    assert 30 <= caught.value.retry_after <= MAX_PAUSE_SECONDS
    assert "try again in" in str(caught.value)
    assert 29 <= client.paused_for("search") <= MAX_PAUSE_SECONDS
    with pytest.raises(RateLimited):  # the next lookup hears the same, not an OverflowError
        await client.named("Shimmerscale Drake")


# --------------------------------------------------------------------------- deadlines


async def test_a_trickling_body_is_cut_at_the_overall_deadline(make_client, fake_scryfall):
    # A byte every 0.3 s never trips the 2 s per-read timeout; only the overall deadline can.
    client = make_client(timeout=HANG, deadline=1.0, retries=0)
    fake_scryfall.break_next("trickle", path="/cards/named", seconds=0.3)
    started = time.perf_counter()
    with pytest.raises(ScryfallUnavailable) as caught:
        await client.named(NAME)
    assert time.perf_counter() - started < 1.0 + SLACK  # the deadline, not the body's minutes
    assert caught.value.timed_out and "timed out" in str(caught.value)


async def test_a_stale_answer_comes_quickly_while_scryfall_hangs(make_client, fake_scryfall):
    client = make_client(timeout=HANG, stale_deadline=0.5, cache_hours=0.2 / 3600, retries=2)
    await client.named(NAME)
    await asyncio.sleep(0.25)
    fake_scryfall.hang_next(count=5, seconds=HANG)
    started = time.perf_counter()
    answer = await client.named(NAME)
    assert answer.stale and answer.data["name"] == NAME
    assert time.perf_counter() - started < 0.5 + SLACK  # the stale deadline, not the hang's minute


async def test_decklist_resolution_has_an_overall_limit(make_client, fake_scryfall):
    client = make_client(timeout=HANG, collection_deadline=1.0)
    fake_scryfall.hang_next(count=5, path="/cards/collection", seconds=HANG)
    started = time.perf_counter()
    with pytest.raises(ScryfallUnavailable) as caught:
        await client.collection([{"name": NAME}] * 200)
    assert caught.value.timed_out
    assert time.perf_counter() - started < 1.0 + SLACK  # the decklist's deadline, not the hang's minute


# --------------------------------------------------------------------------- growth


async def test_a_60_mb_body_is_refused_while_streaming_without_holding_it(client, fake_scryfall):
    fake_scryfall.break_next("huge", count=10, path="/cards/search")
    tracemalloc.start()
    try:
        with pytest.raises(ScryfallUnavailable):
            await client.search("o:cycling")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 20 * 1024 * 1024
    assert cached_keys(client) == []


async def test_a_redirect_loop_is_capped_and_every_hop_is_rate_limited(make_client, fake_scryfall):
    client = make_client(retries=1)
    fake_scryfall.break_next("redirect_loop", count=100, path="/cards/autocomplete")
    fake_scryfall.break_next("redirect_loop", count=100, path=r"/cards/[0-9a-f-]{36}$")
    card_id = next(card["id"] for card in fake_scryfall.cards if card["name"] == NAME)
    with pytest.raises(ScryfallError):
        await client.get_uri(f"{fake_scryfall.base_url}/cards/{card_id}")
    hops = fake_scryfall.requests_to(card_id)
    assert len(hops) == (MAX_REDIRECTS + 1) * 2
    assert fake_scryfall.violations == [] and fake_scryfall.max_rate("other") <= 10


async def test_autocomplete_keystrokes_are_not_stored_in_the_cache_file(client, fake_scryfall):
    for prefix in ("pe", "pen", "pend", "pendr"):
        await client.autocomplete(prefix)
    assert cached_keys(client) == []
    assert await client.autocomplete("pendr")  # remembered in memory for a while
    assert len(fake_scryfall.requests) == 4


async def test_old_entries_are_pruned_while_the_bot_runs_not_only_at_start(make_client, fake_scryfall, monkeypatch):
    from bot.scryfall import calls as client_module

    client = make_client(cache_hours=0.1 / 3600, keep_days=0.1 / 86400)
    await client.named(NAME)
    assert len(cached_keys(client)) == 1
    await asyncio.sleep(0.2)
    monkeypatch.setattr(client_module, "PRUNE_EVERY_SECONDS", 0.0)
    await client.named("Shimmerscale Drake")
    await asyncio.sleep(0.2)  # the prune runs in the cache thread
    assert len(cached_keys(client)) == 1  # only the new answer is left
