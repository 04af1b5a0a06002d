"""Goldfish games for practising cycling: the engine, preset decks and decklists (no Discord code)."""

from bot.goldfish.decklist import parse_decklist, resolve_decklist
from bot.goldfish.decks import preset_decks
from bot.goldfish.game import Game
from bot.goldfish.model import (
    Action,
    CardInstance,
    CastOption,
    CycleOption,
    Deck,
    Event,
    IllegalAction,
    Permanent,
    UnreadableGame,
)

__all__ = [
    "Action",
    "CardInstance",
    "CastOption",
    "CycleOption",
    "Deck",
    "Event",
    "Game",
    "IllegalAction",
    "Permanent",
    "UnreadableGame",
    "parse_decklist",
    "preset_decks",
    "resolve_decklist",
]
