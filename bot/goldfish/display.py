"""Whether a goldfish table is shown with its picture (table ``goldfish_views``, migration 0004): all the SQL.

A player chooses for their own games, a server for every game in it; the picture shows unless either turned it
off. The text table is always there (screen readers, people who prefer text). Bound parameters only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.storage import Database, now_text

if TYPE_CHECKING:
    from bot.storage import PostgresDatabase

SCOPES = ("user", "guild")

_SET = (
    "INSERT INTO goldfish_views (scope, subject_id, pictures, updated_at) VALUES (?, ?, ?, ?) "
    "ON CONFLICT (scope, subject_id) DO UPDATE SET pictures = excluded.pictures, updated_at = excluded.updated_at"
)


class DisplayStore:
    def __init__(self, db: Database | PostgresDatabase) -> None:
        self.db = db

    async def set_pictures(self, scope: str, subject_id: int, on: bool) -> None:
        """Record the choice of a player (``"user"``) or a server (``"guild"``)."""
        if scope not in SCOPES:
            raise ValueError(f"unknown scope {scope!r}")
        async with self.db.transaction() as conn:
            await conn.execute(_SET, (scope, subject_id, int(on), now_text()))

    async def choices(self, guild_id: int | None, user_id: int) -> dict[str, bool]:
        """The choices recorded for this server and this player: ``{"guild": False}``, ``{}``…"""
        rows = await self.db.fetchall(
            "SELECT scope, pictures FROM goldfish_views WHERE (scope = 'guild' AND subject_id = ?) "
            "OR (scope = 'user' AND subject_id = ?)",
            (guild_id or 0, user_id),
            reader=True,
        )
        return {row["scope"]: bool(row["pictures"]) for row in rows}

    async def pictures_on(self, guild_id: int | None, owner_id: int) -> bool:
        """Whether a game of ``owner_id`` in ``guild_id`` is shown with its picture."""
        return all((await self.choices(guild_id, owner_id)).values())
