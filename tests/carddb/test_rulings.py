"""Scryfall's rulings bulk file, imported with the cards into the same database and swapped with them."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.carddb import BulkError
from bot.carddb.importer import stored_meta
from bot.carddb.store import CardStore
from bot.carddb.update import update_from_scryfall
from tests.support.fake_bulk import FakeBulk, ruling

NEWER = "2026-11-27T09:00:00.000+00:00"


def rulings_of(db_path: Path, name: str) -> list[str]:
    store = CardStore(db_path)
    try:
        return [item["comment"] for item in store.rulings(store.named(name).card.oracle_id)]
    finally:
        store.close()


def oracle_id(fake: FakeBulk, name: str) -> str:
    return next(card["oracle_id"] for card in fake.cards if card["name"] == name)


def test_rulings_are_imported_with_the_cards(fake_bulk: FakeBulk, db_path: Path):
    update_from_scryfall(db_path, fake_bulk.base_url)

    assert any("Cycling is an activated ability" in text for text in rulings_of(db_path, "Street Wraith"))
    meta = stored_meta(db_path)
    assert int(meta["rulings_count"]) == len(fake_bulk.rulings) > 0
    assert meta["rulings_updated_at"] == fake_bulk.rulings_updated_at
    assert len(fake_bulk.rulings_downloads()) == 1


def test_rulings_of_cards_the_data_does_not_hold_are_left_out_and_counted(fake_bulk: FakeBulk, db_path: Path):
    fake_bulk.rulings_fault = "unknown"
    update_from_scryfall(db_path, fake_bulk.base_url)

    meta = stored_meta(db_path)
    assert meta["rulings_unknown"] == "3"
    assert int(meta["rulings_count"]) == len(fake_bulk.rulings)


@pytest.mark.parametrize("fault", ["truncated", "garbage", "error", "not_rulings"])
def test_a_bad_rulings_file_keeps_the_last_good_cards_and_rulings(fake_bulk: FakeBulk, db_path: Path, fault: str):
    update_from_scryfall(db_path, fake_bulk.base_url)
    before = rulings_of(db_path, "Street Wraith")
    good = stored_meta(db_path)

    fake_bulk.updated_at = fake_bulk.rulings_updated_at = NEWER
    fake_bulk.rulings_fault = fault
    fake_bulk.rulings.append(ruling(oracle_id(fake_bulk, "Street Wraith"), "2026-11-26", "Never imported."))
    with pytest.raises(BulkError):
        update_from_scryfall(db_path, fake_bulk.base_url)

    assert stored_meta(db_path) == good
    assert rulings_of(db_path, "Street Wraith") == before
    assert sorted(p.name for p in db_path.parent.iterdir()) == ["cards.sqlite3"]

    fake_bulk.rulings_fault = None
    update_from_scryfall(db_path, fake_bulk.base_url)
    assert rulings_of(db_path, "Street Wraith") == [*before, "Never imported."]


def test_a_newer_rulings_file_alone_refreshes_the_copy(fake_bulk: FakeBulk, db_path: Path):
    update_from_scryfall(db_path, fake_bulk.base_url)
    fake_bulk.rulings_updated_at = NEWER
    fake_bulk.rulings.append(ruling(oracle_id(fake_bulk, "Street Wraith"), "2026-11-26", "A new ruling."))

    outcome = update_from_scryfall(db_path, fake_bulk.base_url)

    assert outcome.imported
    assert "A new ruling." in rulings_of(db_path, "Street Wraith")
    assert stored_meta(db_path)["rulings_updated_at"] == NEWER
    assert not update_from_scryfall(db_path, fake_bulk.base_url).imported  # both current now


def test_cards_refreshed_without_a_listed_rulings_file_keep_the_stored_rulings(fake_bulk: FakeBulk, db_path: Path):
    update_from_scryfall(db_path, fake_bulk.base_url)
    before = rulings_of(db_path, "Street Wraith")
    fake_bulk.list_rulings = False
    fake_bulk.updated_at = NEWER

    update_from_scryfall(db_path, fake_bulk.base_url)

    assert stored_meta(db_path)["updated_at"] == NEWER
    assert rulings_of(db_path, "Street Wraith") == before != []
