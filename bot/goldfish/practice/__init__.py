"""Practice around goldfish games: simulation, odds, coach, reviews. May import `bot.goldfish.engine`,
`bot.goldfish.decks`, `bot.limits`, `bot.runtime`, `bot.text`.

The simulation's player (``policy``), a deck's odds measured on the engine
(``simulate``, in a process pool, with its ``chart``) or computed exactly (``odds``), the coach that plays each move
out (``coach``, evaluated by seeded duels in ``coach_eval``), the review of a finished game (``review``) and the
sentences both are said in (``advice``).

Practice drives the engine through its public API (``Game.apply``, ``legal_actions``, ``clone``) and never the
reverse; what decides (``coach``, ``review``) lives apart from what explains (``advice``).
"""

from bot.goldfish.practice.advice import figure_line, hint_sentence, review_lines
from bot.goldfish.practice.chart import render_png
from bot.goldfish.practice.coach import Advice, advise, advise_in_pool, candidates, policy_move
from bot.goldfish.practice.coach_eval import duels
from bot.goldfish.practice.odds import ODDS_MAX_TURNS, check_odds, odds_table, odds_text
from bot.goldfish.practice.review import (
    REVIEW_GAMES,
    ReportCache,
    Review,
    decision_points,
    deck_figures,
    moments_at,
    player_game,
    result_of,
    review_here,
    review_in_pool,
    review_settings,
    top_moments,
)
from bot.goldfish.practice.simulate import (
    DEFAULT_GAMES,
    DEFAULT_TURNS,
    MAX_GAMES,
    MAX_TURNS,
    SEED_LIMIT,
    Report,
    Settings,
    SimulationPool,
    play_game,
    policy_step,
    simulate_here,
)

__all__ = [
    "DEFAULT_GAMES",
    "DEFAULT_TURNS",
    "MAX_GAMES",
    "MAX_TURNS",
    "ODDS_MAX_TURNS",
    "REVIEW_GAMES",
    "SEED_LIMIT",
    "Advice",
    "Report",
    "ReportCache",
    "Review",
    "Settings",
    "SimulationPool",
    "advise",
    "advise_in_pool",
    "candidates",
    "check_odds",
    "decision_points",
    "deck_figures",
    "duels",
    "figure_line",
    "hint_sentence",
    "moments_at",
    "odds_table",
    "odds_text",
    "play_game",
    "player_game",
    "policy_move",
    "policy_step",
    "render_png",
    "result_of",
    "review_here",
    "review_in_pool",
    "review_lines",
    "review_settings",
    "simulate_here",
    "top_moments",
]
