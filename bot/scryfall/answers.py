"""What a Scryfall response means for a caller: a JSON object (:class:`Answer`), possibly a stale copy served from
the cache while Scryfall cannot answer, or the error the response stands for."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from bot.scryfall.errors import ScryfallError, ScryfallUnavailable, error_for
from bot.scryfall.transport import Raw, is_real_answer

log = logging.getLogger(__name__)


@dataclass
class Answer:
    """A Scryfall JSON object. ``stale``: served from cache because Scryfall is down, slow or
    rate-limiting us; ``from_cache``: no request was sent for it."""

    data: dict
    stale: bool = False
    from_cache: bool = False


def stale_or_raise(cached: Raw | None, error: ScryfallError) -> Answer:
    """The cached copy, marked stale, when there is one; else ``error``."""
    if cached is not None:
        log.info("Serving a stale Scryfall answer: %s", type(error).__name__)
        if cached.status == 200:
            return Answer(cached.data, stale=True, from_cache=True)
        raise error_for(cached.data, cached.status)  # a cached "not found" still holds
    raise error


def answer_of(raw: Raw, *, from_cache: bool) -> Answer:
    """The object Scryfall answered with, or the error it stands for."""
    data = raw.data
    if isinstance(data, dict) and data.get("object") == "error":
        raise error_for(data, raw.status)
    if raw.status == 200 and is_real_answer(raw.status, data):
        return Answer(data, from_cache=from_cache)
    # An HTML page from a proxy, a cut-off body, an empty answer: Scryfall did not really answer.
    raise ScryfallUnavailable(f"Scryfall answered {raw.status} without a Scryfall object.", status=raw.status)
