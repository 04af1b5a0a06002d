"""The Scryfall API's endpoints the bot uses: a card by name, autocomplete, search and its pages, collections of
identifiers and any API URI an object names, on the requests of :mod:`bot.scryfall.calls`.

Scryfall's etiquette is kept: ``User-Agent`` (bot name and version) and ``Accept`` headers on every request; rate
limits shared by every caller (see :mod:`bot.scryfall.limiter`): the "search class" at most 2 requests a second,
everything at most 10 a second, cache hits free; a 429 pauses its class for ``Retry-After`` clamped to [30 s,
5 min]. Every HTTP call runs in a worker thread (:mod:`bot.scryfall.transport`), within an overall deadline.

See https://scryfall.com/docs/api for the objects returned.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
from pathlib import Path
from typing import Any

from bot.scryfall.answers import Answer
from bot.scryfall.calls import Calls
from bot.scryfall.errors import AmbiguousCard, BadQuery, ScryfallError
from bot.scryfall.transport import DeadlineExceeded

log = logging.getLogger(__name__)

COLLECTION_BATCH = 75
AUTOCOMPLETE_LIMIT = 25
# Autocomplete answers change as the user types: kept in memory, briefly, never on disk.
AUTOCOMPLETE_MEMO_SIZE = 2048
AUTOCOMPLETE_MEMO_SECONDS = 3600.0


class ScryfallClient(Calls):
    """Scryfall API access for the bot. Create one per process and share it; its parameters are
    :class:`~bot.scryfall.calls.Calls`'s."""

    def __init__(self, base_url: str, cache_dir: Path | None, **settings: Any) -> None:
        super().__init__(base_url, cache_dir, **settings)
        self._memo: OrderedDict[str, tuple[float, list[str]]] = OrderedDict()

    @classmethod
    def from_config(cls, config: Any, **kwargs: Any) -> ScryfallClient:
        """A client for ``config.scryfall_api_url`` with its cache in ``config.data_dir``."""
        return cls(config.scryfall_api_url, Path(config.data_dir), **kwargs)

    # ------------------------------------------------------------------ public API

    async def named(self, name: str, *, set_code: str | None = None, fuzzy: bool = True) -> Answer:
        """One card by name (``/cards/named``). Fuzzy matching accepts partial names.

        Raises CardNotFound, AmbiguousCard (with ``candidates``), RateLimited, ScryfallUnavailable.
        """
        name = " ".join(name.split())
        if not name:
            raise BadQuery("Give a card name.", status=400, code="bad_request")
        params = {"fuzzy" if fuzzy else "exact": name}
        if set_code:
            params["set"] = set_code.strip().lower()
        try:
            return await self._get("/cards/named", params)
        except AmbiguousCard as exc:
            if not exc.candidates:
                exc.candidates = await self.autocomplete(name)
            raise

    async def autocomplete(self, query: str) -> list[str]:
        """Up to 25 card names starting with or containing ``query`` (Scryfall gives up to 20).

        Returns ``[]`` for queries under 2 characters and whenever Scryfall cannot answer
        (autocomplete has no way to show an error).
        """
        query = " ".join(query.split())
        if len(query) < 2:
            return []
        remembered = self._memo.get(query)
        if remembered is not None and remembered[0] > time.monotonic():
            self._memo.move_to_end(query)
            return list(remembered[1])
        try:
            answer = await self._get("/cards/autocomplete", {"q": query}, store=False)
        except ScryfallError as exc:
            log.info("Autocomplete unavailable: %s", type(exc).__name__)
            return []
        names = [str(name) for name in answer.data.get("data") or []][:AUTOCOMPLETE_LIMIT]
        self._memo[query] = (time.monotonic() + AUTOCOMPLETE_MEMO_SECONDS, names)
        while len(self._memo) > AUTOCOMPLETE_MEMO_SIZE:
            self._memo.popitem(last=False)
        return list(names)

    async def search(self, query: str, *, page: int = 1, order: str = "name", unique: str = "cards") -> Answer:
        """A page of a full-text search (``/cards/search``): a list object with ``data``,
        ``has_more``, ``next_page``, ``total_cards`` and possibly ``warnings``.

        Raises CardNotFound when nothing matches, BadQuery for a query Scryfall cannot read.
        """
        query = query.strip()
        if not query:
            raise BadQuery("Give a search query.", status=400, code="bad_request")
        params = {"q": query, "order": order, "unique": unique}
        if page != 1:
            params["page"] = str(int(page))
        return await self._get("/cards/search", params)

    async def next_page(self, url: str) -> Answer:
        """The page at a list object's ``next_page`` URL, followed exactly as given."""
        return await self.get_uri(url)

    async def collection(self, identifiers: list[dict]) -> tuple[list[dict], list[dict]]:
        """Cards for identifiers (``{"id"}``, ``{"name"}``, ``{"name", "set"}``,
        ``{"set", "collector_number"}``...), sent in batches of 75 to ``/cards/collection``.

        Returns ``(cards, not_found)`` in request order. A stale batch is used as is. The whole
        list has ``collection_deadline`` seconds; past it, ScryfallUnavailable (timed out).
        """
        cards: list[dict] = []
        not_found: list[dict] = []
        try:
            async with asyncio.timeout(self.collection_deadline):
                for start in range(0, len(identifiers), COLLECTION_BATCH):
                    batch = [dict(identifier) for identifier in identifiers[start : start + COLLECTION_BATCH]]
                    body = {"identifiers": batch}
                    answer = await self._call("POST", self.base_url + "/cards/collection", json_body=body)
                    cards.extend(answer.data.get("data") or [])
                    not_found.extend(answer.data.get("not_found") or [])
        except TimeoutError:
            raise DeadlineExceeded("Scryfall took too long to find the cards of that list.") from None
        return cards, not_found

    async def get_uri(self, uri: str) -> Answer:
        """Any Scryfall API URI from an object (``rulings_uri``, ``next_page``, ``prints_search_uri``...).

        ``https://api.scryfall.com/...`` URIs are rewritten onto the configured base URL; URIs on
        any other host raise ValueError.
        """
        return await self._call("GET", self._local_uri(uri))

    async def close(self) -> None:
        """Cancel calls still in flight, then close the HTTP session and its cache."""
        if self._closed:
            return
        self._closed = True
        for task in list(self._inflight.values()):
            task.cancel()
        self._http_pool.shutdown(wait=False, cancel_futures=True)
        await asyncio.to_thread(self.transport.close)
        self._cache_pool.shutdown(wait=False, cancel_futures=True)
