"""Lists of cards, from the same source as single cards: a search in Scryfall's syntax, a /cycling kind, the next
page of an API list and a decklist's identifiers. The local copy answers, in the searches' share; Scryfall's API
only what the copy can't (before the first import, a search about what only Scryfall knows, a printing), in the
API's own share.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING

from bot.carddb import Asker, CardDataUnavailable, CardRecord, NeedsScryfall, SearchPage
from bot.cards.answers import LOCAL, CardList, api_list
from bot.cards.query import KINDS, cycling_query
from bot.scryfall import CardNotFound
from bot.serving import API_SEARCHES, SEARCHES, Turn, no_turn

if TYPE_CHECKING:
    from bot.carddb import CardData
    from bot.scryfall import ScryfallClient

log = logging.getLogger(__name__)

LOCAL_LIST_LIMIT = 5000


class CardLists:
    """The lists of :class:`~bot.cards.lookup.CardSource`, which gives them its card data, its client and where its
    data stands."""

    card_data: CardData | None
    client: ScryfallClient

    def reads_locally(self, set_code: str | None = None) -> bool:
        raise NotImplementedError

    def _data_date(self) -> str | None:
        raise NotImplementedError

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
