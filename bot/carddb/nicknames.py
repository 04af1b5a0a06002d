"""Nicknames players use for cards ("bob", "jtms", "w6", "t3feri"…), from ``bot/data/nicknames.json``.

Each entry names where it is recorded (``source``, one of the file's ``sources``: a public list and its licence, or
players' use where no list under a reuse licence records it). Scryfall's own ``/cards/named`` knows none of them.

``resolve_nickname("JTMS")`` → ``"Jace, the Mind Sculptor"``; None for anything that is not a
nickname. Callers use the name only when the card data holds that card (a nickname never sends
anyone to a wrong card), and a card's own name always wins over a nickname.
"""

from __future__ import annotations

import functools
import json
from importlib import resources

from bot.text import normalise


@functools.cache
def nickname_data() -> dict:
    """The file as it is: ``sources`` (title, url, licence) and ``nicknames`` (card, source)."""
    return json.loads(resources.files("bot").joinpath("data", "nicknames.json").read_text(encoding="utf-8"))


@functools.cache
def nicknames() -> dict[str, str]:
    """Every nickname, normalised, with the card's name."""
    return {normalise(nickname): entry["card"] for nickname, entry in nickname_data()["nicknames"].items()}


def resolve_nickname(text: str) -> str | None:
    """The card name ``text`` is a nickname for, or None."""
    return nicknames().get(normalise(text[:100]))
