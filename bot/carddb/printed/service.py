"""``PrintedNames``: the printed names the bot owns, checked at start and daily, refreshed in the background.

Opened with the card data (``CardData.open(…, languages=…)``): the languages an operator chose are applied at
once (a language no longer chosen only drops its rows), the stored index is loaded, and :meth:`PrintedNames.start`
checks Scryfall's All Cards file after the card data's first refresh, then every day. A new file is imported in a
thread of its own and swapped in atomically; one that fails keeps the previous names, with one line in the log, and
is tried again at the next day's check. English lookups never wait for any of it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterable
from pathlib import Path

from bot.carddb.background import Background
from bot.carddb.lifetime import replaced
from bot.carddb.printed.index import PrintedIndex, PrintedIndexError, PrintedInfo, PrintedName
from bot.carddb.printed.languages import choose, language_name
from bot.carddb.printed.update import FILE_NAME, PrintedOutcome, Progress, apply_languages, update_printed

log = logging.getLogger(__name__)

REFRESH_SECONDS = 24 * 60 * 60.0
LEFTOVERS = (".importing", ".download")


class PrintedNames:
    """``await PrintedNames.open(data_dir, api_url, setting)``: the printed names of the languages ``setting``
    (``CARD_LANGUAGES``' words) chooses; nothing, and no download, when it chooses none."""

    def __init__(
        self, path: Path, api_url: str, languages: Iterable[str] = (), *, refresh_seconds: float = REFRESH_SECONDS
    ) -> None:
        self.path = Path(path)
        self.api_url = api_url
        self.languages = tuple(languages)
        self.refresh_seconds = refresh_seconds
        self.index: PrintedIndex | None = None
        self.last_error: str | None = None
        self._background = Background("printed-names-refresh", "Printed names refresh")
        self._watchers: list[Callable[[], object]] = []

    @classmethod
    async def open(cls, data_dir: Path, api_url: str, setting: Iterable[str] = (), **options: float) -> PrintedNames:
        choice = choose(setting)
        if choice.unknown:
            log.warning(
                "CARD_LANGUAGES names no language Scryfall prints cards in: %s (ignored; Scryfall's codes are %s)",
                ", ".join(choice.unknown),
                "de, fr, it, es, pt, ja, ko, ru, zhs, zht",
            )
        names = cls(Path(data_dir) / FILE_NAME, api_url, choice.codes, **options)
        if names.path.parent.is_dir():
            await asyncio.to_thread(names._prepare)
        if names.languages and names.path.exists():
            try:
                names.index = await asyncio.to_thread(PrintedIndex, names.path)
            except PrintedIndexError as error:
                log.warning("Ignoring the stored printed names: %s", error)
        return names

    def _prepare(self) -> None:
        """Remove what an import killed part-way left, and drop the languages no longer chosen."""
        for suffix in LEFTOVERS:
            self.path.with_name(self.path.name + suffix).unlink(missing_ok=True)
        try:
            apply_languages(self.path, self.languages)
        except Exception as error:  # an unreadable index is replaced by the next refresh
            log.warning("Could not drop the printed names no longer chosen (%s)", error)

    @property
    def loaded(self) -> bool:
        return self.index is not None

    def info(self) -> PrintedInfo | None:
        return self.index.info() if self.index is not None else None

    def watch(self, callback: Callable[[], object]) -> None:
        """Call ``callback`` (on the event loop) whenever other printed names are loaded."""
        self._watchers.append(callback)

    # ------------------------------------------------------------------ reads (an index each: well under 1 ms)

    def _read(self, query: Callable[[PrintedIndex], list[PrintedName]]) -> list[PrintedName]:
        index = self.index
        if index is None:
            return []
        try:
            with index:
                return query(index)
        except PrintedIndexError:  # closed by a swap in between: the new index answers
            return self._read(query) if self.index is not index else []

    def named(self, text: str) -> list[PrintedName]:
        """The printed names ``text`` is (several cards may share one); none without an index."""
        return self._read(lambda index: index.named(text))

    def starting(self, text: str, limit: int = 25) -> list[PrintedName]:
        return self._read(lambda index: index.starting(text, limit))

    def of_card(self, oracle_id: str | None, lang: str) -> PrintedName | None:
        if not oracle_id:
            return None
        found = self._read(lambda index: [name] if (name := index.of_card(oracle_id, lang)) else [])
        return found[0] if found else None

    # ------------------------------------------------------------------ refresh

    async def refresh(self, *, force: bool = False, progress: Progress | None = None) -> PrintedOutcome:
        """Check Scryfall's All Cards file and import it when needed (see ``update_printed``); one at a time.
        Raises :class:`BulkError` when it could not be fetched or read: the loaded names keep serving."""
        async with self._background.lock:
            outcome = await self._background.run(
                update_printed, self.path, self.api_url, self.languages, force=force, progress=progress
            )
            if outcome.changed or (self.index is None and self.path.exists()):
                await self._reload()
            return outcome

    async def _reload(self) -> None:
        try:
            self.index = await replaced(self.index, lambda: PrintedIndex(self.path) if self.path.exists() else None)
        except PrintedIndexError as error:
            log.warning("Could not open the printed names: %s", error)
            return
        for callback in self._watchers:
            callback()

    def start(self, after: Awaitable[object] | None = None) -> None:
        """Check now (once ``after`` is done: the card data's first refresh) and every ``refresh_seconds``."""
        if self.languages and not self._background.started:
            self._background.start(self.refresh, self._refreshed, after)

    def _refreshed(self, outcome: PrintedOutcome | None, why: str | None) -> float:
        """What a check did (``why`` it failed), and the seconds to the next: a day, whatever happened (a failed
        download is tried again at the next check, never in a loop)."""
        self.last_error = why
        if outcome is not None and outcome.result is not None:
            counts = ", ".join(f"{language_name(k)} {v}" for k, v in outcome.result.counts.items())
            log.info("Printed names updated as of %s: %s", outcome.result.updated_at, counts or "none")
        return self.refresh_seconds

    async def close(self) -> None:
        await self._background.close()
        index, self.index = self.index, None
        if index is not None:
            index.retire()
