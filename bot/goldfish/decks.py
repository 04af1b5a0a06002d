"""The preset decks, bundled with the package so they work offline."""

from __future__ import annotations

from bot.goldfish.engine import Deck


def preset_decks() -> dict[str, Deck]:
    """``"slide"``, ``"landcycling"`` and ``"two-colour"``."""
    raise NotImplementedError
