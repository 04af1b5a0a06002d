"""Files replaced in one step, and the leftovers of a write that was interrupted.

:func:`store_atomically` writes a temporary file beside the target (``.name.XXXX.tmp``) and renames it over the
target: a reader sees the old file or the new one, never half of one. A process killed between the two (``kill -9``
during ``cyclebot rules update``, a power cut) leaves the temporary file behind, and no later write reuses its name.
:func:`remove_leftovers` deletes them at start. It must never delete the file of a write still in progress (the
terminal's update runs beside the bot): the writer holds an advisory lock on its temporary file for as long as it
writes, so a file whose lock can be taken is a leftover. A writer whose file was taken away in the instant between
creating and locking it starts again with a new one.
"""

from __future__ import annotations

import contextlib
import logging
import os
import tempfile
import time
from pathlib import Path

try:
    import fcntl
except ImportError:  # Windows: no advisory locks; leftovers are told apart by their age instead
    fcntl = None  # type: ignore[assignment]

log = logging.getLogger(__name__)

SUFFIX = ".tmp"
# Without locks, a temporary file this old is a leftover: no write of the bot's takes near this long.
ABANDONED_SECONDS = 3600.0


def _locked_temporary(path: Path) -> tuple[int, str]:
    """A new temporary file beside ``path``, locked: (descriptor, name)."""
    while True:
        descriptor, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=SUFFIX, dir=path.parent)
        if fcntl is None:
            return descriptor, name
        fcntl.flock(descriptor, fcntl.LOCK_EX)
        if os.fstat(descriptor).st_nlink > 0:
            return descriptor, name
        os.close(descriptor)  # removed as a leftover before the lock was ours: another name


def store_atomically(path: Path, data: bytes) -> None:
    """Write ``data`` to a temporary file beside ``path`` and rename it over ``path`` in one step."""
    path.parent.mkdir(parents=True, exist_ok=True)
    descriptor, temporary = _locked_temporary(path)
    try:
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
            os.replace(temporary, path)  # inside ``with``: the lock is held until the name is gone
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def remove_leftovers(folder: Path) -> int:
    """Delete the temporary files that interrupted writes left in ``folder``; how many there were."""
    removed = 0
    try:
        candidates = [
            entry for entry in Path(folder).iterdir() if entry.name.startswith(".") and entry.name.endswith(SUFFIX)
        ]
    except OSError:  # no folder yet: nothing was ever written there
        return 0
    for entry in candidates:
        with contextlib.suppress(OSError):
            if _abandoned(entry):
                removed += 1
    if removed:
        log.info("Removed %d temporary file(s) of interrupted writes in %s", removed, folder)
    return removed


def _abandoned(entry: Path) -> bool:
    """Remove ``entry`` if no writer holds it; whether it was removed."""
    if fcntl is None:
        if time.time() - entry.stat().st_mtime < ABANDONED_SECONDS:
            return False
        entry.unlink()
        return True
    with open(entry, "rb") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False  # a write in progress
        entry.unlink()  # under the lock: a writer that locks it next sees it gone and starts again
        return True
