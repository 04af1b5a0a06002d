"""Scoring /rule against questions players type, each with the rules a judge would cite.

A question set is a JSON file: ``{"questions": [{"q": "...", "cite": ["702.19", ...], "source": "...",
"part": "tune"}], "not_rules": [{"q": "lol", "source": "...", "part": "test"}]}``. Each item's ``part``
says whether it is in the tuning part (weights, synonyms and rules may be chosen from it) or the frozen
test part (scored, never studied); the split was made once, by source. A plain string is accepted for
a non-question and a missing part means the tuning part.

An answer counts as right when what it shows first is a cited rule, the whole rule a cited subrule belongs
to (702.19 for 702.19b), or a glossary term whose defining rule is cited. hit@3 also looks at the first two
"see also" entries. A real question is answered when the bot gives an answer rather than "no confident
match"; a non-question is refused when it does not.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from bot.rules.hits import is_under
from bot.rules.index import RulesIndex

QUESTIONS = Path(__file__).resolve().parent / "questions.json"
TARGETS = {"hit@1": 0.85, "hit@3": 0.95, "answered": 0.95, "refused": 0.90}
PARTS = ("tune", "test")


@dataclass
class Report:
    questions: int = 0
    hit1: int = 0
    hit3: int = 0
    answered: int = 0
    not_rules: int = 0
    refused: int = 0
    searched: int = 0  # questions answered when only their topic words are typed, as into a search box
    misses: list[str] = field(default_factory=list)

    def rates(self) -> dict[str, float]:
        return {
            "hit@1": self.hit1 / max(1, self.questions),
            "hit@3": self.hit3 / max(1, self.questions),
            "answered": self.answered / max(1, self.questions),
            "refused": self.refused / max(1, self.not_rules),
            "searched": self.searched / max(1, self.questions),
        }

    def failed_targets(self) -> list[str]:
        rates = self.rates()
        return [f"{name} {rates[name]:.1%} < {goal:.0%}" for name, goal in TARGETS.items() if rates[name] < goal]


def load_set(path: Path = QUESTIONS) -> dict:
    return json.loads(Path(path).read_text(encoding="utf-8"))


def load_questions(path: Path = QUESTIONS, *, part: str | None = None) -> tuple[list[tuple[str, list[str]]], list[str]]:
    """The questions with their citations and the non-questions, of one part (``None``: both)."""
    data = load_set(path)
    questions = [
        (item["q"], list(item["cite"]))
        for item in data["questions"]
        if part is None or item.get("part", "tune") == part
    ]
    not_rules = []
    for item in data["not_rules"]:
        text, where = (item, "tune") if isinstance(item, str) else (item["q"], item.get("part", "tune"))
        if part is None or where == part:
            not_rules.append(text)
    return questions, not_rules


def matches(index: RulesIndex, shown: str, cited: list[str]) -> bool:
    """Whether an answer about ``shown`` (a rule number or a glossary term) gives one of the ``cited`` rules."""
    if not shown:
        return False
    if not shown[:1].isdigit():
        shown = index.defining_rule(shown.removeprefix("Glossary: ")) or shown
    for rule in cited:
        # The whole rule (xxx.y) shows its subrules; a heading (704) only counts when it is cited itself.
        if shown == rule or ("." in shown and not shown[-1].isalpha() and is_under(rule, shown)):
            return True
    return False


def searched(index: RulesIndex, text: str) -> str:
    """``text`` as a search would type it: its topic words alone ("landcycling", "draw empty library lose")."""
    return " ".join(index.searcher.terms(text))


def evaluate(index: RulesIndex, questions: list[tuple[str, list[str]]], not_rules: list[str]) -> Report:
    report = Report(questions=len(questions), not_rules=len(not_rules))
    for question, cited in questions:
        answer = index.lookup(question)
        ranked = answer.ranked() if answer.found else []
        report.answered += answer.found
        if ranked and matches(index, ranked[0], cited):
            report.hit1 += 1
            report.hit3 += 1
        elif any(matches(index, shown, cited) for shown in ranked[:3]):
            report.hit3 += 1
            report.misses.append(f"hit@3 only: {question!r} → {ranked[:3]} (cited {cited})")
        elif not answer.found:
            suggested = [choice.value for choice in answer.see_also[:3]]
            report.misses.append(f"refused: {question!r} (suggested {suggested}; cited {cited})")
        else:
            report.misses.append(f"miss: {question!r} → {ranked[:3]} (cited {cited})")
        typed = searched(index, question)
        report.searched += bool(typed) and index.lookup(typed).found
    for text in not_rules:
        answer = index.lookup(text)
        if not answer.found:
            report.refused += 1
        else:
            report.misses.append(f"answered a non-question: {text!r} → {answer.target}")
    return report
