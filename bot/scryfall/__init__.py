"""A polite, cached, rate-limited Scryfall API client (framework-free: no Discord imports)."""

from bot.scryfall.client import (
    DEFAULT_PAUSE_SECONDS,
    SEARCH_CLASS_PATHS,
    AmbiguousCard,
    Answer,
    BadQuery,
    CardNotFound,
    RateLimited,
    ScryfallClient,
    ScryfallError,
    ScryfallUnavailable,
    endpoint_class,
)

__all__ = [
    "DEFAULT_PAUSE_SECONDS",
    "SEARCH_CLASS_PATHS",
    "AmbiguousCard",
    "Answer",
    "BadQuery",
    "CardNotFound",
    "RateLimited",
    "ScryfallClient",
    "ScryfallError",
    "ScryfallUnavailable",
    "endpoint_class",
]
