"""Every version of a document the bot keeps, one way for every document: the Comprehensive Rules, the MTR, the IPG.

A document names its :class:`Shelf`: the folder of the data folder its versions are kept in, one file per effective
date, ``<stem>-<YYYY-MM-DD><suffix>`` (``rules-editions/comprehensive-rules-2026-01-16.txt``,
``judge-docs/mtr-2025-11-10.json``). What a file holds and how it is dated are the document's own (its reader, given
to the functions that read), and so is its guard: what a download must pass before it is kept. The rest is here:

- the newest version kept is the one answers come from, and the one kept before it is what "what changed" compares
  with it (:meth:`Versions.newest`, :meth:`Versions.pair`);
- a history reads every version, each dated by its document, one per date (:func:`read_all`), and what is built
  from them is built again only when a file changes (:class:`Built`);
- a version is written in one step (:mod:`bot.runtime.atomic`: a write cut short leaves at most a hidden temporary
  file, swept before the next update), is not written again when the same text is kept, and a new text of the same
  date replaces the old one;
- retention: every version is kept, or the newest ``Shelf.most`` (never fewer than two);
- files an older bot kept the document in (``Shelf.legacy``) are moved into the folder once, when it is opened.
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
import threading
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Generic, Protocol, TypeVar

from bot.runtime import remove_leftovers, store_atomically

log = logging.getLogger(__name__)

DAY_RE = re.compile(r"\d{4}-\d{2}-\d{2}")
# A document's text is a few MB at the most (the rules in UTF-16 about 2 MB): a larger file is not a version.
MAX_BYTES = 20 * 1024 * 1024


def retry_delay(failures: int, first: float, most: float) -> float:
    """Seconds an update waits after ``failures`` failed in a row: ``first``, then twice as long each time, up to
    ``most`` (a host that is down is asked less and less often, and never left for longer than ``most``)."""
    return min(most, first * 2 ** min(max(failures - 1, 0), 30))


class Dated(Protocol):
    """A version as its document reads it: what a shelf needs of it is its effective date."""

    @property
    def effective(self) -> date: ...


V = TypeVar("V", bound=Dated)
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Shelf:
    """Where a document's versions are kept in the data folder, and how many."""

    folder: str  # "rules-editions", "judge-docs"
    stem: str  # a version is <stem>-<YYYY-MM-DD><suffix>: "comprehensive-rules", "mtr"
    suffix: str  # ".txt", ".json"
    # Retention: the newest this many versions (the oldest are removed first); None keeps every one, for histories.
    most: int | None = None
    # Files beside the folder that older bots kept this document in, moved in once; the last is the copy that answered.
    legacy: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.most is not None and self.most < 2:
            raise ValueError("a shelf keeps at least two versions: what changed compares the newest two")

    def name(self, effective: date) -> str:
        return f"{self.stem}-{effective.isoformat()}{self.suffix}"

    def date_in(self, name: str) -> date | None:
        """The effective date in the name of a version this shelf keeps; None for any other file."""
        head, tail = f"{self.stem}-", self.suffix
        if not (name.startswith(head) and name.endswith(tail)) or len(name) <= len(head) + len(tail):
            return None
        day = name[len(head) : -len(tail)] if tail else name[len(head) :]
        if not DAY_RE.fullmatch(day):
            return None
        try:
            return date.fromisoformat(day)
        except ValueError:
            return None


@dataclass(frozen=True, slots=True)
class Kept:
    path: Path
    written: bool  # False: the version of that date already held this text


@dataclass(frozen=True, slots=True)
class Skipped:
    """A file left out of a history, and why."""

    path: Path
    reason: str


class Versions:
    """The versions of one document kept in ``data_dir``, as its ``shelf`` says."""

    def __init__(self, data_dir: Path, shelf: Shelf) -> None:
        self.data_dir = Path(data_dir)
        self.shelf = shelf
        self.folder = self.data_dir / shelf.folder

    def path_for(self, effective: date) -> Path:
        return self.folder / self.shelf.name(effective)

    def paths(self) -> list[Path]:
        """The versions kept, oldest first."""
        try:
            entries = list(self.folder.iterdir())
        except (FileNotFoundError, NotADirectoryError):
            return []
        dated = [(day, path) for path in entries if (day := self.shelf.date_in(path.name)) and path.is_file()]
        return [path for _day, path in sorted(dated)]

    def newest(self, read: Callable[[Path], T]) -> T | None:
        """The newest version ``read`` can read (it raises ``OSError`` or ``ValueError`` for one it cannot, which is
        left aside with a warning, and the version before it answers); None when none is kept."""
        for path in reversed(self.paths()):
            try:
                return read(path)
            except (OSError, ValueError) as error:
                log.warning("A kept version cannot be read, left aside: %s (%s)", path, error)
        return None

    def pair(self) -> tuple[Path, Path] | None:
        """What "what changed" compares: the version kept before the newest, and the newest."""
        paths = self.paths()
        return (paths[-2], paths[-1]) if len(paths) >= 2 else None

    def keep(self, effective: date, data: bytes, *, same: Callable[[bytes], bool] | None = None) -> Kept:
        """Keep ``data`` as the version effective on ``effective``, in one step, replacing another text of that date;
        nothing is written when that version holds it already (``same`` says so, given the text kept; else the bytes
        are compared). Then the oldest versions past the shelf's retention are removed."""
        path = self.path_for(effective)
        try:
            old = path.read_bytes()
        except FileNotFoundError:
            old = None
        if old is not None and (same(old) if same is not None else old == data):
            return Kept(path, False)
        store_atomically(path, data)
        self._retain()
        return Kept(path, True)

    def _retain(self) -> None:
        if self.shelf.most is None:
            return
        for path in self.paths()[: -self.shelf.most]:
            path.unlink(missing_ok=True)
            log.info("Removed %s: the shelf keeps the newest %d versions", path, self.shelf.most)

    def sweep(self) -> int:
        """Remove what interrupted writes left: in the folder, and beside it where older bots wrote."""
        removed = remove_leftovers(self.folder)
        if self.shelf.legacy:
            removed += remove_leftovers(self.data_dir)
        return removed

    def adopt(self, date_of: Callable[[Path], date], *, stay: Collection[Path] = ()) -> list[Path]:
        """Move the files an older bot kept this document in (``shelf.legacy``) into the folder, each under its
        effective date as ``date_of`` reads it from its contents; where the folder has that date already, the copy
        kept stays, unless the file was the one answers came from (the last legacy name). A file ``stay`` names (the
        operator's own setting points at it) is copied instead; one that cannot be dated is left where it is.
        Returns the versions written; with nothing to move, it costs a look at each name."""
        stays = {Path(path).resolve() for path in stay}
        written: list[Path] = []
        for position, name in enumerate(self.shelf.legacy):
            source = self.data_dir / name
            if not source.is_file():
                continue
            try:
                target = self.path_for(date_of(source))
                if self._adopt(
                    source, target, in_use=position == len(self.shelf.legacy) - 1, copy=source.resolve() in stays
                ):
                    written.append(target)
            except (OSError, ValueError) as error:
                log.warning("%s was left where it is: it is not a version to keep (%s)", source, error)
        if written:
            self._retain()
        return written

    def _adopt(self, source: Path, target: Path, *, in_use: bool, copy: bool) -> bool:
        """Move (or copy) ``source`` to ``target``; whether the target was written."""
        if target.exists() and (not in_use or target.read_bytes() == source.read_bytes()):
            if not copy:
                source.unlink(missing_ok=True)
                log.info("%s was kept already as %s: removed", source.name, target)
            return False
        if copy:
            store_atomically(target, source.read_bytes())
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            try:
                os.replace(source, target)
            except FileNotFoundError:  # another process moved it in the meantime
                return False
        log.info("Moved %s to %s, where every version of it is kept", source.name, target)
        return True


def read_all(
    paths: Iterable[Path], read: Callable[[Path, bytes], V], max_bytes: int = MAX_BYTES
) -> tuple[list[V], list[Skipped]]:
    """Every version in ``paths`` that ``read`` reads (given the file and its bytes), in date order, one per
    effective date, and the files left out with why. The same text twice (a file named twice, a copy) is read once;
    another text of a date already read is left out."""
    by_date: dict[date, tuple[V, Path, str]] = {}
    skipped: list[Skipped] = []
    seen: set[Path] = set()
    digests: set[str] = set()
    for path in map(Path, paths):
        resolved = path.resolve()
        if resolved in seen:
            continue
        seen.add(resolved)
        try:
            if path.stat().st_size > max_bytes:
                raise ValueError(f"larger than {max_bytes // (1024 * 1024)} MB")
            data = path.read_bytes()
            digest = hashlib.sha256(data).hexdigest()
            if digest in digests:
                continue
            digests.add(digest)
            version = read(path, data)
        except (OSError, ValueError) as error:
            skipped.append(Skipped(path, str(error)))
            log.info("Left out of the history: %s (%s)", path, error)
            continue
        kept = by_date.get(version.effective)
        if kept is None:
            by_date[version.effective] = (version, path, digest)
        elif kept[2] != digest:
            skipped.append(
                Skipped(path, f"another text of the {version.effective.isoformat()} edition ({kept[1].name})")
            )
    return [by_date[day][0] for day in sorted(by_date)], skipped


def file_identity(paths: Iterable[Path]) -> tuple[tuple[str, int, int], ...]:
    """What changes when any of ``paths`` is added, removed, replaced or rewritten (a stat each, nothing read)."""
    out = []
    for path in paths:
        try:
            stat = os.stat(path)
        except OSError:
            continue
        out.append((str(Path(path).resolve()), stat.st_size, stat.st_mtime_ns))
    return tuple(sorted(out))


class Built(Generic[T]):
    """What ``build`` makes of some versions' files (a history), made again only when a file is added, removed or
    changed; one build at a time."""

    def __init__(self, build: Callable[[list[Path]], T]) -> None:
        self._build = build
        self._lock = threading.Lock()
        self._key: tuple | None = None
        self._built: T | None = None

    def is_current(self, paths: Iterable[Path]) -> bool:
        return self._built is not None and self._key == file_identity(paths)

    def get(self, paths: Iterable[Path]) -> T:
        """What the files make (blocking: built again when they changed); what ``build`` raises passes through."""
        paths = list(paths)
        with self._lock:
            key = file_identity(paths)
            if self._built is None or key != self._key:
                self._built = self._build(paths)
                self._key = key
            return self._built
