"""The topics a question names: glossary terms and rule titles, the rules they point to, and what they mean.

"how does trample work" names the glossary term Trample and the rule 702.19 Trample; "does a token die"
names Dies, whose definition ("put into a graveyard from the battlefield") finds the rules that speak of
dying without the word. Names are keyed by their word stems, so "tramples" and "Trample" are one name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.documents import STOPWORDS, stem, words
from bot.rules.ranking.entries import Entries
from bot.rules.ranking.hits import OBSOLETE_RE, Hit, name_stems
from bot.rules.text import Document
from bot.rules.words import GENERIC

REFERENCE_RE = re.compile(r"\b(\d{3}(?:\.\d+[a-z]?)?)(?![\d.]*\d)|\bsection (\d)\b")
# A question whose main words name a keyword's rule ("protection from red") is answered with that rule.
KEYWORD_SHARE = 0.5
# The words of a named glossary term's definition that find entries speaking of it in other words: not the
# commonest ones.
MEANING_COMMON = 0.05

GENERIC_STEMS = frozenset(stem(word) for word in GENERIC)
# A numbered sense of a glossary definition: "1. To cancel a spell …", "2. A marker placed on an object …".
SENSE_RE = re.compile(r"^\d+\.\s+", re.MULTILINE)
# The rules a sense points to lend it their words, up to this many entries each (a rule and its subrules).
SENSE_RULE_ENTRIES = 40


@dataclass(frozen=True, slots=True)
class Sense:
    """One meaning of a glossary term: the rules it points to and the words that go with it."""

    refs: tuple[str, ...]
    text: str  # the sense's own definition
    words: frozenset[str]  # its definition's and its rules' word stems


class Topics:
    def __init__(self, document: Document, entries: Entries) -> None:
        """Built from warm statistics (``entries.warm()`` first)."""
        self.document = document
        self.entries = entries
        self.names = self._build_names()
        self._by_stem: dict[str, list[tuple[str, ...]]] = {}
        for key in self.names:
            for part in key:
                self._by_stem.setdefault(part, []).append(key)
        self._glossary = {entry.term: entry for entry in document.glossary}
        self.senses = {entry.term: found for entry in document.glossary if len(found := self._senses(entry)) > 1}
        # A glossary term's meaning in the rules' own words ("dies": put into a graveyard from the
        # battlefield), to find the entries that speak of it without naming it.
        self._meaning: dict[str, frozenset[str]] = {}
        total = len(entries.docs)
        for entry in document.glossary:
            own = set(name_stems(entry.term))
            first = REFERENCE_RE.split(entry.definition.split("\n")[0])[0]
            self._meaning[entry.term] = frozenset(
                s
                for s in (stem(word) for word in words(first) if word not in STOPWORDS)
                if s not in own and entries.document_frequency.get(s, 0) / total <= MEANING_COMMON
            )

    def _build_names(self) -> dict[tuple[str, ...], Hit]:
        """Glossary terms (and each part of a comma-joined one) and rule titles, keyed by their word stems."""
        names: dict[tuple[str, ...], Hit] = {}
        parts: list[tuple[tuple[str, ...], Hit]] = []
        # A current term before an obsolete one of the same words ("Legend Rule" before "Legend (Obsolete)").
        for entry in sorted(self.document.glossary, key=lambda entry: OBSOLETE_RE.search(entry.term) is not None):
            hit = Hit("glossary", entry.term, 0.0)
            names.setdefault(name_stems(entry.term), hit)
            if "," in entry.term:
                parts += [(name_stems(part), hit) for part in entry.term.split(",")]
        for rule in self.document.entries:
            if rule.kind != "section" and rule.is_titled:
                names.setdefault(name_stems(rule.text), Hit("rule", rule.number, 0.0))
        for key, hit in parts:
            names.setdefault(key, hit)
        for key, hit in list(names.items()):
            names.setdefault(tuple(part for part in key if part not in GENERIC_STEMS), hit)
        names.pop((), None)
        return names

    def _senses(self, entry) -> list[Sense]:
        """The numbered senses of a definition that point to rules of their own (Counter: 701.6 the action,
        122 the marker); a reference after the last sense belongs to every sense."""
        parts = [part.strip() for part in SENSE_RE.split(entry.definition) if part.strip()]
        if len(parts) < 2:
            return []
        shared = []
        last = parts[-1].split("\n")
        if len(last) > 1:
            parts[-1], shared = last[0], _refs(" ".join(last[1:]))
        senses = []
        for part in parts:
            refs = tuple(dict.fromkeys([*_refs(part), *shared]))
            if not refs or "(Obsolete)" in part:
                continue
            found = set(stem(word) for word in words(part) if word not in STOPWORDS)
            for ref in refs:
                rules = [self.document.get(ref), *self.document.descendants(ref)][:SENSE_RULE_ENTRIES]
                for rule in rules:
                    if rule is not None:
                        found.update(stem(word) for word in words(rule.text) if word not in STOPWORDS)
            senses.append(Sense(refs, part, frozenset(found)))
        return senses if len({sense.refs for sense in senses}) > 1 else []

    def sense(self, term: str, stems: list[str], weights: dict[str, float]) -> Sense | None:
        """The sense of ``term`` the rest of the question speaks of (the words around the term, each by its
        rarity, found among the sense's words), or None when the term has one sense or none stands out."""
        senses = self.senses.get(term)
        if not senses:
            return None
        own = set(name_stems(term))
        around = [s for s in dict.fromkeys(stems) if s not in own]
        scored = sorted(
            ((sum(weights[s] for s in around if s in sense.words), number) for number, sense in enumerate(senses)),
            reverse=True,
        )
        if scored[0][0] <= scored[1][0]:
            return None
        return senses[scored[0][1]]

    def topic(self, stems: tuple[str, ...]) -> Hit | None:
        """The glossary term or rule title that is exactly what the question names ("how does trample work")."""
        return self.names.get(tuple(sorted(set(stems))))

    def named(self, present: set[str]) -> list[tuple[str, ...]]:
        """The glossary terms and rule titles (as keys of ``names``) all of whose word stems are in ``present``,
        in a fixed order."""
        keys = {key for s in present for key in self._by_stem.get(s, ())}
        return sorted(key for key in keys if present.issuperset(key))

    def linked_rules(self, stems: list[str], weights: dict[str, float]) -> dict[str, float]:
        """Rules that a glossary term or rule title named in the question points to ("library" → 401),
        each with the share of the question (by word rarity) that the name covers."""
        linked: dict[str, float] = {}
        present = set(stems)
        total = sum(weights.values())
        for key in self.named(present):
            share = sum(weights[s] for s in key) / total
            hit = self.names[key]
            refs = [hit.key] if hit.kind == "rule" else []
            if hit.kind == "glossary" and (entry := self._glossary.get(hit.key)) is not None:
                sense = self.sense(hit.key, stems, weights)
                refs = list(sense.refs) if sense else _refs(entry.definition)
            for ref in refs:
                linked[ref] = max(linked.get(ref, 0.0), share)
        return linked

    def meanings(self, stems: list[str], weights: dict[str, float]) -> dict[str, float]:
        """The words defining the glossary terms the question names, not already in it, each weighted by its
        rarity and scaled to the share of the question the term's name covers."""
        present = set(stems)
        total = sum(weights.values())
        idf, max_idf = self.entries.idf, self.entries.max_idf
        out: dict[str, float] = {}
        for key in self.named(present):
            hit = self.names[key]
            if hit.kind != "glossary":
                continue
            share = sum(weights[s] for s in key) / total
            sense = self.sense(hit.key, stems, weights)
            meaning = self._sense_meaning(sense) if sense else self._meaning.get(hit.key, ())
            for s in sorted(meaning):
                if s not in present:
                    out[s] = max(out.get(s, 0.0), share * idf.get(s, 0.0) / max_idf)
        return out

    def _sense_meaning(self, sense: Sense) -> frozenset[str]:
        total = len(self.entries.docs)
        frequency = self.entries.document_frequency
        return frozenset(
            s
            for s in (stem(word) for word in words(REFERENCE_RE.split(sense.text)[0]) if word not in STOPWORDS)
            if frequency.get(s, 0) / total <= MEANING_COMMON
        )

    def keyword(self, linked: dict[str, float]) -> Hit | None:
        """The titled rule (a keyword such as 702.16 Protection) that most of the question names, if any."""
        best = max(linked.items(), key=lambda item: item[1], default=None)
        if best is None or best[1] < KEYWORD_SHARE:
            return None
        rule = self.document.get(best[0])
        if rule is None or rule.kind != "rule" or not rule.is_titled:
            return None
        return Hit("rule", rule.number, best[1])


def _refs(text: str) -> list[str]:
    """The rules and sections a text refers to ("See rule 702.19", "section 5"), in order."""
    return [rule or section for rule, section in REFERENCE_RE.findall(text)]
