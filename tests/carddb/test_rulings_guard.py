"""A rulings file cannot empty the store: the cards' proportional guard for rulings, each ruling kept once, the
last good rulings kept with the reason said, and what a killed import left removed at start-up."""

from __future__ import annotations

import copy
import sqlite3
from pathlib import Path

import pytest

from bot.carddb import CardData
from bot.carddb.cli import update_command
from bot.carddb.importer import stored_meta
from bot.carddb.store import CardStore
from bot.carddb.update import update_from_scryfall
from tests.support.fake_bulk import FakeBulk, ruling

NEWER = "2026-11-27T09:00:00.000+00:00"
NEWEST = "2026-11-28T09:00:00.000+00:00"


def stored_rulings(db_path: Path) -> list[tuple]:
    db = sqlite3.connect(db_path)
    try:
        return db.execute("SELECT oracle_id, published_at, comment FROM rulings ORDER BY 1, 2, 3").fetchall()
    finally:
        db.close()


def unknown(count: int) -> list[dict]:
    """Rulings of ``count`` cards nobody holds."""
    return [ruling(f"deadbeef-0000-4000-8000-{n:012d}", "2024-01-01", f"Ruling {n}.") for n in range(count)]


@pytest.fixture
def stored(fake_bulk: FakeBulk, db_path: Path) -> list[tuple]:
    update_from_scryfall(db_path, fake_bulk.base_url)
    fake_bulk.updated_at = fake_bulk.rulings_updated_at = NEWER  # a newer cards file and rulings file on offer
    rulings = stored_rulings(db_path)
    assert len(rulings) >= 10
    return rulings


def test_a_rulings_file_of_unknown_cards_is_refused_and_the_stored_rulings_are_kept(
    fake_bulk, db_path, stored, data_dir, monkeypatch, capsys
):
    fake_bulk.rulings = unknown(40)
    monkeypatch.setenv("BOT_DATA_DIR", str(data_dir))
    monkeypatch.setenv("SCRYFALL_API_URL", fake_bulk.base_url)

    assert update_command(type("Args", (), {"file": None, "force": False})()) == 0

    said = capsys.readouterr().out
    assert "rulings file was refused" in said and "40 cards and 40 of them are not in the card data" in said
    assert stored_rulings(db_path) == stored  # not 16 → 0
    meta = stored_meta(db_path)
    assert meta["updated_at"] == NEWER  # the cards were refreshed all the same
    assert meta["rulings_refused_updated_at"] == NEWER and meta["rulings_updated_at"] != NEWER
    downloads = len(fake_bulk.rulings_downloads())
    assert not update_from_scryfall(db_path, fake_bulk.base_url).imported  # the refused file is not fetched again
    assert len(fake_bulk.rulings_downloads()) == downloads


def test_a_good_rulings_file_after_a_refused_one_is_imported(fake_bulk, db_path, stored):
    good = copy.deepcopy(fake_bulk.rulings)
    fake_bulk.rulings = unknown(40)
    update_from_scryfall(db_path, fake_bulk.base_url)

    fake_bulk.rulings = [*good, ruling(good[0]["oracle_id"], "2026-11-27", "A new ruling.")]
    fake_bulk.rulings_updated_at = NEWEST
    outcome = update_from_scryfall(db_path, fake_bulk.base_url)

    assert outcome.imported and outcome.result.rulings_refused is None
    assert len(stored_rulings(db_path)) == len(stored) + 1
    assert "rulings_refused" not in stored_meta(db_path)


@pytest.mark.parametrize(("known_share", "refused"), [(0.45, True), (0.55, False)])
def test_over_half_of_the_files_cards_unknown_is_refused(fake_bulk, db_path, stored, known_share, refused):
    by_card: dict[str, list[dict]] = {}
    for item in fake_bulk.rulings:
        by_card.setdefault(item["oracle_id"], []).append(item)
    known_cards = len(by_card)
    strangers = round(known_cards * (1 - known_share) / known_share)
    fake_bulk.rulings = [*fake_bulk.rulings, *unknown(strangers)]

    outcome = update_from_scryfall(db_path, fake_bulk.base_url)

    assert (outcome.result.rulings_refused is not None) is refused
    assert stored_rulings(db_path) == stored


def test_a_file_keeping_under_nine_tenths_of_the_stored_rulings_is_refused(fake_bulk, db_path, stored):
    keep = int(len(stored) * 0.85)
    fake_bulk.rulings = fake_bulk.rulings[:keep]

    outcome = update_from_scryfall(db_path, fake_bulk.base_url)

    assert outcome.result.rulings_refused == (
        f"the rulings file would keep {keep} rulings, under 90 % of the {len(stored)} stored"
    )
    assert stored_rulings(db_path) == stored


def test_each_ruling_is_stored_once_however_often_the_file_repeats_it(fake_bulk, db_path, stored):
    fake_bulk.rulings = [item for item in fake_bulk.rulings for _ in range(10)]

    outcome = update_from_scryfall(db_path, fake_bulk.base_url)

    assert outcome.result.rulings_refused is None
    assert stored_rulings(db_path) == stored
    meta = stored_meta(db_path)
    assert int(meta["rulings_count"]) == len(stored) and int(meta["rulings_repeated"]) == 9 * len(stored)
    store = CardStore(db_path)
    try:
        shown = store.rulings(store.named("Street Wraith").card.oracle_id)
    finally:
        store.close()
    assert len(shown) == len({item["comment"] for item in shown})


async def test_what_a_killed_import_left_is_removed_at_start_up(fake_bulk, data_dir, db_path, stored):
    for suffix, size in ((".importing", 4 << 20), (".download", 1 << 20), (".rulings", 1024)):
        db_path.with_name(db_path.name + suffix).write_bytes(b"\0" * size)

    card_data = await CardData.open(data_dir, fake_bulk.base_url)
    try:
        assert sorted(p.name for p in data_dir.iterdir()) == [db_path.name]
        assert (await card_data.named("Street Wraith")).card.name == "Street Wraith"
    finally:
        await card_data.close()
