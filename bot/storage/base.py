"""What both database dialects share: the error type, the numbered migrations, timestamps."""

from __future__ import annotations

import logging
import re
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib import resources

from bot.errors import UserFacingError

log = logging.getLogger("bot.storage")

MIGRATION_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")
DIALECTS = ("sqlite", "postgresql")


class StorageError(RuntimeError):
    """The database cannot be used; the message names the database and what to do about it."""


class StorageUnavailable(UserFacingError):
    """The database didn't answer a request (server down or restarting, unreachable, out of connections, busy):
    that request changed nothing. The text is for the user; the bot goes on and the next request tries again."""

    def __init__(self) -> None:
        super().__init__(
            "The bot's database isn't answering right now, so nothing happened (your games and statistics are "
            "safe). Please try again in a minute."
        )


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str


def bundled_migrations(dialect: str = "sqlite") -> list[Migration]:
    """The numbered ``bot/migrations/<dialect>/NNNN_name.sql`` files, in order.

    Both dialects carry the same numbers and names, so a database's schema version means the same
    thing whichever server holds it.
    """
    if dialect not in DIALECTS:
        raise ValueError(f"unknown database dialect {dialect!r}")
    root = resources.files("bot.migrations")
    stray = sorted(entry.name for entry in root.iterdir() if MIGRATION_NAME.match(entry.name))
    if stray:
        # A migration written for one dialect only would leave the other behind without anyone noticing.
        raise RuntimeError(f"migrations belong in bot/migrations/sqlite and bot/migrations/postgresql, found {stray}")
    found = []
    for entry in root.joinpath(dialect).iterdir():
        match = MIGRATION_NAME.match(entry.name)
        if match:
            found.append(Migration(int(match.group(1)), entry.name, entry.read_text(encoding="utf-8")))
    found.sort(key=lambda m: m.version)
    versions = [m.version for m in found]
    if versions != list(range(1, len(found) + 1)):
        raise RuntimeError(f"{dialect} migrations must be numbered 1..N without gaps, found {versions}")
    return found


def now_text() -> str:
    """The current UTC time as the tables store it (``2026-01-31T12:00:00Z``), the same in both dialects."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


class MetaSettings:
    """What both databases share: small key/value settings (the command-sync hash, …) in the ``meta`` table, the
    same SQL on both dialects; and telling outages apart from errors (:meth:`answering`)."""

    down_since: float | None = None  # time.monotonic() of the first request an outage refused

    @staticmethod
    def is_unavailable(error: BaseException) -> bool:
        """Whether ``error`` says the database can't serve requests now, rather than that the request was wrong."""
        return False

    @asynccontextmanager
    async def answering(self) -> AsyncIterator[None]:
        """Requests made inside: a database that can't serve them becomes :class:`StorageUnavailable` (the user is
        told, one warning an outage is logged), and the first answer after an outage is logged too."""
        try:
            yield
        except Exception as error:
            if not self.is_unavailable(error):
                raise
            if self.down_since is None:
                self.down_since = time.monotonic()
                log.warning("%s is unavailable (%s); requests fail until it answers", self.describe(), error)
            raise StorageUnavailable() from error
        if self.down_since is not None:
            log.info("%s answers again after %.0f s", self.describe(), time.monotonic() - self.down_since)
            self.down_since = None

    async def get_meta(self, key: str) -> str | None:
        row = await self.fetchone("SELECT value FROM meta WHERE key = ?", (key,))  # type: ignore[attr-defined]
        return None if row is None else row["value"]

    async def set_meta(self, key: str, value: str) -> None:
        async with self.transaction() as conn:  # type: ignore[attr-defined]
            await conn.execute(
                "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                (key, value),
            )
