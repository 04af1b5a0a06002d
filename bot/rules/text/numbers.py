"""Rule numbers as people type them in chat: "702.29 c", "§704.5b", "rule 704.5k?", "702,29", "704.5a-c".

A rule number anywhere in a query is what the query asks for, so these are found before any text search.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

LETTERS = "abcdefghijklmnopqrstuvwxyz"
DASHES = "-–—"  # hyphen, en dash, em dash: "704.5a-c", "603.7d–f"

# A rule or subrule: "702.29", "702.29c", "702.29 c" (a lone letter before punctuation or the end),
# "702,29" (a decimal comma), "702.29C". Not part of a longer number ("127.0.0.1", "1702.29").
_RULE = r"(?<![\w.,])([1-9]\d{2})(?:\.|,(?=\d))(\d{1,3})(?:([a-z])(?![a-z])|\s([a-z])(?=\s*(?:$|[^\w\s])))?(?![\d.]*\d)"
RULE_RE = re.compile(_RULE, re.IGNORECASE)
# The end of a range after a rule: "-c", "–f", "-704.5c", " to 704.5c".
RANGE_END_RE = re.compile(
    rf"\s*(?:[{DASHES}]|\bto\b|\bthrough\b)\s*(?:([1-9]\d{{2}})\.(\d{{1,3}})([a-z])?|([a-z]))(?![a-z\d])", re.IGNORECASE
)
# A rule heading or section only where it is clearly meant as one: "rule 704", "CR 121", "§ 7", "section 7",
# or the whole query ("100", "702.", "rules 704?").
PREFIX = r"(?:\bc\.?r\.?|\bcomp(?:rehensive)?\s+rules?|\brules?|§+|\bsection)"
HEADING_RE = re.compile(rf"{PREFIX}\s*#?\s*(\d{{1,3}})(?![\d.,]\d)\b", re.IGNORECASE)
WHOLE_HEADING_RE = re.compile(rf"^\s*(?:{PREFIX}\s*)?#?\s*(\d{{1,3}})\s*[.?!]*\s*$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class NumberRef:
    """One rule number typed in a query, or a range of them ("704.5a" to "704.5c")."""

    start: str
    end: str | None = None

    def __str__(self) -> str:
        return f"{self.start}–{self.end}" if self.end else self.start


def _valid_heading(number: str) -> bool:
    return len(number) == 1 and number != "0" or len(number) == 3 and number[0] != "0"


def find_numbers(query: str) -> list[NumberRef]:
    """Every rule number, heading or range in ``query``, in the order typed, without repeats."""
    found: list[tuple[int, NumberRef]] = []
    taken: list[tuple[int, int]] = []
    for match in RULE_RE.finditer(query):
        if taken and match.start() < taken[-1][1]:
            continue  # the end of a range already read ("702.29a-702.29c")
        letter = (match.group(3) or match.group(4) or "").lower()
        start = f"{match.group(1)}.{match.group(2)}{letter}"
        end_at = match.end()
        end = None
        if range_match := RANGE_END_RE.match(query, end_at):
            if range_match.group(4) and letter:
                end = f"{match.group(1)}.{match.group(2)}{range_match.group(4).lower()}"
            elif range_match.group(1):
                end = f"{range_match.group(1)}.{range_match.group(2)}{(range_match.group(3) or '').lower()}"
            if end is not None:
                end_at = range_match.end()
        found.append((match.start(), NumberRef(start, end if end != start else None)))
        taken.append((match.start(), end_at))
    whole = WHOLE_HEADING_RE.match(query)
    if whole and _valid_heading(whole.group(1)) and not found:
        return [NumberRef(whole.group(1))]
    for match in HEADING_RE.finditer(query):
        if any(low <= match.start(1) < high for low, high in taken) or not _valid_heading(match.group(1)):
            continue
        found.append((match.start(1), NumberRef(match.group(1))))
    found.sort(key=lambda item: item[0])
    out: list[NumberRef] = []
    for _position, ref in found:
        if ref not in out:
            out.append(ref)
    return out


OFFICIAL_RULES_URL = "https://magic.wizards.com/en/rules"
# A public copy of the current rules with an anchor per rule ("#R70229c" for 702.29c).
HYPERLINKED_RULES_URL = "https://yawgatog.com/resources/magic-rules/"


def rule_url(number: str) -> str:
    """The address of ``number`` (702.29c, 704, 7) in the hyperlinked copy of the rules."""
    return f"{HYPERLINKED_RULES_URL}#R{number.replace('.', '')}"
