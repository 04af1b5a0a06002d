"""Players' saved decks (table ``saved_decks``, migration 0007): all the SQL, the same on SQLite and PostgreSQL.

A deck belongs to the player who saved it and every statement names that player: nobody else can list, read,
replace or delete it. Names are unique per player regardless of case, and a player keeps at most
:data:`MAX_DECKS`. Saving checks both in the same transaction as the write.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import orjson

from bot.goldfish.decks.model import MAIN, SECTIONS, DeckProblem, PlayerDeck, deck_name_key
from bot.storage import Database, now_text
from bot.text import escape

MAX_DECKS = 25
# The class of the advisory locks a player's saves take turns by on PostgreSQL.
SAVE_LOCK = 0x0DEC


@dataclass(frozen=True)
class DeckSummary:
    """A saved deck as listed: its name and its count in each section it has."""

    name: str
    counts: Mapping[str, int]

    @property
    def main(self) -> int:
        return self.counts.get(MAIN, 0)

    def counts_text(self) -> str:
        parts = [f"{self.main} main"]
        parts += [f"{self.counts[s]} {s}" for s in SECTIONS[1:] if self.counts.get(s)]
        return " · ".join(parts)


class DeckExists(DeckProblem):
    """The player has a deck of that name already: replacing it has to be asked for."""

    def __init__(self, existing: DeckSummary) -> None:
        super().__init__(f"You already have a deck called “{escape(existing.name)}”.")
        self.existing = existing


class TooManyDecks(DeckProblem):
    def __init__(self) -> None:
        super().__init__(
            f"You have {MAX_DECKS} saved decks, the most a player keeps: delete one with `/deck delete` first."
        )


def _summary(row: Mapping[str, Any]) -> DeckSummary:
    return DeckSummary(row["name"], orjson.loads(row["counts"]))


class DeckStore:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def summaries(self, user_id: int) -> list[DeckSummary]:
        """The player's decks, by name (read without waiting for a writer)."""
        rows = await self.db.fetchall(
            "SELECT name, counts FROM saved_decks WHERE user_id = ? ORDER BY name_key", (user_id,), reader=True
        )
        return [_summary(row) for row in rows]

    async def load(self, user_id: int, name: str) -> PlayerDeck | None:
        """The player's deck called ``name`` (case and spacing aside), or None."""
        row = await self.db.fetchone(
            "SELECT name, deck FROM saved_decks WHERE user_id = ? AND name_key = ?",
            (user_id, deck_name_key(name)),
            reader=True,
        )
        if row is None:
            return None
        deck = PlayerDeck.from_json(orjson.loads(row["deck"]))
        return PlayerDeck(row["name"], deck.sections, deck.cards, deck.prints)

    async def check_room(self, user_id: int, name: str) -> DeckSummary | None:
        """Before the work of reading a list: the player's deck of that name if there is one (to ask before
        replacing it), else :class:`TooManyDecks` when they have no room for another."""
        key = deck_name_key(name)
        decks = await self.db.fetchall(
            "SELECT name, name_key, counts FROM saved_decks WHERE user_id = ?", (user_id,), reader=True
        )
        same = next((row for row in decks if row["name_key"] == key), None)
        if same is not None:
            return _summary(same)
        if len(decks) >= MAX_DECKS:
            raise TooManyDecks()
        return None

    async def save(self, user_id: int, deck: PlayerDeck, *, replace: bool = False) -> bool:
        """Save ``deck`` under its name; True when it replaced one. :class:`DeckExists` when the name is taken and
        ``replace`` is not given, :class:`TooManyDecks` when a new deck would be one too many."""
        key = deck_name_key(deck.name)
        counts = {section: deck.count(section) for section in SECTIONS if deck.count(section)}
        values = (deck.name, deck.count(MAIN), orjson.dumps(counts).decode(), orjson.dumps(deck.to_json()).decode())
        now = now_text()
        async with self.db.transaction() as conn:
            if self.db.dialect == "postgresql":
                # One save of a player's at a time (SQLite's writes take turns already): two saves at the same
                # instant must not both find room for the 25th deck.
                await conn.execute("SELECT pg_advisory_xact_lock(?, ?)", (SAVE_LOCK, user_id % 2**31))
            rows = await (
                await conn.execute(
                    "SELECT name, name_key, counts FROM saved_decks WHERE user_id = ?",
                    (user_id,),
                )
            ).fetchall()
            same = next((row for row in rows if row["name_key"] == key), None)
            if same is not None and not replace:
                raise DeckExists(_summary(same))
            if same is None and len(rows) >= MAX_DECKS:
                raise TooManyDecks()
            if same is None:
                await conn.execute(
                    "INSERT INTO saved_decks (user_id, name_key, name, main_count, counts, deck, created_at, "
                    "updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (user_id, key, *values, now, now),
                )
            else:
                await conn.execute(
                    "UPDATE saved_decks SET name = ?, main_count = ?, counts = ?, deck = ?, updated_at = ? "
                    "WHERE user_id = ? AND name_key = ?",
                    (*values, now, user_id, key),
                )
        return same is not None

    async def delete(self, user_id: int, name: str) -> str | None:
        """Delete the player's deck called ``name``; its name as saved, or None when there was none."""
        async with self.db.transaction() as conn:
            row = await (
                await conn.execute(
                    "SELECT name FROM saved_decks WHERE user_id = ? AND name_key = ?", (user_id, deck_name_key(name))
                )
            ).fetchone()
            if row is not None:
                await conn.execute(
                    "DELETE FROM saved_decks WHERE user_id = ? AND name_key = ?", (user_id, deck_name_key(name))
                )
        if row is not None:
            await self.db.checkpoint()  # no copy of it left in the write-ahead log
        return None if row is None else row["name"]

    async def delete_all(self, user_id: int) -> int:
        """Delete every deck of the player; how many there were."""
        async with self.db.transaction() as conn:
            cursor = await conn.execute("DELETE FROM saved_decks WHERE user_id = ?", (user_id,))
            deleted = cursor.rowcount
        if deleted:
            await self.db.checkpoint()
        return deleted
