"""Autocomplete and suggestions: rule numbers by prefix; glossary terms, rule titles and players' abbreviations
("sb", "sba", "etb", "cmc") matched the way card names are (``bot.text.matching``: typos, word order, prefixes)."""

from __future__ import annotations

import bisect
import heapq
from collections.abc import Mapping
from functools import cached_property

from rapidfuzz import fuzz, process, utils

from bot.carddb import normalise
from bot.documents import Choice, clip
from bot.rules.text import WHOLE_HEADING_RE, Document
from bot.text import Entry, Matcher

MAX_CHOICES = 25
SEE_ALSO = 5
# What players type for a glossary term (each kept only where the edition has that term).
ABBREVIATIONS = {
    "sb": "State-Based Actions",
    "sba": "State-Based Actions",
    "sbas": "State-Based Actions",
    "etb": "Enters the Battlefield",
    "ltb": "Leaves the Battlefield",
    "cmc": "Mana Value",
    "mv": "Mana Value",
    "fs": "First Strike",
    "ds": "Double Strike",
    "dt": "Deathtouch",
    "ll": "Lifelink",
    "pw": "Planeswalker",
    "cda": "Characteristic-Defining Ability",
    "eot": "End Step",
    "apnap": "APNAP Order",
    "edh": "Commander",
    "pt": "Power",
    "mull": "Mulligan",
}


def sort_key(number: str) -> tuple[int, int, str]:
    """Numeric order for rule numbers: 702.9 < 702.10 < 702.10a."""
    head, _, rest = number.partition(".")
    digits = rest.rstrip("abcdefghijklmnopqrstuvwxyz")
    return (int(head) * (100 if len(head) == 1 else 1), int(digits) if digits else -1, rest[len(digits) :])


def rule_choice(document: Document, number: str) -> Choice:
    rule = document.by_number[number][0]
    return Choice(clip(f"{rule.label()} {rule.text}"), number)


class Completer:
    def __init__(self, document: Document, more_terms: Mapping[str, str] | None = None) -> None:
        """``more_terms``: glossary terms the document lacks, each with the rule defining it (the full edition's, for
        the bundled excerpt), offered as the document's own terms are: the lookup answers them from the outline."""
        self.document = document
        self._numbers = sorted(document.by_number)
        self._by_sort_key = sorted(document.by_number, key=sort_key)
        self._sort_keys = [sort_key(number) for number in self._by_sort_key]
        # Names offered by autocomplete and fuzzy suggestions for words: glossary terms and titled rules.
        self._names: list[Choice] = [Choice(clip(entry.term), clip(entry.term)) for entry in document.glossary]
        held = {normalise(entry.term) for entry in document.glossary}
        self._names += [
            Choice(clip(term), clip(term))
            for term, number in sorted((more_terms or {}).items())
            if number and normalise(term) not in held and not term.endswith("(Obsolete)")
        ]
        self._term_count = len(self._names)
        self._names += [
            Choice(clip(f"{rule.label()} {rule.text}"), rule.number)
            for rule in document.entries
            if rule.is_titled and rule.kind != "section"
        ]
        self._name_keys = [utils.default_process(choice.name) for choice in self._names]
        self._sorted_names = sorted(range(len(self._names)), key=lambda i: self._name_keys[i])
        self._sorted_name_keys = [self._name_keys[i] for i in self._sorted_names]

    @cached_property
    def _matcher(self) -> Matcher:
        """Terms, titles and abbreviations for autocomplete, built on first use: an edition read only for a rule's
        history never needs it."""
        terms = {normalise(choice.value): index for index, choice in enumerate(self._names[: self._term_count])}
        keys = [(choice.name, index) for index, choice in enumerate(self._names)]
        keys += [(short, terms[normalise(term)]) for short, term in ABBREVIATIONS.items() if normalise(term) in terms]
        return Matcher([Entry(choice.name, choice.value) for choice in self._names], keys)

    def between(self, start: str, end: str, *, limit: int = 60) -> list[str]:
        """Existing numbers from ``start`` to ``end`` (a range typed as 704.5a-c); rules only if both ends are rules."""
        low = bisect.bisect_left(self._sort_keys, sort_key(start))
        high = bisect.bisect_right(self._sort_keys, sort_key(end))
        subrules = start[-1].isalpha() or end[-1].isalpha()
        out = []
        for number in self._by_sort_key[low:high]:
            if number.count(".") == 1 and (subrules or not number[-1].isalpha()):
                out.append(number)
        return out[:limit]

    def nearby(self, number: str, count: int = SEE_ALSO) -> list[Choice]:
        """Existing rule numbers closest to a missing one: its longest existing prefix first
        (a typo like 702.299 most likely meant 702.29), then numeric neighbours."""
        out: list[Choice] = []
        parent = number
        while "." in parent:
            parent = parent[:-1].rstrip(".")
            if self.document.get(parent) is not None:
                out.append(rule_choice(self.document, parent))
                break
        try:
            key = sort_key(number)
        except ValueError:
            return out
        position = bisect.bisect_left(self._sort_keys, key)
        low, high = max(0, position - count), min(len(self._by_sort_key), position + count)
        around = sorted(range(low, high), key=lambda i: abs(i - position + 0.5))
        for index in around:
            if len(out) >= count:
                break
            candidate = self._by_sort_key[index]
            if all(choice.value != candidate for choice in out):
                out.append(rule_choice(self.document, candidate))
        return out

    def suggest(self, text: str, count: int = SEE_ALSO) -> list[Choice]:
        """Glossary terms and rule titles that look like ``text`` (fuzzy)."""
        key = utils.default_process(text)
        if not key:
            return []
        results = process.extract(
            key, self._name_keys, scorer=fuzz.WRatio, processor=None, limit=count, score_cutoff=60
        )
        return [self._names[index] for _name, _score, index in results]

    def by_prefix(self, text: str, count: int = SEE_ALSO) -> list[Choice]:
        """Names that start like the words typed (cheap suggestions for a question nothing answered)."""
        out: list[Choice] = []
        for length in (3, 2):
            for word in utils.default_process(text).split():
                key = word[:length]
                if len(key) < length:
                    continue
                position = bisect.bisect_left(self._sorted_name_keys, key)
                while position < len(self._sorted_name_keys) and self._sorted_name_keys[position].startswith(key):
                    choice = self._names[self._sorted_names[position]]
                    if choice not in out:
                        out.append(choice)
                    if len(out) >= count:
                        return out
                    position += 1
            if out:
                break
        return out

    def autocomplete(self, current: str) -> list[Choice]:
        """At most 25 choices for what has been typed: rule numbers by prefix, terms by prefix then fuzzily."""
        text = " ".join(current.split())[:100]
        if not text:
            return [
                Choice(clip(f"{rule.label()} {rule.text}"), rule.number)
                for rule in self.document.entries
                if rule.kind == "section"
            ][:MAX_CHOICES]
        if WHOLE_HEADING_RE.match(text) or text[0].isdigit() or text.lower().startswith(("rule ", "cr ")):
            prefix = text.lower().removeprefix("rule").removeprefix("cr").strip().replace(",", ".").replace(" ", "")
            if prefix[:1].isdigit():
                return self._number_choices(prefix)
        out: list[Choice] = []
        seen: set[str] = set()
        for entry in self._matcher.complete(text, MAX_CHOICES * 2):
            if entry.value not in seen:
                seen.add(entry.value)
                out.append(Choice(entry.name, entry.value))
        if len(out) < MAX_CHOICES:
            # Names that contain the text inside a word ("cycl" → Basic Landcycling).
            key = normalise(text)
            for index, name in enumerate(self._name_keys):
                choice = self._names[index]
                if key and key in name and choice.value not in seen:
                    seen.add(choice.value)
                    out.append(choice)
                    if len(out) >= MAX_CHOICES:
                        break
        return out[:MAX_CHOICES]

    def _number_choices(self, prefix: str) -> list[Choice]:
        prefix = prefix.lower()
        low = bisect.bisect_left(self._numbers, prefix)
        high = bisect.bisect_right(self._numbers, prefix + "\uffff")
        best = heapq.nsmallest(
            MAX_CHOICES,
            self._numbers[low:high],
            key=lambda number: (len(number), self.document.by_number[number][0].order),
        )
        best.sort(key=lambda number: self.document.by_number[number][0].order)
        return [rule_choice(self.document, number) for number in best]
