"""Rules questions about cards, answered with the local card data: find the cards, read them and their rulings,
and hand them to :func:`bot.rules.cards.answer_with_cards`.

The index of every card's names (:class:`~bot.cards.mentions.CardNames`) is built once per copy of the card
data, in a read thread, and again after a refresh swaps the copy. Words the rules themselves use ("block",
"tapped", "island") only become cards when a player writes them as a name.
"""

from __future__ import annotations

from bot.carddb.service import CardData, CardDataUnavailable
from bot.cards.mentions import CardNames
from bot.rules.answer import Answer
from bot.rules.cards import CardFacts, answer_with_cards
from bot.rules.index import RulesIndex

MAX_CARDS = 4  # shown in one answer; a question naming more says how many more
NAMES_KEY = "question-card-names"


async def card_names(card_data: CardData, index: RulesIndex) -> CardNames:
    """The names index of the loaded copy (built on first use; raises ``CardDataUnavailable`` without a copy)."""
    ordinary = index.ordinary_words
    return await card_data.derived(NAMES_KEY, lambda store: CardNames(store.name_rows(), ordinary))


async def answer_about_cards(index: RulesIndex, card_data: CardData | None, query: str) -> Answer | None:
    """The answer to a question that names cards, or None when it names none (or no card data is loaded):
    the caller then answers it from the rules alone."""
    if card_data is None or not card_data.loaded or not index.is_question(query):
        return None
    try:
        names = await card_names(card_data, index)
        found = names.find(query, limit=MAX_CARDS)
        if not found.mentions:
            return None
        cards = await card_data.with_rulings([mention.card for mention in found.mentions])
    except CardDataUnavailable:
        return None
    facts = [CardFacts.from_card(card, rulings) for card, rulings in cards]
    if not facts:
        return None
    return answer_with_cards(index, query, found.without_names(query), facts, found.more)
