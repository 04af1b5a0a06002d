"""A bulk data host that lies: a file that unpacks to gigabytes, a listing whose date, size or address is not one,
card objects of the wrong shape. Each refresh ends in bounded time and memory, keeps the last good copy, leaves no
file behind and says why in one line, on the terminal or in the bot's log, without a traceback."""

from __future__ import annotations

import gzip
import json
import logging
import time
import tracemalloc
import zlib
from pathlib import Path

import pytest

from bot.carddb import CardData, bulk
from bot.carddb.bulk import BulkError
from bot.carddb.cli import update_command
from bot.carddb.importer import stored_meta
from bot.carddb.update import update_from_scryfall
from tests.carddb.conftest import leftovers
from tests.support.waits import until

MB = 1 << 20


def gzipped(parts, count: int) -> bytes:
    """``parts[0]``, then ``parts[1]`` ``count`` times, gzipped as they go (a bomb never held whole)."""
    packer = zlib.compressobj(6, zlib.DEFLATED, 31)
    out = [packer.compress(parts[0])]
    out += [packer.compress(parts[1]) for _ in range(count)]
    return b"".join([*out, packer.flush()])


def refused_within(db_path: Path, url: str, match: str, seconds: float = 10.0) -> int:
    """Refresh from ``url`` and expect a refusal matching ``match`` within ``seconds`` of the process's CPU time
    (what the refusal saves; a busy machine stretches the wall-clock time, not the work); the peak of memory the
    refresh allocated."""
    tracemalloc.start()
    started = time.process_time()
    try:
        with pytest.raises(BulkError, match=match):
            update_from_scryfall(db_path, url)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert time.process_time() - started < seconds
    return peak


def test_a_gzip_file_unpacking_to_one_endless_line_is_refused_in_bounded_memory(fake_bulk, db_path, stored):
    # 8 kB on the wire, 512 MB unpacked, with no newline: reading it as a line took 2 GB for 1 GB before.
    fake_bulk.file_answer = (200, {"Content-Type": "application/gzip"}, gzipped([b'{"object":"card",', b" " * MB], 512))
    peak = refused_within(db_path, fake_bulk.base_url, "longer than")
    assert peak < 32 * MB
    assert stored_meta(db_path) == stored and leftovers(db_path) == []


def test_a_gzip_file_unpacking_past_the_listed_size_is_refused_as_it_unpacks(fake_bulk, db_path, stored, monkeypatch):
    monkeypatch.setattr(bulk, "MARGIN_BYTES", 64 * 1024)  # the cap near the listed size, so few cards go in first
    # Real card lines repeated: a small download that would import a million copies of one card.
    line = (json.dumps(fake_bulk.cards[0]) + "\n").encode()
    fake_bulk.file_answer = (200, {"Content-Type": "application/gzip"}, gzipped([b"", line * 100], 200))
    peak = refused_within(db_path, fake_bulk.base_url, "unpacks to more than", seconds=30.0)
    assert peak < 64 * MB
    assert stored_meta(db_path) == stored and leftovers(db_path) == []


def test_a_json_array_nested_a_million_deep_is_refused_at_once(fake_bulk, db_path, stored):
    # One megabyte of ``[``: ijson's item paths took over 3.5 GB of it before.
    fake_bulk.file_answer = (200, {"Content-Type": "application/json"}, b"[" * MB)
    peak = refused_within(db_path, fake_bulk.base_url, "nests deeper than")
    assert peak < 32 * MB
    assert stored_meta(db_path) == stored and leftovers(db_path) == []


def test_a_body_gzip_encoded_on_the_wire_is_capped_as_it_unpacks(fake_bulk, db_path, stored):
    headers = {"Content-Type": "application/json", "Content-Encoding": "gzip"}
    fake_bulk.file_answer = (200, headers, gzipped([b"[", b" " * MB], 1024))  # 1 MB sent, 1 GB once unpacked
    peak = refused_within(db_path, fake_bulk.base_url, "more than")
    assert peak < 64 * MB
    assert stored_meta(db_path) == stored and leftovers(db_path) == []


def test_an_endless_body_is_capped_however_large_a_size_the_listing_claims(fake_bulk, db_path, stored, monkeypatch):
    monkeypatch.setattr(bulk, "MAX_FILE_BYTES", 4 * MB)
    fake_bulk.info_changes = {"size": 10**15}
    fake_bulk.fault = "oversized"  # the real file, then zeros without end
    refused_within(db_path, fake_bulk.base_url, f"more than {4 * MB} bytes")
    assert stored_meta(db_path) == stored and leftovers(db_path) == []


@pytest.mark.parametrize(
    "changes",
    [{"updated_at": "yesterday"}, {"updated_at": 12}, {"updated_at": None}, {"updated_at": "99999-01-01"}],
    ids=["words", "a number", "null", "out of range"],
)
def test_a_listing_whose_date_is_not_one_is_refused_in_one_line(
    fake_bulk, data_dir, db_path, stored, monkeypatch, capsys, changes
):
    fake_bulk.info_changes = changes
    monkeypatch.setenv("BOT_DATA_DIR", str(data_dir))
    monkeypatch.setenv("SCRYFALL_API_URL", fake_bulk.base_url)

    assert update_command(type("Args", (), {"file": None, "force": False})()) == 1

    error = capsys.readouterr().err
    assert error.startswith("error: Scryfall's bulk data description gives no date")
    assert error.count("\n") == 1 and "the stored card data is unchanged" in error
    assert stored_meta(db_path) == stored and leftovers(db_path) == []


@pytest.mark.parametrize("address", [12, ["https://x"], "file:///etc/passwd", "ftp://example.org/cards.json"])
def test_a_listing_naming_no_web_address_falls_back_or_is_refused(fake_bulk, db_path, stored, address):
    fake_bulk.info_changes = {"jsonl_download_uri": address}
    assert update_from_scryfall(db_path, fake_bulk.base_url).imported  # the JSON array's address still serves

    fake_bulk.updated_at = "2026-11-22T09:00:00.000+00:00"
    fake_bulk.info_changes = {"jsonl_download_uri": address, "download_uri": address}
    with pytest.raises(BulkError, match="names no file to download"):
        update_from_scryfall(db_path, fake_bulk.base_url)
    assert leftovers(db_path) == []


def test_a_date_a_lying_listing_stored_in_the_future_does_not_hold_back_the_real_files(fake_bulk, db_path, stored):
    fake_bulk.info_changes = {"updated_at": "9999-12-31T00:00:00+00:00"}
    assert update_from_scryfall(db_path, fake_bulk.base_url).imported

    fake_bulk.info_changes = {}  # the real listing again, a day later
    fake_bulk.updated_at = "2026-11-22T09:00:00.000+00:00"
    assert update_from_scryfall(db_path, fake_bulk.base_url).imported
    assert stored_meta(db_path)["updated_at"] == "2026-11-22T09:00:00.000+00:00"


def card_lines(cards) -> bytes:
    return gzip.compress("".join(json.dumps(card) + "\n" for card in cards).encode())


@pytest.mark.parametrize(
    "change",
    [
        {"card_faces": "two faces"},
        {"card_faces": [1, 2]},
        {"keywords": 5},
        {"power": {"value": 3}},
        {"colors": 7},
        {"oracle_text": ["Cycling {2}"]},
        {"image_uris": "https://cards.scryfall.io/x.jpg"},
    ],
    ids=["faces a text", "faces numbers", "keywords a number", "power an object", "colors", "text a list", "images"],
)
def test_card_objects_with_fields_of_the_wrong_shape_are_skipped_and_counted(fake_bulk, db_path, stored, change):
    cards = [dict(card) for card in fake_bulk.cards]
    cards[0] = {**cards[0], **change}
    fake_bulk.file_answer = (200, {"Content-Type": "application/gzip"}, card_lines(cards))
    outcome = update_from_scryfall(db_path, fake_bulk.base_url)
    assert outcome.result.count == len(cards) - 1 and outcome.result.skipped == 1

    fake_bulk.updated_at = "2026-11-22T09:00:00.000+00:00"
    fake_bulk.file_answer = (200, {"Content-Type": "application/gzip"}, card_lines({**c, **change} for c in cards))
    kept = stored_meta(db_path)
    with pytest.raises(BulkError, match="no valid cards"):
        update_from_scryfall(db_path, fake_bulk.base_url)
    assert stored_meta(db_path) == kept and leftovers(db_path) == []


async def test_the_bots_refresh_logs_a_lying_listing_in_one_line_and_keeps_serving(
    fake_bulk, data_dir, db_path, stored, caplog
):
    fake_bulk.info_changes = {"updated_at": "yesterday"}
    card_data = await CardData.open(data_dir, fake_bulk.base_url, refresh_seconds=3600)
    try:
        with caplog.at_level(logging.WARNING, logger="bot.carddb"):
            card_data.start()
            await until(lambda: card_data.last_error, "the refresh to give up")
        assert card_data.last_error and "gives no date" in card_data.last_error
        refusals = [record for record in caplog.records if record.name.startswith("bot.carddb")]
        assert refusals and all(record.exc_info is None for record in refusals)
        assert (await card_data.named("Street Wraith")).card.name == "Street Wraith"
    finally:
        await card_data.close()
    assert stored_meta(db_path) == stored
