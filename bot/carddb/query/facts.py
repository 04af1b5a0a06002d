"""What a search tests about a card, computed once at import: the rows of the ``search_*`` tables.

One ``search_cards`` row a card (colours as bit masks, numbers as numbers, ``is:`` terms as flag
bits, each face's name and type line a line), a ``search_faces`` row for each face of a multi-faced
card, its Oracle text, keywords and legalities. Text is stored lower case, reminder text apart, so
the query compares with ``instr`` and no function call per row.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from bot.carddb.query.vocab import (
    COLOUR_BITS,
    COLOURLESS_BIT,
    FLAG_BITS,
    OUTLAW_TYPES,
    PARTY_TYPES,
    PERMANENT_TYPES,
    RARITIES,
)
from bot.text import normalise

REMINDER = re.compile(r"\([^()]*\)")
NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d+)?|\.\d+)")
MODAL = re.compile(r"\bchoose (?:one|two|three|four|up to|any number|one or more|one or both)\b")
HYBRID = re.compile(r"\{(?:[WUBRGC2]/[WUBRG])\}")
MODAL_KEYWORDS = frozenset({"spree", "escalate", "entwine"})

Card = Mapping[str, Any]


@dataclass(frozen=True)
class SearchRows:
    card: tuple
    faces: list[tuple]
    texts: tuple[str, str, str]  # Oracle text without reminders, with ~, whole


def number(value: Any) -> float | None:
    """A power, toughness or loyalty as a number: ``"1+*"`` → 1, ``"*"`` → 0, ``"∞"`` → inf, ``"?"`` → None."""
    if value is None:
        return None
    text = str(value).strip()
    if "∞" in text:
        return float("inf")
    found = NUMBER.search(text)
    if found is not None:
        return float(found.group())
    return 0.0 if ("*" in text or "x" in text.lower()) else None


def colour_mask(colours: Iterable[str]) -> int:
    mask = 0
    for colour in colours:
        mask |= COLOUR_BITS.get(str(colour).lower(), 0)
    return mask


def produced_mask(symbols: Iterable[str]) -> int:
    """The mana a card can make (Scryfall's ``produced_mana``) as colour bits, colourless as ``COLOURLESS_BIT``."""
    mask = 0
    for symbol in symbols:
        mask |= COLOURLESS_BIT if str(symbol).upper() == "C" else COLOUR_BITS.get(str(symbol).lower(), 0)
    return mask


def colour_order(mask: int) -> int:
    """Scryfall's colour order: white, blue, black, red, green, then multicoloured, then colourless."""
    if mask == 0:
        return 7
    if mask & (mask - 1):
        return 6
    return mask.bit_length()


def strip_reminders(text: str) -> str:
    return REMINDER.sub("", text)


def _price(prices: Mapping[str, Any], key: str) -> float | None:
    try:
        return float(prices[key]) if prices.get(key) else None
    except (TypeError, ValueError):
        return None


def _faces(card: Card) -> list[Mapping[str, Any]]:
    faces = [face for face in card.get("card_faces") or () if isinstance(face, Mapping)]
    return faces or [card]


def _subtypes(type_line: str) -> set[str]:
    _, _, after = type_line.partition("—")
    return set(after.lower().split())


def _french_vanilla(texts: list[str], keywords: frozenset[str]) -> bool:
    lines = [line.strip() for text in texts for line in strip_reminders(text).lower().splitlines() if line.strip()]
    if not lines:
        return False
    for line in lines:
        for part in line.split(","):
            part = part.strip().rstrip(".")
            if part and not any(part == word or part.startswith(word + " ") for word in keywords):
                return False
    return True


def _flags(card: Card, faces: list[Mapping[str, Any]], keywords: frozenset[str], extra: str | None) -> int:
    front = str(faces[0].get("type_line") or card.get("type_line") or "").lower()
    types = [str(face.get("type_line") or "").lower() for face in faces]
    texts = [str(face.get("oracle_text") or "") for face in faces]
    costs = " ".join(str(face.get("mana_cost") or "") for face in faces) or str(card.get("mana_cost") or "")
    subtypes = set().union(*(_subtypes(t) for t in types))
    creature = "creature" in front
    flags = {
        "vanilla": creature and not any(text.strip() for text in texts),
        "frenchvanilla": creature and _french_vanilla(texts, keywords),
        "permanent": any(kind in front.split("—")[0] for kind in PERMANENT_TYPES),
        "spell": bool(front) and "land" not in front.split("—")[0].split(),
        "historic": any(word in t for t in types for word in ("legendary", "artifact", "saga")),
        "party": any("creature" in t for t in types) and bool(subtypes & set(PARTY_TYPES)),
        "outlaw": any("creature" in t for t in types) and bool(subtypes & set(OUTLAW_TYPES)),
        "modal": bool(keywords & MODAL_KEYWORDS) or any(MODAL.search(text.lower()) for text in texts),
        "commander": ("legendary" in front and "creature" in front)
        or any("can be your commander" in text.lower() for text in texts),
        "companion": "companion" in keywords,
        "bear": creature
        and number(faces[0].get("power")) == 2
        and number(faces[0].get("toughness")) == 2
        and float(card.get("cmc") or 0) == 2,
        "hybrid": bool(HYBRID.search(costs)),
        "phyrexian": "/P}" in costs,
        "reserved": bool(card.get("reserved")),
        "funny": card.get("set_type") == "funny",
        "digital": bool(card.get("digital")),
        "gamechanger": bool(card.get("game_changer")),
        "multiface": len(faces) > 1,
        "extra": extra is not None,
    }
    return sum(FLAG_BITS[name] for name, on in flags.items() if on)


MAX_FORMATS = 62


def legality_masks(legalities: Mapping[str, Any], bits: dict[str, int]) -> tuple[int, int, int]:
    """(legal or restricted, banned, restricted) as bit masks; a format new to ``bits`` gets the next bit."""
    masks = {"legal": 0, "banned": 0, "restricted": 0}
    for fmt, status in legalities.items():
        if status not in ("legal", "restricted", "banned"):
            continue
        if fmt not in bits:
            if len(bits) >= MAX_FORMATS:
                continue
            bits[str(fmt)] = 1 << len(bits)
        bit = bits[fmt]
        masks["banned" if status == "banned" else "legal"] |= bit
        if status == "restricted":
            masks["restricted"] |= bit
    return masks["legal"], masks["banned"], masks["restricted"]


def search_rows(
    card: Card, rowid: int, extra: str | None, keywords: frozenset[str], format_bits: dict[str, int]
) -> SearchRows:
    """The search tables' rows for one card object (already validated by the importer); ``format_bits``
    maps each format to its bit, and grows as new formats are met."""
    faces = _faces(card)
    colours = card.get("colors")
    if colours is None:
        colours = [colour for face in faces for colour in face.get("colors") or ()]
    colors = colour_mask(colours)
    cmc = float(card.get("cmc") or 0.0)
    prices = card.get("prices") or {}
    name = str(card["name"])
    names = [name.lower()] + ([str(face.get("name") or "").lower() for face in faces] if len(faces) > 1 else [])
    oracle, tilde, full = [], [], []
    for face in faces:
        text = str(face.get("oracle_text") or "").lower()
        full.append(text)
        oracle.append(strip_reminders(text))
        mine = strip_reminders(text)
        for alias in dict.fromkeys((str(face.get("name") or name).lower(), name.lower())):
            mine = mine.replace(alias, "~")
        tilde.append(mine)
    face_rows = []
    if len(faces) > 1:
        face_rows = [
            (
                rowid,
                str(face.get("mana_cost") or ""),
                number(face.get("power")),
                number(face.get("toughness")),
                number(face.get("loyalty")),
                number(face.get("defense")),
                cmc,
            )
            for face in faces
        ]
    front = faces[0]
    row = (
        rowid,
        normalise(name),
        "\n".join(names),
        extra,
        str(card.get("layout") or ""),
        str(card.get("set") or "").lower(),
        RARITIES.get(str(card.get("rarity") or ""), 0),
        cmc,
        colors,
        colour_mask(card.get("color_identity") or ()),
        colour_order(colors),
        number(front.get("power")),
        number(front.get("toughness")),
        number(front.get("loyalty")),
        number(front.get("defense")),
        "\n".join(str(face.get("type_line") or card.get("type_line") or "").lower() for face in faces),
        str(front.get("mana_cost") or card.get("mana_cost") or ""),
        str(card.get("released_at") or ""),
        _price(prices, "usd"),
        _price(prices, "eur"),
        _price(prices, "tix"),
        card.get("edhrec_rank") if isinstance(card.get("edhrec_rank"), int) else None,
        _flags(card, faces, keywords, extra),
        "\n" + "".join(f"{keyword}\n" for keyword in sorted(keywords)),
        *legality_masks(card.get("legalities") or {}, format_bits),
        produced_mask(card.get("produced_mana") or ()),
    )
    texts = ("\n".join(oracle).strip(), "\n".join(tilde).strip(), "\n".join(full).strip())
    return SearchRows(row, face_rows, texts)
