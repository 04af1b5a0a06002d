"""The full edition's outline, bundled beside the excerpt: every rule number, the titles, the glossary terms.

The bundled excerpt holds the rules a cycling player meets most. With the outline it can still name every
other rule: asked about first strike or evoke, it answers with the rule's number and title in the full rules
and where to read it, instead of finding nothing. The outline is made from the edition the excerpt was
transcribed from (``scripts/make_rules_outline.py``; a test checks the two agree).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from rapidfuzz import fuzz, process, utils

from bot.documents import words
from bot.rules.ranking.hits import name_stems
from bot.rules.text import Document

BUNDLED_OUTLINE = Path(__file__).resolve().parents[2] / "data" / "comprehensive-rules-outline.json"
# How close a typed term must be to a glossary term or a title to be taken for it ("frist strike"), 0–100.
CLOSE_TERM = 88


def _normal(text: str) -> str:
    return " ".join(words(text))


def build_outline(document: Document, defining_rule: Callable[[str], str | None]) -> dict:
    """The outline of a full edition as JSON data: its date, every number in order, each title, and each glossary
    term with the rule that defines it (``defining_rule``, "" when the term cites none)."""
    titles = {rule.number: rule.text for rule in document.entries if rule.is_titled}
    return {
        "effective": document.effective or "",
        "rules": [rule.number for rule in document.entries],
        "titles": titles,
        "terms": {entry.term: defining_rule(entry.term) or "" for entry in document.glossary},
    }


def outline_text(data: dict) -> str:
    """The outline file's text: one JSON object, keys sorted, one line per entry for readable diffs."""
    return json.dumps(data, ensure_ascii=False, indent=0, sort_keys=True) + "\n"


@dataclass(frozen=True, slots=True)
class Pointer:
    """A rule of the full edition: its number, title, and the term that led to it (if any)."""

    number: str
    title: str
    term: str = ""


class Outline:
    def __init__(self, data: dict) -> None:
        self.effective: str = data.get("effective", "")
        self.numbers = frozenset(data.get("rules", ()))
        self.titles: dict[str, str] = dict(data.get("titles", {}))
        self.terms: dict[str, str] = dict(data.get("terms", {}))
        self._by_term = {_normal(term.removesuffix(" (Obsolete)")): term for term in self.terms}
        self._by_term.update({_normal(term): term for term in self.terms})
        # Names a question may use for a rule: glossary terms and the titles of rules, keyed by their word stems.
        self._names: dict[tuple[str, ...], Pointer] = {}
        for term, number in self.terms.items():
            if number:
                self._names.setdefault(name_stems(term), Pointer(number, self.title_of(number), term))
        for number, title in self.titles.items():
            if "." in number:
                self._names.setdefault(name_stems(title), Pointer(number, title))
        self._names.pop((), None)
        self._choices = sorted(self._by_term)

    def has(self, number: str) -> bool:
        return number in self.numbers

    def title_of(self, number: str) -> str:
        """The rule's own title or its nearest titled ancestor's (702.7b: First Strike; 704.5j: State-Based
        Actions)."""
        while number:
            if number in self.titles:
                return self.titles[number]
            if number[-1].isalpha():
                number = number[:-1]
            elif "." in number:
                number = number.split(".")[0]
            else:
                number = number[0] if len(number) == 3 else ""
        return ""

    def term(self, text: str) -> Pointer | None:
        """The glossary term ``text`` is, exactly or by a typo ("frist strike"), with the rule defining it."""
        key = _normal(text)
        if not key:
            return None
        term = self._by_term.get(key)
        if term is None and len(key) >= 5:
            found = process.extractOne(
                key, self._choices, scorer=fuzz.ratio, processor=utils.default_process, score_cutoff=CLOSE_TERM
            )
            term = self._by_term[found[0]] if found else None
        if term is None or not self.terms.get(term):
            return None
        number = self.terms[term]
        return Pointer(number, self.title_of(number), term)

    def named(self, stems: tuple[str, ...]) -> Pointer | None:
        """The rule a question names outright ("how does first strike work": 702.7), by its term or its title."""
        return self._names.get(tuple(sorted(set(stems))))


def load_outline(path: Path = BUNDLED_OUTLINE) -> Outline | None:
    """The bundled outline, or None if it is missing (an excerpt then names only what it holds)."""
    try:
        return Outline(json.loads(Path(path).read_text(encoding="utf-8")))
    except (OSError, ValueError):
        return None
