"""SQLite backups and restores, and the lock that keeps one bot per data directory."""

from __future__ import annotations

import logging
import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from bot.storage.base import StorageError, bundled_migrations
from bot.storage.sqlite import explain_open_error

log = logging.getLogger(__name__)

# Tables every Cyclebot database has from migration 1 on: how ``restore`` recognises one.
CORE_TABLES = frozenset({"meta"})


def _connect_sync(path: Path) -> sqlite3.Connection:
    connection = sqlite3.connect(path, isolation_level=None)
    connection.execute("PRAGMA busy_timeout=5000")
    return connection


def describe_database(path: Path) -> int:
    """The schema version of the Cyclebot database at ``path``; StorageError if it is not one this bot can use."""
    if not path.is_file():
        raise StorageError(f"{path} does not exist or is not a file.")
    newest = bundled_migrations()[-1].version
    try:
        connection = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        try:
            if connection.execute("PRAGMA quick_check").fetchone()[0] != "ok":
                raise sqlite3.DatabaseError("database disk image is malformed")
            version = int(connection.execute("PRAGMA user_version").fetchone()[0])
            tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        finally:
            connection.close()
    except sqlite3.DatabaseError as error:
        raise StorageError(f"{path} is not a usable SQLite database ({error}).") from None
    if not CORE_TABLES <= tables or not 1 <= version <= newest:
        raise StorageError(
            f"{path} is not a Cyclebot database this version knows (schema version {version}, tables "
            f"{', '.join(sorted(tables)) or 'none'}; this bot knows versions 1 to {newest})."
        )
    return version


def backup(source: Path, target: Path) -> int:
    """Copy the database at ``source`` to ``target`` as one self-contained file, consistent even while the bot
    writes (SQLite's online backup API reads one snapshot, the -wal file included). Returns its schema version."""
    if not source.is_file():
        raise StorageError(f"there is no database at {source} (check BOT_DATA_DIR).")
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    try:
        reader, writer = _connect_sync(source), sqlite3.connect(partial, isolation_level=None)
        try:
            reader.backup(writer)
            # A backup is one file: no -wal beside it that could be forgotten.
            writer.execute("PRAGMA journal_mode=DELETE").fetchone()
        finally:
            writer.close()
            reader.close()
        version = describe_database(partial)
        os.replace(partial, target)
    except (OSError, sqlite3.Error) as error:
        partial.unlink(missing_ok=True)
        raise explain_open_error(source, error) or StorageError(f"the backup failed: {error}") from None
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    return version


def restore(source: Path, database: Path) -> int:
    """Replace ``database`` with the backup ``source`` (the bot must be stopped): check the backup, keep the current
    database beside it as ``.before-restore``, drop its stale -wal/-shm and swap the file in atomically."""
    version = describe_database(source)
    database.parent.mkdir(parents=True, exist_ok=True)
    with data_dir_lock(database.parent, purpose="restore"):
        if database.exists():
            # Through the backup API, so what the -wal file held is kept too.
            try:
                backup(database, database.with_name(database.name + ".before-restore"))
            except StorageError as error:
                log.warning("Could not keep a copy of the current database: %s", error)
        incoming = database.with_name(database.name + ".restoring")
        backup(source, incoming)
        # A -wal left beside the new file would be replayed into it: remove the old one first.
        for suffix in ("-wal", "-shm"):
            Path(f"{database}{suffix}").unlink(missing_ok=True)
        os.replace(incoming, database)
    return version


LOCK_NAME = "bot.lock"


@contextmanager
def data_dir_lock(data_dir: Path, *, purpose: str) -> Iterator[None]:
    """Hold ``data_dir/bot.lock`` exclusively: one running bot per data directory, no restore under a live bot."""
    try:
        import fcntl
    except ImportError:  # Windows: no advisory locks; the README says to stop the bot first
        yield
        return
    path = data_dir / LOCK_NAME
    try:
        data_dir.mkdir(parents=True, exist_ok=True)
        handle = path.open("a")
    except OSError as error:
        raise explain_open_error(data_dir / "bot.sqlite3", error) or StorageError(str(error)) from None
    try:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise StorageError(
                f"another Cyclebot is using {data_dir}; stop it before the {purpose}"
                + (" (cyclebot backup works while it runs)." if purpose == "restore" else ".")
            ) from None
        yield
    finally:
        handle.close()
