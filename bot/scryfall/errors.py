"""Every way a Scryfall call can fail, as one family of exceptions.

All derive from :class:`ScryfallError`, itself a :class:`~bot.errors.UserFacingError`: the text
of each is safe to show as it is (Scryfall's own words are escaped, because its error details echo
whatever name or query the user typed).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from bot.errors import UserFacingError
from bot.text import escape

MAX_CANDIDATES = 10


def _plain(text: str) -> str:
    return text


class ScryfallError(UserFacingError):
    """An error object from Scryfall (``{"object": "error", "status", "code", "details", ...}``)."""

    def __init__(
        self,
        details: str,
        *,
        status: int = 0,
        code: str = "error",
        type: str | None = None,  # noqa: A002 - Scryfall's field name
        warnings: list[str] | None = None,
    ) -> None:
        self.status = status
        self.code = code
        self.details = details
        self.type = type
        self.warnings = list(warnings or [])
        super().__init__(details)

    def __str__(self) -> str:
        return self.user_message(safe=True)

    def user_message(self, *, safe: bool = False) -> str:
        """Scryfall's details followed by its warnings, for the person who asked.

        ``safe``: Scryfall's words escaped for Discord markdown (they echo what the user typed);
        ``str(error)`` is the safe form, the one replies use.
        """
        text = escape if safe else _plain
        lines = [text(self.details.strip()) or "Scryfall could not answer that."]
        lines.extend(f"• {text(warning)}" for warning in self.warnings)
        return "\n".join(lines)


class CardNotFound(ScryfallError):
    """No card matched (a 404 ``not_found``; also a search with no results)."""


class AmbiguousCard(ScryfallError):
    """A fuzzy name matched several cards (404 of type ``ambiguous``)."""

    def __init__(self, details: str, *, candidates: list[str] | None = None, **kwargs: Any) -> None:
        self.candidates = list(candidates or [])
        super().__init__(details, **kwargs)

    def user_message(self, *, safe: bool = False) -> str:
        message = super().user_message(safe=safe)
        if self.candidates:
            text = escape if safe else _plain
            names = ", ".join(text(name) for name in self.candidates[:MAX_CANDIDATES])
            message += f"\nDid you mean: {names}?"
        return message


class BadQuery(ScryfallError):
    """Scryfall rejected the request or query (400 ``bad_request``, 422 ...); see ``warnings``."""


class RateLimited(ScryfallError):
    """Scryfall answered 429, or its endpoint class is still paused after one."""

    def __init__(self, retry_after: float, details: str = "", **kwargs: Any) -> None:
        self.retry_after = max(0.0, float(retry_after))
        kwargs.setdefault("status", 429)
        kwargs.setdefault("code", "rate_limited")
        super().__init__(details or "Too many requests.", **kwargs)

    def user_message(self, *, safe: bool = False) -> str:
        return f"Scryfall asked us to slow down, try again in {max(1, math.ceil(self.retry_after))} s."


class ScryfallUnavailable(ScryfallError):
    """Scryfall timed out, was unreachable, failed (5xx) or answered nonsense, and nothing was cached.

    ``timed_out``: the request ran past its deadline (as opposed to failing outright).
    """

    def __init__(self, details: str = "", *, timed_out: bool = False, **kwargs: Any) -> None:
        self.timed_out = timed_out
        kwargs.setdefault("code", "unavailable")
        super().__init__(details or "Scryfall is not answering.", **kwargs)

    def user_message(self, *, safe: bool = False) -> str:
        if self.timed_out:
            return "Scryfall timed out: it did not answer in time. Please try again in a few minutes."
        return "Scryfall is not answering right now, please try again in a few minutes."


def error_for(obj: Mapping[str, Any], status: int | None = None) -> ScryfallError:
    """The typed exception for one of Scryfall's error objects."""
    stated = obj.get("status")  # a proxy's or a lying host's error object may hold anything here
    status = stated if isinstance(stated, int) and not isinstance(stated, bool) and 100 <= stated < 600 else status
    status = int(status or 0)
    warnings = obj.get("warnings")
    kwargs: dict[str, Any] = {
        "status": status,
        "code": str(obj.get("code") or "error")[:100],
        "type": obj.get("type") if isinstance(obj.get("type"), str) else None,
        "warnings": [str(w)[:1000] for w in warnings[:20]] if isinstance(warnings, list) else [],
    }
    details = str(obj.get("details") or "")[:2000]
    if status == 404 and kwargs["type"] == "ambiguous":
        return AmbiguousCard(details, **kwargs)
    if status == 404:
        return CardNotFound(details or "No card found.", **kwargs)
    if status == 429:
        del kwargs["status"]
        return RateLimited(0.0, details, **kwargs)
    if status in (400, 422) or kwargs["code"] == "bad_request":
        return BadQuery(details or "Scryfall could not understand that request.", **kwargs)
    return ScryfallError(details or f"Scryfall answered {status}.", **kwargs)
