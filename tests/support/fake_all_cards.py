"""The fake's All Cards file: every card object of the fake as its English printing, and printings in other
languages whose printed names are real (``tests/data/scryfall/printed-names.json``, ``localized.jsonl``).

A printed name of ``printed-names.json`` becomes a printing of the fake's card of that English name: its object
with the language, the printed name, Time Spiral's set and number and an id of its own. The real objects of
``localized.jsonl`` are served as they are, with the oracle id of the fake's card of the same name when the fake holds
one (the fake constructs some cards, Fire // Ice among them, with oracle ids of their own): All Cards and the oracle
cards name the same cards, as Scryfall's do.
"""

from __future__ import annotations

import copy
import json
import uuid
from typing import Any

from tests.data import LOCALIZED_CARDS, PRINTED_NAMES
from tests.support.fake_bulk import constructed

Card = dict[str, Any]


def printed_rows() -> list[dict[str, Any]]:
    return json.loads(PRINTED_NAMES.read_text(encoding="utf-8"))


def localized_objects() -> list[Card]:
    with open(LOCALIZED_CARDS, encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


def english_card(row: dict[str, Any], number: int) -> Card:
    """A card object in Scryfall's shape for a card of ``printed-names.json``: its real Oracle data and ids, the rest
    as the fake constructs cards."""
    fields = {key: row[key] for key in ("mana_cost", "type_line", "oracle_text", "power", "toughness") if key in row}
    return constructed(
        number,
        row["name"],
        row["set"],
        id=row["scryfall_id"],
        oracle_id=row["oracle_id"],
        collector_number=row["collector_number"],
        released_at=row["released_at"],
        colors=row.get("colors", []),
        color_identity=row.get("colors", []),
        rarity=row["rarity"].lower(),
        legal=("legacy", "vintage", "commander", "modern"),
        **fields,
    )


def missing_cards(cards: list[Card]) -> list[Card]:
    """English card objects for the cards of ``printed-names.json`` that ``cards`` lacks (Cancel, Wipe Away…)."""
    held = {card["name"] for card in cards}
    rows = [row for row in printed_rows() if row["name"] not in held]
    return [english_card(row, 900 + number) for number, row in enumerate(rows)]


def printing(card: Card, lang: str, name: str, set_code: str, number: str, released_at: str) -> Card:
    """``card``'s printing in ``lang`` whose printed name is ``name``."""
    made = copy.deepcopy(card)
    made.update(
        id=str(uuid.uuid5(uuid.NAMESPACE_URL, f"{card['id']}/{lang}/{set_code}/{number}")),
        lang=lang,
        printed_name=name,
        set=set_code,
        collector_number=number,
        released_at=released_at,
        scryfall_uri=f"https://scryfall.com/card/{set_code}/{number}/{lang}?utm_source=api",
    )
    return made


def localized_printings(cards: list[Card]) -> list[Card]:
    """The printings in other languages of ``cards`` (the fake's English card objects) that the data holds."""
    by_name = {card["name"]: card for card in cards}
    made: list[Card] = []
    for row in printed_rows():
        card = by_name.get(row["name"])
        if card is None:
            continue
        for lang, name in row["printed"].items():
            made.append(printing(card, lang, name, row["set"], row["collector_number"], row["released_at"]))
    for each in localized_objects():
        if each["name"] in by_name:
            each["oracle_id"] = by_name[each["name"]].get("oracle_id") or each["oracle_id"]
        made.append(each)
    return made
