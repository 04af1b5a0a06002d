"""Saved decks in the database, on SQLite and PostgreSQL: private to their player, names unique regardless of case,
25 a player, kept across restarts, backups and restores, and moved by ``db copy``."""

from __future__ import annotations

import asyncio

import pytest

from bot.goldfish.decks import (
    MAIN,
    MAX_DECKS,
    SIDEBOARD,
    DeckExists,
    DeckStore,
    PlayerDeck,
    TooManyDecks,
    bundled_cards,
)
from bot.storage import Database, backup, copy_to_postgres, restore
from bot.storage.postgres import PostgresDatabase

ALICE, BOB = 1001, 2002


def deck(name: str, wraiths: int = 4) -> PlayerDeck:
    cards = bundled_cards()
    sections = {MAIN: ((wraiths, "Street Wraith"), (56, "Swamp")), SIDEBOARD: ((2, "Drake Haven"),)}
    used = {name for entries in sections.values() for _, name in entries}
    return PlayerDeck(name, sections, {n: cards[n] for n in used}, {"Street Wraith": ("fut", "88")})


async def test_a_deck_saved_is_read_back_whole_by_its_player_alone(db):
    store = DeckStore(db)
    assert await store.save(ALICE, deck("Wraiths <@123> **bold**")) is False

    loaded = await store.load(ALICE, "  wraiths <@123>   **BOLD** ")  # case and spacing aside
    assert loaded == deck("Wraiths <@123> **bold**")
    assert loaded.counts_text() == "60 main · 2 sideboard"
    assert loaded.engine_deck().size() == 60
    assert [(s.name, s.counts_text()) for s in await store.summaries(ALICE)] == [
        ("Wraiths <@123> **bold**", "60 main · 2 sideboard")
    ]
    # Another player can't list, read or delete it.
    assert await store.summaries(BOB) == [] and await store.load(BOB, "Wraiths <@123> **bold**") is None
    assert await store.delete(BOB, "Wraiths <@123> **bold**") is None
    assert await store.load(ALICE, "Wraiths <@123> **bold**") is not None


async def test_a_name_is_unique_per_player_regardless_of_case_and_replacing_is_asked_for(db):
    store = DeckStore(db)
    await store.save(ALICE, deck("Wraiths"))
    await store.save(BOB, deck("WRAITHS"))  # another player's deck may have the same name

    with pytest.raises(DeckExists) as taken:
        await store.save(ALICE, deck("wraiths", wraiths=8))
    assert taken.value.existing.name == "Wraiths" and taken.value.existing.main == 60

    assert await store.save(ALICE, deck("wraiths", wraiths=8), replace=True) is True
    assert [(s.name, s.main) for s in await store.summaries(ALICE)] == [("wraiths", 64)]
    assert (await store.load(BOB, "wraiths")).count() == 60


async def test_a_player_keeps_at_most_25_decks_and_the_26th_is_refused(db):
    store = DeckStore(db)
    for n in range(MAX_DECKS):
        await store.save(ALICE, deck(f"Deck {n:02}"))
    with pytest.raises(TooManyDecks, match="25 saved decks"):
        await store.save(ALICE, deck("One too many"))
    with pytest.raises(TooManyDecks):
        await store.check_room(ALICE, "One too many")
    assert (await store.check_room(ALICE, "deck 03")).name == "Deck 03"  # replacing one is still possible
    await store.save(ALICE, deck("Deck 03", wraiths=1), replace=True)
    assert len(await store.summaries(ALICE)) == MAX_DECKS
    await store.save(BOB, deck("One too many"))  # the limit is each player's


async def held(db: Database) -> None:
    async with db.transaction() as conn:
        await conn.execute("SELECT 1")
        await asyncio.sleep(0.05)  # all six at once: the pool opens as many connections


async def test_saves_at_the_same_instant_never_pass_the_limit_together(db):
    store = DeckStore(db)
    for n in range(MAX_DECKS - 1):
        await store.save(ALICE, deck(f"Deck {n:02}"))
    await asyncio.gather(*(held(db) for _ in range(6)))  # connections open and waiting, as on a busy bot
    outcomes = await asyncio.gather(*(store.save(ALICE, deck(f"Last {n}")) for n in range(6)), return_exceptions=True)
    assert sum(outcome is False for outcome in outcomes) == 1
    assert all(isinstance(outcome, TooManyDecks) for outcome in outcomes if outcome is not False)
    assert len(await store.summaries(ALICE)) == MAX_DECKS


async def test_delete_one_deck_or_every_deck_of_the_player(db):
    store = DeckStore(db)
    for name in ("A", "B", "C"):
        await store.save(ALICE, deck(name))
    await store.save(BOB, deck("A"))

    assert await store.delete(ALICE, "b") == "B"
    assert await store.delete(ALICE, "b") is None
    assert await store.delete_all(ALICE) == 2
    assert await store.summaries(ALICE) == []
    assert [s.name for s in await store.summaries(BOB)] == ["A"]


async def test_decks_survive_a_restart_a_backup_and_a_restore(tmp_path):
    path = tmp_path / "data" / "bot.sqlite3"
    db = await Database.open(path)
    await DeckStore(db).save(ALICE, deck("Kept"))
    await db.close()

    db = await Database.open(path)  # the bot started again
    assert (await DeckStore(db).load(ALICE, "kept")) == deck("Kept")
    await db.close()

    saved = tmp_path / "backup.sqlite3"
    backup(path, saved)
    db = await Database.open(path)
    await DeckStore(db).delete_all(ALICE)
    await db.close()
    restore(saved, path)
    db = await Database.open(path)
    assert (await DeckStore(db).load(ALICE, "kept")) == deck("Kept")
    await db.close()


async def test_db_copy_moves_the_saved_decks_to_postgresql(tmp_path, postgres_url):
    path = tmp_path / "data" / "bot.sqlite3"
    db = await Database.open(path)
    await DeckStore(db).save(ALICE, deck("Moved"))
    await DeckStore(db).save(BOB, deck("Moved too"))
    await db.close()

    report = await copy_to_postgres(path, postgres_url)

    assert report.rows["saved_decks"] == 2
    target = await PostgresDatabase.open(postgres_url)
    try:
        assert (await DeckStore(target).load(ALICE, "moved")) == deck("Moved")
        assert [s.name for s in await DeckStore(target).summaries(BOB)] == ["Moved too"]
    finally:
        await target.close()
