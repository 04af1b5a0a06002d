"""The local copy of Scryfall's oracle-cards bulk data: import, refresh and fast reads.

``CardData`` (service) is what the bot owns; ``CardStore`` (store) is the blocking reader the
CLI and benchmarks use directly.
"""

from bot.carddb.bulk import BulkError
from bot.carddb.query import NeedsScryfall, QueryError
from bot.carddb.records import CardRecord, DataInfo, NameMatch, SearchPage
from bot.carddb.service import CardData, CardDataUnavailable
from bot.carddb.store import CardDataError, CardStore

__all__ = [
    "BulkError",
    "CardData",
    "CardDataError",
    "CardDataUnavailable",
    "CardRecord",
    "CardStore",
    "DataInfo",
    "NameMatch",
    "NeedsScryfall",
    "QueryError",
    "SearchPage",
]
