"""Answering a query over a parsed Comprehensive Rules document: numbers, glossary terms and questions."""

from __future__ import annotations

import functools
import re

from bot.rules.answer import OFFICIAL_RULES_URL, Answer, Choice, Line, clip, rule_url
from bot.rules.complete import MAX_CHOICES, SEE_ALSO, Completer, sort_key
from bot.rules.document import Document, GlossaryEntry, Rule
from bot.rules.hits import Hit, is_under, name_stems
from bot.rules.numbers import NumberRef, find_numbers
from bot.rules.query import words
from bot.rules.search import Searcher

__all__ = ["MAX_CHOICES", "MAX_QUERY", "Answer", "Choice", "Line", "RulesIndex", "clip", "sort_key"]

# Card types, land types and supertypes: words players write in lower case ("an island"), unlike creature and
# planeswalker types, which are as often names.
TYPE_RULES = ("205.2a", "205.3i", "205.4a")
MAX_QUERY = 500  # longer queries are answered with a "too long" message and suggestions
REFERENCE_RE = re.compile(r"\b(\d{3}\.\d+[a-z]?)(?!\d)|\b(?:rules?|see)\s+(\d{3})(?!\.?\d)")
# "603.7d–f" and "205.1a–b" mention every rule of the range.
REFERENCE_RANGE_RE = re.compile(r"\b(\d{3}\.\d+)([a-z])[–-]([a-z])\b")
OBSOLETE = " (obsolete)"
LOAD_FULL_RULES = (
    "An admin can load the full rules: run `python -m bot rules update`, or set RULES_FILE to a "
    "Comprehensive Rules .txt file. Unless RULES_AUTO_UPDATE=0, the bot also downloads them by itself."
)


def normalise_term(text: str) -> str:
    """Case, hyphens and punctuation do not matter for glossary terms: "state based actions" finds them."""
    return " ".join(words(text))


class RulesIndex:
    def __init__(self, document: Document) -> None:
        self.document = document
        dates = document.preamble_dates
        if document.effective:
            self.edition = f"effective as of {document.effective}"
        elif document.is_excerpt and dates:
            self.edition = f"bundled excerpt (rules effective as of {dates[0]})"
        elif document.is_excerpt:
            self.edition = "bundled excerpt"
        else:
            self.edition = "(edition date not stated)"
        self._glossary: dict[str, GlossaryEntry] = {}
        for entry in document.glossary:
            self._glossary.setdefault(normalise_term(entry.term), entry)
        for entry in document.glossary:
            # "Converted Mana Cost (Obsolete)" is found as "converted mana cost" too.
            if entry.term.lower().endswith(OBSOLETE):
                self._glossary.setdefault(normalise_term(entry.term[: -len(OBSOLETE)]), entry)
        self._titles: dict[str, str] = {}
        self._defining: dict[str, str | None] = {}
        self._refs: list[tuple[str, ...] | None] = [None] * len(document.entries)
        self.completer = Completer(document)
        self.searcher = Searcher(document, self._context_title)

    def warm(self) -> None:
        """Build what the first question would otherwise build (word statistics for ranking)."""
        self.searcher.warm()

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

    # ------------------------------------------------------------------ lookup

    def lookup(self, query: str, *, examples: bool = True) -> Answer:
        """Answer rule numbers, a glossary term or a question in words; never raises for bad input."""
        cleaned = " ".join(query.split())
        if not cleaned:
            return self._not_found(query, "Ask for a rule number such as 702.29 or a term such as cycling.")
        if len(cleaned) > MAX_QUERY:
            return self._not_found(
                cleaned[:60] + "…",
                f"That query is {len(cleaned):,} characters long; ask with a rule number or a few words "
                f"(at most {MAX_QUERY} characters).",
                suggestions=self.suggest(cleaned[:100]),
            )
        refs = find_numbers(cleaned)
        if refs:
            return self.numbers_answer(refs, examples=examples)
        entry = self._glossary.get(normalise_term(cleaned))
        if entry is not None:
            return self.glossary_answer(entry, examples=examples)
        return self.question_answer(cleaned, examples=examples)

    @functools.cached_property
    def ordinary_words(self) -> frozenset[str]:
        """The words the rules use as words, not as names: each written in lower case somewhere in the rules,
        plus the card types, supertypes and land types (rule 205) and the glossary's terms, which players write in
        lower case too. A card named "Teferi" in an example is not one of them; "block", "island" and "tapped"
        are."""
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
        """Whether :meth:`lookup` answers ``query`` as a question in words (not numbers or a glossary term)."""
        cleaned = " ".join(query.split())
        return (
            bool(cleaned)
            and len(cleaned) <= MAX_QUERY
            and not find_numbers(cleaned)
            and normalise_term(cleaned) not in self._glossary
        )

    def question_answer(self, text: str, *, examples: bool = True) -> Answer:
        ranking = self.searcher.rank(text)
        if not ranking.confident or not ranking.hits:
            suggestions = [self._choice_for(hit) for hit in ranking.hits[:SEE_ALSO]]
            if not suggestions:
                suggestions = self.completer.by_prefix(text)
            return self._not_confident(text, suggestions)
        best = ranking.hits[0]
        answer = self._hit_answer(best, text, examples=examples)
        answer.kind = "search"
        others = ranking.hits[1:]
        if ranking.topic is None:
            lead = "Best match" if ranking.sure else "Not sure; the closest match"
            answer.intro = f"{lead} for “{clip(text, 80)}”:" + (f" {answer.intro}" if answer.intro else "")
            if not ranking.sure:
                answer.intro += " (the rules under “See also” may answer it better)"
            if self.document.is_excerpt:
                # The excerpt may only mention what the full rules define elsewhere (flying, in 122.1b).
                answer.intro += " (only the bundled excerpt of the rules is loaded; the full rules may say more)"
        else:
            # The topic answers; plain full-text hits make the "see also" list.
            others = self.searcher.related(text, 4 * SEE_ALSO)
        shown = {answer.target, answer.title.removeprefix("Glossary: ")}
        if ranking.topic is None:
            # A search answer already shows its rule's subrules (505.1 shows 505.1a): don't offer them again.
            shown |= {line.number.rstrip(".") for line in answer.lines if line.number}
        answer.see_also = []
        for hit in others:
            choice = self._choice_for(hit)
            # A glossary term is offered for the rule it defines; skip it when that rule is already offered.
            same = self.defining_rule(hit.key) if hit.kind == "glossary" else hit.key
            if choice.value in shown or same in shown:
                continue
            shown |= {choice.value, same or choice.value}
            answer.see_also.append(choice)
        return answer

    def _hit_answer(self, hit: Hit, text: str, *, examples: bool) -> Answer:
        if hit.kind == "glossary":
            return self.glossary_answer(self._glossary[normalise_term(hit.key)], examples=examples)
        return self.rule_answer(self.shown_key(hit, text), examples=examples)

    def shown_key(self, hit: Hit, text: str) -> str:
        """The rule number (or "Glossary: term") an answer about ``hit`` shows first for the question ``text``."""
        if hit.kind == "glossary":
            return f"Glossary: {hit.key}"
        rule = self.document.get(hit.key)
        # A side subrule of a titled rule (702.19c under 702.19 Trample) is answered with the whole rule
        # when the question names its topic: the subrule is then shown in its context.
        if rule is not None and rule.kind == "subrule":
            parent = self.document.get(rule.parent or "")
            if parent is not None and parent.is_titled and set(name_stems(parent.text)) <= set(name_stems(text)):
                return parent.number
        return hit.key

    def key_answer(self, key: str, *, examples: bool = True) -> Answer:
        """The answer about ``key``: a rule number or "Glossary: term" (as :meth:`shown_key` gives)."""
        if key.startswith("Glossary: "):
            entry = self._glossary.get(normalise_term(key.removeprefix("Glossary: ")))
            if entry is not None:
                return self.glossary_answer(entry, examples=examples)
        return self.rule_answer(key, examples=examples)

    def key_choice(self, key: str) -> Choice:
        """A "see also" entry for ``key``: a rule number or "Glossary: term"."""
        if key.startswith("Glossary: "):
            return self._choice_for(Hit("glossary", key.removeprefix("Glossary: "), 0.0))
        return self._choice_for(Hit("rule", key, 0.0))

    def _choice_for(self, hit: Hit) -> Choice:
        if hit.kind == "glossary":
            return Choice(clip(f"Glossary: {hit.key}"), clip(hit.key))
        rule = self.document.get(hit.key)
        return Choice(clip(f"{hit.key} {rule.text if rule else ''}"), hit.key)

    def search(self, text: str, limit: int = SEE_ALSO + 1) -> list[Choice]:
        """Plain full-text search, best first (questions are answered by :meth:`lookup`, which ranks more)."""
        return [self._choice_for(Hit(kind, key, 0.0)) for kind, key in self.searcher.fts(text, limit)]

    # ------------------------------------------------------------------ numbers

    def numbers_answer(self, refs: list[NumberRef], *, examples: bool = True) -> Answer:
        """One number answers as before; several (a list or a range) are shown one after another."""
        if len(refs) == 1 and refs[0].end is None:
            return self.rule_answer(refs[0].start, examples=examples)
        wanted: list[str] = []
        for ref in refs:
            wanted += self.completer.between(ref.start, ref.end) if ref.end else [ref.start]
        found = [number for number in dict.fromkeys(wanted) if number in self.document.by_number]
        missing = [str(ref) for ref in refs if not ref.end and ref.start not in self.document.by_number]
        if not found:
            return self.rule_answer(refs[0].start, examples=examples)
        shown: list[Rule] = []
        for number in found:
            rule = self.document.get(number)
            block = [rule] if rule.kind == "subrule" else [rule, *self.document.descendants(number)]
            shown += [entry for entry in block if entry not in shown]
        lines: list[Line] = []
        for entry in shown:
            lines.append(Line(entry.text, entry.label()))
            if examples:
                lines.extend(Line(example, example=True) for example in entry.examples)
        if missing:
            where = "in the bundled excerpt" if self.document.is_excerpt else "in these rules"
            lines.append(Line(f"Not {where}: {', '.join(missing)}."))
        listed = ", ".join(str(ref) for ref in refs)
        contexts = {self._context_title(self.document.get(number)) for number in found}
        title = f"Rules {listed}" + (f" · {contexts.pop()}" if len(contexts) == 1 and "" not in contexts else "")
        return Answer(
            True,
            "rule",
            clip(title, 256),
            lines,
            self.edition,
            target=found[0],
            url=rule_url(found[0]),
            references=self._references(shown),
        )

    def rule_answer(self, number: str, *, examples: bool = True) -> Answer:
        found = self.document.by_number.get(number)
        if not found:
            if self.document.is_excerpt and self.document.heading_exists(number):
                return self._not_in_excerpt(number)
            return self._not_found(number, "", suggestions=self.nearby(number))
        rule = found[0]
        title = self._title_for(rule)
        url = rule_url(number)
        if rule.kind == "section" or (rule.kind == "heading" and self._is_listing(rule)):
            lines = [Line(child.text, child.label()) for child in self.document.children.get(number, [])]
            if rule.kind == "heading":
                lines.append(Line("Ask for one of these numbers to see its full text."))
            return Answer(True, "section", title, lines, self.edition, target=number, url=url)
        shown = [*found, *self.document.descendants(number)] if rule.kind != "subrule" else list(found)
        lines = self._rule_lines(shown, examples=examples)
        return Answer(
            True, "rule", title, lines, self.edition, target=number, url=url, references=self._references(shown)
        )

    def _rule_lines(self, shown: list[Rule], *, examples: bool) -> list[Line]:
        lines: list[Line] = []
        for entry in shown:
            lines.append(Line(entry.text, entry.label()))
            if examples:
                lines.extend(Line(example, example=True) for example in entry.examples)
        return lines

    def _is_listing(self, heading: Rule) -> bool:
        """A rule heading whose rules are themselves titled (702 Keyword Abilities) is shown as a list."""
        return any(child.is_titled for child in self.document.children.get(heading.number, []))

    def _title_for(self, rule: Rule) -> str:
        if rule.is_titled:
            return clip(f"{rule.label()} {rule.text}", 256)
        context = self._context_title(rule)
        return f"Rule {rule.number}" + (f" · {context}" if context else "")

    def _references(self, shown: list[Rule]) -> list[Choice]:
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
                    refs.append(self._rule_choice(ref))
        return refs

    def _rule_choice(self, number: str) -> Choice:
        target = self.document.get(number)
        return Choice(clip(f"{target.label()} {target.text}"), number)

    def _find_references(self, text: str) -> tuple[str, ...]:
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

    def glossary_answer(self, entry: GlossaryEntry, *, examples: bool = True) -> Answer:
        """The definition, then the rule that defines the term with all its subrules (702.19 for Trample)."""
        intro = ""
        target = entry.redirect
        if target:
            redirected = self._glossary.get(normalise_term(target))
            if redirected is not None:
                intro = f"“{entry.term}” is listed under “{redirected.term}”."
                entry = redirected
        lines = [Line(part) for part in entry.definition.split("\n")]
        refs = [self._rule_choice(ref) for ref in self._find_references(entry.definition)]
        defining = self._defining_rule(entry, [choice.value for choice in refs])
        if defining is not None:
            rule = self.document.get(defining)
            if not (rule.kind in ("section", "heading") and self._is_listing(rule)):
                shown = [rule, *self.document.descendants(defining)] if rule.kind != "subrule" else [rule]
                lines += self._rule_lines(shown, examples=examples)
        return Answer(
            True,
            "glossary",
            f"Glossary: {entry.term}",
            lines,
            self.edition,
            intro=intro,
            target=defining or f"Glossary: {entry.term}",
            url=rule_url(defining) if defining else "",
            references=refs,
        )

    def _defining_rule(self, entry: GlossaryEntry, refs: list[str]) -> str | None:
        """Of the rules a definition cites, the one whose title is the term ("Trample" → 702.19)."""
        if not refs:
            return None
        term = set(name_stems(entry.term))

        def overlap(number: str) -> int:
            rule = self.document.get(number)
            title = rule.text if rule.is_titled else self._context_title(rule)
            return len(term & set(name_stems(title)))

        # Rules under an already chosen one add nothing ("See rule 702.19 … 702.19c").
        refs = [ref for ref in refs if not any(ref != other and is_under(ref, other) for other in refs)]
        return max(refs, key=lambda number: (overlap(number), -refs.index(number)))

    def defining_rule(self, term: str) -> str | None:
        """The rule a glossary term points to, for comparing answers (None if the term cites no rule)."""
        if term in self._defining:
            return self._defining[term]
        entry = self._glossary.get(normalise_term(term))
        found = None
        if entry is not None:
            if entry.redirect and (redirected := self._glossary.get(normalise_term(entry.redirect))):
                entry = redirected
            found = self._defining_rule(entry, list(self._find_references(entry.definition)))
        self._defining[term] = found
        return found

    # ------------------------------------------------------------------ misses

    def _not_found(self, query: str, detail: str, *, suggestions: list[Choice] | None = None) -> Answer:
        shown = clip(query, 80) or "that"
        lines = [Line(detail)] if detail else []
        if suggestions:
            lines.append(Line("Closest matches are listed below."))
        elif not detail:
            lines.append(Line("Try a rule number such as 702.29 or a term such as cycling."))
        return Answer(False, "none", f"No such rule: “{shown}”", lines, self.edition, see_also=list(suggestions or []))

    def _not_confident(self, query: str, suggestions: list[Choice]) -> Answer:
        lines = [Line("Nothing in the Comprehensive Rules matches that well enough to give it as the answer.")]
        if self.document.is_excerpt:
            lines.append(Line("Only a bundled excerpt of the rules is loaded. " + LOAD_FULL_RULES))
        lines.append(
            Line(
                "Closest matches are listed below; or ask with a rule number (702.29) or a term (cycling)."
                if suggestions
                else "Ask with a rule number such as 702.29 or a term such as cycling."
            )
        )
        return Answer(
            False, "none", f"No confident match for “{clip(query, 80)}”", lines, self.edition, see_also=suggestions
        )

    def _not_in_excerpt(self, number: str) -> Answer:
        head = number.split(".")[0]
        title = self.document.contents.get(head, "")
        where = f" ({head}. {title})" if title and head != number else ""
        lines = [
            Line(
                f"Rule {number}{where} is in the Comprehensive Rules but not in the small excerpt bundled with the bot."
            ),
            Line(LOAD_FULL_RULES),
            Line("Read it now:", links=(rule_url(number), f"(official rules: {OFFICIAL_RULES_URL})")),
        ]
        return Answer(
            False,
            "excerpt",
            f"Rule {number} is not in the bundled excerpt",
            lines,
            self.edition,
            target=number,
            url=rule_url(number),
            see_also=self.nearby(number),
        )

    # ------------------------------------------------------------------ completion

    def nearby(self, number: str, count: int = SEE_ALSO) -> list[Choice]:
        return self.completer.nearby(number, count)

    def suggest(self, text: str, count: int = SEE_ALSO) -> list[Choice]:
        return self.completer.suggest(text, count)

    def autocomplete(self, current: str) -> list[Choice]:
        return self.completer.autocomplete(current)

    def close(self) -> None:
        self.searcher.close()
