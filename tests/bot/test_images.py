"""The card image cache against a fake image host on 127.0.0.1: memory, disk across a restart, the host
down, slow or answering garbage, only the allowed hosts, a few requests at a time."""

from __future__ import annotations

import asyncio
import io
import time

import pytest
from PIL import Image

from bot.hosts.images import CardImages, image_url, user_agent
from tests.support.fake_images import FakeImageHost, card_jpeg
from tests.support.waits import CEILING, HANG, SLACK


@pytest.fixture
def host():
    with FakeImageHost(slow_seconds=3.0) as fake:
        yield fake


async def open_cache(path, host: FakeImageHost, **options) -> CardImages:
    options.setdefault("timeout", CEILING)  # out of the way unless a test checks it: a busy machine is slow to serve
    return await CardImages.open(path, host.base_url, **options)


async def test_an_image_is_fetched_once_with_the_projects_user_agent_then_served_from_memory(tmp_path, host):
    images = await open_cache(tmp_path / "images", host)
    url = host.url("street-wraith")

    first = await images.get_many([url])
    second = await images.get_many([url, url])

    assert first[url] == second[url] == card_jpeg(host.requests[0].path.split("?")[0])
    assert Image.open(io.BytesIO(first[url])).size == (146, 204)
    assert [r.user_agent for r in host.requests] == [user_agent()]
    assert user_agent().startswith("Cyclebot/")
    await images.close()


async def test_the_disk_cache_survives_a_restart_and_nothing_is_fetched_again(tmp_path, host):
    urls = [host.url(f"card-{n}") for n in range(5)]
    images = await open_cache(tmp_path / "images", host)
    assert len(await images.get_many(urls)) == 5
    await images.close()

    restarted = await open_cache(tmp_path / "images", host)
    again = await restarted.get_many(urls)

    assert len(again) == 5 and len(host.requests) == 5
    assert restarted.disk_size == sum(len(data) for data in again.values())
    await restarted.close()


async def test_the_disk_cache_keeps_to_its_size_cap_dropping_the_least_recently_used(tmp_path, host):
    one = len(card_jpeg("/small/front/f/0/card-0.jpg"))
    images = await open_cache(tmp_path / "images", host, disk_bytes=int(one * 3.5), memory_bytes=1)
    urls = [host.url(f"card-{n}") for n in range(4)]
    for url in urls[:3]:  # one at a time: images fetched together are kept in whatever order they arrive
        await images.get_many([url])
    await images.get_many(urls[:1])  # card-0 used again: card-1 is now the least recently used

    await images.get_many(urls[3:])

    files = sorted(p.name for p in (tmp_path / "images").iterdir())
    assert images.disk_size <= one * 3.5 and len(files) == 3
    assert CardImages.file_name(urls[1]) not in files and CardImages.file_name(urls[0]) in files
    fetched = len(host.requests)
    await images.get_many([urls[0]])
    assert len(host.requests) == fetched  # still on disk
    await images.close()


@pytest.mark.parametrize("mode", ["down", "garbage", "truncated"])
async def test_a_broken_host_gives_no_image_keeps_nothing_and_is_asked_again_later(tmp_path, host, mode):
    images = await open_cache(tmp_path / "images", host, retry_after=0.3)
    url = host.url("broken")
    host.mode = mode

    assert await images.get_many([url]) == {}
    assert await images.get_many([url]) == {}  # failed lately: not asked again at once
    assert len(host.requests) == 1 and list((tmp_path / "images").iterdir()) == []

    host.mode = "ok"
    await asyncio.sleep(0.35)
    assert url in await images.get_many([url])
    assert len(host.requests) == 2
    await images.close()


async def test_a_slow_host_is_given_up_on_within_the_timeout(tmp_path, host):
    images = await open_cache(tmp_path / "images", host, timeout=0.5)
    host.mode, host.slow_seconds = "slow", HANG

    started = time.monotonic()
    assert await images.get_many([host.url("slow")]) == {}
    assert time.monotonic() - started < 0.5 + SLACK  # the timeout, not the host's minute
    await images.close()


async def test_only_the_allowed_hosts_are_asked(tmp_path, host):
    images = await open_cache(tmp_path / "images", host)
    elsewhere = [
        "https://example.com/small/front/a.jpg",
        "file:///etc/passwd",
        host.url("x").replace("http://", "ftp://"),
        host.url("x").replace("127.0.0.1", "localhost"),
    ]

    assert await images.get_many(elsewhere) == {}
    assert host.requests == []
    assert images.allowed("https://cards.scryfall.io/small/front/a/b/c.jpg")
    await images.close()


async def test_an_image_on_another_port_of_the_configured_host_is_never_asked(tmp_path, host):
    with FakeImageHost() as elsewhere:  # the same machine, another port
        images = await open_cache(tmp_path / "images", host)
        assert await images.get_many([elsewhere.url("x")]) == {}
        assert elsewhere.requests == []
        assert images.allowed(host.url("x")) and images.allowed("https://cards.scryfall.io:443/small/a.jpg")
        assert not images.allowed("https://cards.scryfall.io:8443/small/a.jpg")
        await images.close()


async def test_one_image_asked_for_at_the_same_moment_is_fetched_once(tmp_path, host):
    images = await open_cache(tmp_path / "images", host)
    url = host.url("popular")

    results = await asyncio.gather(*(images.get_many([url]) for _ in range(8)))

    assert all(url in result for result in results) and len(host.requests) == 1
    await images.close()


def test_a_faces_own_image_is_chosen_for_a_double_faced_card():
    faces = [
        {"name": "Front", "image_uris": {"small": "https://cards.scryfall.io/small/front.jpg"}},
        {"name": "Back", "image_uris": {"small": "https://cards.scryfall.io/small/back.jpg"}},
    ]
    card = {"small": "https://cards.scryfall.io/small/card.jpg", "normal": "https://cards.scryfall.io/normal/card.jpg"}

    assert image_url(None, faces, 1) == "https://cards.scryfall.io/small/back.jpg"
    assert image_url(None, faces, 0) == "https://cards.scryfall.io/small/front.jpg"
    assert image_url(card) == "https://cards.scryfall.io/small/card.jpg"
    assert image_url({"normal": card["normal"]}) == card["normal"]
    assert image_url(None) is None
