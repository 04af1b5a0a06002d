"""A document's sections as answers (the rules' :class:`Answer`, so that one phone layout and one renderer serve
every document): the deciding paragraph first, the whole section behind Next (or on page one when it fits there),
quoted with the document's title, effective date and link.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import date

from bot.documents.model import CHAPTER, Document, Section
from bot.documents.phone import PAGE_ONE, fits_page_one
from bot.documents.reply import FULL, NONE, SURE, UNSURE, Answer, Choice, Cited, Edition, Line, clip
from bot.documents.search import choice_name

NOT_LOADED = "The full text is not loaded yet: read the section in the official document (linked)."
# How many sections a list (an unsure answer, a chapter) names.
LISTED = 5


def edition(document: Document) -> Edition:
    day = document.effective.isoformat() if document.effective else ""
    return Edition(day, document.label, FULL, text=document.footer())


def stale_note(document: Document, today: date) -> str:
    """Said when a bundled outline is more than a year old: a newer version may be out. (A downloaded copy is the
    newest Wizards' page linked when the bot last looked, however old its date.)"""
    if document.full or not document.is_stale(today):
        return ""
    when = document.label or "on an unknown date"
    return (
        f"This outline is effective {when}, more than a year ago: it may be out of date (Wizards' rules-documents "
        "page has the current one)."
    )


def _notes(document: Document, today: date, *, said: bool = False) -> str:
    """What an answer says last: that the text is not loaded (unless ``said`` already), that it may be old."""
    notes = [stale_note(document, today)]
    if not document.full and not said:
        notes.insert(0, NOT_LOADED)
    return " ".join(note for note in notes if note)


def _choice(short: str, section: Section, *, badge: bool = True) -> Choice:
    return Choice(clip(f"{short} {choice_name(section, badge=badge)}"), section.number)


def whole_lines(section: Section) -> list[Line]:
    """The whole section, each part's title before its first paragraph ("Definition: A player …")."""
    lines: list[Line] = []
    for part in section.parts:
        for position, paragraph in enumerate(part.paragraphs):
            label = f"{part.title}:" if part.title and position == 0 else ""
            lines.append(Line(paragraph, label))
    return lines


def deciding(section: Section) -> str:
    """The paragraph that decides when nothing more was asked: the definition of an infraction, else the first."""
    for part in section.parts:
        if part.title == "Definition" and part.paragraphs:
            return part.paragraphs[0]
    paragraphs = section.paragraphs
    return paragraphs[0] if paragraphs else ""


def section_answer(
    document: Document,
    section: Section,
    query: str,
    *,
    short: str,
    today: date,
    lead: str = "",
    said: tuple[str, ...] = (),
) -> Answer:
    """One section: ``said`` first (a former name's successor, say), its badge, the deciding paragraph (``lead``,
    or the definition), then the whole section behind Next; a section that fits page one whole is shown whole
    there (a chapter's sections listed in it, and in the menu)."""
    title = clip(f"{short} {section.heading()}", 256)
    first = [Line(text) for text in said]
    if section.badge:
        first.append(Line(section.badge, "Penalty:"))
    whole = whole_lines(section)
    chosen = lead or deciding(section)
    if chosen:
        label = next((line.number for line in whole if line.text == chosen), "")
        first.append(Line(chosen, label))
    elif not document.full:
        first.append(Line(NOT_LOADED))
    related: list[Choice] = []
    if section.kind == CHAPTER:
        children = document.children.get(section.number, [])
        whole += [Line(choice_name(child)) for child in children]
        related = [_choice(short, child) for child in children[:25]]
    answer = Answer(
        query,
        "section",
        SURE,
        title,
        edition(document),
        lead=first,
        lines=whole,
        whole=f"{short} {section.number} in full",
        cited=[Cited(section.number, section.title)],
        related=related,
        note=_notes(document, today, said=not document.full and not chosen),
        url=document.url,
    )
    if [line.text for line in whole] == [chosen] or not whole:
        answer.lines, answer.whole = [], ""  # the lead is all there is: nothing behind Next
        return answer
    shown = replace(answer, lead=[*first[: len(said) + bool(section.badge)], *whole], lines=[], whole="")
    shown.related, shown.parts = [], related  # listed in the text already: in the menu only
    short = sum(len(line.text) for line in shown.lead) < PAGE_ONE  # a long section is not drawn to find out
    return shown if not lead and short and fits_page_one(shown) else answer


def list_answer(
    document: Document,
    sections: list[Section],
    query: str,
    *,
    short: str,
    today: date,
    title: str,
    confidence: str = UNSURE,
    lead: list[Line] | None = None,
    listed: int = LISTED,
    badges: bool = True,
) -> Answer:
    """Sections that may answer (a question in words) or that a name stands for (a split infraction, a penalty's
    infractions): the first ``listed``, each with its badge unless the title says it for all (``badges``)."""
    choices = [_choice(short, section, badge=badges) for section in sections[:listed]]
    return Answer(
        query,
        "question" if confidence == UNSURE else "sections",
        confidence,
        clip(title, 256),
        edition(document),
        lead=list(lead or []),
        candidates=choices,
        related=choices,
        cited=[Cited(section.number, section.title) for section in sections[:listed]],
        note=_notes(document, today),
        url=document.url,
    )


def miss(document: Document, query: str, title: str, lines: list[str]) -> Answer:
    """Nothing answers: said only to whoever asked."""
    return Answer(query, "none", NONE, clip(title, 256), edition(document), lead=[Line(text) for text in lines])
