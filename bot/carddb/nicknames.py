"""Nicknames players use for cards ("bob", "jtms", "sfm", "tnn"…), from ``bot/data/nicknames.json``.

``resolve_nickname("JTMS")`` → ``"Jace, the Mind Sculptor"``; None for anything that is not a
nickname. Callers use the name only when the card data holds that card (a nickname never sends
anyone to a wrong card), and a card's own name always wins over a nickname.
"""

from __future__ import annotations

import functools
import json
from importlib import resources

from bot.carddb.names import normalise


@functools.cache
def nicknames() -> dict[str, str]:
    """Every nickname, normalised, with the card's name."""
    text = resources.files("bot").joinpath("data", "nicknames.json").read_text(encoding="utf-8")
    return {normalise(nickname): name for nickname, name in json.loads(text).items()}


def resolve_nickname(text: str) -> str | None:
    """The card name ``text`` is a nickname for, or None."""
    return nicknames().get(normalise(text[:100]))
