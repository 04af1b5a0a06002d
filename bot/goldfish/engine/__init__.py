"""The rules-exact goldfish engine. May import `bot.cycling`, `bot.errors`, `bot.text`.

A :class:`Game` holds its parts (``parts``: the zones, the player, the opponent) and its turn structure. Each rule
lives in a module of its own and sees a game through an interface (``parts.GameState``): ``turns`` (the opening hand,
mulligans, the turn), ``casting`` (lands and spells), ``cycling`` (702.29), ``effects`` (what cards and actions do,
state-based actions), ``board`` (questions about the game now), ``decisions`` (what the game waits for). Below them:
``model`` (the value types), ``mana`` (costs and payments), ``cardbook`` (card facts parsed once per deck) and
``scripts`` (one script per card, which sees the game through the effects API alone). ``save`` writes and reads
snapshots, ``scenario`` lays out a position for tests. ``Game.apply(Action)`` is the one way a game changes.

This package imports nothing of the rest of ``bot.goldfish``: decks, the table and practice use it, never the reverse.
"""

from bot.goldfish.engine.board import CycleCost
from bot.goldfish.engine.game import Game
from bot.goldfish.engine.mana import cost_text, mana_text, plan, shortfall, symbol_text
from bot.goldfish.engine.model import (
    GAME_STATS,
    Action,
    CardInstance,
    CastOption,
    CycleOption,
    Decision,
    Deck,
    Event,
    IllegalAction,
    Permanent,
    UnreadableGame,
)
from bot.goldfish.engine.save import FORMAT
from bot.goldfish.engine.scenario import position
from bot.goldfish.engine.scripts import script_for, unmodelled_spell_text, unmodelled_text
from bot.goldfish.engine.wording import MOVE_WORDS, move_words

__all__ = [
    "FORMAT",
    "GAME_STATS",
    "MOVE_WORDS",
    "Action",
    "CardInstance",
    "CastOption",
    "CycleCost",
    "CycleOption",
    "Deck",
    "Decision",
    "Event",
    "Game",
    "IllegalAction",
    "Permanent",
    "UnreadableGame",
    "cost_text",
    "mana_text",
    "move_words",
    "plan",
    "position",
    "script_for",
    "shortfall",
    "symbol_text",
    "unmodelled_spell_text",
    "unmodelled_text",
]
