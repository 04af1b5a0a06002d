"""HTTP bodies that end: a wall-clock deadline, a minimum rate and a size cap on every download.

A timeout per socket read (what ``requests`` offers) never ends a body that trickles in a byte a second, and a
check made after each chunk arrives waits for chunks that take hours. Here the whole request (connecting, the
headers, the body) runs under one deadline (aiohttp's total timeout), each wait for more of the body ends at the
moment the body would fall below :attr:`Limits.min_rate` (averaged from the start, after a grace period), and
the body is dropped past :attr:`Limits.max_bytes` (a declared length past it is refused before reading). Given
``allowed_hosts``, the link and every redirect are followed only to those hosts, checked at each hop before anything
is sent.

The deadlines are wall-clock time: a :class:`Downloader` runs its downloads on an event loop of its own, in a
thread of its own, with one HTTP session, so they end on time whatever the caller's loop is doing (the bot's
loop busy, or a test's simulated clock standing still). Worker threads call it blocking (Scryfall's bulk files);
the bot's loop awaits it (card images).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import contextvars
import threading
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urljoin, urlsplit

import aiohttp

READ_BYTES = 64 * 1024
MAX_REDIRECTS = 5
DEFAULT_PORTS = {"http": 80, "https": 443}
REDIRECTS = frozenset({301, 302, 303, 307, 308})
STOP_POLL_SECONDS = 0.25


class DownloadFailed(Exception):
    """The download was given up; ``str(e)`` says why in a few words (never the body). ``status``: the HTTP
    status when the host answered with something other than 200; ``unreachable``: no connection could be made (a
    wrong name, no network, nobody listening); ``passing``: a failure of the host or the network (unreachable, out of
    time, too slow, a 5xx or a 429) that says nothing about what was asked for, worth trying again later."""

    def __init__(
        self, reason: str, status: int | None = None, *, unreachable: bool = False, passing: bool = False
    ) -> None:
        super().__init__(reason)
        self.status = status
        self.unreachable = unreachable
        self.passing = passing or unreachable or (status is not None and (status >= 500 or status == 429))


class Stopped(DownloadFailed):
    """The caller asked the download to stop (the bot is shutting down)."""


@dataclass(frozen=True)
class Limits:
    """What a download may take: ``deadline`` seconds in all; after ``grace`` seconds, at least ``min_rate``
    bytes a second on average since the start; at most ``max_bytes``."""

    deadline: float
    min_rate: float
    grace: float
    max_bytes: int


async def fetch(
    session: aiohttp.ClientSession,
    url: str,
    limits: Limits,
    sink: Callable[[bytes], object],
    *,
    headers: Mapping[str, str] | None = None,
    allow_redirects: bool = True,
    allowed_hosts: Collection[str] | None = None,
    stop: threading.Event | None = None,
    on_response: Callable[[str, Mapping[str, str]], object] | None = None,
) -> int:
    """``GET url`` with its body handed to ``sink`` piece by piece; the number of bytes. Raises
    :class:`DownloadFailed` (its reason: a status, too slow, too big, out of time, a host not allowed, a connection
    error).

    ``allowed_hosts``: the only hosts (``host`` or ``host:port``, as in the address) the link and every redirect
    may lead to, checked at each hop before anything is sent there. ``on_response(url, headers)`` hears where the
    body comes from (after the redirects) before it is read."""
    loop = asyncio.get_running_loop()
    started = loop.time()
    received = 0
    try:
        for _ in range(MAX_REDIRECTS + 1):
            check_host(url, allowed_hosts)
            # One deadline for the whole download, redirects included.
            timeout = aiohttp.ClientTimeout(total=max(0.001, started + limits.deadline - loop.time()))
            follow = allow_redirects and allowed_hosts is None  # with a list of hosts, each hop is checked here
            async with session.get(url, headers=headers, timeout=timeout, allow_redirects=follow) as response:
                if allow_redirects and not follow and response.status in REDIRECTS:
                    location = response.headers.get("Location")
                    if not location:
                        raise DownloadFailed(f"HTTP {response.status} without a Location", response.status)
                    url = urljoin(str(response.url), location)
                    continue
                if response.status != 200:
                    raise DownloadFailed(f"HTTP {response.status}", response.status)
                if response.content_length is not None and response.content_length > limits.max_bytes:
                    raise DownloadFailed(f"{response.content_length} bytes declared, more than {limits.max_bytes}")
                if on_response is not None:
                    on_response(str(response.url), response.headers)
                while True:
                    # The body must keep to the minimum rate: with ``received`` bytes so far, more is due by
                    # ``started + grace + received / min_rate``, and all of it by the deadline.
                    now = loop.time()
                    due = min(started + limits.grace + received / limits.min_rate, started + limits.deadline)
                    if now >= due:
                        raise DownloadFailed(_slow(received, now - started, limits), passing=True)
                    if stop is not None and stop.is_set():
                        raise Stopped("stopped")
                    wait = due - now if stop is None else min(due - now, STOP_POLL_SECONDS)
                    try:
                        chunk = await asyncio.wait_for(response.content.readany(), wait)
                    except TimeoutError:
                        continue  # checked again above: too slow, out of time, or only the poll for ``stop``
                    if not chunk:
                        return received
                    received += len(chunk)
                    if received > limits.max_bytes:
                        raise DownloadFailed(f"more than {limits.max_bytes} bytes")
                    sink(chunk)
        raise DownloadFailed(f"more than {MAX_REDIRECTS} redirects")
    except TimeoutError:
        raise DownloadFailed(f"no answer within {limits.deadline:g} s", passing=True) from None
    except aiohttp.ClientError as error:
        unreachable = isinstance(error, aiohttp.ClientConnectorError)
        raise DownloadFailed(type(error).__name__, unreachable=unreachable, passing=True) from None


def host_of(url: str) -> str:
    """``host``, or ``host:port`` for a port other than its scheme's own, of an address, lower case (what
    ``allowed_hosts`` lists: a host and its port); empty for an address without a host or with a port that is not
    one."""
    parts = urlsplit(url)
    host = (parts.hostname or "").lower()
    try:
        port = parts.port
    except ValueError:
        return ""
    return f"{host}:{port}" if port and port != DEFAULT_PORTS.get(parts.scheme.lower()) else host


def check_host(url: str, allowed_hosts: Collection[str] | None) -> None:
    """Raise :class:`DownloadFailed` unless ``url`` is http(s) and, when ``allowed_hosts`` is given, on one of
    them."""
    scheme = urlsplit(url).scheme.lower()
    if scheme not in ("http", "https"):
        raise DownloadFailed(f"not a web address ({scheme or 'no'} scheme)")
    if allowed_hosts is not None and host_of(url) not in {host.lower() for host in allowed_hosts}:
        raise DownloadFailed(f"refusing {host_of(url) or 'an address without a host'}: not an allowed host")


def _cancel_soon(loop: asyncio.AbstractEventLoop, task: asyncio.Task) -> None:
    with contextlib.suppress(RuntimeError):  # the loop was closed: the task ended with it
        loop.call_soon_threadsafe(task.cancel)


def _slow(received: int, elapsed: float, limits: Limits) -> str:
    if elapsed >= limits.deadline:
        return f"not done within {limits.deadline:g} s"
    return f"too slow: {received} bytes in {elapsed:.1f} s (at least {limits.min_rate:g} bytes/s wanted)"


class Downloader:
    """Downloads on a loop of its own: ``downloader.get(url, limits)`` from a worker thread, ``await
    downloader.get_async(url, limits)`` from an event loop. Its thread starts with the first download and ends
    with :meth:`close` (``with Downloader(headers) as downloader:`` closes it). ``allowed_hosts``: the hosts every
    download of this downloader is limited to (see :func:`fetch`), unless one names its own."""

    def __init__(
        self, headers: Mapping[str, str], name: str = "downloads", *, allowed_hosts: Collection[str] | None = None
    ) -> None:
        self.headers = dict(headers)
        self.name = name
        self.allowed_hosts = None if allowed_hosts is None else frozenset(allowed_hosts)
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._session: aiohttp.ClientSession | None = None

    def _running_loop(self) -> asyncio.AbstractEventLoop:
        with self._lock:
            if self._loop is None:
                loop = asyncio.new_event_loop()
                self._thread = threading.Thread(target=loop.run_forever, name=self.name, daemon=True)
                self._thread.start()
                self._loop = loop
            return self._loop

    async def _fetch(self, url: str, limits: Limits, sink: Callable[[bytes], object], options: dict) -> int:
        if self._session is None:
            # trust_env: HTTPS_PROXY and NO_PROXY are honoured, as requests honours them for the API.
            self._session = aiohttp.ClientSession(headers=self.headers, trust_env=True)
        return await fetch(self._session, url, limits, sink, **options)

    def submit(
        self, url: str, limits: Limits, sink: Callable[[bytes], object], **options: Any
    ) -> concurrent.futures.Future[int]:
        """Start downloading ``url`` (see :func:`fetch`; ``sink`` is called on the downloads' thread). The download
        runs in a context of its own: nothing of the caller's context (a test's simulated clock) follows it."""
        options.setdefault("allowed_hosts", self.allowed_hosts)
        loop = self._running_loop()
        result: concurrent.futures.Future[int] = concurrent.futures.Future()

        def start() -> None:
            task = loop.create_task(self._fetch(url, limits, sink, options), context=contextvars.Context())

            def finished(done: asyncio.Task[int]) -> None:
                with contextlib.suppress(concurrent.futures.InvalidStateError):
                    if done.cancelled():
                        result.cancel()
                    elif done.exception() is not None:
                        result.set_exception(done.exception())  # type: ignore[arg-type]
                    else:
                        result.set_result(done.result())

            task.add_done_callback(finished)
            result.add_done_callback(lambda _: _cancel_soon(loop, task) if result.cancelled() else None)

        loop.call_soon_threadsafe(start, context=contextvars.Context())
        return result

    def fetch(self, url: str, limits: Limits, sink: Callable[[bytes], object], **options: Any) -> int:
        """:func:`fetch`, waited for (from a worker thread, never from an event loop)."""
        return self.submit(url, limits, sink, **options).result()

    def get(self, url: str, limits: Limits, **options: Any) -> bytes:
        """The whole body of ``url``, waited for (from a worker thread)."""
        chunks: list[bytes] = []
        self.fetch(url, limits, chunks.append, **options)
        return b"".join(chunks)

    async def get_async(self, url: str, limits: Limits, **options: Any) -> bytes:
        """The whole body of ``url``, for an event loop (cancelling this cancels the download)."""
        chunks: list[bytes] = []
        await asyncio.wrap_future(self.submit(url, limits, chunks.append, **options))
        return b"".join(chunks)  # one block the size of the body, not a buffer grown and copied

    def close(self) -> None:
        """Close the session and end the thread (blocking, briefly); a later download starts them again."""
        with self._lock:
            loop, thread, self._loop, self._thread = self._loop, self._thread, None, None
        if loop is None:
            return

        async def finish() -> None:
            if self._session is not None:
                await self._session.close()
                self._session = None

        asyncio.run_coroutine_threadsafe(finish(), loop).result(timeout=10)
        loop.call_soon_threadsafe(loop.stop)
        if thread is not None:
            thread.join(timeout=10)
        loop.close()

    def __enter__(self) -> Downloader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
