"""What a card answer is: one card or a list, where it came from (the local copy of Scryfall's bulk data or its
API) and how old its data and prices are, in the words a footer shows."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from typing import Any

from bot.carddb import CardRecord, PrintedName, normalise
from bot.cards.printed import printed_note
from bot.cards.render import Provenance

LOCAL = "local"
API = "api"
NEW = "new: not in the local copy yet"


def day_of(timestamp: str | None) -> str | None:
    """``2026-11-20`` from Scryfall's ``2026-11-20T10:04:33.204+00:00``."""
    return timestamp[:10] if timestamp else None


def origin_text(source: str, data_date: str | None, *, new: bool = False) -> str:
    """The footer naming where an answer came from: ``Scryfall bulk data of 2026-11-20`` or ``Scryfall API``, and
    ``Scryfall API · new: not in the local copy yet`` for a card the local copy does not hold yet."""
    if source == LOCAL:
        return f"Scryfall bulk data of {data_date}" if data_date else "Scryfall bulk data"
    return f"Scryfall API · {NEW}" if new else "Scryfall API"


def prices_note(prices_date: str | None, today: date | None = None) -> str:
    """``Prices of 2026-11-18`` when the prices are more than a day old; empty when they are fresh."""
    if not prices_date:
        return ""
    try:
        taken = date.fromisoformat(prices_date[:10])
    except ValueError:
        return ""
    today = today or datetime.now(UTC).date()
    return f"Prices of {taken.isoformat()}" if (today - taken).days > 1 else ""


@dataclass(frozen=True)
class CardAnswer:
    """One card (Scryfall's object) and where it came from; ``printed``: the printed name it was asked for by;
    ``new``: a card Scryfall's API knows and the local copy not yet (revealed since its file)."""

    card: dict[str, Any]
    source: str
    data_date: str | None = None
    prices_date: str | None = None
    stale: bool = False
    printed: PrintedName | None = None
    new: bool = False

    @property
    def data(self) -> dict[str, Any]:
        return self.card

    @property
    def origin(self) -> str:
        return origin_text(self.source, self.data_date, new=self.new)

    @property
    def note(self) -> str:
        """The line above the card's text naming the printed name asked for (empty for an English name)."""
        return printed_note(self.printed)

    @property
    def shown(self) -> Provenance:
        """Where the card shown came from, for its footer."""
        return Provenance(self.origin, self.stale)


def names_in_full(name: str, typed: str) -> bool:
    """Whether ``typed`` is ``name``, or one of its faces' names, whole (accents, case and punctuation aside)."""
    wanted = normalise(typed)
    return bool(wanted) and wanted in {normalise(part) for part in [name, *name.split(" // ")]}


def as_card(item: CardRecord | dict[str, Any]) -> dict[str, Any]:
    """Scryfall's card object of a list item (local lists hold records, decoded only when shown)."""
    return item.scryfall if isinstance(item, CardRecord) else item


@dataclass
class CardList:
    """/cycling results: every card when answered locally (as records), Scryfall's first page otherwise."""

    cards: list[Any]
    total: int
    source: str
    data_date: str | None = None
    next_page: str | None = None
    warnings: list[str] = field(default_factory=list)

    @property
    def origin(self) -> str:
        return origin_text(self.source, self.data_date)


def api_list(page: dict) -> CardList:
    """One page of a Scryfall list object as a ``CardList``, with the address of the next page."""
    cards = list(page.get("data") or [])
    return CardList(
        cards,
        int(page.get("total_cards") or len(cards)),
        API,
        next_page=page.get("next_page") if page.get("has_more") else None,
        warnings=[str(warning) for warning in page.get("warnings") or []],
    )
