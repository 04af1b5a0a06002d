"""A rule's history as an answer: its numbers, then edition by edition what changed, with word-level diffs.

The same answer serves the terminal (``full``: every old and new text whole) and Discord (texts and
diffs shortened so that a page stays readable; the diff still shows every change).
"""

from __future__ import annotations

import re
from pathlib import Path

from bot.documents import FULL, NONE, SURE, Answer, Cited, Edition, Line, word_diff
from bot.rules.editions.editions import NoEditionsError
from bot.rules.editions.history import (
    Change,
    EditionStep,
    HistoryCache,
    RuleHistory,
    RulesHistory,
    UnknownEditionError,
    UnknownRuleError,
)
from bot.rules.text import find_numbers, rule_url
from bot.text import clip, plural

# Discord answers: an old or new text, a diff and a removed rule's text are cut to these lengths.
SHORT_TEXT = 300
SHORT_DIFF = 700
SHORT_PARTS = 30
# Below this similarity (0-1) a diff says less than the two texts, so only the texts are shown.
DIFF_WORTH = 0.4
HISTORY_RE = re.compile(r"^\s*(?:/?rules?\s+)?history\b(?:\s+of\b)?[\s:]*", re.IGNORECASE)


# An edition named in a history query: "702.26 in 2009", "702.26 as of 2013-05-01".
EDITION_RE = re.compile(r"(?:\b(?:in|as\s+of|of|edition)\s+)?(?<![\d.])((?:19|20)\d\d(?:-\d\d-\d\d)?)(?![\d.])", re.I)


def is_history_query(query: str) -> bool:
    """ "history 702.29", "history of cycling" ask for a rule's history."""
    return HISTORY_RE.match(query) is not None


def parse_history_query(query: str) -> tuple[str | None, str | None]:
    """The rule number and the edition (a date or a year) a history query names: "history 702.26 in 2009" →
    ("702.26", "2009"); (None, …) when it names no rule number ("history of cycling")."""
    subject = HISTORY_RE.sub("", query, count=1)
    edition = None
    if match := EDITION_RE.search(subject):
        edition = match.group(1)
        subject = subject[: match.start()] + " " + subject[match.end() :]
    numbers = find_numbers(subject)
    return (numbers[0].start if numbers else None), edition


def history_subject(query: str) -> str:
    """What a history query asks about, without the word "history" and any edition: "history of cycling" →
    "cycling"."""
    return EDITION_RE.sub(" ", HISTORY_RE.sub("", query, count=1)).strip()


def _editions(labels: list[str] | tuple[str, ...], known: list[str]) -> str:
    """ "2017-04-28, 2020-04-17" or "2022-11-18 to 2026-01-16" (a run of three or more known editions)."""
    if len(labels) >= 3 and known.index(labels[-1]) - known.index(labels[0]) == len(labels) - 1:
        return f"{labels[0]} to {labels[-1]}"
    return ", ".join(labels)


def _quoted(text: str, full: bool) -> str:
    return f"“{text if full else clip(text, SHORT_TEXT)}”"


def _part_label(change: Change) -> str:
    if change.old_number and change.old_number != change.number and change.kind != "moved out":
        return f"{change.number} (was {change.old_number})"
    return change.number


def _change_lines(change: Change, full: bool, *, detailed: bool) -> list[Line]:
    """One change; ``detailed`` gives old and new texts (for a rule's own text and its subrules)."""
    label = _part_label(change)
    if change.kind == "added":
        return [Line(f"• {label} added" + (f": {_quoted(change.new_text, full)}" if detailed else ""))]
    if change.kind == "removed":
        return [Line(f"• {label} removed" + (f" (it said {_quoted(change.old_text, full)})" if detailed else ""))]
    if change.kind in ("moved in", "moved out"):
        return [Line(f"• {_part_entry(change)}")]
    if change.kind == "renumbered":
        return [Line(f"• {change.number} (was {change.old_number}) renumbered")]
    # Reworded.
    diff, similarity = word_diff(change.old_text, change.new_text)
    if change.references_only:
        return [Line(f"• {label}: only the rule numbers it cites changed: {diff if full else clip(diff, SHORT_DIFF)}")]
    if not detailed:
        return [Line(f"• {label} reworded")]
    lines = [Line(f"• {label} reworded")]
    if similarity >= DIFF_WORTH:
        lines.append(Line(f"changes: {diff if full else clip(diff, SHORT_DIFF)}"))
    lines += [Line(f"was: {_quoted(change.old_text, full)}"), Line(f"now: {_quoted(change.new_text, full)}")]
    return lines


def _merge_renumbering(changes: tuple[Change, ...]) -> list[Change]:
    """A part renumbered and reworded in the same edition is one reworded change that says its old number."""
    reworded = {change.number for change in changes if change.kind == "reworded"}
    return [change for change in changes if not (change.kind == "renumbered" and change.number in reworded)]


def history_lines(history: RuleHistory, known: list[str], *, full: bool = False) -> list[Line]:
    """Edition by edition, the rule's number and what changed; then the other rules that had its number."""
    lines: list[Line] = []
    detailed = history.kind in ("rule", "subrule")
    first = True
    for step in history.steps:
        if not step.number:
            if step.changes:
                lines.append(Line(f"removed (it was {step.changes[0].number})", number=step.edition))
            continue
        if first:
            first = False
            lines.append(Line(_first_line(history, step, full), number=step.edition))
            continue
        renamed = next((c for c in step.changes if c.kind == "renumbered" and c.number == step.number), None)
        changes = _merge_renumbering(step.changes)
        own = [c for c in changes if c.number == step.number and c.kind in ("renumbered", "reworded")]
        others = [c for c in changes if c not in own]
        summary = f"{step.number} (was {renamed.old_number})" if renamed else step.number
        if not changes:
            lines.append(Line(f"{summary}: no change", number=step.edition))
            continue
        lines.append(Line(summary + (": renumbered" if own == [renamed] else ""), number=step.edition))
        for change in own:
            if change.kind == "reworded":
                lines += _change_lines(change, full, detailed=True)
        if detailed:
            for change in others:
                lines += _change_lines(change, full, detailed=True)
        else:
            lines += _part_summary(others, full)
    for namesake in history.namesakes:
        editions = _editions(namesake.editions, known)
        lines.append(
            Line(f"Also numbered {history.number} in {editions}: {_quoted(namesake.text, full)} ({namesake.fate})")
        )
    return lines


PART_NAMES = {"section": "rule headings", "heading": "rules", "rule": "subrules"}


def _first_line(history: RuleHistory, step: EditionStep, full: bool) -> str:
    """The edition a rule first appears in: added (with its text), or already there in the oldest edition."""
    added = step.changes and step.changes[0].kind == "added"
    text = f"{step.number} added" if added else f"{step.number}: in the oldest edition known"
    if added and history.kind in ("rule", "subrule") and not history.titled:
        text += f": {_quoted(step.changes[0].new_text, full)}"
    if step.parts:
        name = PART_NAMES.get(history.kind, "parts")
        span = step.parts[0] if len(step.parts) == 1 else f"{step.parts[0]}–{step.parts[-1]}"
        text += f", with {plural(len(step.parts), name[:-1], name)} ({span})"
    return text


def _part_summary(changes: list[Change], full: bool) -> list[Line]:
    """A heading's or section's parts: one line per kind of change, numbers only (ask for a part's history).
    On Discord a long list names the first ``SHORT_PARTS`` and says how many more there are."""
    lines = []
    for kind, name in (
        ("added", "added"),
        ("removed", "removed"),
        ("reworded", "reworded"),
        ("renumbered", "renumbered"),
        ("moved in", "moved here"),
        ("moved out", "moved out"),
    ):
        numbers = [_part_entry(c) for c in changes if c.kind == kind]
        if not numbers:
            continue
        shown = (
            numbers
            if full or len(numbers) <= SHORT_PARTS
            else [*numbers[:SHORT_PARTS], f"… {len(numbers) - SHORT_PARTS} more"]
        )
        lines.append(Line(f"• {name} ({len(numbers)}): " + ", ".join(shown)))
    return lines


def _part_entry(change: Change) -> str:
    """A part in a heading's summary: its number, with its title when it was added or removed ("702.184 Station")."""
    if change.kind == "moved in":
        return f"{change.number} moved here from {change.elsewhere} (was {change.old_number})"
    if change.kind == "moved out":
        return f"{change.number} moved to {change.elsewhere} (now {change.new_number})"
    title = change.new_text or change.old_text
    if change.kind in ("added", "removed") and len(title) <= 40:
        return f"{change.number} {title}"
    return _part_label(change)


def history_title(history: RuleHistory) -> str:
    label = history.number
    about = history.title if history.titled else history.topic
    return clip(f"History of {label}" + (f" · {about}" if about else ""), 256)


def number_summary(history: RuleHistory, known: list[str]) -> str:
    chain = history.number_chain()
    numbers = " → ".join(f"{number} ({_editions(labels, known)})" for number, labels in chain)
    gone = history.steps[-1].number == ""
    return f"Numbers: {numbers}" + (f"; removed in {_removal(history)}" if gone else "")


def _removal(history: RuleHistory) -> str:
    removed = [step.edition for step in history.steps if not step.number and step.changes]
    return removed[-1] if removed else "a later edition"


def history_answer(index: RulesHistory, number: str, *, full: bool = False, edition: str | None = None) -> Answer:
    """The history of ``number`` as an answer; raises ``UnknownRuleError`` when no edition has it."""
    history = index.history(number, edition=edition)
    known = index.labels
    span = f"{len(known)} editions, {known[0]} to {known[-1]}" if len(known) > 1 else f"1 edition, {known[0]}"
    current = history.current
    return Answer(
        f"history {number}" + (f" in {edition}" if edition else ""),
        "history",
        SURE,
        history_title(history),
        _edition(f"history: {span}"),
        lead=[Line(number_summary(history, known))],
        lines=history_lines(history, known, full=full),
        cited=[Cited(current, history.title if history.titled else history.topic)] if current else [],
        url=rule_url(current) if current else "",
    )


def _edition(text: str) -> Edition:
    return Edition("", "", FULL, f"Comprehensive Rules {text}")


def _no_history(title: str, line: str, span: str, query: str) -> Answer:
    return Answer(query, "history", NONE, clip(title, 256), _edition(span), lead=[Line(line)])


def number_from_answer(answer: Answer) -> str | None:
    """The rule a lookup answered with ("cycling" → 702.29), for a history asked by name."""
    if answer.confidence != SURE or not answer.target:
        return None
    numbers = find_numbers(answer.target)
    return numbers[0].start if numbers else None


def history_for(cache: HistoryCache, paths: list[Path], number: str | None, edition: str | None = None) -> Answer:
    """The history answer for ``number`` over the editions in ``paths``, or an answer that says why there is none.

    Blocking: the first call (and the first after an edition is added) parses and aligns the editions.
    """
    query = f"history {number or ''}".strip()
    if number is None:
        return _no_history(
            "Which rule?",
            "Give a rule number (702.29, 509.2a, 702) or a keyword or term (cycling) to follow it through the "
            "editions of the rules; add a year or date (702.26 in 2009) to use that edition's numbers.",
            "history",
            query,
        )
    try:
        index = cache.get(paths)
    except NoEditionsError:
        return _no_history(
            "No rules history yet",
            "A rule's history is read from the editions of the full Comprehensive Rules the bot keeps, and none is "
            "kept yet. Each edition the bot downloads is kept, so the history grows as the rules change.",
            "history: no edition kept",
            query,
        )
    known = index.labels
    span = f"history: {len(known)} editions, {known[0]} to {known[-1]}"
    try:
        return history_answer(index, number, edition=edition)
    except UnknownEditionError as error:
        return _no_history(f"No edition for {edition}", str(error), span, query)
    except UnknownRuleError as error:
        return _no_history(f"No rule {number} in the editions known", str(error), span, query)
