"""Serving fairly: who is served next and how fast. May import `bot.errors`.

Every share of the work declared once (shares), their places handed out in round-robin queues (admission) and
asked for by the work that needs them (turns), each user's budget (pace), threads per asker (lanes),
autocomplete's newest-wins requests (suggest), the circuit breaker for a service the bot calls (breaker), log
lines a stranger can cause, at most one a minute (lograte), and work about to wait its turn for a service saying
so (waits).
"""

from bot.serving.admission import Admission, Busy, Ticket
from bot.serving.breaker import Breaker
from bot.serving.lanes import SEARCH_THREADS, Asker, Lanes, Limit
from bot.serving.lograte import RateLimitedLog
from bot.serving.pace import Budgets, Pace, monotonic
from bot.serving.shares import API_SEARCHES, DECK_SITES, HINTS, LOOKUPS, PICKS, SEARCHES, Share
from bot.serving.suggest import Suggestions
from bot.serving.turns import Turn, Turns, no_turn
from bot.serving.waits import on_wait, waiting

__all__ = [
    "API_SEARCHES",
    "DECK_SITES",
    "HINTS",
    "LOOKUPS",
    "PICKS",
    "SEARCHES",
    "SEARCH_THREADS",
    "Admission",
    "Asker",
    "Breaker",
    "Budgets",
    "Busy",
    "Lanes",
    "Limit",
    "Pace",
    "RateLimitedLog",
    "Share",
    "Suggestions",
    "Ticket",
    "Turn",
    "Turns",
    "monotonic",
    "on_wait",
    "waiting",
    "no_turn",
]
