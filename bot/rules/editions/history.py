"""A rule's history across every edition the bot knows: its number in each, and what changed when.

The editions are aligned once (see ``bot.rules.editions.align``) and each entry's line through them, its
*lineage*, is stored as an index per edition, so a history is a few dictionary look-ups. A rule's
report covers the rule itself and its direct parts: a rule's subrules, a heading's rules, a section's
headings.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from bot.documents import Built, Skipped
from bot.rules.editions.align import Prepared, align
from bot.rules.editions.editions import Edition, NoEditionsError, load_editions
from bot.rules.text import Rule

log = logging.getLogger(__name__)


class UnknownRuleError(LookupError):
    """No edition known has the rule asked for."""


class UnknownEditionError(UnknownRuleError):
    """The edition asked for (a date or a year) is not one the history knows."""


@dataclass(frozen=True, slots=True)
class Change:
    """One thing that happened to a rule (or one of its parts) in an edition, compared with the edition before."""

    kind: str  # "added", "removed", "reworded", "renumbered", "moved in", "moved out"
    number: str  # its number in this edition (in the edition before, for "removed")
    old_number: str = ""
    old_text: str = ""
    new_text: str = ""
    elsewhere: str = ""  # the rule it came from or went to ("moved in", "moved out")
    new_number: str = ""  # its number where it went ("moved out")
    references_only: bool = False  # the text changed only in the rule numbers it cites


@dataclass(frozen=True, slots=True)
class EditionStep:
    """The rule in one edition: its number there (empty when absent) and what changed since the edition before."""

    edition: str
    number: str
    changes: tuple[Change, ...] = ()
    parts: tuple[str, ...] = ()  # the numbers of its direct parts in this edition (subrules of a rule, …)


@dataclass(frozen=True, slots=True)
class Namesake:
    """Another rule that had the asked-for number in some editions."""

    editions: tuple[str, ...]
    text: str
    fate: str  # "now 702.29", "removed in 2024-11-08"


@dataclass
class RuleHistory:
    number: str
    kind: str  # "section", "heading", "rule" or "subrule"
    title: str  # the rule's title or the start of its text, as of its latest edition
    steps: list[EditionStep]
    namesakes: list[Namesake] = field(default_factory=list)
    topic: str = ""  # the title of the rule a subrule or untitled rule belongs to ("Cycling" for 702.29a)
    titled: bool = False  # whether ``title`` is a title ("Cycling") rather than the start of a sentence

    @property
    def editions(self) -> list[str]:
        return [step.edition for step in self.steps]

    @property
    def present(self) -> list[EditionStep]:
        return [step for step in self.steps if step.number]

    @property
    def current(self) -> str:
        """Its number in the newest edition known, or "" when it is gone."""
        return self.steps[-1].number if self.steps else ""

    def number_chain(self) -> list[tuple[str, list[str]]]:
        """Its numbers in order with the editions that used each: [("702.26", ["2009-10-01"]), …]."""
        chain: list[tuple[str, list[str]]] = []
        for step in self.present:
            if chain and chain[-1][0] == step.number:
                chain[-1][1].append(step.edition)
            else:
                chain.append((step.number, [step.edition]))
        return chain

    def changes(self, kind: str | None = None) -> list[tuple[str, Change]]:
        """Every change as (edition, change), oldest first; only those of ``kind`` if given."""
        return [
            (step.edition, change)
            for step in self.steps
            for change in step.changes
            if kind is None or change.kind == kind
        ]


def _suffix(number: str, parent: str) -> str:
    """What a part's number adds to its parent's: "e" for 702.29e under 702.29, "4" for 509.4 under 509."""
    return number[len(parent) :].lstrip(".")


class RulesHistory:
    """The editions aligned once; ``history(number)`` then answers from memory."""

    def __init__(self, editions: Sequence[Edition], skipped: Sequence[Skipped] = ()) -> None:
        if not editions:
            raise NoEditionsError("no full Comprehensive Rules edition to follow a rule through")
        self.editions = list(editions)
        self.skipped = list(skipped)
        prepared = [Prepared.of(edition.document) for edition in self.editions]
        # Evened-out texts decide whether a rule changed; the texts as printed are what a history shows.
        self._texts = [p.texts for p in prepared]
        self._masks = [[key[1] for key in p.keys] for p in prepared]
        self._parents = [p.parents for p in prepared]
        self._children: list[dict[int, list[int]]] = []
        for p in prepared:
            children: dict[int, list[int]] = {}
            for index, parent in enumerate(p.parents):
                if parent >= 0:
                    children.setdefault(parent, []).append(index)
            self._children.append(children)
        # lineage[k][i]: the line entry i of edition k belongs to; where[line][k]: its entry in edition k or -1.
        self._lineage: list[list[int]] = []
        self._where: list[list[int]] = []
        count = len(self.editions)
        for k, p in enumerate(prepared):
            backward = [-1] * len(p.keys)
            if k:
                for i, j in enumerate(align(prepared[k - 1], p)):
                    if j >= 0:
                        backward[j] = i
            lines = []
            for j, i in enumerate(backward):
                line = self._lineage[k - 1][i] if i >= 0 else len(self._where)
                if i < 0:
                    self._where.append([-1] * count)
                self._where[line][k] = j
                lines.append(line)
            self._lineage.append(lines)

    @property
    def labels(self) -> list[str]:
        return [edition.label for edition in self.editions]

    def _rule(self, k: int, i: int) -> Rule:
        return self.editions[k].document.entries[i]

    def _printed(self, k: int, i: int) -> str:
        rule = self._rule(k, i)
        return " ".join(" ".join([rule.text, *(f"Example: {example}" for example in rule.examples)]).split())

    def edition_for(self, spec: str) -> str:
        """The edition in force on a date ("2013-05-01") or at the end of a year ("2013"), as its label."""
        try:
            day = date.fromisoformat(spec) if "-" in spec else date(int(spec), 12, 31)
        except ValueError as error:
            raise UnknownEditionError(f"{spec[:20]!r} is not a date such as 2024-11-08 or a year") from error
        in_force = [edition for edition in self.editions if edition.effective <= day]
        if not in_force:
            raise UnknownEditionError(f"the oldest edition known is {self.labels[0]}; none was in force in {spec}")
        return in_force[-1].label

    def find(self, number: str, edition: str | None = None) -> tuple[int, int]:
        """The edition and entry a number means: in ``edition`` (a date or a year, see ``edition_for``) if given,
        else in the newest edition that has it."""
        candidates: Sequence[int] = range(len(self.editions) - 1, -1, -1)
        if edition is not None:
            edition = edition if edition in self.labels else self.edition_for(edition)
            candidates = [self.labels.index(edition)]
        for k in candidates:
            found = self.editions[k].document.by_number.get(number)
            if found:
                return k, found[0].order
        where = f"the {edition} edition" if edition else f"any of the {len(self.editions)} editions known"
        raise UnknownRuleError(f"rule {number} is not in {where} ({self.labels[0]} to {self.labels[-1]})")

    def history(self, number: str, *, edition: str | None = None) -> RuleHistory:
        k, i = self.find(number, edition)
        line = self._lineage[k][i]
        where = self._where[line]
        latest = max(index for index, entry in enumerate(where) if entry >= 0)
        rule = self._rule(latest, where[latest])
        steps = [self._step(line, k) for k in range(len(self.editions))]
        history = RuleHistory(number, rule.kind, _title(rule), steps, self._namesakes(number, line))
        history.topic = self._topic(latest, where[latest])
        history.titled = rule.is_titled
        return history

    def _topic(self, k: int, i: int) -> str:
        parent = self._parents[k][i]
        while parent >= 0:
            rule = self._rule(k, parent)
            if rule.is_titled:
                return rule.text
            parent = self._parents[k][parent]
        return ""

    def _step(self, line: int, k: int) -> EditionStep:
        i = self._where[line][k]
        before = self._where[line][k - 1] if k else -1
        changes: list[Change] = []
        if i < 0:
            if before >= 0:
                changes.append(
                    Change("removed", self._rule(k - 1, before).number, old_text=self._printed(k - 1, before))
                )
            return EditionStep(self.labels[k], "", tuple(changes))
        rule = self._rule(k, i)
        if k and before < 0:
            changes.append(Change("added", rule.number, new_text=self._printed(k, i)))
        elif k:
            changes += self._own_changes(k, before, i)
            changes += self._part_changes(k, before, i)
        parts = tuple(self._rule(k, c).number for c in self._children[k].get(i, ()))
        return EditionStep(self.labels[k], rule.number, tuple(changes), parts)

    def _own_changes(self, k: int, before: int, i: int) -> list[Change]:
        old, new = self._rule(k - 1, before), self._rule(k, i)
        out = []
        if old.number != new.number:
            out.append(Change("renumbered", new.number, old_number=old.number))
        reworded = self._reworded(k, before, i)
        if reworded is not None:
            out.append(reworded)
        return out

    def _reworded(self, k: int, before: int, i: int) -> Change | None:
        old_text, new_text = self._texts[k - 1][before], self._texts[k][i]
        if old_text == new_text:
            return None
        return Change(
            "reworded",
            self._rule(k, i).number,
            old_number=self._rule(k - 1, before).number,
            old_text=self._printed(k - 1, before),
            new_text=self._printed(k, i),
            references_only=self._masks[k - 1][before] == self._masks[k][i],
        )

    def _part_changes(self, k: int, before: int, i: int) -> list[Change]:
        """What happened to the parts under the rule between edition k-1 (entry ``before``) and k (entry ``i``)."""
        old_parent, new_parent = self._rule(k - 1, before).number, self._rule(k, i).number
        out: list[tuple[int, Change]] = []
        for c in self._children[k].get(i, ()):
            part = self._rule(k, c)
            was = self._where[self._lineage[k][c]][k - 1]
            if was < 0:
                out.append((c, Change("added", part.number, new_text=self._printed(k, c))))
                continue
            old_part = self._rule(k - 1, was)
            if self._parents[k - 1][was] != before:
                came_from = (
                    self._rule(k - 1, self._parents[k - 1][was]).number if self._parents[k - 1][was] >= 0 else ""
                )
                out.append((c, Change("moved in", part.number, old_number=old_part.number, elsewhere=came_from)))
            elif _suffix(old_part.number, old_parent) != _suffix(part.number, new_parent):
                out.append((c, Change("renumbered", part.number, old_number=old_part.number)))
            reworded = self._reworded(k, was, c)
            if reworded is not None:
                out.append((c, reworded))
        for c in self._children[k - 1].get(before, ()):
            now = self._where[self._lineage[k - 1][c]][k]
            old_part = self._rule(k - 1, c)
            if now < 0:
                out.append((-1, Change("removed", old_part.number, old_text=self._printed(k - 1, c))))
            elif self._parents[k][now] != i:
                went_to = self._rule(k, self._parents[k][now]).number if self._parents[k][now] >= 0 else ""
                moved = self._rule(k, now).number
                out.append((now, Change("moved out", old_part.number, elsewhere=went_to, new_number=moved)))
        return [change for _position, change in out]

    def _namesakes(self, number: str, line: int) -> list[Namesake]:
        """Other lines that held ``number`` in some edition: the rule once numbered 509.2, and what became of it."""
        others: dict[int, list[int]] = {}
        for k, edition in enumerate(self.editions):
            for rule in edition.document.by_number.get(number, ()):
                other = self._lineage[k][rule.order]
                if other != line and k not in others.setdefault(other, []):
                    others[other].append(k)
        out = []
        for other, ks in others.items():
            where = self._where[other]
            last = max(index for index, entry in enumerate(where) if entry >= 0)
            # What it said while it had the number, not what it says now.
            text = self._printed(ks[-1], where[ks[-1]])
            if last == len(self.editions) - 1:
                now = self._rule(last, where[last]).number
                fate = f"the current {now}" if now == number else f"now {now}"
            else:
                fate = f"removed in {self.labels[last + 1]}"
            out.append(Namesake(tuple(self.labels[k] for k in ks), text, fate))
        return out


def _title(rule: Rule) -> str:
    """A rule's title ("Cycling") or, for a rule of sentences, its first words."""
    text = rule.text.split("\n", 1)[0]
    return text if rule.is_titled or len(text) <= 80 else text[:79].rstrip() + "…"


def build_history(paths: list[Path]) -> RulesHistory:
    """Every edition in ``paths`` read and aligned; raises ``NoEditionsError`` when none is a full edition."""
    editions, skipped = load_editions(paths)
    if not editions:
        reasons = "; ".join(f"{item.path.name}: {item.reason}" for item in skipped)
        raise NoEditionsError("no full Comprehensive Rules edition found" + (f" ({reasons})" if reasons else ""))
    log.info("Rules history indexed: %s editions (%s to %s)", len(editions), editions[0].label, editions[-1].label)
    return RulesHistory(editions, skipped)


class HistoryCache(Built[RulesHistory]):
    """The history of the editions in some files, rebuilt only when a file is added, removed or changed."""

    def __init__(self) -> None:
        super().__init__(build_history)
