"""Card names for autocomplete and for a lookup that found nothing by name: the local copy's names, and the names
printed in the languages an operator chose, in one :class:`~bot.text.matching.Matcher`, built once per copy of the
card data and of the printed names (:mod:`bot.cards.matchers`).

Each real card answers to its name, each face's name, the nicknames players use for it and its printed names; a card
that exists only online ranks after paper cards and says so in its label. A printed name is its own choice,
labelled and sent as "Printed · English" (``Blitzschlag · Lightning Bolt``), so that /card shows the card with the
name the player chose, and a printed name several cards share offers each of them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.carddb import GAME_NAMES, nickname_table
from bot.text import Entry, Matcher, one_line

if TYPE_CHECKING:
    from bot.carddb import CardStore, PrintedIndex

LABEL_LIMIT = 100
CHOICE_VALUE = 100  # the most characters a choice's value may hold (Discord's limit)
BETWEEN = " · "  # between a printed name and the English one, in a choice and in what it sends


def label(name: str, digital_only: bool, games: list[str]) -> str:
    """What a choice shows: the name, and ``(digital only, MTG Arena)`` for a card that exists only online."""
    if not digital_only:
        return one_line(name, LABEL_LIMIT)
    where = ", ".join(GAME_NAMES.get(game, game) for game in games if game != "paper")
    note = f" (digital only{', ' + where if where else ''})"
    return one_line(name, LABEL_LIMIT - len(note)) + note


def printed_choice(printed: str, english: str) -> str:
    """``Blitzschlag · Lightning Bolt``: a printed name and the card's English one, what its choice shows and sends
    (the English name alone when both would be too long for a choice)."""
    both = f"{printed}{BETWEEN}{english}"
    return both if len(both) <= CHOICE_VALUE else english


def chosen_printed(text: str) -> tuple[str, str] | None:
    """``("Blitzschlag", "Lightning Bolt")`` from a choice's value (:func:`printed_choice`); None for anything else."""
    printed, between, english = text.rpartition(BETWEEN)
    if not between or not printed.strip() or not english.strip():
        return None
    return " ".join(printed.split()), " ".join(english.split())


def card_matcher(store: CardStore, printed: PrintedIndex | None = None) -> Matcher:
    """The matcher of every real card in ``store`` and of its names in ``printed`` (run in a read thread: about a
    second for 35,000 cards, more with the printed names of many languages)."""
    entries: list[Entry] = []
    index_of: dict[int, int] = {}
    by_name: dict[str, int] = {}
    for rowid, name, digital_only, games in store.name_entries():
        index_of[rowid] = len(entries)
        by_name.setdefault(name, len(entries))
        entries.append(Entry(label(name, bool(digital_only), games), name, int(bool(digital_only))))
    keys = [(norm, index_of[card]) for norm, card, _ in store.name_rows() if card in index_of]
    keys += [(nickname, by_name[name]) for nickname, name in nickname_table().items() if name in by_name]
    if printed is not None:
        cards = {oracle: index_of[rowid] for oracle, rowid in store.oracle_rowids().items() if rowid in index_of}
        made: dict[tuple[str, str, int], int] = {}
        for lang, name, oracle in printed.entries():
            card = cards.get(oracle)
            if card is None:
                continue
            english = entries[card]
            entry = made.get((lang, name, card))
            if entry is None:
                value = printed_choice(name, english.value)
                shown = one_line(name, LABEL_LIMIT) if value == english.value else value
                entry = made[(lang, name, card)] = len(entries)
                entries.append(Entry(shown, value, english.rank, lang))
            keys.append((name, entry))
    return Matcher(entries, keys)
