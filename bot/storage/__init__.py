"""The bot's database, SQLite or PostgreSQL, one interface. May import `bot.config`, `bot.errors`.

SQLite in one file (the default), or PostgreSQL shared by several processes. Both dialects offer the same interface
(``transaction()``, ``fetchone``/``fetchall``, ``get_meta``/ ``set_meta``, ``schema_version``, ``checkpoint``,
``close``) and the same numbered migrations, one directory per dialect. :func:`open_database` picks one from the
configuration.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.storage.base import Migration, StorageError, StorageUnavailable, bundled_migrations, now_text
from bot.storage.files import CORE_TABLES, backup, data_dir_lock, describe_database, restore
from bot.storage.sqlite import Database, explain_open_error

if TYPE_CHECKING:
    from bot.config import Config
    from bot.storage.postgres import PostgresDatabase


from bot.storage.starts import PostgresStartGate

__all__ = [
    "CORE_TABLES",
    "Database",
    "Migration",
    "PostgresStartGate",
    "StorageError",
    "StorageUnavailable",
    "backup",
    "bundled_migrations",
    "data_dir_lock",
    "describe_database",
    "explain_open_error",
    "now_text",
    "open_database",
    "restore",
]


async def open_database(config: Config) -> Database | PostgresDatabase:
    """PostgreSQL when ``DATABASE_URL`` is set, else the SQLite file in the data directory."""
    if config.database_url:
        from bot.storage.postgres import PostgresDatabase

        return await PostgresDatabase.open(config.database_url)
    return await Database.open(config.database_path)


def __getattr__(name: str) -> object:
    """PostgreSQL's modules (and asyncpg) load only when asked for: a bot on SQLite never imports them."""
    if name == "PostgresDatabase":
        from bot.storage.postgres import PostgresDatabase

        return PostgresDatabase
    if name == "copy_to_postgres":
        from bot.storage.copy import copy_to_postgres

        return copy_to_postgres
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
