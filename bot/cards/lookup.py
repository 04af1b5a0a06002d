"""Where every card answer comes from: the local copy of Scryfall's bulk data first, its API when
the copy cannot answer.

The one place that decides, used by /card, its autocomplete, inline ``[[card]]``, /cycling, the
card CLI and goldfish decklists. The API is asked only before the first import has finished, for
a specific printing (a set code or collector number), for a search about what only Scryfall
knows (printings, artists, today's prices, its tags: ``NeedsScryfall``), and for rulings the copy
lacks. Every answer says where it came from and how old its data is.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from bot.carddb import (
    Asker,
    CardDataError,
    CardDataUnavailable,
    CardRecord,
    NeedsScryfall,
    SearchPage,
    asks_for_rebalanced,
    resolve_nickname,
)
from bot.cards.answers import API, LOCAL, CardAnswer, CardList, api_list, day_of, names_in_full
from bot.cards.complete import MATCHER, card_matcher, label
from bot.cards.query import KINDS, cycling_query
from bot.scryfall import AmbiguousCard, CardNotFound, ScryfallError
from bot.serving import API_SEARCHES, SEARCHES, Turn, no_turn
from bot.text import Entry, Matcher

if TYPE_CHECKING:
    from bot.carddb import CardData
    from bot.scryfall import ScryfallClient

log = logging.getLogger(__name__)

MAX_CANDIDATES = 25
LOCAL_LIST_LIMIT = 5000


class CardSource:
    """``CardSource(client, card_data)``: card answers, local first, with Scryfall's API as the fallback.

    ``CardSource.of(owner)`` reads the owner's ``scryfall`` and ``card_data`` at each call instead,
    so the bot can replace either (a reconnect, a test) without every feature holding an old one.
    """

    def __init__(self, client: ScryfallClient | None = None, card_data: CardData | None = None) -> None:
        self._client = client
        self._card_data = card_data
        self._owner: Any = None
        self._building: set[asyncio.Future] = set()

    @classmethod
    def of(cls, owner: Any) -> CardSource:
        source = cls()
        source._owner = owner
        return source

    @property
    def client(self) -> ScryfallClient:
        return self._owner.scryfall if self._owner is not None else self._client

    @property
    def card_data(self) -> CardData | None:
        return getattr(self._owner, "card_data", None) if self._owner is not None else self._card_data

    # ------------------------------------------------------------------ helpers

    def _data_date(self) -> str | None:
        info = self.card_data.info() if self.card_data is not None else None
        return day_of(info.updated_at) if info is not None else None

    def _local(self, record: CardRecord) -> CardAnswer:
        return CardAnswer(
            record.scryfall,
            LOCAL,
            data_date=self._data_date(),
            prices_date=day_of(record.prices_date) or self._data_date(),
        )

    @staticmethod
    def _api(answer: Any) -> CardAnswer:
        return CardAnswer(answer.data, API, stale=answer.stale)

    def reads_locally(self, set_code: str | None = None) -> bool:
        """Whether a lookup (of a printing from ``set_code``) is the local copy's to answer: then it takes a place
        among the lookups reading the copy; else it is Scryfall's API's, which its rate limits share out."""
        card_data = self.card_data
        return set_code is None and card_data is not None and card_data.loaded

    # ------------------------------------------------------------------ single cards

    async def named(self, name: str, *, set_code: str | None = None, number: str | None = None) -> CardAnswer:
        """The card meant by ``name``; a printing (``set_code``, ``number``) comes from the API.

        Raises AmbiguousCard (with candidates) for a close call, CardNotFound for a miss, and the
        client's ScryfallErrors when the API was asked and failed.
        """
        name = " ".join(name.split())
        if set_code and number:
            path = f"{self.client.base_url}/cards/{set_code.lower()}/{number.lower()}"
            return self._api(await self.client.get_uri(path))
        nickname = resolve_nickname(name)
        if set_code is None and self.card_data is not None:
            try:
                match = await self.card_data.named(name)
                if nickname is not None and match.how != "exact":  # a card's own name beats a nickname
                    found = (await self.card_data.collection([nickname])).get(nickname)
                    if found is not None:
                        return self._local(found)
            except CardDataUnavailable:
                pass
            else:
                if match.card is not None:
                    return self._local(match.card)
                if match.candidates:
                    names = list(dict.fromkeys(card.name for card in match.candidates))[:MAX_CANDIDATES]
                    raise AmbiguousCard(f"“{name}” could be several cards.", candidates=names, code="ambiguous")
                # The matcher autocomplete uses: a lookup is as forgiving as the suggestions ("blaoted toad").
                meant = await self._matched(name)
                if meant is not None:
                    return self._local(meant)
                # type "local": the miss was decided by the local copy, not by Scryfall's words.
                raise CardNotFound(f"No card is called “{name}”.", status=404, code="not_found", type=LOCAL)
        return self._api(await self.client.named(nickname or name, set_code=set_code, fuzzy=True))

    async def _matched(self, name: str) -> CardRecord | None:
        """The card the name matcher clearly picks for ``name`` (typos, swapped words), from the local copy."""
        try:
            matcher = await self.card_data.derived(MATCHER, card_matcher)
            entry = matcher.best(name)
            if entry is None:
                return None
            return (await self.card_data.collection([entry.value])).get(entry.value)
        except CardDataUnavailable:
            return None

    def matcher_now(self) -> Matcher | None:
        """The local copy's name matcher if it is built; otherwise its build is started (never waited for)."""
        card_data = self.card_data
        if card_data is None or not card_data.loaded:
            return None
        matcher = card_data.derived_now(MATCHER)
        if matcher is None and not self._building:
            task = asyncio.ensure_future(card_data.derived(MATCHER, card_matcher))
            self._building.add(task)
            task.add_done_callback(self._built)
        return matcher  # type: ignore[return-value]

    def _built(self, task: asyncio.Future) -> None:
        self._building.discard(task)
        if not task.cancelled() and task.exception() is not None and not isinstance(task.exception(), CardDataError):
            log.error("Building the card name matcher failed", exc_info=task.exception())

    async def complete(self, typed: str, limit: int = MAX_CANDIDATES) -> list[Entry]:
        """Choices for what has been typed: the name matcher's (typos, word order, nicknames, faces; paper first,
        digital-only cards labelled); before it is built, names by prefix; before the first import, Scryfall's."""
        matcher = self.matcher_now()
        if matcher is None:
            return [Entry(name, name) for name in await self.autocomplete(typed, limit)]
        entries = matcher.complete(typed, limit)
        if not asks_for_rebalanced(typed) and not (entries and names_in_full(entries[0].value, typed)):
            # No real card has the name typed: the one token or emblem named in full is what the lookup shows
            # ("The Monarch"), so it is offered first rather than some other card's name.
            named = [name for name in await self.autocomplete(typed, 1) if names_in_full(name, typed)]
            entries = [Entry(name, name) for name in named] + [e for e in entries if e.value not in named]
        if asks_for_rebalanced(typed):
            # "A-Fling" asks for Alchemy's rebalanced card, as the lookup finds it: offered first (the matcher holds
            # only real cards), labelled as digital.
            asked = [name for name in await self.autocomplete(typed, limit) if asks_for_rebalanced(name)]
            entries = [Entry(label(name, True, []), name, 1) for name in asked] + [
                entry for entry in entries if entry.value not in asked
            ]
        return entries[:limit]

    async def exact(self, name: str, *, set_code: str | None = None) -> CardAnswer:
        """A name picked from candidates (exact, so no guessing twice)."""
        if set_code is None and self.card_data is not None:
            try:
                found = (await self.card_data.collection([name])).get(name)
            except CardDataUnavailable:
                found = None
            if found is not None:
                return self._local(found)
        return self._api(await self.client.named(name, set_code=set_code, fuzzy=False))

    async def by_id(self, card_id: str) -> CardAnswer:
        """The card with this Scryfall id (the info buttons carry it)."""
        if self.card_data is not None:
            try:
                record = await self.card_data.by_id(card_id)
            except CardDataUnavailable:
                record = None
            if record is not None:
                return self._local(record)
        return self._api(await self.client.get_uri(f"{self.client.base_url}/cards/{card_id}"))

    async def autocomplete(self, prefix: str, limit: int = MAX_CANDIDATES) -> list[str]:
        """Card names for ``prefix``; empty for nothing that fits (autocomplete cannot show errors)."""
        if self.card_data is not None:
            try:
                return await self.card_data.autocomplete(prefix, limit)
            except CardDataUnavailable:
                pass
        return (await self.client.autocomplete(prefix))[:limit]

    async def set_exists(self, set_code: str) -> bool | None:
        """Whether Scryfall knows a set with this code (its ``/sets/:code``); None when it couldn't say."""
        try:
            await self.client.get_uri(f"{self.client.base_url}/sets/{set_code.lower()}")
        except CardNotFound:
            return False
        except ScryfallError as error:
            log.info("Could not check set %s: %s", set_code, type(error).__name__)
            return None
        return True

    async def printings(self, card: dict[str, Any]) -> list[tuple[str, str]]:
        """The sets ``card`` was printed in, newest first, as ``(code, name)``: the local copy holds one printing
        per card, so this is the API's prints search (its first page, one request, within the shared budget).
        Empty when the API can't answer."""
        uri = card.get("prints_search_uri")
        if not uri:
            oracle = card.get("oracle_id")
            if not oracle:
                return []
            uri = f"{self.client.base_url}/cards/search?order=released&q=oracleid%3A{oracle}&unique=prints"
        try:
            answer = await self.client.get_uri(uri)
        except ScryfallError as error:
            log.info("Could not list the printings of a card: %s", type(error).__name__)
            return []
        sets = {str(c.get("set") or ""): str(c.get("set_name") or "") for c in answer.data.get("data") or []}
        return [(code, name or code.upper()) for code, name in sets.items() if code]

    async def rulings(self, card: dict[str, Any]) -> list[dict[str, Any]]:
        """Scryfall's rulings of ``card``: from the local copy's rulings file; the API is asked only when the
        local copy has none for the card (no rulings file yet, or a card newer than the file)."""
        if self.card_data is not None:
            try:
                local = await self.card_data.rulings(card.get("oracle_id"))
            except CardDataUnavailable:
                local = None
            if local:
                return local
        uri = card.get("rulings_uri") or f"{self.client.base_url}/cards/{card['id']}/rulings"
        answer = await self.client.get_uri(uri)
        return list(answer.data.get("data") or [])

    # ------------------------------------------------------------------ lists

    async def search(
        self, query: str, *, page: int = 0, page_size: int = 15, asker: Asker | None = None, turn: Turn = no_turn
    ) -> SearchPage | CardList:
        """A page of the cards matching ``query`` (Scryfall's syntax) from the local copy: a ``SearchPage``;
        ``asker``: who shares the search threads fairly with everyone else (see ``CardData.search``); ``turn``: the
        place it waits for, in the searches' share while the copy is read, in the API's while Scryfall is asked.

        Only a search about what the copy does not hold (``NeedsScryfall``), or any search before the first
        import, goes to Scryfall's API: then the answer is its first page as a ``CardList``. Raises
        ``QueryError`` for a search that cannot run, CardNotFound (API) and the client's ScryfallErrors.
        """
        query = " ".join(query.split())
        if self.reads_locally():
            try:
                async with turn(SEARCHES):
                    return await self.card_data.search(query, page=page, page_size=page_size, asker=asker)
            except (CardDataUnavailable, NeedsScryfall) as reason:
                log.debug("Asking Scryfall for a search: %s", type(reason).__name__)
        async with turn(API_SEARCHES):
            answer = await self.client.search(query, order="name")
        return api_list(answer.data)

    async def cycling(
        self, kind: str, extra: str | None = None, *, asker: Asker | None = None, turn: Turn = no_turn
    ) -> CardList:
        """The cards of a /cycling kind, narrowed by ``extra`` search terms, by the same engine as /search
        (``asker`` and ``turn`` as for :meth:`search`).

        Raises CardNotFound when none match (like Scryfall), QueryError for a search the local copy cannot
        read, BadQuery for one the API rejects.
        """
        extra = " ".join((extra or "").split())
        query = cycling_query(kind, extra)
        if self.reads_locally():
            base = KINDS[kind].query
            try:
                # The user's terms parsed on their own, so a message about them points into what they typed.
                async with turn(SEARCHES):
                    if extra:
                        found = await self.card_data.search_all(extra, within=base, limit=LOCAL_LIST_LIMIT, asker=asker)
                    else:
                        found = await self.card_data.search_all(base, limit=LOCAL_LIST_LIMIT, user_written=False)
            except (CardDataUnavailable, NeedsScryfall) as reason:
                log.debug("Asking Scryfall for a /cycling search: %s", type(reason).__name__)
            else:
                if not found.cards:
                    raise CardNotFound(
                        "No cards match that search.", status=404, code="not_found", warnings=list(found.warnings)
                    )
                return CardList(
                    list(found.cards),
                    len(found.cards),
                    LOCAL,
                    data_date=self._data_date(),
                    warnings=list(found.warnings),
                )
        async with turn(API_SEARCHES):
            answer = await self.client.search(query, order="name")
        return api_list(answer.data)

    def data_date(self) -> str | None:
        """The day of the local copy's data, or None before the first import."""
        return self._data_date()

    async def next_page(self, url: str) -> CardList:
        """The next page of an API list."""
        return api_list((await self.client.next_page(url)).data)

    async def collection(self, identifiers: Sequence[dict]) -> tuple[list[dict], list[dict]]:
        """Cards for a decklist's identifiers, as Scryfall's ``/cards/collection`` gives them.

        Names are answered locally; only identifiers the copy cannot answer (a printing by set and
        collector number, or everything before the first import) go to the API.
        """
        identifiers = [dict(identifier) for identifier in identifiers]
        names = [str(i["name"]) for i in identifiers if set(i) == {"name"}]
        found: dict[str, CardRecord | None] = {}
        if names and self.card_data is not None:
            try:
                found = await self.card_data.collection(names)
            except CardDataUnavailable:
                found = {}
        cards: list[dict] = []
        not_found: list[dict] = []
        remote: list[dict] = []
        for identifier in identifiers:
            record = found.get(identifier.get("name", "")) if set(identifier) == {"name"} else None
            if record is not None:
                cards.append(record.scryfall)
            elif found and set(identifier) == {"name"}:
                not_found.append(identifier)
            else:
                remote.append(identifier)
        if remote:
            more, missing = await self.client.collection(remote)
            cards.extend(more)
            not_found.extend(missing)
        return cards, not_found
