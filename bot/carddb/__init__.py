"""The local copy of Scryfall's oracle-cards bulk data: import, refresh and fast reads.

``CardData`` (service) is what the bot owns; ``CardStore`` (store) is the blocking reader the
CLI and benchmarks use directly.
"""

from bot.carddb.bulk import BulkError
from bot.carddb.names import GAME_NAMES, asks_for_rebalanced, digital_label, normalise
from bot.carddb.nicknames import nicknames as nickname_table
from bot.carddb.nicknames import resolve_nickname
from bot.carddb.query import NeedsScryfall, QueryError, set_codes
from bot.carddb.records import CardRecord, DataInfo, NameMatch, SearchPage
from bot.carddb.service import FILE_NAME, SEARCH_SECONDS, SEARCH_THREADS, CardData, CardDataUnavailable
from bot.carddb.store import CardDataError, CardStore
from bot.lanes import Asker

__all__ = [
    "FILE_NAME",
    "GAME_NAMES",
    "SEARCH_SECONDS",
    "SEARCH_THREADS",
    "Asker",
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
    "set_codes",
    "SearchPage",
    "digital_label",
    "nickname_table",
    "normalise",
    "asks_for_rebalanced",
    "resolve_nickname",
]
