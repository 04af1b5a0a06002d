"""The decks a goldfish game is dealt from. May import `bot.goldfish.engine`, `bot.carddb`, `bot.text`.

The preset decks, bundled so they work offline (``presets``), and
decklists typed by players, parsed in the usual export formats and resolved through a card lookup (``decklist``).

Decks are engine values (:class:`~bot.goldfish.engine.Deck`); this package uses the engine and the engine never uses
it (a saved game of a preset deck is read back with the presets handed in).
"""

from bot.goldfish.decks.decklist import MAX_CARDS, parse_decklist, resolve_decklist, trim_card
from bot.goldfish.decks.presets import bundled_cards, preset_decks

__all__ = ["MAX_CARDS", "bundled_cards", "parse_decklist", "preset_decks", "resolve_decklist", "trim_card"]
