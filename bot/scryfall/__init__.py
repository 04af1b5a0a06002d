"""A polite, cached, rate-limited Scryfall API client. May import `bot.errors`, `bot.serving`, `bot.text`.

``errors``: the exceptions; ``limiter``: rate limits and 429 pauses; ``transport``: HTTP and the
cache in worker threads; ``answers``: what a response means; ``client``: the public API.
"""

from bot.scryfall.answers import Answer
from bot.scryfall.calls import default_user_agent
from bot.scryfall.client import ScryfallClient
from bot.scryfall.errors import (
    AmbiguousCard,
    BadQuery,
    CardNotFound,
    RateLimited,
    ScryfallError,
    ScryfallUnavailable,
)
from bot.scryfall.limiter import (
    DEFAULT_PAUSE_SECONDS,
    SEARCH_CLASS_PATHS,
    Budget,
    LocalBudget,
    PostgresBudget,
    endpoint_class,
)

__all__ = [
    "DEFAULT_PAUSE_SECONDS",
    "SEARCH_CLASS_PATHS",
    "AmbiguousCard",
    "Answer",
    "BadQuery",
    "Budget",
    "CardNotFound",
    "LocalBudget",
    "PostgresBudget",
    "RateLimited",
    "ScryfallClient",
    "ScryfallError",
    "ScryfallUnavailable",
    "default_user_agent",
    "endpoint_class",
]
