"""Answering a query: by number, words, the cards it names. May import `bot.rules.text`, `bot.rules.words`,
`bot.rules.ranking`, `bot.rules.editions`, `bot.carddb`, `bot.documents`, `bot.text`.

With a history or the changes, and what a language model's pick does to the answer. Other rooms import this
package, never its modules.
"""

from bot.rules.asking.ask import CHANGES, HISTORY, answer_about, lookup, route, waits
from bot.rules.asking.card_facts import CardFacts, CardFinder, FoundCards
from bot.rules.asking.picking import candidates, cards_of, wants_pick, with_pick

__all__ = [
    "CHANGES",
    "CardFacts",
    "CardFinder",
    "FoundCards",
    "HISTORY",
    "answer_about",
    "candidates",
    "cards_of",
    "lookup",
    "route",
    "waits",
    "wants_pick",
    "with_pick",
]
