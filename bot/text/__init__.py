"""Shared text and matching. May import `bot.limits`.

Clipping, escaping and fitting lines to Discord's limits, plurals and times (lines), names normalised as the
card database compares them (names), and one way to match what a player typed against a vocabulary
(matching).
"""

from bot.text.lines import as_utc, chunk_lines, clip, discord_time, escape, fit_lines, one_line, plural
from bot.text.matching import Entry, Matcher
from bot.text.names import fold, normalise, unspaced

__all__ = [
    "Entry",
    "Matcher",
    "as_utc",
    "chunk_lines",
    "clip",
    "discord_time",
    "escape",
    "fold",
    "fit_lines",
    "normalise",
    "one_line",
    "plural",
    "unspaced",
]
