"""``RulesService``: the Comprehensive Rules the bot answers from, owned by the bot like its database.

The bot opens it in ``setup_hook`` (the configured file, the downloaded copy or the bundled excerpt, indexed in a
thread), it keeps the downloaded rules current in the background, and the bot closes it in ``close()``. Features
read it through ``bot.rules``: ``rules.index`` answers lookups, ``rules.description()`` names the edition in use.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from pathlib import Path

from bot.config import Config
from bot.rules import updater
from bot.rules.document import Document
from bot.rules.history import HistoryCache
from bot.rules.index import RulesIndex
from bot.rules.sources import LoadedRules, downloaded_path, edition_paths, load_configured

log = logging.getLogger(__name__)


def build_index(document: Document) -> RulesIndex:
    index = RulesIndex(document)
    index.warm()
    return index


class RulesService:
    def __init__(self, config: Config, loaded: LoadedRules | None = None) -> None:
        self.config = config
        self.loaded = loaded
        self.histories = HistoryCache()
        self.refresh_task: asyncio.Task | None = None

    @classmethod
    async def open(cls, config: Config) -> RulesService:
        """The rules as configured, indexed; with nothing configured, the first download starts in the background."""
        loaded = await asyncio.to_thread(load_configured, config.rules_file, config.data_dir)
        await asyncio.to_thread(loaded.index.warm)
        log.info("Rules ready: %s (%s, %s)", loaded.description(), loaded.origin, loaded.path)
        service = cls(config, loaded)
        if config.rules_file is None:
            if downloaded_path(config.data_dir).is_file():
                service.refresh_task = asyncio.create_task(
                    service._keep_current(updater.REFRESH_INTERVAL), name="rules-refresh"
                )
            elif config.rules_auto_update:
                # First start with nothing configured: fetch the full rules; the excerpt answers meanwhile.
                service.refresh_task = asyncio.create_task(service._keep_current(0), name="rules-first-download")
        return service

    @property
    def index(self) -> RulesIndex:
        if self.loaded is None:
            raise RuntimeError("the rules are not loaded yet")
        return self.loaded.index

    def description(self) -> str:
        """The rules edition in use, for /about."""
        return self.loaded.description() if self.loaded else "not loaded"

    def edition_paths(self) -> list[Path]:
        """Every edition kept, for a rule's history."""
        return edition_paths(self.config.data_dir, self.config.rules_file)

    async def _keep_current(self, wait: float) -> None:
        """Download the rules now and then (validated, stored atomically) and switch to them once they parse.

        A failure is logged once, then retried with a growing delay; lookups never wait for it.
        """
        config = self.config
        failures = 0
        while True:
            await asyncio.sleep(wait)
            try:
                result = await asyncio.to_thread(updater.update_rules, config.data_dir, config.rules_url)
                index = await asyncio.to_thread(build_index, result.document)
            except Exception as error:
                failures += 1
                level = logging.WARNING if failures == 1 else logging.DEBUG
                if not isinstance(error, updater.UpdateError):
                    log.log(level, "Rules download failed unexpectedly", exc_info=error)
                log.log(
                    level,
                    "Could not download the Comprehensive Rules (attempt %s); still answering from the %s: %s",
                    failures,
                    self.loaded.origin if self.loaded else "rules loaded",
                    error,
                )
                on_excerpt = self.loaded is None or self.loaded.index.document.is_excerpt
                wait = updater.retry_delay(failures) if on_excerpt else updater.REFRESH_INTERVAL
                continue
            if failures:
                log.info("Rules download succeeded after %s failed attempts", failures)
            failures = 0
            self.loaded = LoadedRules(index, result.path, "downloaded")
            log.info("Rules updated: now %s", self.loaded.description())
            wait = updater.REFRESH_INTERVAL

    async def close(self) -> None:
        task, self.refresh_task = self.refresh_task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
