"""A hostile image host cannot hold the image cache's fetchers or its memory: a body slower than the minimum
rate is dropped after the grace period, an endless one at the size cap, an image past the bot's pixel limit is
refused, and the largest accepted image is decoded near the size it is drawn at."""

from __future__ import annotations

import asyncio
import time

import pytest
from PIL import Image

from bot.hosts.images import CardImages
from bot.hosts.imaging import MAX_IMAGE_PIXELS, Thumbnails, check_image, decode_near
from tests.support.fake_images import LARGEST, FakeImageHost, huge_jpeg, huge_png
from tests.support.waits import CEILING, HANG, SLACK

GRACE = 0.3


@pytest.fixture
def host():
    with FakeImageHost() as fake:
        yield fake


async def open_cache(path, host: FakeImageHost, **options) -> CardImages:
    options = {"timeout": 3.0, "grace": GRACE, "min_rate": 2000, "retry_after": 0.0, **options}
    return await CardImages.open(path, host.base_url, **options)


async def test_images_sent_a_byte_a_second_free_every_fetcher_after_the_grace_period(tmp_path, host):
    images = await open_cache(tmp_path / "images", host, timeout=HANG)  # only the grace period can free them
    slow = [host.url(f"trickle-{n}") for n in range(4)]  # as many as there are fetchers
    host.path_modes = {"trickle-": "trickle"}

    started = time.monotonic()
    held = asyncio.ensure_future(images.get_many(slow))
    await asyncio.sleep(0.05)
    other = await images.get_many([host.url("another-channels-card")])  # waits for a fetcher to come free
    other_after = time.monotonic() - started

    assert list(other) == [host.url("another-channels-card")]
    assert await held == {}  # dropped: not an image kept, none on disk
    assert other_after < GRACE + SLACK  # not the timeout's minute (45 s before the grace period)
    assert [p.name for p in (tmp_path / "images").iterdir()] == [
        CardImages.file_name(host.url("another-channels-card"))
    ]
    await images.close()


async def test_one_pictures_slow_images_leave_a_fetcher_for_another_pictures(tmp_path, host):
    images = await open_cache(tmp_path / "images", host, timeout=2 * SLACK)
    slow = [host.url(f"slow-{n}") for n in range(8)]  # twice as many as there are fetchers
    host.path_modes, host.slow_seconds = {"slow-": "slow"}, HANG  # each holds its fetcher until the deadline

    started = time.monotonic()
    held = asyncio.ensure_future(images.get_many(slow))
    await asyncio.sleep(0.05)
    other = await images.get_many([host.url("another-channels-card")])
    other_after = time.monotonic() - started

    assert list(other) == [host.url("another-channels-card")]
    assert not held.done()  # answered while the first picture's images were still being waited for
    assert other_after < SLACK  # not after a round of the deadline, as when it queued behind them
    held.cancel()  # the slow images' own end is test_a_slow_host_is_given_up_on_within_the_timeout's
    await images.close()


async def test_an_endless_body_is_dropped_at_the_size_cap(tmp_path, host):
    images = await open_cache(tmp_path / "images", host, max_bytes=256 * 1024, timeout=HANG)
    host.mode = "endless"

    started = time.monotonic()
    assert await images.get_many([host.url("endless")]) == {}
    assert time.monotonic() - started < SLACK  # at the cap, not at the timeout
    assert list((tmp_path / "images").iterdir()) == []
    await images.close()


async def test_an_image_past_the_pixel_limit_is_refused_and_the_largest_accepted_one_is_kept(tmp_path, host):
    def maker(path: str) -> bytes:
        return huge_png(path, (LARGEST[0] + 1, LARGEST[1])) if "over" in path else huge_png(path)

    host.maker = maker
    # The fake takes a moment to draw them, longer on a busy machine.
    images = await open_cache(tmp_path / "images", host, grace=CEILING, timeout=CEILING)

    found = await images.get_many([host.url("over-the-limit"), host.url("at-the-limit")])

    assert list(found) == [host.url("at-the-limit")]
    await images.close()


def test_the_pixel_limit_is_the_bots_own_and_pillows_is_left_alone():
    assert MAX_IMAGE_PIXELS == LARGEST[0] * LARGEST[1]
    assert Image.MAX_IMAGE_PIXELS > MAX_IMAGE_PIXELS  # Pillow's process-wide limit, which matplotlib shares, as it was
    with pytest.raises(ValueError, match="not a card image"):
        check_image(huge_png("/x", (LARGEST[0] * 2, LARGEST[1])))


def test_the_largest_jpeg_is_decoded_at_a_reduced_scale(monkeypatch):
    data = huge_jpeg("/largest")
    decoded_sizes = []
    real_load = Image.Image.load

    def load(image):
        decoded_sizes.append(image.size)
        return real_load(image)

    monkeypatch.setattr(Image.Image, "load", load)
    thumbnail = decode_near(data, (146, 204))

    assert thumbnail.size == (146, 204)
    assert max(w * h for w, h in decoded_sizes) <= 256 * 256  # 1/8 of 2048 a side, not 2048×2048


def test_decoded_images_are_kept_by_digest_within_a_byte_cap():
    kept = Thumbnails(max_bytes=146 * 204 * 3 * 3)
    sources = [huge_jpeg(f"/card-{n}") for n in range(5)]
    for data in sources:
        assert kept(data, (146, 204)).size == (146, 204)
    assert kept.size <= kept.max_bytes and len(kept) == 3
    assert kept(bytes(sources[-1]), (146, 204)) is kept(sources[-1], (146, 204))  # the same bytes, the same entry
    assert all(not isinstance(key[0], bytes) or len(key[0]) == 16 for key in kept)  # a digest, not the image
