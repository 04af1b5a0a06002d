"""What the card database hands back: cards, lookup results and facts about the data itself."""

from __future__ import annotations

import json
import zlib
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

COLUMNS = (
    "rowid, id, oracle_id, name, layout, extra, mana_cost, type_line, oracle_text, keywords, power, toughness, "
    "loyalty, colors, color_identity, legalities, prices, image_uris, faces, set_code, set_name, collector_number, "
    "rarity, scryfall_uri, released_at, cycling, raw, games, digital, digital_only"
)
_NAMES = tuple(name.strip() for name in COLUMNS.split(","))
_JSON = {"keywords", "colors", "color_identity", "legalities", "prices", "image_uris", "faces", "cycling", "games"}


@dataclass(frozen=True, eq=False)
class CardRecord:
    """One card of the local copy: the fields the bot shows, plus Scryfall's object in ``scryfall``.

    ``prices_date`` is the day the prices were taken (the bulk file's date); ``cycling`` holds the
    card's cycling abilities as parsed by ``bot.cycling`` at import, as dicts.
    """

    rowid: int
    id: str
    oracle_id: str | None
    name: str
    layout: str
    extra: str | None
    mana_cost: str | None
    type_line: str | None
    oracle_text: str | None
    keywords: list[str]
    power: str | None
    toughness: str | None
    loyalty: str | None
    colors: list[str]
    color_identity: list[str]
    legalities: dict[str, str]
    prices: dict[str, str | None]
    image_uris: dict[str, str] | None
    faces: list[dict[str, Any]]
    set_code: str
    set_name: str | None
    collector_number: str | None
    rarity: str | None
    scryfall_uri: str | None
    released_at: str | None
    cycling: list[dict[str, Any]]
    raw: bytes = field(repr=False)
    games: list[str] = field(default_factory=list)
    digital: bool = False
    digital_only: bool = False
    prices_date: str | None = None

    @classmethod
    def from_row(cls, row: tuple, prices_date: str | None) -> CardRecord:
        values = {
            name: json.loads(value) if name in _JSON and value is not None else value
            for name, value in zip(_NAMES, row, strict=True)
        }
        return cls(**values, prices_date=prices_date)

    @property
    def is_real(self) -> bool:
        return self.extra is None

    @cached_property
    def scryfall(self) -> dict[str, Any]:
        """The card object exactly as Scryfall served it, for renderers that take Scryfall cards."""
        return json.loads(zlib.decompress(self.raw))


@dataclass(frozen=True)
class NameMatch:
    """The answer to a name: ``card`` when one card fits, else ``candidates`` for a picker.

    ``how`` says which rule found it: ``exact``, ``face``, ``word_prefix``, ``prefix``, ``fuzzy``,
    ``word`` (whole words inside the name) or ``none``.
    """

    card: CardRecord | None
    candidates: tuple[CardRecord, ...] = ()
    how: str = "none"

    @property
    def found(self) -> bool:
        return self.card is not None

    @property
    def digital_only(self) -> bool:
        """Whether everything this match offers exists only online."""
        cards = (self.card,) if self.card is not None else self.candidates
        return bool(cards) and all(card.digital_only for card in cards)


@dataclass(frozen=True)
class DataInfo:
    """Facts about the stored copy, for /about and the CLI."""

    path: Path
    updated_at: str
    imported_at: str
    count: int
    size_bytes: int
    source: str


@dataclass(frozen=True)
class SearchPage:
    """One page of a search: its cards, how many match in all, and what was ignored (Scryfall's warnings)."""

    cards: list[CardRecord]
    total: int
    page: int
    page_size: int
    warnings: tuple[str, ...] = ()

    @property
    def page_count(self) -> int:
        return max(1, -(-self.total // self.page_size))
