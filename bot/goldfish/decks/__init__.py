"""The decks a goldfish game is dealt from. May import `bot`, `bot.goldfish.engine`, `bot.carddb`, `bot.config`,
`bot.errors`, `bot.hosts`, `bot.serving`, `bot.storage`, `bot.text`.

The preset decks, bundled so they work offline (``presets``); players' own lists as they paste them, in the usual
export formats (``decklist``), in the files they upload (``files``) and on the sites they keep them on (``sites``);
one resolver that makes their lines cards from names sources (``resolver``); the value types (``model``); and the
decks players save (``saved``).

Decks are engine values (:class:`~bot.goldfish.engine.Deck`); this package uses the engine and the engine never uses
it (a saved game of a preset deck is read back with the presets handed in).
"""

from bot.goldfish.decks.decklist import parse_decklist, trim_card
from bot.goldfish.decks.files import FILE_TYPES, MAX_FILE_BYTES, read_file, read_list
from bot.goldfish.decks.model import (
    COMMANDER,
    COMPANION,
    MAIN,
    MAX_CARDS,
    MAX_DECK_NAME,
    SECTIONS,
    SIDEBOARD,
    DeckProblem,
    DeckText,
    Line,
    PlayerDeck,
    Reading,
    clean_deck_name,
    deck_name_key,
    library_note,
    unmodelled_cards,
    unmodelled_note,
)
from bot.goldfish.decks.presets import bundled_cards, preset_decks
from bot.goldfish.decks.resolver import (
    CollectionNames,
    DeckResolver,
    LocalCards,
    NameSource,
    Near,
    PrintedCards,
    readings_text,
)
from bot.goldfish.decks.saved import MAX_DECKS, DeckExists, DeckStore, DeckSummary, TooManyDecks
from bot.goldfish.decks.sites import DeckLink, DeckSites, read_link

__all__ = [
    "COMMANDER",
    "COMPANION",
    "FILE_TYPES",
    "MAIN",
    "MAX_CARDS",
    "MAX_DECKS",
    "MAX_DECK_NAME",
    "MAX_FILE_BYTES",
    "SECTIONS",
    "SIDEBOARD",
    "CollectionNames",
    "DeckExists",
    "DeckLink",
    "DeckProblem",
    "DeckResolver",
    "DeckSites",
    "DeckStore",
    "DeckSummary",
    "DeckText",
    "Line",
    "LocalCards",
    "NameSource",
    "Near",
    "PlayerDeck",
    "PrintedCards",
    "Reading",
    "TooManyDecks",
    "bundled_cards",
    "clean_deck_name",
    "deck_name_key",
    "library_note",
    "parse_decklist",
    "preset_decks",
    "read_file",
    "read_link",
    "read_list",
    "readings_text",
    "trim_card",
    "unmodelled_cards",
    "unmodelled_note",
]
