"""Scryfall's bulk data: ask which oracle-cards file is current, download it, read it card by card.

Everything here blocks (HTTP, file I/O) and is meant to run in a worker thread. The file is
streamed to disk and read back incrementally, so the whole file is never in memory: gzipped JSON
Lines (Scryfall's format since July 2026) line by line, the older JSON array with ijson.

Every request goes only to Scryfall's hosts (:func:`bulk_hosts`: its bulk data host and the configured API's, each
host with its port): a listing naming a file anywhere else is refused before anything is sent there, and so is any
redirect elsewhere. Every request ends (:mod:`bot.hosts.download`): the descriptions within :data:`LISTING`'s
deadline and size, the file within :data:`FILE_SECONDS`, at :data:`FILE_MIN_RATE` bytes a second at least, and no
bigger than the ``size`` Scryfall lists for it plus a margin, and never past :data:`MAX_FILE_BYTES`
(:func:`file_limits`). Reading
it back is bounded the same way: the decompressed bytes by that cap, each JSON line by :data:`MAX_LINE_BYTES`, so a
small gzip file that expands to gigabytes is refused as it expands.
"""

from __future__ import annotations

import contextlib
import gzip
import io
import json
import logging
import threading
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import IO, Any

import ijson

from bot import BOT_NAME, __version__
from bot.hosts import BULK_FILES, Downloader, DownloadFailed, Limits, Stopped, from_scryfall, host_of

log = logging.getLogger(__name__)

BULK_TYPE = "oracle-cards"
RULINGS_TYPE = "rulings"
CHUNK_BYTES = 1 << 16
GZIP_MAGIC = b"\x1f\x8b"
# The bulk data's descriptions: small JSON objects.
LISTING = Limits(deadline=60.0, min_rate=1024, grace=10.0, max_bytes=4 << 20)
# The file: Scryfall's oracle cards are about 160 MB, its rulings a few; a host slower than this is not serving it.
FILE_SECONDS = 30 * 60.0
FILE_MIN_RATE = 32 * 1024
FILE_GRACE_SECONDS = 60.0
SIZE_MARGIN = 0.1  # of the listed size, plus MARGIN_BYTES
MARGIN_BYTES = 8 << 20
MAX_FILE_BYTES = 1 << 30  # whatever the listing says: Scryfall's oracle cards are about 160 MB unpacked
UNLISTED_MAX_BYTES = MAX_FILE_BYTES  # a file whose listing gives no size
MAX_DEPTH = 32  # a card object nests 4 deep (card, faces, a face, its images)
MAX_LINE_BYTES = 4 << 20  # one card object is a few kilobytes, the largest well under 100 kB
# A stored ``updated_at`` further ahead of the clock than this came from a lying listing: it would otherwise hold
# back every real file after it. Generous, since a host's clock may be off.
FUTURE_SLACK = timedelta(days=30)


class BulkError(Exception):
    """The bulk data could not be fetched or read; the stored copy stays as it was."""


class Cancelled(BulkError):
    """The bot is shutting down: the download or import stopped on purpose."""


def user_agent() -> str:
    return f"{BOT_NAME}/{__version__} (Discord bot for Magic: The Gathering players; bulk data)"


def bulk_hosts(api_url: str) -> frozenset[str]:
    """Where Scryfall's bulk data may come from, listings, files and redirects alike: its bulk data host and the
    host of ``api_url`` (each with its port, and no other)."""
    return from_scryfall(BULK_FILES, api_url)


def new_session(api_url: str) -> Downloader:
    """The HTTP client of one refresh from the API at ``api_url``, which goes nowhere but :func:`bulk_hosts` (close
    it when done: ``with new_session(api_url) as session:``)."""
    headers = {"User-Agent": user_agent(), "Accept": "application/json;q=0.9,*/*;q=0.8"}
    return Downloader(headers, name="bulk-download", allowed_hosts=bulk_hosts(api_url))


def parse_time(value: str) -> datetime:
    """Scryfall's ``updated_at`` (ISO 8601 with an offset) as an aware datetime."""
    moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


@dataclass(frozen=True)
class BulkInfo:
    """Scryfall's description of the current oracle-cards file."""

    updated_at: str
    jsonl_uri: str | None
    download_uri: str | None
    size: int | None = None

    @property
    def uri(self) -> str:
        uri = self.jsonl_uri or self.download_uri
        if not uri:
            raise BulkError("the bulk data object names no file to download")
        return uri

    def is_newer_than(self, stored: str | None) -> bool:
        """Whether this file replaces one stored as of ``stored``. A stored date that is unreadable or in the future
        (a lying listing's) never holds back a real file."""
        try:
            stored_at = parse_time(stored) if stored else None
        except ValueError:
            stored_at = None
        if stored_at is None or stored_at > datetime.now(UTC) + FUTURE_SLACK:
            return True
        return parse_time(self.updated_at) > stored_at


def file_limits(info: BulkInfo, ceiling: int | None = None, seconds: float | None = None) -> Limits:
    """What downloading ``info``'s file may take: its listed size plus a margin, never past ``ceiling`` (all of it when
    the listing gives no size; :data:`MAX_FILE_BYTES` unless given), within ``seconds`` (:data:`FILE_SECONDS`) and a
    minimum rate."""
    ceiling = MAX_FILE_BYTES if ceiling is None else ceiling
    cap = min(int(info.size * (1 + SIZE_MARGIN)) + MARGIN_BYTES, ceiling) if info.size else ceiling
    return Limits(deadline=seconds or FILE_SECONDS, min_rate=FILE_MIN_RATE, grace=FILE_GRACE_SECONDS, max_bytes=cap)


def _get_json(session: Downloader, url: str, what: str) -> Any:
    """``GET url`` as JSON; ``what`` names it in errors (``"the bulk data description"``)."""
    try:
        body = session.get(url, LISTING)
    except DownloadFailed as error:
        if error.status is not None:
            raise BulkError(f"Scryfall answered {error.status} for {what}") from error
        raise BulkError(f"could not reach Scryfall for {what} ({error})") from error
    try:
        return json.loads(body)
    except ValueError as error:
        raise BulkError(f"{what} is not JSON") from error


def _bulk_info(item: Any, hosts: frozenset[str]) -> BulkInfo:
    """A bulk data object (one item of ``/bulk-data``) as a :class:`BulkInfo`; :class:`BulkError` when its date is
    not one, or when it names a file on none of ``hosts``."""
    for field in ("jsonl_download_uri", "download_uri"):
        address = _web_address(item.get(field))
        if address is not None and host_of(address) not in hosts:
            what = str(item.get("type") or "bulk").replace("_", "-")
            raise BulkError(
                f"Scryfall's bulk data listing points its {what} file at {host_of(address) or 'no host'}, not at "
                f"Scryfall's hosts ({', '.join(sorted(hosts))}); nothing was downloaded"
            )
    size = item.get("size")
    updated_at = item["updated_at"]
    try:
        moment = parse_time(updated_at) if isinstance(updated_at, str) else None
    except ValueError:  # also a date out of datetime's range
        moment = None
    if moment is None:
        raise BulkError(f"Scryfall's bulk data description gives no date ({str(updated_at)[:40]!r})")
    return BulkInfo(
        updated_at=updated_at,
        jsonl_uri=_web_address(item.get("jsonl_download_uri")),
        download_uri=_web_address(item.get("download_uri")),
        size=size if isinstance(size, int) and not isinstance(size, bool) and size > 0 else None,
    )


def _web_address(value: Any) -> str | None:
    """``value`` when it is an http(s) address: a number, a list or a ``file:`` one names no file to download."""
    if isinstance(value, str) and value.lower().startswith(("https://", "http://")):
        return value
    return None


def fetch_info(session: Downloader, api_url: str) -> BulkInfo:
    """``GET {api_url}/bulk-data/oracle-cards``."""
    what = "the bulk data description"
    data = _get_json(session, f"{api_url.rstrip('/')}/bulk-data/{BULK_TYPE}", what)
    try:
        return _bulk_info(data, bulk_hosts(api_url))
    except (KeyError, TypeError, AttributeError) as error:
        raise BulkError(f"Scryfall's {what} is not the expected JSON object") from error


def fetch_listing_info(session: Downloader, api_url: str, bulk_type: str) -> BulkInfo | None:
    """The file of ``bulk_type`` (``rulings``) as ``GET {api_url}/bulk-data`` lists it, or None if not listed."""
    what = "the bulk data list"
    data = _get_json(session, f"{api_url.rstrip('/')}/bulk-data", what)
    try:
        for item in data["data"]:
            if str(item.get("type", "")).replace("_", "-") == bulk_type:
                return _bulk_info(item, bulk_hosts(api_url))
    except (KeyError, TypeError, AttributeError) as error:
        raise BulkError(f"Scryfall's {what} is not the expected JSON object") from error
    return None


def download(
    session: Downloader, url: str, dest: Path, stop: threading.Event | None = None, limits: Limits | None = None
) -> int:
    """Stream ``url`` into ``dest`` piece by piece within ``limits`` (an unlisted file's by default); the number
    of bytes written. A file left part-written by a failure is the caller's to remove."""
    limits = limits or file_limits(BulkInfo(updated_at="", jsonl_uri=url, download_uri=None))
    try:
        with open(dest, "wb") as out:
            written = session.fetch(url, limits, out.write, stop=stop)
    except Stopped as error:
        raise Cancelled("download stopped") from error
    except DownloadFailed as error:
        if error.status is not None:
            raise BulkError(f"Scryfall answered {error.status} for the bulk data file") from error
        raise BulkError(f"the bulk data download failed ({error})") from error
    log.info("Downloaded %d bytes of bulk data", written)
    return written


def _first_byte(stream: io.BufferedReader) -> bytes:
    head = stream.peek(64).lstrip()
    return head[:1]


def iter_cards(path: Path, max_bytes: int | None = None) -> Iterator[dict[str, Any]]:
    """The card objects of a bulk file (see :func:`iter_objects`)."""
    return iter_objects(path, "card objects", max_bytes)


def iter_rulings(path: Path, max_bytes: int | None = None) -> Iterator[dict[str, Any]]:
    """The ruling objects of Scryfall's rulings bulk file (see :func:`iter_objects`)."""
    return iter_objects(path, "rulings", max_bytes)


class _Capped(io.RawIOBase):
    """``source`` read through, with :class:`BulkError` once more than ``max_bytes`` have come out of it."""

    def __init__(self, source: IO[bytes], max_bytes: int | None) -> None:
        self.source = source
        self.max_bytes = max_bytes
        self.count = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        data = self.source.read(len(buffer))
        self.count += len(data)
        if self.max_bytes is not None and self.count > self.max_bytes:
            raise BulkError(f"the bulk file unpacks to more than {self.max_bytes} bytes")
        buffer[: len(data)] = data
        return len(data)


def iter_objects(
    path: Path, what: str, max_bytes: int | None = None, keep: Keep | None = None
) -> Iterator[dict[str, Any]]:
    """The JSON objects of a bulk file: gzipped or not, JSON Lines or one JSON array; at most ``max_bytes`` of it
    once unpacked, and no line longer than :data:`MAX_LINE_BYTES`. ``keep``: how the lines of JSON Lines worth
    reading are told from the others (the rest are skipped unread), and how they are read.

    A truncated, corrupt, oversized or non-JSON file raises :class:`BulkError` part-way through; the caller
    must treat everything read before as void.
    """
    try:
        with _open(path, max_bytes) as stream:
            first = _first_byte(stream)
            if first == b"{":
                yield from _lines(stream, what, keep)
                return
            if first != b"[":
                raise BulkError("the bulk file is neither a JSON array nor JSON Lines")
            _check_depth(stream)
        with _open(path, max_bytes) as stream:
            for item in ijson.items(stream, "item", use_float=True):
                yield _object(item, what)
    except (EOFError, OSError, ValueError, RecursionError, zlib.error, ijson.JSONError) as error:
        raise BulkError(f"the bulk file is truncated or corrupt ({type(error).__name__})") from error


@contextlib.contextmanager
def _open(path: Path, max_bytes: int | None) -> Iterator[io.BufferedReader]:
    """The bulk file at ``path`` unpacked (when gzipped), capped at ``max_bytes``."""
    with open(path, "rb") as raw:
        magic = raw.read(2)
        raw.seek(0)
        source: IO[bytes] = gzip.GzipFile(fileobj=raw, mode="rb") if magic == GZIP_MAGIC else raw
        yield io.BufferedReader(_Capped(source, max_bytes), CHUNK_BYTES)


def _check_depth(stream: io.BufferedReader) -> None:
    """Refuse a JSON array nested deeper than :data:`MAX_DEPTH` before building its items: ijson's paths grow with
    the square of the depth, so a megabyte of ``[`` would take gigabytes."""
    depth = 0
    for event, _value in ijson.basic_parse(stream, use_float=True):
        if event in ("start_map", "start_array"):
            depth += 1
            if depth > MAX_DEPTH:
                raise BulkError(f"the bulk file nests deeper than {MAX_DEPTH} levels")
        elif event in ("end_map", "end_array"):
            depth -= 1


@dataclass(frozen=True)
class Keep:
    """Which lines of JSON Lines are read (``wanted(line)``, on the raw bytes) and how (``loads``)."""

    wanted: Callable[[bytes], bool]
    loads: Callable[[bytes], Any] = json.loads


def _lines(stream: io.BufferedReader, what: str, keep: Keep | None = None) -> Iterator[dict[str, Any]]:
    """The objects of JSON Lines, a line read at a time and never more than :data:`MAX_LINE_BYTES` of one."""
    number = 0
    loads = keep.loads if keep is not None else json.loads
    while line := stream.readline(MAX_LINE_BYTES + 1):
        number += 1
        if len(line) > MAX_LINE_BYTES:
            raise BulkError(f"line {number} of the bulk file is longer than {MAX_LINE_BYTES} bytes")
        if keep is not None and not keep.wanted(line):
            continue
        if line.strip():
            try:
                item = loads(line)
            except (ValueError, RecursionError) as error:
                raise BulkError(f"line {number} of the bulk file is not JSON") from error
            yield _object(item, what)


def _object(item: Any, what: str) -> dict[str, Any]:
    if not isinstance(item, dict):
        raise BulkError(f"the bulk file holds something other than {what}")
    return item
