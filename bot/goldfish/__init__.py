"""Goldfish games for practising cycling: the engine, preset decks and decklists (no Discord code)."""

from bot.goldfish.engine import (
    CardInstance,
    CastOption,
    CycleOption,
    Deck,
    Event,
    Game,
    IllegalAction,
    Permanent,
)

__all__ = [
    "CardInstance",
    "CastOption",
    "CycleOption",
    "Deck",
    "Event",
    "Game",
    "IllegalAction",
    "Permanent",
    "parse_decklist",
    "preset_decks",
    "resolve_decklist",
]


def __getattr__(name: str):
    if name == "preset_decks":
        from bot.goldfish.decks import preset_decks

        return preset_decks
    if name in ("parse_decklist", "resolve_decklist"):
        from bot.goldfish import decklist

        return getattr(decklist, name)
    raise AttributeError(name)
