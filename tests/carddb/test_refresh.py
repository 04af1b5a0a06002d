"""Refreshing the local copy from Scryfall's bulk data: when it downloads, what it accepts, what it keeps."""

from __future__ import annotations

import copy
import gzip
import json
import threading
from pathlib import Path

import pytest

from bot.carddb.bulk import BulkError
from bot.carddb.importer import ImportRejected, stored_meta
from bot.carddb.store import CardStore
from bot.carddb.update import update_from_file, update_from_scryfall
from tests.support.fake_bulk import DEFAULT_UPDATED_AT, FakeBulk

NEWER = "2026-11-21T09:03:55.101+00:00"
OLDER = "2026-11-19T09:05:12.734+00:00"


def new_card(fake: FakeBulk, name: str, number: int) -> dict:
    card = copy.deepcopy(next(c for c in fake.cards if c["name"] == "Street Wraith"))
    card.update(
        name=name, id=f"f00000c0-0000-4000-8000-{number:012d}", oracle_id=f"f11111c1-0000-4000-8000-{number:012d}"
    )
    return card


def names_served(path: Path) -> tuple[int, set[str]]:
    store = CardStore(path)
    try:
        rows = store._db().execute("SELECT name FROM cards").fetchall()
        return store.count, {row[0] for row in rows}
    finally:
        store.close()


def test_imports_the_gzipped_json_lines_file(fake_bulk: FakeBulk, db_path: Path):
    outcome = update_from_scryfall(db_path, fake_bulk.base_url)
    assert outcome.result.count == len(fake_bulk.cards)
    assert [r.path for r in fake_bulk.file_downloads()] == ["/file/oracle-cards-20261120090431.jsonl.gz"]
    count, names = names_served(db_path)
    assert (count, names) == (len(fake_bulk.cards), set(fake_bulk.card_names()))
    assert stored_meta(db_path)["updated_at"] == DEFAULT_UPDATED_AT


def test_imports_the_older_json_array_when_no_json_lines_file_is_offered(fake_bulk: FakeBulk, db_path: Path):
    fake_bulk.offer = "array"
    outcome = update_from_scryfall(db_path, fake_bulk.base_url)
    assert [r.path for r in fake_bulk.file_downloads()] == ["/file/oracle-cards-20261120090431.json"]
    assert outcome.result.count == len(fake_bulk.cards)
    assert names_served(db_path)[1] == set(fake_bulk.card_names())


@pytest.mark.parametrize("form", ["jsonl", "jsonl.gz", "json", "json.gz"])
def test_imports_a_local_file_in_any_of_the_four_forms(fake_bulk: FakeBulk, db_path: Path, tmp_path: Path, form):
    body = (
        fake_bulk.array_bytes()
        if form.startswith("json.") or form == "json"
        else gzip.decompress(fake_bulk.jsonl_bytes())
    )
    if form.endswith(".gz"):
        body = gzip.compress(body)
    source = tmp_path / f"oracle-cards.{form}"
    source.write_bytes(body)
    assert update_from_file(db_path, source).result.count == len(fake_bulk.cards)
    assert CardStore(db_path).named("Stomp").card.name == "Bonecrusher Giant // Stomp"
    assert fake_bulk.requests == []


def test_a_newer_file_is_downloaded_an_equal_or_older_one_is_not(fake_bulk: FakeBulk, db_path: Path):
    update_from_scryfall(db_path, fake_bulk.base_url)
    for same_or_older in (DEFAULT_UPDATED_AT, OLDER):
        fake_bulk.updated_at = same_or_older
        assert update_from_scryfall(db_path, fake_bulk.base_url).result is None
    assert len(fake_bulk.file_downloads()) == 1
    assert len(fake_bulk.requests_to("^/bulk-data/oracle-cards$")) == 3

    fake_bulk.updated_at = NEWER
    fake_bulk.cards.append(new_card(fake_bulk, "Freshly Printed Cycler", 1))
    outcome = update_from_scryfall(db_path, fake_bulk.base_url)
    assert outcome.result.updated_at == NEWER
    assert len(fake_bulk.file_downloads()) == 2
    assert "Freshly Printed Cycler" in names_served(db_path)[1]


def test_force_downloads_even_when_current(fake_bulk: FakeBulk, db_path: Path):
    update_from_scryfall(db_path, fake_bulk.base_url)
    update_from_scryfall(db_path, fake_bulk.base_url, force=True)
    assert len(fake_bulk.file_downloads()) == 2


@pytest.mark.parametrize("fault", ["truncated", "garbage", "error", "too_few"])
@pytest.mark.parametrize("offer", ["jsonl", "array"])
def test_a_failed_refresh_keeps_the_last_good_copy(fake_bulk: FakeBulk, db_path: Path, fault: str, offer: str):
    fake_bulk.offer = offer
    update_from_scryfall(db_path, fake_bulk.base_url)
    before = names_served(db_path)
    reader = CardStore(db_path)  # a reader already open goes on reading too

    fake_bulk.updated_at = NEWER
    fake_bulk.fault = fault
    fake_bulk.cards.append(new_card(fake_bulk, "Never Imported", 2))
    with pytest.raises(BulkError):
        update_from_scryfall(db_path, fake_bulk.base_url)

    assert len(fake_bulk.file_downloads()) == 2
    assert names_served(db_path) == before
    assert "Never Imported" not in before[1]
    assert stored_meta(db_path)["updated_at"] == DEFAULT_UPDATED_AT
    assert reader.named("Street Wraith").card.name == "Street Wraith"
    reader.close()
    assert sorted(p.name for p in db_path.parent.iterdir()) == ["cards.sqlite3"]

    # Once Scryfall serves a good file again, the next refresh takes it.
    fake_bulk.fault = None
    assert update_from_scryfall(db_path, fake_bulk.base_url).result.count == len(fake_bulk.cards)
    assert "Never Imported" in names_served(db_path)[1]


def test_scryfall_refusing_the_description_keeps_the_copy(fake_bulk: FakeBulk, db_path: Path):
    update_from_scryfall(db_path, fake_bulk.base_url)
    fake_bulk.info_status = 503
    with pytest.raises(BulkError, match="503"):
        update_from_scryfall(db_path, fake_bulk.base_url)
    assert names_served(db_path)[0] == len(fake_bulk.cards)


def test_scryfall_unreachable_is_a_bulk_error(db_path: Path):
    with pytest.raises(BulkError, match="could not reach"):
        update_from_scryfall(db_path, "http://127.0.0.1:9")
    assert not db_path.exists()


def test_cards_missing_required_fields_reject_the_file(fake_bulk: FakeBulk, db_path: Path, tmp_path: Path):
    update_from_scryfall(db_path, fake_bulk.base_url)
    broken = [{key: value for key, value in card.items() if key != "legalities"} for card in fake_bulk.cards[:20]]
    source = tmp_path / "broken.jsonl"
    source.write_text("".join(json.dumps(card) + "\n" for card in broken + fake_bulk.cards[20:]))
    with pytest.raises(ImportRejected, match="lack required fields"):
        update_from_file(db_path, source)
    assert names_served(db_path)[0] == len(fake_bulk.cards)


def test_a_lone_card_missing_a_field_is_skipped_not_fatal(fake_bulk: FakeBulk, db_path: Path, tmp_path: Path):
    cards = [{"object": "card", "name": "No Id"}] + fake_bulk.cards
    source = tmp_path / "one-bad.jsonl"
    source.write_text("".join(json.dumps(card) + "\n" for card in cards))
    result = update_from_file(db_path, source).result
    assert (result.count, result.skipped) == (len(fake_bulk.cards), 1)


def test_a_file_that_is_not_json_is_refused(db_path: Path, tmp_path: Path):
    for body in (b"", b"<html>maintenance</html>", b'{"object": "card", "name": "Cut', b"[{}"):
        source = tmp_path / "bad.json"
        source.write_bytes(body)
        with pytest.raises(BulkError):
            update_from_file(db_path, source)
    assert not db_path.exists()


def test_readers_see_the_old_copy_or_the_new_never_half(fake_bulk: FakeBulk, db_path: Path, tmp_path: Path):
    """Readers opening the file while a bigger import runs find a complete copy, the old or the new."""
    update_from_scryfall(db_path, fake_bulk.base_url)
    old_count = len(fake_bulk.cards)
    fake_bulk.cards.extend(new_card(fake_bulk, f"Bulk Clone {i:04d}", 100 + i) for i in range(3000))
    fake_bulk.updated_at = NEWER
    seen: list[tuple[int, int, bool]] = []
    done = threading.Event()

    def read_while_importing() -> None:
        while not done.is_set():
            store = CardStore(db_path)
            try:
                rows = store._db().execute("SELECT count(*) FROM cards").fetchone()[0]
                seen.append((store.count, rows, store.named("Bulk Clone 2999").card is not None))
            finally:
                store.close()

    reader = threading.Thread(target=read_while_importing)
    reader.start()
    try:
        update_from_scryfall(db_path, fake_bulk.base_url)
    finally:
        done.set()
        reader.join()
    new_count = old_count + 3000
    assert seen, "the reader never ran"
    assert {(count, found) for count, _, found in seen} <= {(old_count, False), (new_count, True)}
    assert all(count == rows for count, rows, _ in seen)
    assert (old_count, old_count, False) in seen  # the reader did overlap with the import
    assert names_served(db_path)[0] == new_count
