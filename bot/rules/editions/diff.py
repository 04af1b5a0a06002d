"""What changed between two editions of the Comprehensive Rules: rules added, removed and reworded."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from bot.rules.ranking import sort_key
from bot.rules.text import Document, Rule

CHANGES_RE = re.compile(r"^\s*(?:/?rules?\s+)?(?:changes|changed|what(?:'s| has| is)? changed|diff)\b", re.IGNORECASE)


def is_changes_query(query: str) -> bool:
    """ "changes", "changes 702.29", "what changed" ask what the latest update changed."""
    return CHANGES_RE.match(query) is not None


def _edition(document: Document) -> str:
    return f"effective {document.effective}" if document.effective else document.title


def _full_text(rule: Rule) -> str:
    """A rule's words and examples, with spacing evened out (a reflowed line is not a rewording)."""
    return " ".join(" ".join([rule.text, *rule.examples]).split())


@dataclass
class EditionDiff:
    old: Document
    new: Document
    added: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    reworded: list[str] = field(default_factory=list)
    glossary_added: list[str] = field(default_factory=list)
    glossary_removed: list[str] = field(default_factory=list)
    glossary_reworded: list[str] = field(default_factory=list)

    @property
    def title(self) -> str:
        return f"Rules changes: {_edition(self.old)} → {_edition(self.new)}"

    def status(self, number: str) -> str:
        if number in self.added:
            return "added"
        if number in self.removed:
            return "removed"
        if number in self.reworded:
            return "reworded"
        return "unchanged" if self.new.get(number) is not None else "absent"

    def summary_lines(self) -> list[str]:
        lines = []
        for name, numbers in (("Added", self.added), ("Removed", self.removed), ("Reworded", self.reworded)):
            lines.append(f"{name} ({len(numbers)}): " + (", ".join(numbers) if numbers else "none"))
        for name, terms in (
            ("Glossary added", self.glossary_added),
            ("Glossary removed", self.glossary_removed),
            ("Glossary reworded", self.glossary_reworded),
        ):
            if terms:
                lines.append(f"{name} ({len(terms)}): " + ", ".join(terms))
        return lines

    def rule_lines(self, number: str) -> list[str]:
        """One rule's old and new text, or why there is nothing to compare."""
        old, new = self.old.get(number), self.new.get(number)
        status = self.status(number)
        if status == "absent":
            return [f"Rule {number} is in neither edition."]
        if status == "unchanged":
            return [f"Rule {number} is unchanged.", f"{new.label()} {new.text}"]
        lines = [f"Rule {number} was {status}."]
        if old is not None:
            lines += [f"Before ({_edition(self.old)}):", f"{old.label()} {old.text}"]
            lines += [f"Example: {example}" for example in old.examples]
        if new is not None:
            lines += [f"Now ({_edition(self.new)}):", f"{new.label()} {new.text}"]
            lines += [f"Example: {example}" for example in new.examples]
        return lines

    def to_text(self, number: str | None = None) -> str:
        body = self.rule_lines(number) if number else self.summary_lines()
        return "\n".join([self.title, "", *body])


def diff_documents(old: Document, new: Document) -> EditionDiff:
    diff = EditionDiff(old, new)
    for number in sorted(set(old.by_number) | set(new.by_number), key=sort_key):
        before, after = old.get(number), new.get(number)
        if before is None:
            diff.added.append(number)
        elif after is None:
            diff.removed.append(number)
        elif _full_text(before) != _full_text(after):
            diff.reworded.append(number)
    old_terms = {entry.term: " ".join(entry.definition.split()) for entry in old.glossary}
    new_terms = {entry.term: " ".join(entry.definition.split()) for entry in new.glossary}
    diff.glossary_added = [term for term in new_terms if term not in old_terms]
    diff.glossary_removed = [term for term in old_terms if term not in new_terms]
    diff.glossary_reworded = [term for term in new_terms if term in old_terms and old_terms[term] != new_terms[term]]
    return diff
