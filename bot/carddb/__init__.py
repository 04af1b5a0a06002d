"""The local copy of Scryfall's card data, and the names cards are printed with in other languages. May import
`bot.config`, `bot.cycling`, `bot.errors`, `bot.hosts`, `bot.serving`, `bot.text`.

Imported from Scryfall's oracle-cards bulk data, refreshed and read fast. ``CardData`` (service) is what the bot
owns; ``CardStore`` (store) is the blocking reader the CLI and benchmarks use directly.
"""

from bot.carddb.bulk import BulkError
from bot.carddb.names import GAME_NAMES, asks_for_rebalanced, digital_label
from bot.carddb.nicknames import nicknames as nickname_table
from bot.carddb.nicknames import resolve_nickname
from bot.carddb.printed import PrintedIndex, PrintedName, PrintedNames, language_name, of_locale
from bot.carddb.query import NeedsScryfall, QueryError, heavy_search, set_codes
from bot.carddb.records import CardRecord, DataInfo, NameMatch, SearchPage
from bot.carddb.service import FILE_NAME, SEARCH_SECONDS, CardData, CardDataUnavailable
from bot.carddb.store import CardDataError, CardStore
from bot.serving import Asker
from bot.text import normalise

__all__ = [
    "FILE_NAME",
    "GAME_NAMES",
    "SEARCH_SECONDS",
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
    "PrintedIndex",
    "PrintedName",
    "PrintedNames",
    "QueryError",
    "set_codes",
    "SearchPage",
    "digital_label",
    "language_name",
    "of_locale",
    "nickname_table",
    "normalise",
    "asks_for_rebalanced",
    "heavy_search",
    "resolve_nickname",
]
