"""Lookup, glossary, full-text search and autocomplete over a parsed Comprehensive Rules document."""

from __future__ import annotations

import bisect
import heapq
import re
import sqlite3
import threading
from dataclasses import dataclass, field

from rapidfuzz import fuzz, process, utils

from bot.rules.document import Document, GlossaryEntry, Rule

MAX_CHOICES = 25
CHOICE_LIMIT = 100  # Discord's limit for an autocomplete choice's name and value
MAX_QUERY = 200  # longer queries are answered with a "too long" message and suggestions
SEE_ALSO = 5

NUMBER_RE = re.compile(r"^(?:(?:cr|rules?)\s*)?(\d{1,3})(?:\.(\d+)([a-z])?)?\.?$", re.IGNORECASE)
REFERENCE_RE = re.compile(r"\b(\d{3}\.\d+[a-z]?)(?!\d)|\b(?:rules?|see)\s+(\d{3})(?!\.?\d)")
WORD_RE = re.compile(r"\w+")
# Words that only slow full-text search down and blur its ranking ("how does typecycling work?").
STOPWORDS = frozenset(
    "a an and are as at be by can do does for from how i in is it its of on or that the this to what when "
    "where which who why will with work works you your".split()
)


def normalise_term(text: str) -> str:
    """Case, hyphens and punctuation do not matter for glossary terms: "state based actions" finds them."""
    return " ".join(WORD_RE.findall(text.lower().replace("’", "'").replace("'", "")))


def clip(text: str, limit: int = CHOICE_LIMIT) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


@dataclass(frozen=True, slots=True)
class Choice:
    """An autocomplete choice or a suggestion: ``value`` is what to look up."""

    name: str
    value: str


@dataclass(frozen=True, slots=True)
class Line:
    """One paragraph of an answer: a rule (``number`` set), an example or plain text."""

    text: str
    number: str = ""
    example: bool = False


@dataclass
class Answer:
    found: bool
    kind: str  # "rule", "section", "glossary", "search" or "none"
    title: str
    lines: list[Line]
    edition: str
    intro: str = ""
    references: list[Choice] = field(default_factory=list)
    see_also: list[Choice] = field(default_factory=list)

    def related(self) -> list[Choice]:
        """References then "see also" entries, without repeats."""
        seen: set[str] = set()
        out = []
        for choice in [*self.references, *self.see_also]:
            if choice.value not in seen:
                seen.add(choice.value)
                out.append(choice)
        return out

    def to_text(self) -> str:
        """The answer as plain text (the command line prints this)."""
        out = [self.title, ""]
        if self.intro:
            out += [self.intro, ""]
        for line in self.lines:
            if line.example:
                out.append(f"    Example: {line.text}")
            elif line.number:
                out.append(f"{line.number} {line.text}")
            else:
                out.append(line.text)
        if self.references:
            out += ["", "Related rules: " + ", ".join(choice.value for choice in self.references)]
        if self.see_also:
            out += ["", "See also:"] + [f"  {choice.name}" for choice in self.see_also]
        out += ["", f"Comprehensive Rules {self.edition}"]
        return "\n".join(out)


def sort_key(number: str) -> tuple[int, int, str]:
    """Numeric order for rule numbers: 702.9 < 702.10 < 702.10a."""
    head, _, rest = number.partition(".")
    digits = rest.rstrip("abcdefghijklmnopqrstuvwxyz")
    return (int(head) * (100 if len(head) == 1 else 1), int(digits) if digits else -1, rest[len(digits) :])


class RulesIndex:
    def __init__(self, document: Document) -> None:
        self.document = document
        dates = document.preamble_dates
        if document.effective:
            self.edition = f"effective as of {document.effective}"
        elif document.is_excerpt and dates:
            self.edition = f"bundled excerpt (editions of {dates[0]} to {dates[-1]})"
        elif document.is_excerpt:
            self.edition = "bundled excerpt"
        else:
            self.edition = "(edition date not stated)"
        entries = document.entries
        # Rule numbers in text order for prefix matching; each maps to its first entry.
        self._numbers = sorted(document.by_number)
        self._by_sort_key = sorted(document.by_number, key=sort_key)
        self._sort_keys = [sort_key(number) for number in self._by_sort_key]
        self._glossary: dict[str, GlossaryEntry] = {}
        for entry in document.glossary:
            self._glossary.setdefault(normalise_term(entry.term), entry)
        # Names offered by autocomplete and fuzzy suggestions for words: glossary terms and titled rules.
        self._names: list[Choice] = [Choice(clip(entry.term), clip(entry.term)) for entry in document.glossary]
        self._names += [
            Choice(clip(f"{rule.label()} {rule.text}"), rule.number)
            for rule in entries
            if rule.is_titled and rule.kind != "section"
        ]
        self._name_keys = [utils.default_process(choice.name) for choice in self._names]
        self._sorted_names = sorted(range(len(self._names)), key=lambda i: self._name_keys[i])
        self._sorted_name_keys = [self._name_keys[i] for i in self._sorted_names]
        self._titles: dict[str, str] = {}
        # Rule numbers each entry's text mentions, found on first use (scanning every text here costs 20 ms).
        self._refs: list[tuple[str, ...] | None] = [None] * len(entries)
        self._lock = threading.Lock()
        self._db = self._build_search(document)

    # ------------------------------------------------------------------ full-text search

    def _build_search(self, document: Document) -> sqlite3.Connection:
        db = sqlite3.connect(":memory:", check_same_thread=False)
        db.execute("CREATE VIRTUAL TABLE docs USING fts5(title, body, tokenize='porter unicode61 remove_diacritics 2')")
        self._docs: list[tuple[str, str]] = []  # rowid - 1 → (kind, key)
        rows: list[tuple[str, str]] = []
        for rule in document.entries:
            if rule.kind in ("section", "heading") or rule.is_titled:
                continue
            title = self._context_title(rule)
            rows.append((title, "\n".join([rule.text, *rule.examples])))
            self._docs.append(("rule", rule.number))
        for entry in document.glossary:
            rows.append((entry.term, entry.definition))
            self._docs.append(("glossary", entry.term))
        db.executemany("INSERT INTO docs(title, body) VALUES (?, ?)", rows)
        db.commit()
        return db

    def _context_title(self, rule: Rule) -> str:
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
                cached = self._context_title(parent)
            self._titles[number] = cached
        return cached

    def search(self, text: str, limit: int = SEE_ALSO + 1) -> list[Choice]:
        """Ranked full-text search (bm25, a hit in the title counts more); best first."""
        # Only stop words ("the", "how does it work") means nothing to search for.
        words = [word for word in WORD_RE.findall(text.lower()) if word not in STOPWORDS][:12]
        if not words:
            return []
        terms = ['"' + word.replace('"', "") + '"' for word in words]
        hits: list[Choice] = []
        with self._lock:
            for joiner in (" ", " OR "):
                rows = self._db.execute(
                    "SELECT rowid FROM docs WHERE docs MATCH ? ORDER BY bm25(docs, 4.0, 1.0) LIMIT ?",
                    (joiner.join(terms), limit),
                ).fetchall()
                if rows or len(terms) == 1:
                    break
        for (rowid,) in rows:
            kind, key = self._docs[rowid - 1]
            hits.append(self._choice_for(kind, key))
        return hits

    def _choice_for(self, kind: str, key: str) -> Choice:
        if kind == "glossary":
            return Choice(clip(f"Glossary: {key}"), clip(key))
        rule = self.document.get(key)
        text = rule.text if rule else ""
        return Choice(clip(f"{key} {text}"), key)

    # ------------------------------------------------------------------ lookup

    def lookup(self, query: str, *, examples: bool = True) -> Answer:
        """Answer a rule number, a glossary term or words; never raises for bad input."""
        cleaned = " ".join(query.split())
        if not cleaned:
            return self._not_found(query, "Ask for a rule number such as 702.29 or a term such as cycling.")
        if len(cleaned) > MAX_QUERY:
            return self._not_found(
                cleaned[:60] + "…",
                f"That query is {len(cleaned):,} characters long; ask with a rule number or a few words "
                f"(at most {MAX_QUERY} characters).",
                suggestions=self.suggest(cleaned[:CHOICE_LIMIT]),
            )
        match = NUMBER_RE.match(cleaned)
        if match:
            number = match.group(1)
            if match.group(2):
                number += "." + match.group(2) + (match.group(3) or "").lower()
            return self.rule_answer(number, examples=examples)
        entry = self._glossary.get(normalise_term(cleaned))
        if entry is not None:
            return self.glossary_answer(entry)
        hits = self.search(cleaned)
        if hits:
            best, rest = hits[0], hits[1:]
            answer = self.lookup(best.value, examples=examples)
            answer.kind = "search"
            answer.intro = f"Best match for “{clip(cleaned, 80)}”:"
            answer.see_also = [hit for hit in rest if hit.value != best.value]
            return answer
        return self._not_found(cleaned, "", suggestions=self.suggest(cleaned))

    def rule_answer(self, number: str, *, examples: bool = True) -> Answer:
        found = self.document.by_number.get(number)
        if not found:
            return self._not_found(number, "", suggestions=self.nearby(number))
        rule = found[0]
        title = self._title_for(rule)
        if rule.kind == "section" or (rule.kind == "heading" and self._is_listing(rule)):
            lines = [Line(child.text, child.label()) for child in self.document.children.get(number, [])]
            if rule.kind == "heading":
                lines.append(Line("Ask for one of these numbers to see its full text."))
            return Answer(True, "section", title, lines, self.edition)
        shown = [*found, *self.document.descendants(number)] if rule.kind != "subrule" else list(found)
        lines: list[Line] = []
        for entry in shown:
            lines.append(Line(entry.text, entry.label()))
            if examples:
                lines.extend(Line(example, example=True) for example in entry.examples)
        return Answer(True, "rule", title, lines, self.edition, references=self._references(shown, number))

    def _is_listing(self, heading: Rule) -> bool:
        """A rule heading whose rules are themselves titled (702 Keyword Abilities) is shown as a list."""
        return any(child.is_titled for child in self.document.children.get(heading.number, []))

    def _title_for(self, rule: Rule) -> str:
        if rule.is_titled:
            return clip(f"{rule.label()} {rule.text}", 256)
        context = self._context_title(rule)
        return f"Rule {rule.number}" + (f" · {context}" if context else "")

    def _references(self, shown: list[Rule], number: str) -> list[Choice]:
        """Rules the shown text refers to ("See rule 704"), in order of first mention, without the shown ones."""
        refs: list[Choice] = []
        seen = {rule.number for rule in shown}
        for rule in shown:
            found = self._refs[rule.order]
            if found is None:
                found = self._refs[rule.order] = self._find_references("\n".join([rule.text, *rule.examples]))
            for ref in found:
                if ref not in seen:
                    seen.add(ref)
                    target = self.document.get(ref)
                    refs.append(Choice(clip(f"{target.label()} {target.text}"), ref))
        return refs

    def _find_references(self, text: str) -> tuple[str, ...]:
        found: dict[str, None] = {}
        for match in REFERENCE_RE.finditer(text):
            ref = match.group(1) or match.group(2)
            if ref in self.document.by_number:
                found[ref] = None
        return tuple(found)

    def glossary_answer(self, entry: GlossaryEntry) -> Answer:
        intro = ""
        target = entry.redirect
        if target:
            redirected = self._glossary.get(normalise_term(target))
            if redirected is not None:
                intro = f"“{entry.term}” is listed under “{redirected.term}”."
                entry = redirected
        lines = [Line(part) for part in entry.definition.split("\n")]
        refs = []
        seen: set[str] = set()
        for match in REFERENCE_RE.finditer(entry.definition):
            ref = match.group(1) or match.group(2)
            rule = self.document.get(ref)
            if rule is not None and ref not in seen:
                seen.add(ref)
                refs.append(Choice(clip(f"{rule.label()} {rule.text}"), ref))
        return Answer(True, "glossary", f"Glossary: {entry.term}", lines, self.edition, intro=intro, references=refs)

    def _not_found(self, query: str, detail: str, *, suggestions: list[Choice] | None = None) -> Answer:
        shown = clip(query, 80) or "that"
        lines = [Line(detail)] if detail else []
        if suggestions:
            lines.append(Line("Closest matches are listed below."))
        elif not detail:
            lines.append(Line("Try a rule number such as 702.29 or a term such as cycling."))
        return Answer(False, "none", f"No such rule: “{shown}”", lines, self.edition, see_also=list(suggestions or []))

    def nearby(self, number: str, count: int = SEE_ALSO) -> list[Choice]:
        """Existing rule numbers closest to a missing one: its longest existing prefix first
        (a typo like 702.299 most likely meant 702.29), then numeric neighbours."""
        out: list[Choice] = []
        parent = number
        while "." in parent:
            parent = parent[:-1].rstrip(".")
            rule = self.document.get(parent)
            if rule is not None:
                out.append(Choice(clip(f"{rule.label()} {rule.text}"), parent))
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
            rule = self.document.get(self._by_sort_key[index])
            if rule is not None and all(choice.value != rule.number for choice in out):
                out.append(Choice(clip(f"{rule.label()} {rule.text}"), rule.number))
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

    # ------------------------------------------------------------------ autocomplete

    def autocomplete(self, current: str) -> list[Choice]:
        """At most 25 choices for what has been typed: rule numbers by prefix, terms by prefix then fuzzily."""
        text = " ".join(current.split())[:CHOICE_LIMIT]
        if not text:
            return [
                Choice(clip(f"{rule.label()} {rule.text}"), rule.number)
                for rule in self.document.entries
                if rule.kind == "section"
            ][:MAX_CHOICES]
        match = NUMBER_RE.match(text.rstrip("."))
        if match or text[0].isdigit():
            prefix = text.lower().removeprefix("rule").removeprefix("cr").strip()
            return self._number_choices(prefix)
        key = utils.default_process(text)
        if not key:
            return []
        out: list[Choice] = []
        seen: set[str] = set()

        def add(index: int) -> bool:
            choice = self._names[index]
            if choice.value not in seen:
                seen.add(choice.value)
                out.append(choice)
            return len(out) >= MAX_CHOICES

        # 1. Names that start with the text ("cycl" → Cycling), alphabetically.
        position = bisect.bisect_left(self._sorted_name_keys, key)
        while position < len(self._sorted_name_keys) and self._sorted_name_keys[position].startswith(key):
            if add(self._sorted_names[position]):
                return out
            position += 1
        # 2. Names that contain it ("cycl" → Basic Landcycling, 702.29. Cycling).
        for index, name in enumerate(self._name_keys):
            if key in name and add(index):
                return out
        # 3. Names that look like it (typos: "cyclign" → Cycling).
        for _name, _score, index in process.extract(
            key, self._name_keys, scorer=fuzz.QRatio, processor=None, limit=MAX_CHOICES, score_cutoff=60
        ):
            if add(index):
                break
        return out

    def _number_choices(self, prefix: str) -> list[Choice]:
        low = bisect.bisect_left(self._numbers, prefix)
        high = bisect.bisect_right(self._numbers, prefix + "\uffff")
        best = heapq.nsmallest(
            MAX_CHOICES,
            self._numbers[low:high],
            key=lambda number: (len(number), self.document.by_number[number][0].order),
        )
        best.sort(key=lambda number: self.document.by_number[number][0].order)
        out = []
        for number in best:
            rule = self.document.by_number[number][0]
            out.append(Choice(clip(f"{rule.label()} {rule.text}"), number))
        return out

    def close(self) -> None:
        self._db.close()
