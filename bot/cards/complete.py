"""Card names for autocomplete and for a lookup that found nothing by name: the local copy's names in a
:class:`~bot.text.matching.Matcher`, built once per copy of the card data.

Each real card answers to its name, each face's name and the nicknames players use for it; a card that exists
only online ranks after paper cards and says so in its label.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.carddb import GAME_NAMES, nickname_table
from bot.text import Entry, Matcher, one_line

if TYPE_CHECKING:
    from bot.carddb import CardStore

MATCHER = "card-name-matcher"
LABEL_LIMIT = 100


def label(name: str, digital_only: bool, games: list[str]) -> str:
    """What a choice shows: the name, and ``(digital only, MTG Arena)`` for a card that exists only online."""
    if not digital_only:
        return one_line(name, LABEL_LIMIT)
    where = ", ".join(GAME_NAMES.get(game, game) for game in games if game != "paper")
    note = f" (digital only{', ' + where if where else ''})"
    return one_line(name, LABEL_LIMIT - len(note)) + note


def card_matcher(store: CardStore) -> Matcher:
    """The matcher of every real card in ``store`` (run in a read thread: about a second for 35,000 cards)."""
    entries: list[Entry] = []
    index_of: dict[int, int] = {}
    by_name: dict[str, int] = {}
    for rowid, name, digital_only, games in store.name_entries():
        index_of[rowid] = len(entries)
        by_name.setdefault(name, len(entries))
        entries.append(Entry(label(name, bool(digital_only), games), name, int(bool(digital_only))))
    keys = [(norm, index_of[card]) for norm, card, _ in store.name_rows() if card in index_of]
    keys += [(nickname, by_name[name]) for nickname, name in nickname_table().items() if name in by_name]
    return Matcher(entries, keys)
