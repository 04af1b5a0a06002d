"""Where every card answer comes from: the local copy of Scryfall's bulk data first, its API when
the copy cannot answer.

The one place that decides, used by /card, its autocomplete, inline ``[[card]]``, /cycling, the
card CLI and goldfish decklists. The API is asked only before the first import has finished, for
a specific printing (a set code or collector number), for a search about what only Scryfall
knows (printings, artists, today's prices, its tags: ``NeedsScryfall``), for rulings the copy
lacks, and for a name the copy does not know (a card revealed since its file; never per keystroke of
autocomplete, and a miss not twice within an hour). Every answer says where it came from and how old its data is.

A name is, in this order: a choice of the name matcher ("Printed · English"), an English name or a face's exactly,
a nickname, a printed name exactly (several cards may share one: all are offered), then an English name begun,
misspelt or in other words, then whatever the one name matcher clearly picks (printed names' typos too).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from bot.carddb import (
    CardDataUnavailable,
    CardRecord,
    NameMatch,
    PrintedName,
    asks_for_rebalanced,
    resolve_nickname,
)
from bot.cards.answers import API, LOCAL, CardAnswer, day_of, names_in_full
from bot.cards.complete import label, printed_choice
from bot.cards.lists import CardLists
from bot.cards.matchers import Matchers, by_prefix
from bot.cards.printed import RecentMisses, chosen_card, printed_cards
from bot.scryfall import AmbiguousCard, CardNotFound, ScryfallError
from bot.text import Entry, Matcher, fold

if TYPE_CHECKING:
    from bot.carddb import CardData
    from bot.scryfall import ScryfallClient

log = logging.getLogger(__name__)

MAX_CANDIDATES = 25


class CardSource(CardLists):
    """``CardSource(client, card_data)``: card answers, local first, with Scryfall's API as the fallback.

    ``CardSource.of(owner)`` reads the owner's ``scryfall`` and ``card_data`` at each call instead,
    so the bot can replace either (a reconnect, a test) without every feature holding an old one.
    """

    def __init__(self, client: ScryfallClient | None = None, card_data: CardData | None = None) -> None:
        self._client = client
        self._card_data = card_data
        self._owner: Any = None
        self.names = Matchers(lambda: self.card_data)
        self.misses = RecentMisses()  # names Scryfall found nothing for, not asked again within the hour

    @classmethod
    def of(cls, owner: Any) -> CardSource:
        source = cls()
        source._owner = owner
        return source

    def follow(self) -> None:
        """Build the name matcher whenever the card data loads or swaps a copy or printed names (the bot calls this
        once it owns its card data)."""
        self.names.follow()

    async def matcher(self) -> Matcher | None:
        """The name matcher of what is loaded now, waited for as long as its build takes."""
        return await self.names.current()

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

    def _local(self, record: CardRecord, printed: PrintedName | None = None) -> CardAnswer:
        return CardAnswer(
            record.scryfall,
            LOCAL,
            data_date=self._data_date(),
            prices_date=day_of(record.prices_date) or self._data_date(),
            printed=printed,
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
                answer = await self._local_named(name, nickname)
            except CardDataUnavailable:
                pass
            else:
                return answer if answer is not None else await self._new_card(name, nickname)
        return self._api(await self.client.named(nickname or name, set_code=set_code, fuzzy=True))

    async def _local_named(self, name: str, nickname: str | None) -> CardAnswer | None:
        """The card the local copy finds for ``name`` (see the module's order), None for a miss; AmbiguousCard for
        a close call."""
        card_data = self.card_data
        picked = await chosen_card(card_data, name)
        if picked is not None:
            return self._local(*picked)
        match = await card_data.named(name)
        if match.how == "exact" and (match.card or match.candidates):
            return self._matched_answer(match, name)
        if nickname is not None:  # a card's own name beats a nickname
            found = (await card_data.collection([nickname])).get(nickname)
            if found is not None:
                return self._local(found)
        if match.how == "face" and (match.card or match.candidates):
            return self._matched_answer(match, name)
        printed = await printed_cards(card_data, name)
        if len(printed) == 1:
            return self._local(*printed[0])
        if printed:  # a printed name several cards share: each is offered
            names = [printed_choice(each.name, record.name) for record, each in printed][:MAX_CANDIDATES]
            raise AmbiguousCard(f"“{name}” is the printed name of several cards.", candidates=names, code="ambiguous")
        if match.card or match.candidates:
            return self._matched_answer(match, name)
        # The matcher autocomplete uses: a lookup is as forgiving as the suggestions ("blaoted toad", printed typos).
        meant = await self._matched(name)
        return self._local(*meant) if meant is not None else None

    def _matched_answer(self, match: NameMatch, name: str) -> CardAnswer:
        if match.card is not None:
            return self._local(match.card)
        names = list(dict.fromkeys(card.name for card in match.candidates))[:MAX_CANDIDATES]
        raise AmbiguousCard(f"“{name}” could be several cards.", candidates=names, code="ambiguous")

    async def _matched(self, name: str) -> tuple[CardRecord, PrintedName | None] | None:
        """The card the name matcher clearly picks for ``name`` (typos, swapped words), from the local copy."""
        try:
            matcher = await self.names.ready()
            entry = matcher.best(name) if matcher is not None else None
            if entry is None:
                return None
            picked = await chosen_card(self.card_data, entry.value) if entry.lang else None
            if picked is not None:
                return picked
            found = (await self.card_data.collection([entry.value])).get(entry.value)
            return (found, None) if found is not None else None
        except CardDataUnavailable:
            return None

    async def _new_card(self, name: str, nickname: str | None = None) -> CardAnswer:
        """A name the local copy does not know (or the card a nickname names), asked of Scryfall's fuzzy
        ``/cards/named``: a card revealed since the copy's file (marked new), or the local card when Scryfall's answer
        is one the copy holds by another name. A miss raises CardNotFound and is not asked again within the hour;
        when Scryfall can't answer, the local miss is the answer."""
        local_miss = CardNotFound(f"No card is called “{name}”.", status=404, code="not_found", type=LOCAL)
        key = fold(nickname or name)
        if not key or key in self.misses:
            raise local_miss
        try:  # asked as folded: every spelling of one name shares Scryfall's answer in the cache
            answer = await self.client.named(key, fuzzy=True)
        except CardNotFound:
            self.misses.add(key)
            raise local_miss from None
        except AmbiguousCard:
            raise
        except ScryfallError as error:
            log.info("Could not ask Scryfall for a name the local copy lacks: %s", type(error).__name__)
            raise local_miss from None
        oracle = answer.data.get("oracle_id")
        known = (await self.card_data.by_oracle([oracle])).get(oracle) if isinstance(oracle, str) else None
        if known is not None:
            return self._local(known)
        return CardAnswer(answer.data, API, stale=answer.stale, new=True)

    async def complete(self, typed: str, limit: int = MAX_CANDIDATES, *, prefer: str | None = None) -> list[Entry]:
        """Choices for what has been typed: the name matcher's (typos, word order, nicknames, faces, printed names,
        ``prefer``'s first: a language's code; paper first, digital-only cards labelled); while the first matcher is
        built, names by prefix; before the first import, Scryfall's."""
        matcher = await self.names.ready()
        if matcher is None:
            return await self._by_prefix(typed, limit)
        entries = matcher.complete(typed, limit, prefer=prefer)
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

    async def _by_prefix(self, typed: str, limit: int) -> list[Entry]:
        """Names starting as typed, English first, then printed ones: the choices before the first matcher."""
        english = [Entry(name, name) for name in await self.autocomplete(typed, limit)]
        return await by_prefix(self.card_data, english, typed, limit)

    async def exact(self, name: str, *, set_code: str | None = None) -> CardAnswer:
        """A name picked from candidates (exact, so no guessing twice): an English name or "Printed · English"."""
        if set_code is None and self.card_data is not None:
            try:
                picked = await chosen_card(self.card_data, name)
                found = (await self.card_data.collection([name])).get(name) if picked is None else None
            except CardDataUnavailable:
                picked = found = None
            if picked is not None:
                return self._local(*picked)
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

    def data_date(self) -> str | None:
        """The day of the local copy's data, or None before the first import."""
        return self._data_date()
