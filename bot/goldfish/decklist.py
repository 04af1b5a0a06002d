"""Decklists typed by players: parsing and resolving card names through Scryfall."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from bot.goldfish.engine import Deck, IllegalAction

MAX_CARDS = 250


def parse_decklist(text: str) -> list[tuple[int, str, str | None, str | None]]:
    """``"4 Flame Jet (ONS) 199"`` lines → ``(count, name, set, collector_number)``; sideboard ignored."""
    raise NotImplementedError


async def resolve_decklist(
    entries: list[tuple[int, str, str | None, str | None]],
    fetch_collection: Callable[[list[dict]], Awaitable[tuple[list[dict], list[Any]]]],
) -> tuple[Deck, list[str]]:
    """Look the cards up with ``fetch_collection`` (Scryfall collection); returns the deck and unknown names."""
    raise NotImplementedError


__all__ = ["IllegalAction", "MAX_CARDS", "parse_decklist", "resolve_decklist"]
