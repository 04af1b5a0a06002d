"""Which entry of one Comprehensive Rules edition is which entry of the next, across renumberings and rewordings.

Each new keyword or rule shifts the numbers after it (Cycling was 702.26 in 2009 and is 702.29 now), so an
entry is followed by what it says, not by its number:

1. the two editions are aligned as sequences of texts, the way ``diff`` aligns lines (rule references
   masked, so a renumbered cross-reference does not break a match);
2. an entry left over that says exactly what a left-over entry of the other edition says has moved;
3. a left-over entry is paired with the most similar left-over entry of the same kind under the
   corresponding parent (a subrule under its rule's match, a rule under its heading's match);
4. a left-over rule or subrule still unpaired keeps its number when the same number under the same parent
   is also left over: the rules were rewritten in place (509.2 in November 2024).
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass
from difflib import SequenceMatcher

from rapidfuzz import fuzz

from bot.documents import even_out
from bot.rules.text import Document, Rule

# A rule or heading number inside a rule's text ("See rule 702.29", "rules 601.2a-h").
# (No word boundaries: they make the search several times slower, and a longer number masked in part is
# masked alike in both editions.)
REFERENCE_RE = re.compile(r"\d{3}(?:\.\d+[a-z]?)?")
# Joins every entry's text into one string, so that the evening-out runs once per edition, not per entry.
_SEPARATOR = "\x1e"
# Similarity (0-100) for a left-over entry to count as the same one reworded: rules and subrules, and titles.
SIMILAR_TEXT = 60.0
SIMILAR_TITLE = 80.0
# Rewritten in place keeps a number only when the texts still share most of their words: below this, the
# old rule was removed and a new one took its number (the history then shows both).
SAME_NUMBER_TEXT = 50.0
# A subrule that moved to another rule of the same heading must be nearly the same text.
MOVED_TEXT = 85.0


def comparable(rule: Rule) -> str:
    """A rule's words and examples with the typography and spacing evened out (not a rewording)."""
    return comparable_texts([rule])[0]


def comparable_texts(rules: list[Rule]) -> list[str]:
    joined = _SEPARATOR.join(" ".join([rule.text, *(f"Example: {e}" for e in rule.examples)]) for rule in rules)
    return [" ".join(part.split()) for part in even_out(joined).split(_SEPARATOR)]


def masked(text: str) -> str:
    """``text`` with its rule references masked: what stays when only the numbering changed."""
    return REFERENCE_RE.sub("#", text).casefold()


@dataclass(slots=True)
class Prepared:
    """What alignment needs of one edition, computed once: texts, keys and each entry's parent."""

    document: Document
    texts: list[str]
    keys: list[tuple[str, str]]
    parents: list[int]  # the index of each entry's parent entry, -1 for none

    @classmethod
    def of(cls, document: Document) -> Prepared:
        texts = comparable_texts(document.entries)
        masks = masked(_SEPARATOR.join(texts)).split(_SEPARATOR)
        keys = [(rule.kind, mask) for rule, mask in zip(document.entries, masks, strict=True)]
        last: dict[str, int] = {}
        parents = []
        for index, rule in enumerate(document.entries):
            parent = rule.parent
            parents.append(last.get(parent, -1) if parent is not None else -1)
            last[rule.number] = index
        return cls(document, texts, keys, parents)


def _similarity(old: Prepared, i: int, new: Prepared, j: int) -> float:
    """Titles by their letters; texts by their words, so that a sentence added or dropped still matches."""
    a, b = old.keys[i][1], new.keys[j][1]
    if old.document.entries[i].is_titled:
        return fuzz.ratio(a, b)
    return (fuzz.token_set_ratio(a, b) + fuzz.token_sort_ratio(a, b)) / 2


def _pair_greedily(scored: list[tuple[float, int, int]], forward: list[int], backward: list[int]) -> None:
    for _score, i, j in sorted(scored, key=lambda item: (-item[0], item[1], item[2])):
        if forward[i] < 0 and backward[j] < 0:
            forward[i], backward[j] = j, i


def align(old: Prepared, new: Prepared) -> list[int]:
    """For each entry of ``old``, the index of the same entry in ``new``, or -1 where it is gone."""
    forward = [-1] * len(old.keys)
    backward = [-1] * len(new.keys)
    matcher = SequenceMatcher(None, old.keys, new.keys, autojunk=False)
    for block in matcher.get_matching_blocks():
        for offset in range(block.size):
            forward[block.a + offset], backward[block.b + offset] = block.b + offset, block.a + offset

    # Moved without a change: the same text, once on each side.
    left_old: dict[tuple[str, str], list[int]] = defaultdict(list)
    left_new: dict[tuple[str, str], list[int]] = defaultdict(list)
    for i, key in enumerate(old.keys):
        if forward[i] < 0:
            left_old[key].append(i)
    for j, key in enumerate(new.keys):
        if backward[j] < 0:
            left_new[key].append(j)
    for key, olds in left_old.items():
        news = left_new.get(key, [])
        for i, j in zip(olds, news, strict=False):
            forward[i], backward[j] = j, i

    # Reworded: the most similar left-over entry of the same kind under the corresponding parent.
    # Parents are paired before their children because entries come in document order.
    for kinds in (("section", "heading"), ("rule",), ("subrule",)):
        _pair_similar(old, new, forward, backward, kinds)
    _pair_moved_subrules(old, new, forward, backward)
    _pair_by_number(old, new, forward, backward)
    return forward


def _mapped_parent(old: Prepared, i: int, forward: list[int]) -> int:
    parent = old.parents[i]
    return forward[parent] if parent >= 0 else -1


def _pair_similar(
    old: Prepared, new: Prepared, forward: list[int], backward: list[int], kinds: tuple[str, ...]
) -> None:
    candidates: dict[tuple[str, int], list[int]] = defaultdict(list)
    for j, rule in enumerate(new.document.entries):
        if backward[j] < 0 and rule.kind in kinds:
            candidates[(rule.kind, new.parents[j])].append(j)
    scored = []
    for i, rule in enumerate(old.document.entries):
        if forward[i] >= 0 or rule.kind not in kinds:
            continue
        parent = _mapped_parent(old, i, forward)
        if old.parents[i] >= 0 and parent < 0:
            continue
        threshold = SIMILAR_TITLE if rule.is_titled else SIMILAR_TEXT
        for j in candidates.get((rule.kind, parent), ()):
            if rule.is_titled != new.document.entries[j].is_titled:
                continue
            score = _similarity(old, i, new, j)
            if score >= threshold:
                scored.append((score, i, j))
    _pair_greedily(scored, forward, backward)


def _heading_of(prepared: Prepared, index: int) -> int:
    while index >= 0 and prepared.document.entries[index].kind not in ("heading", "section"):
        index = prepared.parents[index]
    return index


def _pair_moved_subrules(old: Prepared, new: Prepared, forward: list[int], backward: list[int]) -> None:
    """A subrule moved to another rule of the corresponding heading, nearly unchanged."""
    candidates: dict[int, list[int]] = defaultdict(list)
    for j, rule in enumerate(new.document.entries):
        if backward[j] < 0 and rule.kind == "subrule":
            candidates[_heading_of(new, j)].append(j)
    scored = []
    for i, rule in enumerate(old.document.entries):
        if forward[i] >= 0 or rule.kind != "subrule":
            continue
        heading = _heading_of(old, i)
        target = forward[heading] if heading >= 0 else -1
        for j in candidates.get(target, ()) if target >= 0 else ():
            score = fuzz.ratio(old.keys[i][1], new.keys[j][1], score_cutoff=MOVED_TEXT)
            if score:
                scored.append((score, i, j))
    _pair_greedily(scored, forward, backward)


def _pair_by_number(old: Prepared, new: Prepared, forward: list[int], backward: list[int]) -> None:
    """Rewritten in place: the same number under the same parent, both sides otherwise unpaired."""
    left_new: dict[str, int] = {}
    for j, rule in enumerate(new.document.entries):
        if backward[j] < 0 and rule.kind in ("rule", "subrule") and not rule.is_titled:
            left_new.setdefault(rule.number, j)
    for i, rule in enumerate(old.document.entries):
        if forward[i] >= 0 or rule.kind not in ("rule", "subrule") or rule.is_titled:
            continue
        j = left_new.get(rule.number, -1)
        if j < 0 or backward[j] >= 0:
            continue
        if _mapped_parent(old, i, forward) != new.parents[j]:
            continue
        if not fuzz.token_set_ratio(old.keys[i][1], new.keys[j][1], score_cutoff=SAME_NUMBER_TEXT):
            continue
        forward[i], backward[j] = j, i
