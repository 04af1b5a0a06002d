"""Text helpers shared by every feature: clipping, fitting lines into a limit, escaping for Discord markdown.

Framework-free on purpose: the core renders text that the cogs put into embeds, so the rules for
making text safe and short live here once.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import UTC, datetime

from bot import limits

# Characters that reorder or hide text (bidirectional overrides and isolates, zero-width marks):
# echoed back, they let a name display as something it is not.
_INVISIBLE = re.compile("[\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]")
# Discord markdown: emphasis, code, spoilers, quotes, masked links, mentions and other <...> tags.
_MARKDOWN = re.compile(r"([\\*_~`|>\[\]<])")
# Headings, lists and quotes only start a line.
_LINE_START = re.compile(r"(?m)^(\s*)([#\-])")
_URL = re.compile(r"(?i)\b(https?)://")


def clip(text: str | None, limit: int) -> str:
    """``text`` cut to ``limit`` characters, ending with an ellipsis when it was cut."""
    text = text or ""
    if len(text) <= limit:
        return text
    return text[: max(0, limit - 1)].rstrip() + "…"


def one_line(text: str | None, limit: int = limits.CHOICE_NAME) -> str:
    """Whitespace folded to single spaces, then clipped: for names, labels and choices."""
    return clip(" ".join((text or "").split()), limit)


def escape(text: str | None, *, typed: bool = False) -> str:
    """User or third-party text made inert for Discord: no markdown, no masked links, no mentions.

    Every character that starts inline markdown (``*_~`|>[]``) or a tag (``<@…>``, ``<#…>``) is
    backslash-escaped, as are headings and list markers at the start of a line; ``@everyone`` is
    broken; bidirectional controls and zero-width characters go; a URL loses its power to link
    (a word joiner after the scheme), so no reply carries a live link someone else typed.

    ``typed``: text a person typed, quoted back. A ``{G}`` in it only looks like a symbol, so it stays text where
    card symbols are drawn as emoji (a word joiner after each ``{``, which Discord does not show). Card text keeps
    its symbols (the default).
    """
    text = _INVISIBLE.sub("", text or "")
    if typed:
        text = text.replace("{", "{\u2060")
    text = _MARKDOWN.sub(r"\\\1", text)
    text = _LINE_START.sub(r"\1\\\2", text)
    text = _URL.sub(lambda match: f"{match.group(1)}:\u2060//", text)
    # Never a working @everyone or @here, even where mentions parse.
    return text.replace("@", "@\u200b")


def chunk_lines(lines: Sequence[str], limit: int = limits.EMBED_DESCRIPTION) -> list[str]:
    """Split lines into blocks of at most ``limit`` characters without cutting a line (long lines are split)."""
    blocks: list[str] = []
    current = ""
    for line in lines:
        while len(line) > limit:
            if current:
                blocks.append(current)
                current = ""
            blocks.append(line[:limit])
            line = line[limit:]
        candidate = f"{current}\n{line}" if current else line
        if len(candidate) > limit:
            blocks.append(current)
            current = line
        else:
            current = candidate
    if current or not blocks:
        blocks.append(current)
    return blocks


def fit_lines(
    items: Sequence[str], limit: int = limits.EMBED_FIELD_VALUE, *, separator: str = "\n", empty: str = "—"
) -> str:
    """Join ``items`` into at most ``limit`` characters, saying how many did not fit (never cut silently).

    Each item is kept only if the "… and N more" note for the items after it still fits, so the
    note always fits when the list stops; an overlong first item is clipped rather than hidden.
    """
    if not items:
        return empty
    whole = separator.join(items)
    if len(whole) <= limit:
        return whole
    text = ""
    for index, item in enumerate(items):
        after = len(items) - index - 1
        tail = f"{separator}… and {after} more" if after else ""
        if not text:
            candidate = clip(item, limit - len(tail))
        else:
            candidate = f"{text}{separator}{item}"
        if len(candidate) + len(tail) > limit:
            return f"{text}{separator}… and {len(items) - index} more"
        text = candidate
    return text


def plural(count: int, word: str, many: str | None = None) -> str:
    """The count and the word agreeing with it: ``1 card``, ``2 cards``, ``0 mulligans``, ``1,000 games``.

    ``many`` is the plural when adding an ``s`` is wrong: ``plural(2, "ability", "abilities")``. Every count a
    player reads goes through here, so no reply says ``card(s)``.
    """
    return f"{count:,} {word if count == 1 else (many or word + 's')}"


def as_utc(value: datetime | str | float | None) -> datetime | None:
    """A time given as a datetime, an ISO string or a Unix timestamp, in UTC (naive times are taken as UTC);
    None when there is none or it is not a time."""
    if value is None or value == "":
        return None
    if isinstance(value, int | float):
        return datetime.fromtimestamp(value, tz=UTC)
    if isinstance(value, str):
        try:
            value = datetime.fromisoformat(value)
        except ValueError:
            return None
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def discord_time(timestamp: str | None, style: str = "R") -> str:
    """An ISO time as Discord's timestamp markup (``<t:1767225600:R>``, "2 hours ago" in each reader's own time
    zone); the text itself when it is not a time. Discord renders it in message content, descriptions and field
    values, not in footers or titles."""
    when = as_utc(timestamp)
    if when is None:
        return timestamp or ""
    return f"<t:{int(when.timestamp())}:{style}>"
