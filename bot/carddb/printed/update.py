"""One refresh of the printed names from Scryfall's All Cards file: blocking, for a worker thread or the terminal.

The file (one object for each printing, about 400 MB compressed and 2.3 GB unpacked) is listed by ``/bulk-data`` as
``all_cards`` and fetched through the bulk data's own path (:func:`bot.carddb.bulk.download`, with its rules on
hosts, deadlines and rates), under caps of its own: the size Scryfall lists plus a margin, never past
:data:`MAX_BYTES` unpacked. It is staged compressed (gzip, as it came or packed again as it arrives when the host
unpacked it on the way) and read a line at a time; a line of a language not chosen is skipped unread.
"""

from __future__ import annotations

import logging
import re
import threading
import zlib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from bot.carddb.bulk import (
    GZIP_MAGIC,
    BulkError,
    BulkInfo,
    Keep,
    download,
    fetch_listing_info,
    file_limits,
    iter_objects,
    new_session,
)
from bot.carddb.printed.build import PrintedResult, build_index, keep_only, stored_meta

log = logging.getLogger(__name__)

FILE_NAME = "printed-names.sqlite3"
ALL_CARDS = "all-cards"  # the type ``/bulk-data`` lists it under (``all_cards``)
MAX_BYTES = 4 << 30  # unpacked, whatever the listing says: Scryfall's All Cards is about 2.3 GB
SECONDS = 2 * 60 * 60.0  # for the whole download (400 MB at 64 kB/s takes under two hours)
PROGRESS_EVERY = 20_000  # card objects between two progress reports
LANG = re.compile(rb'"lang"\s*:\s*"([a-z]{2,3})"')
PRINTED = b'"printed_name"'
# What a refresh tells the terminal as it goes: ("download", bytes so far, bytes in all or None), then
# ("read", card objects so far, None).
Progress = Callable[[str, int, int | None], None]


@dataclass(frozen=True)
class PrintedOutcome:
    """What a refresh did: ``result`` when a file was imported; ``dropped``, languages whose names were removed
    without a download (no longer chosen)."""

    info: BulkInfo | None
    result: PrintedResult | None
    stored_updated_at: str | None
    dropped: tuple[str, ...] = ()

    @property
    def imported(self) -> bool:
        return self.result is not None

    @property
    def changed(self) -> bool:
        return self.result is not None or bool(self.dropped)


def stored_languages(meta: Mapping[str, str]) -> set[str]:
    return {code for code in meta.get("languages", "").split(",") if code}


def apply_languages(path: Path, languages: Iterable[str]) -> tuple[str, ...]:
    """Drop from the stored index the languages no longer chosen (no download: removing one only drops rows; none
    chosen removes the index); the languages dropped."""
    wanted = set(languages)
    stored = stored_languages(stored_meta(path))
    gone = tuple(sorted(stored - wanted))
    if not gone:
        return ()
    if wanted & stored:
        keep_only(path, wanted & stored)
    else:
        path.unlink(missing_ok=True)
    log.info("Printed names of %s dropped: no longer chosen", ", ".join(gone))
    return gone


def update_printed(
    path: Path,
    api_url: str,
    languages: Iterable[str],
    *,
    force: bool = False,
    stop: threading.Event | None = None,
    progress: Progress | None = None,
) -> PrintedOutcome:
    """Bring the index at ``path`` to ``languages``: drop the languages no longer chosen, and download All Cards when
    Scryfall lists another file than the one imported, a chosen language is not in the index yet, or ``force``.
    Any failure (the listing, the download, the file) leaves the stored index as it was."""
    wanted = tuple(dict.fromkeys(languages))
    dropped = apply_languages(path, wanted)
    meta = stored_meta(path)
    stored = meta.get("updated_at")
    if not wanted:
        return PrintedOutcome(None, None, stored, dropped)
    missing = set(wanted) - stored_languages(meta)
    session = new_session(api_url)
    try:
        info = fetch_listing_info(session, api_url, ALL_CARDS)
        if info is None:
            raise BulkError("Scryfall's bulk data lists no All Cards file")
        if not force and not missing and info.updated_at == stored:
            log.info("Printed names are current (%s)", stored)
            return PrintedOutcome(info, None, stored, dropped)
        staged = path.with_name(path.name + ".download")
        try:
            limits = file_limits(info, MAX_BYTES, SECONDS)
            download(Packing(session, progress), info.uri, staged, stop, limits)
            reader = Reader(wanted, progress)
            result = build_index(
                iter_objects(staged, "card objects", limits.max_bytes, Keep(reader.wanted, orjson.loads)),
                path,
                languages=wanted,
                updated_at=info.updated_at,
                source="scryfall",
                stop=stop,
                seen=lambda: reader.cards,
            )
        finally:
            staged.unlink(missing_ok=True)
    finally:
        session.close()
    return PrintedOutcome(info, result, stored, dropped)


class Reader:
    """Which lines of All Cards are read: those of a card printed in a chosen language with a printed name; it counts
    every card object as it goes."""

    def __init__(self, languages: Iterable[str], progress: Progress | None = None) -> None:
        self.languages = {code.encode() for code in languages}
        self.progress = progress
        self.cards = 0

    def wanted(self, line: bytes) -> bool:
        found = LANG.search(line)
        if found is None:
            return False
        self.cards += 1
        if self.progress is not None and self.cards % PROGRESS_EVERY == 0:
            self.progress("read", self.cards, None)
        return found.group(1) in self.languages and PRINTED in line


class Packing:
    """A download session (:class:`bot.hosts.Downloader`) whose bodies are staged compressed: a gzip body as it
    comes, any other (a host that unpacked ``Content-Encoding: gzip`` on the way) packed again as it arrives, so
    the 2.3 GB of All Cards never reach the disk unpacked. Everything else is the session's own."""

    def __init__(self, session: Any, progress: Progress | None = None) -> None:
        self.session = session
        self.progress = progress

    def __getattr__(self, name: str) -> Any:
        return getattr(self.session, name)

    def fetch(self, url: str, limits: Any, sink: Callable[[bytes], object], **options: Any) -> int:
        packer = _Packer(sink)
        total: list[int | None] = [None]
        heard = options.pop("on_response", None)

        def on_response(where: str, headers: Mapping[str, str]) -> None:
            length = headers.get("Content-Length")
            total[0] = int(length) if length and length.isdigit() and "Content-Encoding" not in headers else None
            if heard is not None:
                heard(where, headers)

        def write(chunk: bytes) -> None:
            packer.write(chunk)
            if self.progress is not None:
                self.progress("download", packer.received, total[0])

        received = self.session.fetch(url, limits, write, on_response=on_response, **options)
        packer.close()
        return received


class _Packer:
    def __init__(self, sink: Callable[[bytes], object]) -> None:
        self.sink = sink
        self.head = b""
        self.packer: Any = None
        self.decided = False
        self.received = 0

    def write(self, chunk: bytes) -> None:
        self.received += len(chunk)
        if not self.decided:
            self.head += chunk
            if len(self.head) < len(GZIP_MAGIC):
                return
            chunk, self.head, self.decided = self.head, b"", True
            if not chunk.startswith(GZIP_MAGIC):
                self.packer = zlib.compressobj(1, zlib.DEFLATED, 31)  # gzip's framing, its fastest level
        self.sink(self.packer.compress(chunk) if self.packer is not None else chunk)

    def close(self) -> None:
        if not self.decided and self.head:
            self.sink(self.head)
        if self.packer is not None:
            self.sink(self.packer.flush())
