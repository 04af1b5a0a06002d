"""Goldfish games: the service, stores and terminal front ends over four rooms. May import `bot.carddb`, `bot.config`,
`bot.cycling`, `bot.errors`, `bot.hosts`, `bot.limits`, `bot.runtime`, `bot.serving`, `bot.storage`, `bot.text`.

Goldfish games for practising cycling, with no Discord code:

- ``engine``: the rules-exact game, its parts and rules, card scripts, saving and loading.
- ``decks``: the preset decks and players' own: pasted, uploaded, linked, resolved and saved.
- ``table``: what a table shows: its text, the view a picture is drawn from, the picture and its card images.
- ``practice``: the simulation's policy, a deck's odds, the coach, the review of a finished game.

Each room's ``__init__`` names its public API. The engine uses none of the others; decks, the table and practice
use the engine, never the reverse. Here, at the top, what runs the games for the bot: the game service (a game per
player in a channel beside the channel's shared one, every action under its game's lock, load → check → apply →
save), the stores (games, players' statistics declared once, finished games and their trend, whether tables are
shown with a picture), and beside them the terminal front ends (``cli``, ``sim_cli``, ``coach_cli``:
``cyclebot goldfish``).
"""

from bot.goldfish.display import DisplayStore
from bot.goldfish.results import RECENT_GAMES, DeckTrend, GameResult, ResultStore, result_from, trend
from bot.goldfish.service import (
    GAME_OVER,
    NO_GAME,
    TABLE_COPIES,
    GameService,
    LiveGames,
    game_of,
    is_loadable,
    unreadable_note,
)
from bot.goldfish.stats import PLAYER_STATS, PlayerStats, Statistic, StatsDelta
from bot.goldfish.store import SHARED, GameExistsError, GameKey, GameStore, StaleGameError, StoredGame, encode_state

__all__ = [
    "GAME_OVER",
    "NO_GAME",
    "PLAYER_STATS",
    "RECENT_GAMES",
    "SHARED",
    "TABLE_COPIES",
    "DeckTrend",
    "DisplayStore",
    "GameExistsError",
    "GameKey",
    "GameResult",
    "GameService",
    "GameStore",
    "LiveGames",
    "PlayerStats",
    "ResultStore",
    "StaleGameError",
    "Statistic",
    "StatsDelta",
    "StoredGame",
    "encode_state",
    "game_of",
    "is_loadable",
    "result_from",
    "trend",
    "unreadable_note",
]
