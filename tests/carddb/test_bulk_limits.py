"""A hostile or broken bulk data host cannot hold a refresh or fill the disk: every request ends at a deadline,
a body slower than the minimum rate is dropped, and the file is capped at the size Scryfall lists plus a margin.
The stored copy keeps serving all the while and stays as it was; the operator is told why."""

from __future__ import annotations

import asyncio
import time

import pytest

from bot.carddb import CardData, bulk
from bot.carddb.bulk import BulkError, Cancelled
from bot.carddb.cli import update_command
from bot.carddb.importer import stored_meta
from bot.carddb.update import update_from_scryfall
from bot.hosts.download import Limits
from tests.carddb.conftest import leftovers
from tests.support.waits import CEILING, HANG, SLACK, until

QUICK_LISTING = Limits(deadline=1.0, min_rate=256, grace=0.25, max_bytes=1 << 20)


@pytest.fixture
def quick_limits(monkeypatch):
    """Test-sized limits for the file: a quarter of a second's grace, 2 kB/s at least, and a deadline with room
    for a busy machine (the fake may take a second to start answering). The descriptions keep that room too
    unless a test gives them ``QUICK_LISTING``."""
    monkeypatch.setattr(bulk, "FILE_SECONDS", SLACK)
    monkeypatch.setattr(bulk, "FILE_GRACE_SECONDS", 0.25)
    monkeypatch.setattr(bulk, "FILE_MIN_RATE", 2048)
    monkeypatch.setattr(bulk, "LISTING", Limits(deadline=CEILING, min_rate=256, grace=SLACK, max_bytes=1 << 20))


@pytest.mark.parametrize("offer", ["jsonl", "array"])
def test_a_file_sent_a_byte_a_second_is_dropped_at_the_minimum_rate(fake_bulk, db_path, stored, quick_limits, offer):
    fake_bulk.offer, fake_bulk.fault = offer, "trickle"
    started = time.monotonic()
    with pytest.raises(BulkError, match="too slow"):
        update_from_scryfall(db_path, fake_bulk.base_url)
    # The grace period and the slack a busy machine needs, not the file's length in seconds (hours at that rate).
    assert time.monotonic() - started < bulk.FILE_GRACE_SECONDS + SLACK
    assert stored_meta(db_path) == stored and leftovers(db_path) == []


def test_a_file_just_above_the_minimum_rate_is_stopped_at_the_deadline(
    fake_bulk, db_path, stored, quick_limits, monkeypatch
):
    monkeypatch.setattr(bulk, "FILE_MIN_RATE", 64)
    monkeypatch.setattr(bulk, "FILE_GRACE_SECONDS", SLACK)  # a busy machine may start the trickle late
    fake_bulk.fault, fake_bulk.trickle_rate = "trickle", 400.0  # far above 64 bytes/s, far below the file's size
    started = time.monotonic()
    with pytest.raises(BulkError, match=f"not done within {SLACK:g} s"):
        update_from_scryfall(db_path, fake_bulk.base_url)
    assert time.monotonic() - started < bulk.FILE_SECONDS + SLACK  # the whole file takes minutes at that rate
    assert stored_meta(db_path) == stored and leftovers(db_path) == []


def test_a_file_bigger_than_its_listed_size_is_dropped_at_the_cap(fake_bulk, db_path, stored, monkeypatch):
    monkeypatch.setattr(bulk, "MARGIN_BYTES", 4096)
    fake_bulk.fault = "oversized"  # the real file, then zeros without end and no length declared
    with pytest.raises(BulkError, match="more than"):
        update_from_scryfall(db_path, fake_bulk.base_url)
    assert stored_meta(db_path) == stored and leftovers(db_path) == []


def test_the_cap_is_the_listed_size_plus_a_margin():
    limits = bulk.file_limits(bulk.BulkInfo("2026-01-01", "https://x/f.jsonl.gz", None, size=160_000_000))
    assert 160_000_000 < limits.max_bytes <= 160_000_000 * 1.1 + bulk.MARGIN_BYTES
    unlisted = bulk.file_limits(bulk.BulkInfo("2026-01-01", "https://x/f.jsonl.gz", None, size=None))
    assert unlisted.max_bytes == bulk.UNLISTED_MAX_BYTES


def test_a_description_sent_a_byte_a_second_is_given_up_on(fake_bulk, db_path, stored, quick_limits, monkeypatch):
    monkeypatch.setattr(bulk, "LISTING", QUICK_LISTING)
    fake_bulk.listing_fault = "trickle"
    started = time.monotonic()
    with pytest.raises(BulkError, match="could not reach Scryfall"):
        update_from_scryfall(db_path, fake_bulk.base_url)
    assert time.monotonic() - started < bulk.LISTING.deadline + SLACK  # minutes at a byte a second
    assert stored_meta(db_path) == stored


async def test_reads_keep_answering_while_a_refresh_trickles_and_closing_stops_it_at_once(
    fake_bulk, data_dir, db_path, stored, monkeypatch
):
    monkeypatch.setattr(bulk, "FILE_GRACE_SECONDS", HANG)  # the trickle would hold the refresh for a minute
    fake_bulk.fault = "trickle"
    card_data = await CardData.open(data_dir, fake_bulk.base_url, refresh_seconds=3600)
    refreshing = asyncio.ensure_future(card_data.refresh())
    await until(fake_bulk.file_downloads, "the refresh to start downloading the file")
    assert (await card_data.named("Street Wraith")).card.name == "Street Wraith"
    assert (await card_data.search("kw:cycling")).total > 0

    started = time.monotonic()
    await card_data.close()
    with pytest.raises(Cancelled):
        await refreshing
    assert time.monotonic() - started < SLACK  # at once, not after the grace period
    assert stored_meta(db_path) == stored and leftovers(db_path) == []


def test_the_operator_is_told_why_and_that_the_stored_copy_is_unchanged(
    fake_bulk, data_dir, db_path, stored, quick_limits, monkeypatch, capsys
):
    monkeypatch.setenv("BOT_DATA_DIR", str(data_dir))
    monkeypatch.setenv("SCRYFALL_API_URL", fake_bulk.base_url)
    fake_bulk.fault = "trickle"

    assert update_command(type("Args", (), {"file": None, "force": False})()) == 1

    error = capsys.readouterr().err
    assert "too slow" in error and "the stored card data is unchanged" in error
