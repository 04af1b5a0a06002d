"""One place that answers a query about a judges' document, for Discord and the terminal alike.

A query is a section number ("3.8", "2-2", "appendix b"), a title or a short name judges use ("hce", "usc minor",
a former name such as "d/dlp", which answers with its successors), or words. A number or a name is answered
*sure* with its section; words, until the question set is large enough to calibrate them, with an *unsure* list
of the sections that may answer, the best one's matching paragraph first.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from bot.documents import SURE, Answer, Document, Line, SectionIndex, list_answer, miss, section_answer
from bot.judge.catalog import Spec
from bot.judge.names import Names

MAX_QUERY = 500
HISTORY_RE = re.compile(r"^\s*history(?:\s+of)?\s+", re.IGNORECASE)


@dataclass
class Loaded:
    """One document ready to answer from: the newest version kept, or the bundled outline."""

    spec: Spec
    document: Document
    index: SectionIndex
    names: Names | None = None

    def description(self) -> str:
        document = self.document
        what = "full text" if document.full else "bundled outline"
        return f"{self.spec.short} effective {document.label} ({what}, {len(document.sections)} sections)"


def _prefix(spec: Spec, query: str) -> str:
    """ "MTR 3.8" and "ipg hce" are "3.8" and "hce" to their own command."""
    cleaned = " ".join(query.split())
    head, _, rest = cleaned.partition(" ")
    return rest if head.lower() == spec.key and rest else cleaned


def history_subject(query: str) -> str | None:
    """What "history 3.8" asks the history of ("3.8"), or None for any other query."""
    match = HISTORY_RE.match(query)
    return query[match.end() :].strip() if match else None


def answer(loaded: Loaded, query: str, today: date | None = None) -> Answer:
    """Numbers, names and words from the loaded version alone; never raises for what people type."""
    spec, document, index = loaded.spec, loaded.document, loaded.index
    today = today or date.today()
    cleaned = _prefix(spec, query)
    common = {"short": spec.short, "today": today}
    if not cleaned:
        return miss(document, query, "Nothing asked", [f"Ask for a section such as {_example(spec)}, or a few words."])
    if len(cleaned) > MAX_QUERY:
        return miss(
            document,
            cleaned[:60] + "…",
            "That is too long to look up",
            [f"That is {len(cleaned):,} characters; ask with a section number or a few words (at most {MAX_QUERY})."],
        )
    section = index.number(cleaned)
    if section is not None:
        return section_answer(document, section, cleaned, **common)
    numbers = index.named(cleaned)
    if numbers:
        said = ()
        former = loaded.names.former.get(cleaned.lower()) if loaded.names else None
        if former is not None:
            said = (former.sentence(),)
        if len(numbers) == 1:
            return section_answer(document, document.get(numbers[0]), cleaned, said=said, **common)
        sections = [document.get(number) for number in numbers]
        title = f"{spec.short}: {cleaned}"
        return list_answer(
            document, sections, cleaned, title=title, confidence=SURE, lead=[Line(text) for text in said], **common
        )
    found = index.search(cleaned)
    if not found:
        return miss(
            document,
            cleaned,
            f"Nothing in the {spec.short} matches that",
            [f"Try a section number such as {_example(spec)}, a title, or other words."],
        )
    sections = [document.get(hit.number) for hit in found]
    best = sections[0]
    lead = []
    if document.full and (paragraph := index.best_passage(best, cleaned)):
        lead = [Line(paragraph, best.number)]
    return list_answer(
        document, sections, cleaned, title=f"{spec.short}: sections that may answer", lead=lead, **common
    )


def _example(spec: Spec) -> str:
    return "2.2 or hce" if spec.key == "ipg" else "3.8"
