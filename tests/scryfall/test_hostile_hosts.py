"""Scryfall, or whatever answers in its place, failing in ways nobody scripted before: a storm of 5xx, bodies that
unpack to a gigabyte or nest a million deep, objects whose fields are not what they say. Every caller gets one
clear answer at once, and the storm does not hold the rate budget or the queue for everyone else."""

from __future__ import annotations

import asyncio
import json
import time
import tracemalloc
import zlib

import pytest

from bot.scryfall import BadQuery, ScryfallClient, ScryfallError, ScryfallUnavailable
from bot.serving.breaker import CIRCUIT_FAILURES
from tests.support.waits import SLACK

MB = 1 << 20


def gzipped(head: bytes, filler: bytes, count: int) -> bytes:
    packer = zlib.compressobj(6, zlib.DEFLATED, 31)
    return b"".join([packer.compress(head), *(packer.compress(filler) for _ in range(count)), packer.flush()])


async def test_a_5xx_storm_answers_everyone_at_once_and_sends_a_few_requests_not_three_each(make_client, fake_scryfall):
    client: ScryfallClient = make_client(circuit_seconds=0.5)
    fake_scryfall.refuse_api(503)
    started = time.monotonic()

    async def search(number: int) -> ScryfallError:
        with pytest.raises(ScryfallUnavailable) as caught:
            await client.search(f"t:creature cmc={number}")
        return caught.value

    errors = await asyncio.gather(*(search(number) for number in range(20)))

    # Before: every search queued for its slot and retried; 40 of them sent 41 requests and were answered after 23-46 s.
    assert time.monotonic() - started < 3.0 + SLACK
    assert len(fake_scryfall.api_requests()) <= CIRCUIT_FAILURES + 1
    assert all("not answering" in error.user_message() for error in errors)

    fake_scryfall.refuse_api(None)
    await asyncio.sleep(0.6)  # the pause after the storm, then Scryfall is asked again
    started = time.monotonic()
    assert (await client.named("Pendrell Drake")).data["name"] == "Pendrell Drake"
    assert time.monotonic() - started < SLACK  # no slots left reserved by the 20 searches never sent (10 s)


async def test_requests_after_a_storm_pause_are_retried_only_once_more_before_pausing_longer(
    make_client, fake_scryfall
):
    client: ScryfallClient = make_client(circuit_seconds=0.3)
    fake_scryfall.refuse_api(503)
    with pytest.raises(ScryfallUnavailable):
        await client.search("t:creature")
    first = client.failing_for()
    await asyncio.sleep(0.35)
    sent = len(fake_scryfall.api_requests())
    with pytest.raises(ScryfallUnavailable):
        await client.search("t:goblin")
    assert len(fake_scryfall.api_requests()) == sent + 1  # one probe, not three attempts
    assert client.failing_for() > first


async def test_a_cached_answer_is_served_stale_during_the_pause(make_client, fake_scryfall):
    client: ScryfallClient = make_client(cache_hours=0, circuit_seconds=5)
    await client.named("Pendrell Drake")
    fake_scryfall.refuse_api(503)
    with pytest.raises(ScryfallUnavailable):
        await client.search("t:creature")
    assert client.failing_for() > 0
    answer = await client.named("Pendrell Drake")
    assert answer.stale and answer.data["name"] == "Pendrell Drake"


async def test_a_body_gzip_encoded_to_a_gigabyte_is_refused_in_bounded_memory(client, fake_scryfall):
    headers = {"Content-Type": "application/json", "Content-Encoding": "gzip"}
    fake_scryfall.bulk.file_answer = (200, headers, gzipped(b'{"object":"list","data":["', b"x" * MB, 1024))
    tracemalloc.start()
    try:
        with pytest.raises(ScryfallUnavailable):
            await client.get_uri(f"{fake_scryfall.base_url}/file/oracle-cards-1.json")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 32 * MB


@pytest.mark.parametrize(
    "body",
    [
        b"[" * MB,  # was a RecursionError out of the client
        b'{"object":"list","data":' + b"[" * 100_000,
        json.dumps({"object": "list", "has_more": False, "data": 5}).encode(),
        json.dumps({"object": "list", "has_more": False, "data": [1, "two", None]}).encode(),
        json.dumps({"object": "catalog", "data": {"name": "Pendrell Drake"}}).encode(),
    ],
    ids=["a million deep", "a list nested deep", "data a number", "data not cards", "catalog an object"],
)
async def test_json_that_is_not_a_scryfall_object_is_one_clear_answer(client, fake_scryfall, body):
    fake_scryfall.bulk.file_answer = (200, {"Content-Type": "application/json"}, body)
    with pytest.raises(ScryfallUnavailable) as caught:
        await client.get_uri(f"{fake_scryfall.base_url}/file/oracle-cards-1.json")
    assert "not answering" in caught.value.user_message()


async def test_an_error_object_with_fields_of_the_wrong_shape_is_still_one_clear_answer(client, fake_scryfall):
    lying = {"object": "error", "status": "bad", "code": ["x"], "type": 5, "warnings": 7, "details": "Nope " * 900}
    fake_scryfall.bulk.file_answer = (400, {"Content-Type": "application/json"}, json.dumps(lying).encode())
    with pytest.raises(BadQuery) as caught:  # was a ValueError out of int("bad")
        await client.get_uri(f"{fake_scryfall.base_url}/file/oracle-cards-1.json")
    assert caught.value.status == 400 and caught.value.warnings == []
    assert len(caught.value.user_message()) <= 2100
