"""One place that answers a query about a judges' document, for Discord and the terminal alike.

A query is a section number as judges type it ("3.8", "2-2", "3,8", "MTR3.8", "appendix b"), a penalty ("game
loss", "dq": the infractions that carry it), a title or a short name judges use ("hce", "usc minor", a former name
such as "d/dlp", which answers with its successors), or words. A number or a name is answered *sure* with its
section, a number that names no section with a miss that says so; words, until the question set is large enough to
calibrate them, with an *unsure* list of the sections that may answer, the best one's matching paragraph first.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from bot.documents import (
    APPENDIX,
    CHAPTER,
    SURE,
    Answer,
    Document,
    Line,
    SectionIndex,
    list_answer,
    miss,
    section_answer,
)
from bot.judge.catalog import SPECS, Spec
from bot.judge.names import Names

MAX_QUERY = 500
HISTORY_RE = re.compile(r"^\s*history(?:\s+of)?\s+", re.IGNORECASE)
HISTORY_LAST_RE = re.compile(r"\s+history\s*$", re.IGNORECASE)
# "MTR 3.8", "mtr3.8", "IPG: hce": a query that names its document.
ADDRESSED_RE = re.compile(rf"^({'|'.join(SPECS)})(?:\s*[:\-]\s*|\s+|(?=\d))(\S.*)$", re.IGNORECASE)
# "702.29": a number of the Comprehensive Rules, not of these documents.
RULE_NUMBER_RE = re.compile(r"^\d{3}(?:\.\d{1,3}[a-z]?)?\.?$", re.IGNORECASE)


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


def addressed(key: str, query: str) -> tuple[str, str]:
    """The document a query is for and what it asks of it: "MTR 3.8", "mtr3.8" and "ipg: hce" name theirs, whichever
    command they were typed into; any other query is for ``key``'s."""
    cleaned = " ".join(query.split())
    match = ADDRESSED_RE.match(cleaned)
    return (match.group(1).lower(), match.group(2)) if match else (key, cleaned)


def history_subject(query: str) -> str | None:
    """What "history 3.8" (or "3.8 history") asks the history of ("3.8"), or None for any other query."""
    if match := HISTORY_RE.match(query):
        return query[match.end() :].strip()
    match = HISTORY_LAST_RE.search(query)
    subject = query[: match.start()].strip() if match else ""
    return subject or None


def answer(loaded: Loaded, query: str, today: date | None = None) -> Answer:
    """Numbers, names and words from the loaded version alone; never raises for what people type."""
    spec, document, index = loaded.spec, loaded.document, loaded.index
    today = today or date.today()
    named, asked = addressed(spec.key, query)
    cleaned = asked if named == spec.key else " ".join(query.split())
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
    number = index.asked(cleaned)
    if number or RULE_NUMBER_RE.match(cleaned):
        section = index.number(cleaned)
        if section is None:
            return no_section(loaded, number or cleaned.rstrip("."), cleaned)
        return section_answer(document, section, cleaned, **common)
    penalty = loaded.names.penalty(cleaned) if loaded.names else ""
    carrying = [section for section in document.sections if penalty and section.badge == penalty]
    if carrying:
        title = f"{spec.short} infractions · Penalty: {penalty}"
        listed = {"listed": len(carrying), "badges": False}
        return list_answer(document, carrying, cleaned, title=title, confidence=SURE, **listed, **common)
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


def no_section(loaded: Loaded, number: str, query: str) -> Answer:
    """A number that names no section: said as much, with the numbers there are (the same whether the text is
    loaded or only the outline, since both hold every number)."""
    spec, document = loaded.spec, loaded.document
    asked = f"appendix {number}" if number.isalpha() else f"section {number}"
    if RULE_NUMBER_RE.match(number):
        where = f"{number} looks like a number of the Comprehensive Rules, which /rule answers."
    else:
        where = _numbers_there(spec, document, number)
    return miss(document, query, f"There is no {asked} in the {spec.short}", [where])


def _numbers_there(spec: Spec, document: Document, number: str) -> str:
    """ "Chapter 3 runs from 3.1 to 3.14." for a section past its chapter's end, else the chapters and appendices."""
    children = document.children.get(number.split(".")[0], []) if "." in number else []
    if children:
        return f"Chapter {number.split('.')[0]} runs from {children[0].number} to {children[-1].number}."
    chapters = [section.number for section in document.sections if section.kind == CHAPTER]
    appendices = [section.number for section in document.sections if section.kind == APPENDIX]
    has = [f"chapters {chapters[0]} to {chapters[-1]}"] if chapters else []
    has += [f"appendices {appendices[0]} to {appendices[-1]}"] if appendices else []
    return f"The {spec.short} has {' and '.join(has)}." if has else "Try a title, or a few words."


def _example(spec: Spec) -> str:
    return "2.2 or hce" if spec.key == "ipg" else "3.8"
