"""``CardData``: the bot's local card database, its background refresh and its async read API.

The bot opens it in ``setup_hook`` (``await CardData.open(...)``), calls :meth:`CardData.start` to
refresh in the background (at start, then every 12 hours, backing off after a failure), and
closes it in ``close()``. Features read it through ``bot.card_data``:

* ``await card_data.named("fling")`` → :class:`NameMatch` (a card, or candidates for a picker)
* ``await card_data.autocomplete("light")`` → up to 25 names
* ``await card_data.cycling("basic")`` → the cards of a /cycling kind
* ``await card_data.collection(names)`` → a decklist's cards
* ``await card_data.search("t:creature c:r pow>=3", page=0)`` → a page of a search in Scryfall's syntax
* ``card_data.info()`` → the data's date, card count and size, or None
* ``card_data.printed`` → the printed names of the languages chosen; ``await card_data.by_printed_name("Wald")``

Every read raises :class:`CardDataUnavailable` until a copy is loaded, so callers can fall back
to the Scryfall API. Reads straight off an index (exact names and prefixes, autocomplete) run
inline, in well under a millisecond. The others run in two small thread pools, so that no user can
hold up the reads that serve everyone else: searches a user wrote (``search``, ``search_all``) in
their own, each with a time budget counted from when it was asked for; lookups (fuzzy names,
decklists, rulings, /cycling's lists, the names index a rules question reads) in the other. The
import runs in a thread of its own. A search a person asks for has first waited its turn for a place
(:mod:`bot.serving.admission`: round-robin by server and person, refused only when its turn would come too late).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TypeVar

from bot.carddb.background import Background
from bot.carddb.importer import remove_leftovers
from bot.carddb.lifetime import replaced, swapped
from bot.carddb.migrate import upgrade
from bot.carddb.printed import FILE_NAME as PRINTED_FILE
from bot.carddb.printed import PrintedIndex, PrintedIndexError, PrintedName, PrintedNames
from bot.carddb.query import SEARCH_SECONDS  # a search's budget, from the moment it is asked for
from bot.carddb.records import CardRecord, DataInfo, NameMatch, SearchPage
from bot.carddb.store import CardDataError, CardStore
from bot.carddb.update import UpdateOutcome, update_from_file, update_from_scryfall
from bot.serving import SEARCH_THREADS, Asker, Lanes, Limit

log = logging.getLogger(__name__)

REFRESH_SECONDS = 12 * 60 * 60
FIRST_RETRY_SECONDS = 60.0
READ_THREADS = 4  # lookups: names, decklists, rulings, lists, the names index
# The search threads one person's searches may run on at once, and one server's members' together: however
# slow someone's searches are, the rest of their server finds a thread, and every other server finds one too.
USER_SEARCH_THREADS = 1
GUILD_SEARCH_THREADS = SEARCH_THREADS - 1
FILE_NAME = "cards.sqlite3"

T = TypeVar("T")


def _opened(path: Path) -> CardStore:
    """The stored copy, brought up to the current format first if it is of an older one."""
    upgrade(path)
    return CardStore(path)


def search_lanes(asker: Asker | None) -> list[Limit]:
    """The lanes of ``asker``'s searches among the search threads: theirs, and their server's (everyone outside
    servers shares one, as one server: accounts there are the easiest to make many of)."""
    if asker is None:  # the bot's own: bounded by the threads alone
        return []
    return [(("user", asker.user), USER_SEARCH_THREADS), (("guild", asker.guild), GUILD_SEARCH_THREADS)]


class CardDataUnavailable(CardDataError):
    """No local copy is loaded yet: ask Scryfall's API instead."""


class CardData:
    def __init__(
        self,
        path: Path,
        api_url: str,
        *,
        refresh_seconds: float = REFRESH_SECONDS,
        first_retry_seconds: float = FIRST_RETRY_SECONDS,
    ) -> None:
        self.path = Path(path)
        self.api_url = api_url
        self.refresh_seconds = refresh_seconds
        self.first_retry_seconds = first_retry_seconds
        self._store: CardStore | None = None
        self._readers = ThreadPoolExecutor(READ_THREADS, thread_name_prefix="carddb-read")
        self._searchers = ThreadPoolExecutor(SEARCH_THREADS, thread_name_prefix="carddb-search")
        self._search_lanes = Lanes(SEARCH_THREADS)
        self._background = Background("card-data-refresh", "Card data refresh")
        self._failures = 0
        self.last_error: str | None = None
        self._building: dict[str, asyncio.Lock] = {}
        self.printed = PrintedNames(self.path.with_name(PRINTED_FILE), api_url)  # ``open`` reads the languages
        self._watchers: list[Callable[[], object]] = []
        self._version = 0
        self._first_refresh = asyncio.Event()

    @classmethod
    async def open(
        cls, data_dir: Path, api_url: str, *, languages: Sequence[str] | None = None, **options: float
    ) -> CardData:
        """The card data kept in ``data_dir``; loaded if a good copy is stored, else empty until a refresh. With it,
        the printed names of ``languages`` (``CARD_LANGUAGES``' words: a language no longer chosen is dropped); None,
        a reader that chooses none (a terminal's picture): no printed names, and the stored ones left as they are."""
        card_data = cls(Path(data_dir) / FILE_NAME, api_url, **options)
        if card_data.path.parent.is_dir():
            await asyncio.to_thread(remove_leftovers, card_data.path)  # a full-size database a killed import left
        if card_data.path.exists():
            try:
                card_data._store = await asyncio.to_thread(_opened, card_data.path)
            except CardDataError as error:
                log.warning("Ignoring the stored card data: %s", error)
        if languages is not None:
            card_data.printed = await PrintedNames.open(Path(data_dir), api_url, languages)
        card_data.printed.watch(card_data._changed)
        return card_data

    def watch(self, callback: Callable[[], object]) -> None:
        """Call ``callback`` (on the event loop) whenever another copy or other printed names are loaded."""
        self._watchers.append(callback)

    def _changed(self) -> None:
        self._version += 1
        for callback in self._watchers:
            callback()

    @property
    def version(self) -> int:
        """Changes whenever another copy or other printed names are loaded (what a matcher of names was made of)."""
        return self._version

    async def build(self, make: Callable[[CardStore, PrintedIndex | None], T]) -> T:
        """``make(store, printed)`` run in a read thread on the loaded copy and the printed names loaded with it
        (None without them), neither closed by a swap while it runs."""
        printed = self.printed.index
        if printed is None:
            return await self._read(lambda store: make(store, None))
        try:
            printed.__enter__()
        except PrintedIndexError:
            raise CardDataUnavailable("the printed names were swapped") from None
        try:
            return await self._read(lambda store: make(store, printed))
        finally:
            printed.__exit__(None, None, None)

    @property
    def loaded(self) -> bool:
        return self._store is not None

    def info(self) -> DataInfo | None:
        return self._store.info() if self._store is not None else None

    # ------------------------------------------------------------------ reads

    async def _read(self, query: Callable[[CardStore], T], pool: ThreadPoolExecutor | None = None) -> T:
        """``query`` run on the loaded copy in ``pool`` (the lookups' unless another is given)."""
        store = self._store
        if store is None:
            raise CardDataUnavailable("the local card data is not loaded yet")
        # Taken here, on the loop that swaps stores, so a refresh cannot close it before the read runs.
        store.__enter__()

        def run() -> T:
            try:
                return query(store)
            finally:
                store.__exit__(None, None, None)

        try:
            future = asyncio.get_running_loop().run_in_executor(pool or self._readers, run)
        except RuntimeError:  # the pool was shut down by close()
            store.__exit__(None, None, None)
            raise CardDataUnavailable("the local card data is closed") from None
        try:
            return await future
        except CardDataUnavailable:
            raise
        except CardDataError:
            # Closed, or replaced on disk before this thread first read it: the copy swapped in next answers.
            if not await swapped(lambda: self._store, store):
                raise CardDataUnavailable("the local card data is being replaced") from None
            return await self._read(query, pool)

    def _read_now(self, query: Callable[[CardStore], T]) -> T:
        """A read answered straight off an index, on the caller's thread.

        Such reads take well under a millisecond, less than handing them to a thread and back
        costs on a busy machine (measured: 1 ms against 8 ms at the median), so the hot path of
        /card and autocomplete stays on the event loop; anything slower goes through ``_read``.
        """
        store = self._store
        if store is None:
            raise CardDataUnavailable("the local card data is not loaded yet")
        try:
            with store:
                return query(store)
        except CardDataError:  # closed by a refresh in between: the new copy answers
            return self._read_now(query) if self._store is not store else self._unavailable()

    @staticmethod
    def _unavailable() -> T:
        raise CardDataUnavailable("the local card data is closed")

    async def named(self, name: str, *, extras: bool = False) -> NameMatch:
        quick = self._read_now(lambda store: store.named(name, extras=extras, indexed_only=True))
        if quick is not None:
            return quick
        return await self._read(lambda store: store.named(name, extras=extras))

    async def autocomplete(self, prefix: str, limit: int = 25) -> list[str]:
        return self._read_now(lambda store: store.autocomplete(prefix, limit))

    async def cycling(self, kind: str = "any") -> list[CardRecord]:
        return await self._read(lambda store: store.cycling(kind))

    async def collection(self, names: Iterable[str]) -> dict[str, CardRecord | None]:
        wanted = list(names)
        return await self._read(lambda store: store.collection(wanted))

    async def search(
        self,
        query: str,
        *,
        page: int = 0,
        page_size: int = 15,
        within: str | None = None,
        budget: float = SEARCH_SECONDS,
        asker: Asker | None = None,
    ) -> SearchPage:
        """A page of a search a user wrote, in the searches' pool, within ``budget`` seconds from now (time
        spent waiting for a thread included); ``asker``'s searches run on at most ``USER_SEARCH_THREADS``
        threads at once, their server's on ``GUILD_SEARCH_THREADS``. Raises ``QueryError`` (its text says why),
        ``QueryTooSlow`` past the budget, or ``NeedsScryfall`` when only Scryfall can answer."""
        deadline = time.perf_counter() + budget
        async with self._search_lanes.lane(*search_lanes(asker)):
            return await self._read(
                lambda store: store.search(
                    query, page=page, page_size=page_size, within=within, deadline=deadline, budget=budget
                ),
                self._searchers,
            )

    async def search_all(
        self,
        query: str,
        *,
        within: str | None = None,
        limit: int = 5000,
        user_written: bool = True,
        asker: Asker | None = None,
    ) -> SearchPage:
        """Every card of a search (at most ``limit``), as :meth:`search`; ``user_written=False`` for a search of
        the bot's own (a /cycling kind by itself), which is read as a lookup."""
        deadline = time.perf_counter() + SEARCH_SECONDS

        def read(store: CardStore) -> SearchPage:
            return store.search_all(query, within=within, limit=limit, deadline=deadline)

        if not user_written:
            return await self._read(read)
        async with self._search_lanes.lane(*search_lanes(asker)):
            return await self._read(read, self._searchers)

    async def rulings(self, oracle_id: str | None) -> list[dict[str, str]] | None:
        """The card's rulings from the local copy, or None when the copy holds no rulings file yet."""
        return await self._read(lambda store: store.rulings(oracle_id) if store.has_rulings else None)

    async def by_oracle(self, oracle_ids: Iterable[str]) -> dict[str, CardRecord]:
        """The card of each oracle id the copy holds (read straight off an index)."""
        wanted = list(oracle_ids)
        return self._read_now(lambda store: store.by_oracle(wanted))

    async def by_printed_name(self, name: str) -> list[tuple[CardRecord, PrintedName]]:
        """The cards ``name`` is the printed name of, each with that name (several when cards share it: "Eliminare"
        is Cancel and Wipe Away); what every resolver of names (lookups, decklists) asks of a printed name."""
        found = self.printed.named(name)
        if not found:
            return []
        records = await self.by_oracle(each.oracle_id for each in found)
        cards: dict[int, tuple[CardRecord, PrintedName]] = {}
        for each in found:
            record = records.get(each.oracle_id)
            if record is not None and record.rowid not in cards:
                cards[record.rowid] = (record, each)
        return list(cards.values())

    async def by_id(self, scryfall_id: str) -> CardRecord | None:
        return await self._read(lambda store: store.by_id(scryfall_id))

    async def with_rulings(self, rowids: list[int]) -> list[tuple[CardRecord, list[dict[str, str]] | None]]:
        """The cards of ``rowids`` (in that order), each with its rulings from the local copy (None when the copy
        holds no rulings file yet)."""
        wanted = list(rowids)

        def read(store: CardStore) -> list[tuple[CardRecord, list[dict[str, str]] | None]]:
            known = store.has_rulings
            return [(card, store.rulings(card.oracle_id) if known else None) for card in store.records(wanted)]

        return await self._read(read)

    def derived_now(self, key: str) -> object | None:
        """What ``derived(key, …)`` made of the loaded copy, if it is made already (never waits)."""
        store = self._store
        return store.derived.get(key) if store is not None else None

    async def derived(self, key: str, build: Callable[[CardStore], T]) -> T:
        """What ``build`` makes of the loaded copy (an index of its names…), made once per copy in a read
        thread and made again after a refresh swaps the copy."""
        store = self._store
        if store is None:
            raise CardDataUnavailable("the local card data is not loaded yet")
        if key in store.derived:
            return store.derived[key]
        lock = self._building.setdefault(key, asyncio.Lock())
        async with lock:
            if key not in store.derived:
                store.derived[key] = await self._read(build)
        return store.derived[key]

    async def built(self, key: str, make: Callable[[CardStore, PrintedIndex | None], T]) -> T:
        """What ``make`` makes of the loaded copy and the printed names loaded with it (see ``build``): made once for
        each, and again when either is swapped (an index of names that knows printed ones too). While one is made
        for newer printed names, the one of the previous names answers (the copy's cards are the same)."""
        store = self._store
        if store is None:
            raise CardDataUnavailable("the local card data is not loaded yet")
        lock = self._building.setdefault(key, asyncio.Lock())
        made = store.derived.get(key)
        if made is not None and (made[0] is self.printed.index or lock.locked()):
            return made[1]
        async with lock:
            made = store.derived.get(key)
            printed = self.printed.index
            if made is None or made[0] is not printed:
                made = store.derived[key] = (printed, await self.build(make))
        return made[1]

    # ------------------------------------------------------------------ refresh

    async def refresh(self, *, force: bool = False, file: Path | None = None) -> UpdateOutcome:
        """Update from Scryfall (when its file is newer, or ``force``) or from ``file``; one at a time.

        Raises :class:`BulkError` when the data could not be fetched or failed validation; the
        loaded copy keeps serving then.
        """
        async with self._background.lock:
            if file is not None:
                outcome = await self._background.run(update_from_file, self.path, file)
            else:
                outcome = await self._background.run(update_from_scryfall, self.path, self.api_url, force=force)
            if outcome.imported or self._store is None:
                await self._reload()
            return outcome

    async def _reload(self) -> None:
        try:
            self._store = await replaced(self._store, lambda: CardStore(self.path))
        except CardDataError as error:
            log.warning("Could not open the card data: %s", error)
            return
        self._changed()

    def start(self) -> None:
        """Refresh in the background now and every ``refresh_seconds``; the printed names after the first refresh,
        then daily."""
        if not self._background.started:
            self._background.start(self.refresh, self._refreshed)
            if self.printed.languages:
                self.printed.start(after=self._first_refresh.wait())

    def _refreshed(self, outcome: UpdateOutcome | None, why: str | None) -> float:
        """What a refresh did (``why`` it failed), and the seconds to the next: more after each failure in a row."""
        self._failures = self._failures + 1 if outcome is None else 0
        self.last_error = why
        if outcome is not None and outcome.result is not None:
            log.info("Card data updated: %d cards as of %s", outcome.result.count, outcome.result.updated_at)
            if outcome.result.rulings_refused:
                self.last_error = f"the rulings file was refused: {outcome.result.rulings_refused}"
        self._first_refresh.set()
        if self._failures:
            return min(self.first_retry_seconds * 2 ** (self._failures - 1), self.refresh_seconds)
        return self.refresh_seconds

    async def close(self) -> None:
        await self._background.close()  # an import in its thread notices the stop and removes its files
        await self.printed.close()
        store, self._store = self._store, None
        if store is not None:
            store.retire()
        self._readers.shutdown(wait=False)
        self._searchers.shutdown(wait=False)
