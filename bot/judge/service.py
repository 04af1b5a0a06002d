"""``JudgeDocs``: the judges' documents the bot answers from, owned by the bot like its rules.

Each document answers from the newest version kept in the data folder, else from its bundled outline. The running
bot checks Wizards' page once a day (a failed check is retried sooner, with a growing wait) and switches to a new
version once it is kept; the terminal's ``cyclebot judge-docs update`` does the same once.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import date
from pathlib import Path

from bot import BOT_NAME, __version__
from bot.config import Config
from bot.documents import (
    SURE,
    Answer,
    Built,
    Cited,
    Document,
    Edition,
    SectionIndex,
    clip,
    history_lines,
    miss,
    read_all,
    retry_delay,
)
from bot.hosts import Downloader
from bot.judge import updater
from bot.judge.ask import Loaded, addressed, answer, history_subject
from bot.judge.catalog import SPECS, Spec, read_version
from bot.judge.names import load_names
from bot.judge.outline import load_outline

log = logging.getLogger(__name__)

DAY = 24 * 3600.0
RETRY_FIRST, RETRY_MAX = 60.0, 6 * 3600.0
# A bot with only the outlines checks this long after it starts: it connects and syncs its commands first.
FIRST_CHECK = 30.0


def index_of(spec: Spec, document: Document) -> Loaded:
    names = load_names(document) if spec.key == "ipg" else None
    return Loaded(spec, document, SectionIndex(document, names.all() if names else None), names)


def load(spec: Spec, data_dir: Path) -> Loaded:
    """The newest version kept of ``spec``'s document, indexed; the bundled outline when none is."""
    document = updater.newest_kept(spec, data_dir)
    return index_of(spec, document or load_outline(spec.key))


def history_of(spec: Spec) -> Built[list[Document]]:
    """Every version kept of ``spec``'s document that parses, oldest first, read again only when a file changes."""

    def build(paths: list[Path]) -> list[Document]:
        return read_all(paths, lambda path, data: read_version(spec, path, data))[0]

    return Built(build)


class JudgeDocs:
    def __init__(self, config: Config, loaded: dict[str, Loaded]) -> None:
        self.config = config
        self.loaded = loaded
        self.refresh_task: asyncio.Task | None = None
        self._downloader: Downloader | None = None
        self._histories = {key: history_of(spec) for key, spec in SPECS.items()}

    @classmethod
    def load(cls, config: Config) -> JudgeDocs:
        return cls(config, {key: load(spec, config.data_dir) for key, spec in SPECS.items()})

    @classmethod
    async def open(cls, config: Config) -> JudgeDocs:
        """The documents as kept, indexed in a thread; with updates on, the daily check starts in the background
        (half a minute after the start when a document has only its outline)."""
        service = await asyncio.to_thread(cls.load, config)
        if config.judge_docs_auto_update:
            first = DAY if all(loaded.document.full for loaded in service.loaded.values()) else FIRST_CHECK
            service.refresh_task = asyncio.create_task(service._keep_current(first), name="judge-docs-refresh")
        return service

    def description(self) -> str:
        """The versions in use, for /about."""
        return "; ".join(loaded.description() for loaded in self.loaded.values())

    # ------------------------------------------------------------------ answers

    def answer(self, key: str, query: str, *, today: date | None = None) -> Answer:
        """Numbers, names and words (see :mod:`bot.judge.ask`); "history X" as :meth:`history`, which reads
        files, so a caller that must answer quickly acknowledges first when :meth:`waits` says so."""
        subject = history_subject(query)
        key, asked = addressed(key, query if subject is None else subject)  # "IPG 3.2" is the IPG's, wherever asked
        if subject is not None:
            return self.history(key, asked)
        return answer(self.loaded[key], asked, today)

    @staticmethod
    def waits(query: str) -> bool:
        return history_subject(query) is not None

    def history(self, key: str, query: str) -> Answer:
        """What changed in a section between the versions kept."""
        loaded = self.loaded[key]
        spec, document = loaded.spec, loaded.document
        found = answer(loaded, query)
        number = found.target if found.kind == "section" else ""
        if not number:
            return miss(
                document, query, f"No {spec.short} section to follow", [f"Name one section, as in {spec.key} 3.8."]
            )
        versions = self._histories[key].get(updater.kept(spec, self.config.data_dir).paths())
        if not versions:
            versions = [document]
        section = document.get(number)
        title = clip(f"{spec.short} {section.heading()} · history", 256)
        labels = [version.label for version in versions]
        if len(versions) == 1:
            footer = f"{spec.title}, effective {labels[0] or 'on an unknown date'}: only one version is kept so far"
        else:
            footer = f"{spec.title}: {len(versions)} versions kept, {labels[0]} to {labels[-1]}"
        return Answer(
            query,
            "history",
            SURE,
            title,
            Edition(versions[-1].effective.isoformat() if versions[-1].effective else "", labels[-1], text=footer),
            lines=history_lines(versions, number),
            cited=[Cited(number, section.title)],
            url=document.url,
        )

    def autocomplete(self, key: str, current: str) -> list[tuple[str, str]]:
        named, asked = addressed(key, current)  # "MTR 3.8" typed in /mtr offers 3.8
        return self.loaded[key].index.autocomplete(asked if named == key else current)

    # ------------------------------------------------------------------ keeping current

    def downloader(self) -> Downloader:
        if self._downloader is None:
            self._downloader = Downloader({"User-Agent": f"{BOT_NAME}/{__version__}"}, name="judge-docs-downloads")
        return self._downloader

    async def update_all(self) -> list[updater.Outcome | updater.UpdateError]:
        """Check every document now, the page read once: each one's outcome, or why it was not updated."""
        try:
            page = await updater.read_page(self.downloader(), self.config.judge_docs_url)
        except updater.UpdateError as error:
            return [error]
        results: list[updater.Outcome | updater.UpdateError] = []
        for key in SPECS:
            try:
                results.append(await self.update(key, page))
            except updater.UpdateError as error:
                results.append(error)
        return results

    async def update(self, key: str, page: str | None = None) -> updater.Outcome:
        """Check for a new version of one document now; switch to it when one is kept."""
        spec = SPECS[key]
        config = self.config
        outcome = await updater.update(spec, config.data_dir, config.judge_docs_url, self.downloader(), page)
        if outcome.kept or not self.loaded[key].document.full:
            self.loaded[key] = await asyncio.to_thread(index_of, spec, outcome.document)
        return outcome

    async def _keep_current(self, wait: float) -> None:
        """Check each document now and then; a failure is logged once, then retried with a growing wait."""
        failures = 0
        while True:
            await asyncio.sleep(wait)
            try:
                results = await self.update_all()
            except Exception as error:
                results = [updater.UpdateError(f"the update failed unexpectedly: {type(error).__name__}")]
                log.warning("The judges' documents' update failed unexpectedly", exc_info=error)
            failed = False
            for result in results:
                if isinstance(result, updater.UpdateError):
                    failed = True
                    log.log(logging.WARNING if failures == 0 else logging.DEBUG, "Judges' documents: %s", result)
                else:
                    log.info("%s", result.line())
            failures = failures + 1 if failed else 0
            wait = retry_delay(failures, RETRY_FIRST, RETRY_MAX) if failed else DAY

    async def close(self) -> None:
        task, self.refresh_task = self.refresh_task, None
        if task is not None:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)  # its cancellation is not an error of close()
        if self._downloader is not None:
            await asyncio.to_thread(self._downloader.close)
            self._downloader = None
