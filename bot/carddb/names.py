"""How the card database compares names, and which card objects are not real cards.

Both the importer and the lookups use these, so a name is normalised the same way on the way in
and on the way out.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

Card = Mapping[str, Any]

# Objects Scryfall lists among the cards that are not Magic cards a player means by a name.
EXTRA_LAYOUTS = frozenset({"token", "double_faced_token", "emblem", "art_series", "vanguard"})
EXTRA_SET_TYPES = frozenset({"token", "memorabilia"})
EXTRA_PROMO_TYPES = frozenset({"playtest"})
# Digital rebalanced cards carry Scryfall's "A-" name prefix (Alchemy).
REBALANCED_PREFIX = "A-"


def face_names(card: Card) -> list[str]:
    """The names of each face of a split, adventure, flip or double-faced card (empty for one face)."""
    faces = card.get("card_faces") or ()
    names = [face.get("name") for face in faces if face.get("name")]
    if not names and " // " in (card.get("name") or ""):
        names = card["name"].split(" // ")
    return [name for name in names if name != card.get("name")]


def is_rebalanced(card: Card) -> bool:
    return str(card.get("name", "")).startswith(REBALANCED_PREFIX) and bool(card.get("digital"))


def extra_kind(card: Card) -> str | None:
    """Why a card object is not a real card (``"token"``, ``"playtest"``, ``"rebalanced"``…), or None.

    Such objects never beat a real card in a lookup and appear only when asked for.
    """
    layout = card.get("layout")
    if layout in EXTRA_LAYOUTS:
        return str(layout)
    if "Token" in (card.get("type_line") or "").split(" — ")[0].split():
        return "token"
    if card.get("set_type") in EXTRA_SET_TYPES:
        return str(card["set_type"])
    if EXTRA_PROMO_TYPES & set(card.get("promo_types") or ()):
        return "playtest"
    if is_rebalanced(card):
        return "rebalanced"
    return None


GAME_NAMES = {"arena": "MTG Arena", "mtgo": "Magic Online", "astral": "Astral", "sega": "Sega"}


def is_digital_only(card: Card) -> bool:
    """Whether the card exists only in a video game (an Alchemy card on Arena, Astral and Sega cards).

    ``digital`` says only that this printing is online; a card printed on paper somewhere is legal (or banned or
    restricted) in Vintage, which holds every tournament card, so a digital printing of it is not digital only.
    """
    if not card.get("digital") or "paper" in (card.get("games") or ()):
        return False
    return (card.get("legalities") or {}).get("vintage", "not_legal") == "not_legal"


def digital_label(card: Card) -> str:
    """``Digital only (MTG Arena)`` for a card that exists only online, else empty."""
    if not is_digital_only(card):
        return ""
    games = [GAME_NAMES.get(game, game) for game in card.get("games") or () if game != "paper"]
    return "Digital only" + (f" ({', '.join(games)})" if games else "")


def asks_for_rebalanced(query: str) -> bool:
    return query.strip().lower().startswith(REBALANCED_PREFIX.lower())
