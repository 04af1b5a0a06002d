"""``RulesService``: the Comprehensive Rules the bot answers from, owned by the bot like its database.

The bot opens it in ``setup_hook`` (the configured file, the downloaded copy or the bundled excerpt, indexed in a
thread), it keeps the downloaded rules current in the background, and the bot closes it in ``close()``. Features
read it through ``bot.rules``: ``rules.index`` answers lookups, ``rules.description()`` names the edition in use.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import OrderedDict
from pathlib import Path

from bot.config import Config
from bot.documents import NONE, SURE, Answer, Cited, Line, Versions, clip
from bot.rules.asking import (
    CHANGES,
    HISTORY,
    CardFinder,
    answer_about,
    candidates,
    cards_of,
    lookup,
    route,
    waits,
    wants_pick,
    with_pick,
)
from bot.rules.editions import (
    DOWNLOADED,
    REFRESH_INTERVAL,
    SHELF,
    EditionDiff,
    HistoryCache,
    LoadedRules,
    UpdateError,
    UpdateResult,
    diff_documents,
    edition_paths,
    history_for,
    history_subject,
    load_configured,
    number_from_answer,
    parse_history_query,
    remove_interrupted,
    retry_delay,
    update_rules,
)
from bot.rules.ranking import Pick, Picker, PickerSettings, RulesIndex
from bot.rules.text import Document, RulesFormatError, find_numbers, load_document
from bot.serving import PICKS, Admission, Busy

log = logging.getLogger(__name__)

# The model's picks kept, by question, so that turning a page rebuilds the answer the asker saw.
REMEMBERED_PICKS = 512


def build_index(document: Document) -> RulesIndex:
    index = RulesIndex(document)
    index.warm()
    return index


def ready_line(loaded: LoadedRules, config: Config) -> str:
    """The one line the first start logs about which rules answer: the bundled excerpt says so, and how the full text
    gets here (downloaded in the background, or by the operator when downloading is off)."""
    if not loaded.index.document.is_excerpt:
        return f"Rules ready: {loaded.description()} ({loaded.origin}, {loaded.path})"
    if config.rules_file is not None:
        return "Rules: bundled excerpt; RULES_FILE could not be read (said above), so the excerpt answers"
    if config.rules_auto_update:
        return "Rules: bundled excerpt; downloading the full rules in the background"
    return (
        "Rules: bundled excerpt; downloading is off (RULES_AUTO_UPDATE=0): load the full text with "
        "`cyclebot rules update`, or name a file in RULES_FILE"
    )


class RulesService:
    def __init__(self, config: Config, loaded: LoadedRules | None = None) -> None:
        self.config = config
        self.loaded = loaded
        self.histories = HistoryCache()
        # The editions kept (what an older bot kept beside them was moved in as the rules were loaded).
        self.kept = Versions(config.data_dir, SHELF)
        self.refresh_task: asyncio.Task | None = None
        self._diff: tuple[tuple, EditionDiff] | None = None
        # The operator's language model that picks among the ranking's candidates; None: never asked.
        self.picker = (
            Picker(
                PickerSettings(
                    config.rules_llm_url, config.rules_llm_model, config.rules_llm_key, config.rules_llm_timeout
                )
            )
            if config.rules_llm_url and config.rules_llm_model
            else None
        )
        self._picks: OrderedDict[str, Pick] = OrderedDict()

    @classmethod
    async def open(cls, config: Config) -> RulesService:
        """The rules as configured, indexed; with nothing configured, the first download starts in the background.
        What an interrupted update left (a kill during ``cyclebot rules update``) is removed first."""
        await asyncio.to_thread(remove_interrupted, config.data_dir)
        loaded = await asyncio.to_thread(load_configured, config.rules_file, config.data_dir)
        await asyncio.to_thread(loaded.index.warm)
        log.info("%s", ready_line(loaded, config))
        service = cls(config, loaded)
        if config.rules_file is None:
            if loaded.origin == DOWNLOADED:
                service.refresh_task = asyncio.create_task(
                    service._keep_current(REFRESH_INTERVAL), name="rules-refresh"
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
        return edition_paths(self.kept, self.config.rules_file)

    # ------------------------------------------------------------------ answers

    def waits(self, query: str, cards: CardFinder | None = None) -> bool:
        """Whether :meth:`answer` may wait on a pool or on files for ``query``: acknowledge first if so."""
        if route(self.index, query) == HISTORY:
            return not self.histories.is_current(self.edition_paths())
        return waits(self.index, query, cards)

    def answer_now(self, query: str, *, examples: bool = True) -> Answer:
        """Numbers, terms and questions from the rules alone, without waiting on anything."""
        return lookup(self.index, query, examples=examples)

    async def answer(self, query: str, *, examples: bool = True, cards: CardFinder | None = None) -> Answer:
        """The answer to any rules query: a rule's history, what the last update changed, numbers, a term, or a
        question (with the cards it names, when ``cards`` finds card data)."""
        index = self.index
        kind = route(index, query)
        if kind == HISTORY:
            return await self.history_answer(query)
        if kind == CHANGES:
            return await self.changes_answer(query)
        answer = await answer_about(index, query, cards, examples=examples)
        return with_pick(index, answer, self._picks.get(answer.query), examples=examples)

    # ------------------------------------------------------------------ the model that picks

    def wants_pick(self, answer: Answer) -> bool:
        """Whether the operator's model would be asked about ``answer`` (never for a miss, never unconfigured)."""
        return self.picker is not None and answer.query not in self._picks and wants_pick(answer)

    async def ask_model(
        self, answer: Answer, admission: Admission, user_id: int, guild_id: int | None, *, examples: bool = True
    ) -> Answer:
        """``answer`` as the model reorders it, within ``RULES_LLM_TIMEOUT``; the lexical answer as it is when the
        model is not configured, fails, is slow, or its share (``bot.serving.PICKS``) is taken: never "busy"."""
        if not self.wants_pick(answer):
            return answer
        try:
            ticket = admission.enter(PICKS, user_id, guild_id)
        except Busy:
            return answer
        with ticket:
            pick = await self.picker.pick(answer.query, cards_of(answer), candidates(self.index, answer))
        if pick is None:
            return answer
        self._picks[answer.query] = pick
        while len(self._picks) > REMEMBERED_PICKS:
            self._picks.popitem(last=False)
        return with_pick(self.index, answer, pick, examples=examples)

    async def history_answer(self, query: str) -> Answer:
        """A rule's history across the editions kept ("history 702.29", "history of cycling", "… in 2009")."""
        number, edition = parse_history_query(query)
        if number is None:
            number = number_from_answer(lookup(self.index, history_subject(query)))
        return await asyncio.to_thread(history_for, self.histories, self.edition_paths(), number, edition)

    async def changes_answer(self, query: str) -> Answer:
        """What the latest update changed, or one rule's old and new text ("changes 702.29")."""
        index = self.index
        diff = await self._edition_diff()
        if diff is None:
            lines = [
                Line("No earlier edition is kept yet to compare with."),
                Line(
                    "When the bot updates its rules to a new edition, it keeps the previous one, and this lists "
                    "what changed."
                ),
            ]
            return Answer(query, "changes", NONE, "Rules changes", index.edition, lead=lines)
        numbers = find_numbers(query)
        if numbers:
            number = numbers[0].start
            lines = [Line(text) for text in diff.rule_lines(number)]
            return Answer(
                query,
                "changes",
                SURE,
                clip(f"{diff.title} · {number}", 256),
                index.edition,
                lines=lines,
                cited=[Cited(number, index.title_of(number))],
            )
        lines = [Line(text) for text in diff.summary_lines()]
        return Answer(query, "changes", SURE, diff.title, index.edition, lines=lines)

    async def _edition_diff(self) -> EditionDiff | None:
        """What changed between the edition kept before the one answering and the one answering (the newest kept)."""
        loaded = self.loaded
        if loaded is None or loaded.origin != DOWNLOADED:
            return None
        pair = await asyncio.to_thread(self.kept.pair)
        if pair is None or pair[1].resolve() != loaded.path:
            return None
        previous = pair[0]
        stamp = (previous, previous.stat().st_mtime_ns, id(loaded))
        if self._diff is not None and self._diff[0] == stamp:
            return self._diff[1]
        try:
            old = await asyncio.to_thread(load_document, previous)
        except (OSError, RulesFormatError) as error:
            log.warning("The kept previous rules edition is unreadable (%s): %s", previous, error)
            return None
        diff = await asyncio.to_thread(diff_documents, old, loaded.index.document)
        self._diff = (stamp, diff)
        return diff

    # ------------------------------------------------------------------ keeping current

    def _switches(self, result: UpdateResult) -> bool:
        """Whether an update's edition is to answer: the newest kept, and not the one answering already."""
        loaded = self.loaded
        unchanged = loaded is not None and loaded.path == result.path.resolve() and not result.written
        return result.current and not unchanged

    async def _keep_current(self, wait: float) -> None:
        """Download the rules now and then (validated, stored atomically) and switch to them once they parse.

        A failure is logged once, then retried with a growing delay; lookups never wait for it.
        """
        config = self.config
        failures = 0
        while True:
            await asyncio.sleep(wait)
            try:
                result = await asyncio.to_thread(update_rules, config.data_dir, config.rules_url)
                index = await asyncio.to_thread(build_index, result.document) if self._switches(result) else None
            except Exception as error:
                failures += 1
                level = logging.WARNING if failures == 1 else logging.DEBUG
                if not isinstance(error, UpdateError):
                    log.log(level, "Rules download failed unexpectedly", exc_info=error)
                log.log(
                    level,
                    "Could not download the Comprehensive Rules (attempt %s); still answering from the %s: %s",
                    failures,
                    self.loaded.origin if self.loaded else "rules loaded",
                    error,
                )
                on_excerpt = self.loaded is None or self.loaded.index.document.is_excerpt
                wait = retry_delay(failures) if on_excerpt else REFRESH_INTERVAL
                continue
            if failures:
                log.info("Rules download succeeded after %s failed attempts", failures)
            failures = 0
            if index is not None:
                self.loaded = LoadedRules(index, result.path.resolve(), DOWNLOADED)
                log.info("Rules updated: now %s", self.loaded.description())
            wait = REFRESH_INTERVAL

    async def close(self) -> None:
        if self.picker is not None:
            await self.picker.close()
        task, self.refresh_task = self.refresh_task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
