"""Decklists typed by players: parsing the usual export formats and resolving names through Scryfall."""

from __future__ import annotations

import inspect
import re
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import Any

from bot.carddb import normalise
from bot.goldfish.engine import Deck, IllegalAction
from bot.text import clip, escape

MAX_CARDS = 250
ENGINE_FIELDS = (
    "name",
    "mana_cost",
    "type_line",
    "oracle_text",
    "keywords",
    "colors",
    "color_identity",
    "cmc",
    "layout",
    "card_faces",
    "power",
    "toughness",
    "id",
    "set",
    "collector_number",
)
FACE_FIELDS = ("name", "mana_cost", "type_line", "oracle_text", "power", "toughness")
HEADERS = {"deck", "main", "maindeck", "mainboard", "commander", "companion"}
SKIPPED_SECTIONS = {"sideboard", "maybeboard", "considering", "tokens"}
LINE = re.compile(
    r"^(?P<count>\d+)\s*x?\s+(?P<name>.+?)"
    r"(?:\s+\((?P<set>[A-Za-z0-9]{2,6})\)(?:\s+(?P<number>[A-Za-z0-9★\-]+))?)?"
    r"(?:\s+\*[A-Z]\*)?$",
    re.IGNORECASE,
)

# Where one entry ends and the next begins: a new line, ";", or a comma before a count ("4 Bloated Toad, 4 Forest":
# a Discord option holds no new line, and the other lists of /goldfish are comma-separated). A comma inside a name
# ("Gisa, Glorious Resurrector") is followed by a word, one inside a number ("Borrowing 100,000 Arrows") by a digit
# with no space (after a collector number, "(AKH) 160, 2 Forest", the space marks the break).
ENTRY_BREAK = re.compile(r"\r?\n|\r|;|(?<!\d),\s*(?=\d+\s*x?\s+\S)|(?<=\d),\s+(?=\d+\s*x?\s+\S)", re.IGNORECASE)

Entry = tuple[int, str, str | None, str | None]


def entry_texts(text: str) -> list[str]:
    """The entries of a decklist as typed, one a line, separated by ``;`` or by ``, 4 …`` in one line."""
    return ENTRY_BREAK.split(text)


def parse_decklist(text: str) -> list[Entry]:
    """``"4 Flame Jet"``, ``"4x Flame Jet"``, ``"4 Flame Jet (ONS) 199"`` → ``(count, name, set, number)``.

    Entries are separated by new lines, ``;`` or a comma before the next count (:data:`ENTRY_BREAK`).
    ``Deck``/``Commander`` headers are skipped, the sideboard (after a ``Sideboard`` header, until the next
    ``Deck`` header, and ``SB:`` entries) is ignored, as are blank entries and ``#``/``//`` comments. Raises
    ``IllegalAction`` for an entry that is not a card, or for more than 250 cards.
    """
    entries: list[Entry] = []
    total = 0
    skipping = False
    for number, raw in enumerate(entry_texts(text), start=1):
        line = raw.strip()
        if not line or line.startswith(("#", "//")):
            continue
        word = line.rstrip(":").strip().lower()
        if word in SKIPPED_SECTIONS or word.startswith("sideboard"):
            skipping = True
            continue
        if word in HEADERS:
            skipping = False
            continue
        if line.upper().startswith("SB:"):
            continue
        match = LINE.match(line)
        if not match:
            raise IllegalAction(
                f"Entry {number} (“{escape(clip(line, 60), typed=True)}”) is not a card: write each entry as "
                "'4 Flame Jet', '4x Flame Jet' or '4 Flame Jet (ONS) 199', separated by commas, ';' or new lines."
            )
        if len(match["count"].lstrip("0")) > len(str(MAX_CARDS)):
            # Checked on the digits: int() of thousands of digits is slow, and refused past 4,300.
            raise IllegalAction(f"Entry {number}: that count is too large; a deck has at most {MAX_CARDS} cards.")
        count = int(match["count"])
        if count < 1:
            raise IllegalAction(f"Entry {number}: the count must be at least 1.")
        if skipping:
            continue
        name = " ".join(match["name"].split())
        total += count
        if total > MAX_CARDS:
            raise IllegalAction(f"The decklist has more than {MAX_CARDS} cards.")
        card_set = match["set"].lower() if match["set"] else None
        entries.append((count, name, card_set, match["number"]))
    if not entries:
        raise IllegalAction("The decklist has no cards: write its entries like '4 Flame Jet, 4 Street Wraith'.")
    return entries


def trim_card(card: Mapping[str, Any]) -> dict[str, Any]:
    """Only the fields the engine reads."""
    trimmed = {key: card[key] for key in ENGINE_FIELDS if card.get(key) not in (None, [])}
    if "card_faces" in trimmed:
        trimmed["card_faces"] = [{k: f[k] for k in FACE_FIELDS if k in f} for f in trimmed["card_faces"]]
    return trimmed


def _names_of(card: Mapping[str, Any]) -> Iterable[str]:
    yield card.get("name", "")
    for face in card.get("card_faces") or ():
        yield face.get("name", "")


async def resolve_decklist(
    entries: list[Entry],
    fetch_collection: Callable[[list[dict]], Awaitable[tuple[list[dict], list[Any]]]],
) -> tuple[Deck, list[str]]:
    """Look the cards up with ``fetch_collection`` (Scryfall collection); returns the deck and unknown names.

    ``fetch_collection(identifiers)`` gets ``{"name": ...}`` or ``{"set": ..., "collector_number": ...}``
    identifiers and returns ``(cards, not_found)`` (it may be a plain function too). The deck
    keeps the entries that were found, merged by card name.
    """
    if sum(count for count, *_ in entries) > MAX_CARDS:
        raise IllegalAction(f"The decklist has more than {MAX_CARDS} cards.")
    identifiers: list[dict] = []
    for _, name, card_set, number in entries:
        if card_set and number:
            identifiers.append({"set": card_set, "collector_number": number})
        else:
            identifiers.append({"name": name})
    result = fetch_collection(identifiers)
    if inspect.isawaitable(result):
        result = await result
    cards, _not_found = result
    by_name: dict[str, dict] = {}
    by_print: dict[tuple[str, str], dict] = {}
    for card in cards:
        for alias in _names_of(card):
            # The names the lookup compares (accents, case and punctuation aside): "Troll of Khazad-dum" is the card
            # the collection found for it, Troll of Khazad-dûm.
            by_name.setdefault(normalise(alias), card)
        if card.get("set") and card.get("collector_number"):
            by_print[(card["set"].lower(), str(card["collector_number"]))] = card
    deck_cards: dict[str, dict] = {}
    counts: dict[str, int] = {}
    unknown: list[str] = []
    for count, name, card_set, number in entries:
        card = None
        if card_set and number:
            card = by_print.get((card_set.lower(), str(number)))
        if card is None:
            card = by_name.get(normalise(name))
        if card is None:
            if name not in unknown:
                unknown.append(name)
            continue
        deck_cards[card["name"]] = trim_card(card)
        counts[card["name"]] = counts.get(card["name"], 0) + count
    deck = Deck(name="Custom deck", cards=deck_cards, entries=[(n, name) for name, n in counts.items()])
    return deck, unknown
