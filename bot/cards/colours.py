"""A card's embed colour, from its colours: the five mana colours as printed frames show them, gold for several,
grey for none (artifacts, lands), so that a list of answers can be told apart at a glance on a phone."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.cycling import card_faces

Card = Mapping[str, Any]
# Scryfall's ``colors`` (a double-faced card's front face's when the card has none of its own).
COLOURS = {"W": 0xF0E6C0, "U": 0x1E6FB8, "B": 0x4B3F4A, "R": 0xD0452B, "G": 0x2E8B4A}
MULTICOLOURED = 0xC9A227
COLOURLESS = 0x9AA3AD


def card_colour(card: Card) -> int:
    """The embed colour for ``card``."""
    colours = card.get("colors")
    if colours is None:
        front = card_faces(card)[0]
        colours = front.get("colors") or []
    if len(colours) == 1 and colours[0] in COLOURS:
        return COLOURS[colours[0]]
    return MULTICOLOURED if len(colours) > 1 else COLOURLESS
