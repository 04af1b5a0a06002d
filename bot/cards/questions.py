"""Rules questions about cards, answered with the local card data: find the cards a question names, read them
and their rulings (:class:`QuestionCards`, the card finder :mod:`bot.rules.asking.ask` is given).

The index of every card's names (:class:`~bot.cards.mentions.CardNames`), with the names cards are printed with in
the languages an operator chose, is built once per copy of the card data and of the printed names, in a read
thread, and again after a refresh swaps either. Words the rules themselves use ("block", "tapped", "island") only
become cards when a player writes them as a name. The same index finds the cards a chat message writes out (Look up
cards, :func:`written_card_names`), exactly as written: no misspelling, nickname or printed name is guessed in text
nobody wrote for the bot.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Collection, Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path

from bot.carddb import FILE_NAME, CardData, CardDataUnavailable, nickname_table, normalise
from bot.cards.inline import CardReference
from bot.cards.mentions import NICKNAME, PRINTED, CardNames, Mention
from bot.rules import CardFacts, FoundCards, RulesIndex

MAX_CARDS = 4  # shown in one answer; a question naming more says how many more
LONG_TEXT = 500  # characters: a chat message longer than a question is searched for names in a thread
NAMES_KEY = "question-card-names"


async def card_names(card_data: CardData, index: RulesIndex) -> CardNames:
    """The names index of the loaded copy and its printed names (built on first use, and again when either is
    swapped; raises ``CardDataUnavailable`` without a copy)."""
    ordinary = index.ordinary_words

    def build(store, printed) -> CardNames:
        rows = printed.name_rows(store.oracle_rowids()) if printed is not None else ()
        return names_index(store.name_rows(), store.legend_rows(), ordinary, ((key, card) for key, card, _ in rows))

    return await card_data.built(NAMES_KEY, build)


def names_index(
    rows: Iterable[tuple[str, int, int]],
    legends: Iterable[tuple[str, int]],
    ordinary: Collection[str],
    printed: Iterable[tuple[str, int]] = (),
) -> CardNames:
    """Every card's names and faces' names, and the other names players use in questions to the bot: nicknames (as
    ``/card`` knows them), legends' first names and titles, and ``printed`` (``(folded name, card)``: the names cards
    are printed with in the languages chosen, as the printed names index holds them)."""
    names = CardNames(rows, ordinary)
    names.add(
        ((nickname, card) for nickname, name in nickname_table().items() if (card := names.exact.get(normalise(name)))),
        NICKNAME,
    )
    names.add_legends(legends)
    names.add(printed, PRINTED, folded=True)
    return names


async def written_card_names(
    card_data: CardData, index: RulesIndex, text: str, limit: int
) -> tuple[list[CardReference], int]:
    """The cards ``text`` names written out exactly (a chat message nobody wrote for the bot: no misspellings
    guessed), as references in its order, and how many more it names past ``limit``; none without a local copy."""
    try:
        names = await card_names(card_data, index)
    except CardDataUnavailable:
        return [], 0
    if len(text) <= LONG_TEXT:
        found = names.find(text, limit=limit, fuzzy=False)
    else:  # a long message (up to 4,000 characters: some 20 ms of CPU) is read beside the event loop, not on it
        found = await asyncio.to_thread(names.find, text, limit, fuzzy=False)
    return [CardReference(" ".join(text[m.start : m.end].split())) for m in found.mentions], found.more


class QuestionCards:
    """Finds the cards a rules question names in the local card data (see ``bot.rules.asking.cards.CardFinder``)."""

    def __init__(self, card_data: CardData | None) -> None:
        self.card_data = card_data

    def ready(self) -> bool:
        return self.card_data is not None and self.card_data.loaded

    async def find(self, index: RulesIndex, query: str) -> FoundCards | None:
        """The cards ``query`` names, with their rulings, or None when it names none (or the copy went away)."""
        card_data = self.card_data
        if card_data is None or not card_data.loaded or not index.is_question(query):
            return None
        try:
            names = await card_names(card_data, index)
            found = names.find(query, limit=MAX_CARDS)
            if not found.mentions:
                return None
            wanted, shared = cards_of(found.mentions)
            cards = await card_data.with_rulings(wanted)
        except CardDataUnavailable:
            return None
        facts = [CardFacts.from_card(card, rulings) for card, rulings in cards]
        if not facts:
            return None
        names = frozenset(fact.name for fact, (card, _r) in zip(facts, cards, strict=True) if card.rowid in shared)
        return FoundCards(facts, found.without_names(query), found.more, names)


def cards_of(mentions: list[Mention]) -> tuple[list[int], set[int]]:
    """The cards to show for ``mentions`` (every card a shared name names, up to :data:`MAX_CARDS` in all), and
    those of them found only by a name they share."""
    wanted: list[int] = []
    shared: set[int] = set()
    for mention in mentions:
        for card in (mention.card, *mention.others):
            if card not in wanted:
                wanted.append(card)
                if mention.others:
                    shared.add(card)
    return wanted[:MAX_CARDS], shared


@asynccontextmanager
async def stored_question_cards(
    data_dir: Path, wanted: bool, languages: Sequence[str] = ()
) -> AsyncIterator[QuestionCards]:
    """The card finder of a terminal: the card data imported into ``data_dir`` (with the printed names of
    ``languages``: ``CARD_LANGUAGES``' words), opened only when ``wanted`` (the text is a question) and a copy
    exists, and closed afterwards; otherwise a finder that finds nothing."""
    stored = wanted and (data_dir / FILE_NAME).is_file()
    card_data = await CardData.open(data_dir, "", languages=languages) if stored else None
    try:
        yield QuestionCards(card_data)
    finally:
        if card_data is not None:
            await card_data.close()
