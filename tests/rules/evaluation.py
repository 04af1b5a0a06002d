"""Scoring /rule against questions players type, each with the rules a judge would cite.

A question set is a JSON file: ``{"questions": [{"q": "...", "cite": ["702.19", ...], "source": "...",
"part": "tune"}], "not_rules": [{"q": "lol", "source": "...", "part": "test"}]}``. Each item's ``part``
says whether it is in the tuning part (weights, synonyms and rules may be chosen from it) or the frozen
test part (scored, never studied); the split was made once, by source. A plain string is accepted for
a non-question and a missing part means the tuning part.

An answer counts as right when the first rule it cites is a cited rule, the whole rule a cited subrule belongs
to (702.19 for 702.19b), or the heading cited itself. hit@3 looks at the first three rules it cites (a rule
cited under one cited before it, such as the deciding subrule of a whole rule, does not count twice). A real
question is answered when the bot gives an answer, sure or unsure, rather than none; a non-question is
refused when it gets none. Of the questions answered *sure*, sure precision is the share right first and sure
coverage the share of all the questions; each comes with its 90 % interval (Wilson's).
"""

from __future__ import annotations

import argparse
import json
import math
from dataclasses import dataclass, field
from pathlib import Path

from bot.documents import SURE, is_under
from bot.documents.phrasings import Phrasing, load_phrasings, sample
from bot.rules.asking.ask import lookup
from bot.rules.asking.picking import with_pick
from bot.rules.ranking.index import RulesIndex
from bot.rules.ranking.picker import PickError, parse_pick
from bot.rules.ranking.search import PHRASINGS

QUESTIONS = Path(__file__).resolve().parent / "questions.json"
# The targets on the frozen test part's questions. The long-term aim stays hit@1 85 % and hit@3 95 %.
TARGETS = {"hit@1": 0.55, "hit@3": 0.75, "sure precision": 0.90, "sure coverage": 0.45, "refused": 0.90}
PARTS = ("tune", "test")
# Questions the project was built on and the examples its issues quoted: studied already, so never test items;
# the rest were gathered from public pages.
STUDIED = frozenset({"project", "issue"})
Z90 = 1.6449  # a two-sided 90 % interval
COVERAGES = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.8, 1.0)


def interval(right: int, total: int, z: float = Z90) -> tuple[float, float]:
    """Wilson's score interval for ``right`` out of ``total`` (0–1; (0, 1) with nothing to judge)."""
    if total == 0:
        return 0.0, 1.0
    p = right / total
    centre = (p + z * z / (2 * total)) / (1 + z * z / total)
    half = z * math.sqrt(p * (1 - p) / total + z * z / (4 * total * total)) / (1 + z * z / total)
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class Report:
    questions: int = 0
    hit1: int = 0
    hit3: int = 0
    answered: int = 0
    sure: int = 0
    sure_right: int = 0
    not_rules: int = 0
    refused: int = 0
    searched: int = 0  # questions answered when only their topic words are typed, as into a search box
    misses: list[str] = field(default_factory=list)
    # Per question: how sure the answer was (its certainty; 0 when refused) and whether it was right first.
    judged: list[tuple[float, bool]] = field(default_factory=list)

    def rates(self) -> dict[str, float]:
        return {
            "hit@1": self.hit1 / max(1, self.questions),
            "hit@3": self.hit3 / max(1, self.questions),
            "sure precision": self.sure_right / max(1, self.sure),
            "sure coverage": self.sure / max(1, self.questions),
            "answered": self.answered / max(1, self.questions),
            "refused": self.refused / max(1, self.not_rules),
            "searched": self.searched / max(1, self.questions),
        }

    def intervals(self) -> dict[str, tuple[float, float]]:
        """Each rate's 90 % interval."""
        return {
            "hit@1": interval(self.hit1, self.questions),
            "hit@3": interval(self.hit3, self.questions),
            "sure precision": interval(self.sure_right, self.sure),
            "sure coverage": interval(self.sure, self.questions),
            "answered": interval(self.answered, self.questions),
            "refused": interval(self.refused, self.not_rules),
            "searched": interval(self.searched, self.questions),
        }

    def curve(self, coverages: tuple[float, ...] = COVERAGES) -> list[tuple[float, float, int]]:
        """Precision at each coverage: the share right first among the most certain answers covering that share
        of the questions; (coverage, precision, answers)."""
        ranked = sorted(self.judged, key=lambda item: -item[0])
        out = []
        for coverage in coverages:
            count = max(1, round(coverage * len(ranked)))
            top = [right for certainty, right in ranked[:count] if certainty > 0]
            if top:
                out.append((coverage, sum(top) / len(top), len(top)))
        return out

    def failed_targets(self) -> list[str]:
        rates = self.rates()
        return [f"{name} {rates[name]:.1%} < {goal:.0%}" for name, goal in TARGETS.items() if rates[name] < goal]


def add_phrasing_options(parser: argparse.ArgumentParser) -> None:
    """``--phrasing-share`` and ``--phrasing-seed``: rank with a seeded random share of the phrasing data's rules
    (the learning curve: how much each share of it helps)."""
    parser.add_argument("--phrasing-share", type=float, default=1.0, help="share of the phrased rules used (0-1)")
    parser.add_argument("--phrasing-seed", type=int, default=0, help="seed choosing them (default 0)")
    parser.add_argument("--phrasings", type=Path, default=PHRASINGS, help="the phrasing files (default: bundled)")


def phrasings_from(args: argparse.Namespace) -> dict[str, Phrasing]:
    found = load_phrasings(args.phrasings)
    return found if args.phrasing_share >= 1 else sample(found, max(0.0, args.phrasing_share), args.phrasing_seed)


def load_set(path: Path = QUESTIONS) -> dict:
    return json.loads(Path(path).read_text(encoding="utf-8"))


def load_questions(
    path: Path = QUESTIONS, *, part: str | None = None, gathered: bool = False
) -> tuple[list[tuple[str, list[str]]], list[str]]:
    """The questions with their citations and the non-questions, of one part (``None``: both); with
    ``gathered``, only the questions gathered from public pages (not the project's own)."""
    data = load_set(path)
    questions = [
        (item["q"], list(item["cite"]))
        for item in data["questions"]
        if (part is None or item.get("part", "tune") == part)
        and not (gathered and item.get("source", "project") in STUDIED)
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


def load_replies(path: Path) -> dict[str, object]:
    """A recorded-replies file (``scripts/record_rules_picks.py``): each question → the model's reply (its JSON
    content, or null where it gave none)."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise ValueError(f"{path}: a recorded-replies file is a JSON object, question → reply")
    return data


def answered(index: RulesIndex, text: str, replies: dict[str, object] | None = None):
    """The answer to ``text``, reordered by the recorded model reply for it when ``replies`` hold one."""
    answer = lookup(index, text)
    reply = replies.get(" ".join(text.split())) if replies else None
    if reply is None:
        return answer
    try:
        pick = parse_pick(reply, answer.pool)
    except PickError:
        return answer  # as the bot does: a reply outside the list leaves the lexical answer
    return with_pick(index, answer, pick)


def evaluate(
    index: RulesIndex,
    questions: list[tuple[str, list[str]]],
    not_rules: list[str],
    replies: dict[str, object] | None = None,
) -> Report:
    """The rates of the answers to ``questions`` and ``not_rules``; with ``replies``, as a recorded model picked."""
    report = Report(questions=len(questions), not_rules=len(not_rules))
    for question, cited in questions:
        answer = answered(index, question, replies)
        ranked = answer.ranked() if answer.found else []
        right = bool(ranked) and matches(index, ranked[0], cited)
        report.answered += answer.found
        report.judged.append((answer.certainty if answer.found else 0.0, right))
        if answer.confidence == SURE:
            report.sure += 1
            report.sure_right += right
        if right:
            report.hit1 += 1
            report.hit3 += 1
        elif any(matches(index, shown, cited) for shown in ranked[:3]):
            report.hit3 += 1
            report.misses.append(f"hit@3 only: {question!r} → {ranked[:3]} (cited {cited})")
        elif not answer.found:
            report.misses.append(f"refused: {question!r} (cited {cited})")
        else:
            report.misses.append(f"{answer.confidence} miss: {question!r} → {ranked[:3]} (cited {cited})")
        typed = searched(index, question)
        report.searched += bool(typed) and lookup(index, typed).found
    for text in not_rules:
        answer = answered(index, text, replies)
        if not answer.found:
            report.refused += 1
        else:
            report.misses.append(f"answered a non-question: {text!r} → {answer.target}")
    return report
