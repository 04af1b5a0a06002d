"""Card names as printed in other languages than English, from Scryfall's All Cards file. May import
`bot.carddb.background`, `bot.carddb.bulk`, `bot.carddb.importer`, `bot.carddb.lifetime`, `bot.config`, `bot.hosts`,
`bot.text`.

``languages``: Scryfall's codes, ``CARD_LANGUAGES`` read and Discord's locales; ``build`` writes the names index
from the file's card objects; ``index`` reads it; ``update`` checks, downloads and imports the file; ``service``
is what the card data owns (``card_data.printed``): checked at start and daily, swapped in atomically; ``cli`` the
terminal's ``cards update --languages`` and ``cards info``.
"""

from bot.carddb.printed.build import PrintedRejected, PrintedResult
from bot.carddb.printed.cli import languages_info, update_languages
from bot.carddb.printed.index import PrintedIndex, PrintedIndexError, PrintedInfo, PrintedName
from bot.carddb.printed.languages import ALL, MAIN, NAMES, Choice, choose, language_name, of_locale
from bot.carddb.printed.service import PrintedNames
from bot.carddb.printed.update import FILE_NAME, PrintedOutcome, Progress, update_printed

__all__ = [
    "ALL",
    "FILE_NAME",
    "MAIN",
    "NAMES",
    "Choice",
    "PrintedIndex",
    "PrintedIndexError",
    "PrintedInfo",
    "PrintedName",
    "PrintedNames",
    "PrintedOutcome",
    "PrintedRejected",
    "PrintedResult",
    "Progress",
    "choose",
    "language_name",
    "languages_info",
    "of_locale",
    "update_languages",
    "update_printed",
]
