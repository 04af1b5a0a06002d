"""One edition of the Comprehensive Rules, ready to answer from: its glossary by term, each rule's title and the
rules it refers to, the rule a glossary term is defined in, autocomplete and the question ranking.

Answers are built from it in :mod:`bot.rules.asking.answers` and :mod:`bot.rules.asking.questions`; which kind of
answer a query gets is decided in :mod:`bot.rules.asking.ask`.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping

from bot.documents import EXCERPT, FULL, Choice, Edition, Phrasing, clip, is_under, normal, parse_long_date, words
from bot.rules.ranking.complete import Completer
from bot.rules.ranking.hits import name_stems
from bot.rules.ranking.outline import Outline, load_outline
from bot.rules.ranking.search import Searcher
from bot.rules.text import Document, GlossaryEntry, Rule, find_numbers

# Card types, land types, supertypes and creature types: words players write in lower case ("an island", "my
# goblin tokens"), unlike planeswalker types, which are as often names.
TYPE_RULES = ("205.2a", "205.3i", "205.3m", "205.4a")
MAX_QUERY = 500  # longer queries are answered with a "too long" message
REFERENCE_RE = re.compile(r"\b(\d{3}\.\d+[a-z]?)(?!\d)|\b(?:rules?|see)\s+(\d{3})(?!\.?\d)")
# "603.7d–f" and "205.1a–b" mention every rule of the range.
REFERENCE_RANGE_RE = re.compile(r"\b(\d{3}\.\d+)([a-z])[–-]([a-z])\b")
OBSOLETE = " (obsolete)"


def edition_of(document: Document) -> Edition:
    """The edition a document is: its effective date, or for the excerpt the date of the rules it was taken from."""
    source = EXCERPT if document.is_excerpt else FULL
    label = document.effective or (
        document.preamble_dates[0] if document.is_excerpt and document.preamble_dates else ""
    )
    day = parse_long_date(label) if label else None
    return Edition(day.isoformat() if day else "", label, source)


class RulesIndex:
    def __init__(
        self, document: Document, outline: Outline | None = None, phrasings: Mapping[str, Phrasing] | None = None
    ) -> None:
        """``outline``: the full edition's rule numbers, titles and terms, for an excerpt (the bundled one by
        default) to name what it does not hold; ``phrasings``: the words players use for its rules (the bundled
        ones by default, see :mod:`bot.documents.phrasings`)."""
        self.document = document
        self.edition = edition_of(document)
        self.outline = outline if outline is not None or not document.is_excerpt else load_outline()
        self._glossary: dict[str, GlossaryEntry] = {}
        for entry in document.glossary:
            self._glossary.setdefault(normal(entry.term), entry)
        for entry in document.glossary:
            # "Converted Mana Cost (Obsolete)" is found as "converted mana cost" too.
            if entry.term.lower().endswith(OBSOLETE):
                self._glossary.setdefault(normal(entry.term[: -len(OBSOLETE)]), entry)
        self._titles: dict[str, str] = {}
        self._defining: dict[str, str | None] = {}
        self._refs: list[tuple[str, ...] | None] = [None] * len(document.entries)
        # An excerpt's autocomplete offers the full edition's terms too, as its lookup answers them ("frist").
        self.completer = Completer(document, self.outline.terms if document.is_excerpt and self.outline else None)
        self.searcher = Searcher(document, self.context_title, phrasings=phrasings)

    def warm(self) -> None:
        """Build what the first question would otherwise build (word statistics for ranking)."""
        self.searcher.warm()

    def close(self) -> None:
        self.searcher.close()

    # ------------------------------------------------------------------ titles

    def context_title(self, rule: Rule) -> str:
        """The title of the nearest titled ancestor ("Cycling" for 702.29a, "State-Based Actions" for 704.5k)."""
        number = rule.parent
        if number is None:
            return ""
        cached = self._titles.get(number)
        if cached is None:
            parent = self.document.get(number)
            if parent is None or parent.kind == "section":
                cached = ""
            elif parent.is_titled:
                cached = parent.text
            else:
                cached = self.context_title(parent)
            self._titles[number] = cached
        return cached

    def title_of(self, number: str) -> str:
        """What rule ``number`` is about: its own title if it has one (702.29 Cycling), else its nearest titled
        ancestor's (704.5j: State-Based Actions); from the full edition's outline for a rule an excerpt lacks."""
        rule = self.document.get(number)
        if rule is not None:
            return rule.text if rule.is_titled else self.context_title(rule)
        return self.outline.title_of(number) if self.outline is not None else ""

    def heading(self, number: str) -> str:
        """The one line an answer about ``number`` is titled with: "702.29 Cycling", "704.5j State-Based Actions"."""
        title = self.title_of(number)
        return clip(f"{number} {title}" if title else f"Rule {number}", 256)

    def choice(self, number: str) -> Choice:
        """A rule to open: its number and its first line ("704.5j If two or more legendary permanents…")."""
        rule = self.document.get(number)
        if rule is None:
            return Choice(clip(self.heading(number)), number)
        return Choice(clip(f"{rule.label()} {rule.text}"), number)

    def is_listing(self, heading: Rule) -> bool:
        """A rule heading whose rules are themselves titled (702 Keyword Abilities) is shown as a list."""
        return any(child.is_titled for child in self.document.children.get(heading.number, []))

    # ------------------------------------------------------------------ references

    def references(self, shown: list[Rule]) -> list[str]:
        """Rules the shown text refers to ("See rule 704"), in order of first mention, without the shown ones."""
        refs: list[str] = []
        seen = {rule.number for rule in shown}
        for rule in shown:
            found = self._refs[rule.order]
            if found is None:
                found = self._refs[rule.order] = self.find_references("\n".join([rule.text, *rule.examples]))
            for ref in found:
                if ref not in seen:
                    seen.add(ref)
                    refs.append(ref)
        return refs

    def referring_to(self, number: str, limit: int = 20) -> list[str]:
        """The rules whose own text refers to ``number`` (the reverse of :meth:`references`), in the document's order:
        what a rule the excerpt lacks is related to ("702.7 First Strike": the combat damage rules that name it)."""
        found = []
        for rule in self.document.entries:
            text = "\n".join([rule.text, *rule.examples])
            if number in text and any(number in (m.group(1), m.group(2)) for m in REFERENCE_RE.finditer(text)):
                found.append(rule.number)
                if len(found) >= limit:
                    break
        return found

    def find_references(self, text: str) -> tuple[str, ...]:
        found: dict[str, None] = {}
        ranges = {m.start(): m for m in REFERENCE_RANGE_RE.finditer(text)}
        for match in REFERENCE_RE.finditer(text):
            ref = match.group(1) or match.group(2)
            if ref in self.document.by_number:
                found[ref] = None
            if (whole := ranges.get(match.start())) is not None:
                for number in self.completer.between(whole.group(1) + whole.group(2), whole.group(1) + whole.group(3)):
                    found[number] = None
        return tuple(found)

    # ------------------------------------------------------------------ glossary

    def glossary_entry(self, text: str, *, follow: bool = True) -> GlossaryEntry | None:
        """The glossary entry ``text`` names (case, hyphens and "(Obsolete)" aside), following a redirect."""
        entry = self._glossary.get(normal(text))
        if follow and entry is not None and entry.redirect:
            entry = self._glossary.get(normal(entry.redirect)) or entry
        return entry

    def is_term(self, text: str) -> bool:
        return normal(text) in self._glossary

    def defining_rule_of(self, entry: GlossaryEntry) -> str | None:
        """Of the rules a definition cites, the one whose title is the term ("Trample" → 702.19)."""
        refs = list(self.find_references(entry.definition))
        if not refs:
            return None
        term = set(name_stems(entry.term))

        def overlap(number: str) -> int:
            rule = self.document.get(number)
            title = rule.text if rule.is_titled else self.context_title(rule)
            return len(term & set(name_stems(title)))

        # Rules under an already chosen one add nothing ("See rule 702.19 … 702.19c").
        refs = [ref for ref in refs if not any(ref != other and is_under(ref, other) for other in refs)]
        return max(refs, key=lambda number: (overlap(number), -refs.index(number)))

    def defining_rule(self, term: str) -> str | None:
        """The rule a glossary term points to (None if the term cites no rule)."""
        if term in self._defining:
            return self._defining[term]
        entry = self.glossary_entry(term)
        found = self.defining_rule_of(entry) if entry is not None else None
        self._defining[term] = found
        return found

    # ------------------------------------------------------------------ words

    @functools.cached_property
    def ordinary_words(self) -> frozenset[str]:
        """The words the rules use as words, not as names: each written in lower case somewhere in the rules,
        plus the card types, supertypes, land types and creature types (rule 205) and the glossary's terms, which
        players write in lower case too. A card named "Teferi" in an example is not one of them; "block", "island"
        and "tapped" are."""
        lower = re.compile(r"(?<![\w’'])[a-z][a-z’']*")
        found: set[str] = set()
        for rule in self.document.entries:
            text = " ".join([rule.text, *rule.examples])
            found.update(lower.findall(text))
            if rule.number.startswith(TYPE_RULES):
                found.update(words(rule.text))
        for entry in self.document.glossary:
            found.update(lower.findall(entry.definition))
            found.update(words(entry.term))
        return frozenset(word.replace("’", "'") for word in found)

    def is_question(self, query: str) -> bool:
        """Whether ``query`` is answered as a question in words (not numbers or a glossary term)."""
        cleaned = " ".join(query.split())
        return bool(cleaned) and len(cleaned) <= MAX_QUERY and not find_numbers(cleaned) and not self.is_term(cleaned)

    # ------------------------------------------------------------------ completion

    def nearby(self, number: str, count: int = 5) -> list[Choice]:
        return self.completer.nearby(number, count)

    def autocomplete(self, current: str) -> list[Choice]:
        return self.completer.autocomplete(current)
