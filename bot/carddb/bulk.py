"""Scryfall's bulk data: ask which oracle-cards file is current, download it, read it card by card.

Everything here blocks (requests, file I/O) and is meant to run in a worker thread. The file is
streamed to disk and read back incrementally, so the whole file is never in memory: gzipped JSON
Lines (Scryfall's format since July 2026) line by line, the older JSON array with ijson.
"""

from __future__ import annotations

import gzip
import io
import json
import logging
import threading
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

import ijson
import requests

from bot import BOT_NAME, __version__

log = logging.getLogger(__name__)

BULK_TYPE = "oracle-cards"
RULINGS_TYPE = "rulings"
CHUNK_BYTES = 1 << 16
TIMEOUT = (10.0, 60.0)  # connect, read between bytes
GZIP_MAGIC = b"\x1f\x8b"


class BulkError(Exception):
    """The bulk data could not be fetched or read; the stored copy stays as it was."""


class Cancelled(BulkError):
    """The bot is shutting down: the download or import stopped on purpose."""


def user_agent() -> str:
    return f"{BOT_NAME}/{__version__} (Discord bot for Magic: The Gathering players; bulk data)"


def new_session() -> requests.Session:
    session = requests.Session()
    session.headers.update({"User-Agent": user_agent(), "Accept": "application/json;q=0.9,*/*;q=0.8"})
    return session


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
        return stored is None or parse_time(self.updated_at) > parse_time(stored)


def fetch_info(session: requests.Session, api_url: str) -> BulkInfo:
    """``GET {api_url}/bulk-data/oracle-cards``."""
    url = f"{api_url.rstrip('/')}/bulk-data/{BULK_TYPE}"
    try:
        response = session.get(url, timeout=TIMEOUT)
    except requests.RequestException as error:
        raise BulkError(f"could not reach Scryfall's bulk data ({type(error).__name__})") from error
    if response.status_code != 200:
        raise BulkError(f"Scryfall answered {response.status_code} for the bulk data description")
    try:
        data = response.json()
        return BulkInfo(
            updated_at=str(data["updated_at"]),
            jsonl_uri=data.get("jsonl_download_uri") or None,
            download_uri=data.get("download_uri") or None,
            size=data.get("size"),
        )
    except (ValueError, KeyError, TypeError) as error:
        raise BulkError("Scryfall's bulk data description is not the expected JSON object") from error


def fetch_listing_info(session: requests.Session, api_url: str, bulk_type: str) -> BulkInfo | None:
    """The file of ``bulk_type`` (``rulings``) as ``GET {api_url}/bulk-data`` lists it, or None if not listed."""
    url = f"{api_url.rstrip('/')}/bulk-data"
    try:
        response = session.get(url, timeout=TIMEOUT)
    except requests.RequestException as error:
        raise BulkError(f"could not reach Scryfall's bulk data list ({type(error).__name__})") from error
    if response.status_code != 200:
        raise BulkError(f"Scryfall answered {response.status_code} for the bulk data list")
    try:
        for item in response.json()["data"]:
            if str(item.get("type", "")).replace("_", "-") == bulk_type:
                return BulkInfo(
                    updated_at=str(item["updated_at"]),
                    jsonl_uri=item.get("jsonl_download_uri") or None,
                    download_uri=item.get("download_uri") or None,
                    size=item.get("size"),
                )
    except (ValueError, KeyError, TypeError, AttributeError) as error:
        raise BulkError("Scryfall's bulk data list is not the expected JSON object") from error
    return None


def download(session: requests.Session, url: str, dest: Path, stop: threading.Event | None = None) -> int:
    """Stream ``url`` into ``dest`` chunk by chunk; the number of bytes written."""
    written = 0
    try:
        with session.get(url, timeout=TIMEOUT, stream=True) as response:
            if response.status_code != 200:
                raise BulkError(f"Scryfall answered {response.status_code} for the bulk data file")
            with open(dest, "wb") as out:
                for chunk in response.iter_content(CHUNK_BYTES):
                    if stop is not None and stop.is_set():
                        raise Cancelled("download stopped")
                    out.write(chunk)
                    written += len(chunk)
    except requests.RequestException as error:
        raise BulkError(f"the bulk data download failed ({type(error).__name__})") from error
    log.info("Downloaded %d bytes of bulk data", written)
    return written


def _first_byte(stream: io.BufferedReader) -> bytes:
    head = stream.peek(64).lstrip()
    return head[:1]


def iter_cards(path: Path) -> Iterator[dict[str, Any]]:
    """The card objects of a bulk file (see :func:`iter_objects`)."""
    return iter_objects(path, "card objects")


def iter_rulings(path: Path) -> Iterator[dict[str, Any]]:
    """The ruling objects of Scryfall's rulings bulk file (see :func:`iter_objects`)."""
    return iter_objects(path, "rulings")


def iter_objects(path: Path, what: str) -> Iterator[dict[str, Any]]:
    """The JSON objects of a bulk file: gzipped or not, JSON Lines or one JSON array.

    A truncated, corrupt or non-JSON file raises :class:`BulkError` part-way through; the caller
    must treat everything read before as void.
    """
    with open(path, "rb") as raw:
        magic = raw.read(2)
        raw.seek(0)
        source: IO[bytes] = gzip.GzipFile(fileobj=raw, mode="rb") if magic == GZIP_MAGIC else raw
        stream = io.BufferedReader(source, CHUNK_BYTES)  # type: ignore[arg-type]
        try:
            first = _first_byte(stream)
            if first == b"[":
                for item in ijson.items(stream, "item", use_float=True):
                    yield _object(item, what)
            elif first == b"{":
                for number, line in enumerate(stream, 1):
                    if line.strip():
                        try:
                            item = json.loads(line)
                        except ValueError as error:
                            raise BulkError(f"line {number} of the bulk file is not JSON") from error
                        yield _object(item, what)
            else:
                raise BulkError("the bulk file is neither a JSON array nor JSON Lines")
        except (EOFError, OSError, ValueError, zlib.error, ijson.JSONError) as error:
            raise BulkError(f"the bulk file is truncated or corrupt ({type(error).__name__})") from error


def _object(item: Any, what: str) -> dict[str, Any]:
    if not isinstance(item, dict):
        raise BulkError(f"the bulk file holds something other than {what}")
    return item
