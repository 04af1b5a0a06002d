"""Answers to questions in words: sure, unsure or none, as the ranking believes (see :mod:`bot.rules.ranking.search`).

A sure answer is titled with its rule and leads with the sentence that decides: the subrule itself, or, for a
rule with subrules, the subrule whose own words the question uses most. An unsure answer lists the rules that
may answer, each on one line. A miss lists candidates only when they come close.
"""

from __future__ import annotations

import math

from bot.documents import SURE, UNSURE, Answer, Choice, Cited, Line, clip, is_under, stem
from bot.rules.asking.answers import (
    NOT_LOADED,
    choices,
    cite_related,
    glossary_answer,
    miss,
    pointer_answer,
    rule_lines,
    whole_rule,
)
from bot.rules.ranking import GATE_THRESHOLD, Hit, Ranking, RulesIndex, name_stems
from bot.rules.text import rule_url

CANDIDATES = 5  # rules listed by an unsure answer, at most
RANKED = 6  # the ranking's entries an answer is built from
POOL = 20  # ... and the candidates a language model may pick among (bot.rules.ranking.picker)
FEW_CANDIDATES = 3  # ... at least, when there are that many
# A miss lists the ranking's candidates only when the gate nearly believed the text a question this much.
CLOSE = 0.5
# Whether the whole rule leads when the ranking's first two are its subrules (see sibling_choice); the evaluation
# turns it off to measure what it adds.
SIBLINGS = True


def shown_key(index: RulesIndex, hit: Hit, text: str) -> str:
    """The rule number (or "Glossary: term") an answer about ``hit`` cites first for the question ``text``."""
    if hit.kind == "glossary":
        return f"Glossary: {hit.key}"
    rule = index.document.get(hit.key)
    # A side subrule of a titled rule (702.19c under 702.19 Trample) is answered with the whole rule
    # when the question names its topic: the subrule is then shown in its context.
    if rule is not None and rule.kind == "subrule":
        parent = index.document.get(rule.parent or "")
        if parent is not None and parent.is_titled and set(name_stems(parent.text)) <= set(name_stems(text)):
            return parent.number
    return hit.key


def cited_number(index: RulesIndex, key: str) -> str:
    """The rule a shown key cites: itself, or the rule a glossary term is defined in ("" if none)."""
    if key.startswith("Glossary: "):
        return index.defining_rule(key.removeprefix("Glossary: ")) or ""
    return key


def whole_of(index: RulesIndex, key: str) -> str:
    """The rule a subrule belongs to (704.5g → 704.5); "" for anything else (a rule, a glossary entry)."""
    rule = index.document.get(key) if key[:1].isdigit() else None
    return rule.parent or "" if rule is not None and rule.kind == "subrule" else ""


def sibling_choice(index: RulesIndex, keys: list[str]) -> list[str]:
    """``keys`` (shown keys, best first) with the whole rule leading when the first two are subrules of it, or one
    of its subrules and the rule itself: the ranking can't tell which of them decides, and a judge opens the rule
    (a sure page leads with the first subrule). Otherwise ``keys`` as they are."""
    if len(keys) < 2 or not SIBLINGS:
        return keys
    whole = whole_of(index, keys[0])
    if not whole or whole not in (keys[1], whole_of(index, keys[1])):
        return keys
    return list(dict.fromkeys([whole, *keys]))


def deciding_subrule(index: RulesIndex, number: str, text: str) -> str | None:
    """Of the subrules of ``number``, the one whose own words the question holds most: each word counts by its
    rarity in the rules and by how few of the siblings hold it. None when no subrule holds any."""
    entries = index.searcher.entries
    subrules = [rule.number for rule in index.document.children.get(number, []) if rule.kind == "subrule"]
    rows = [entries.rule_row[key] for key in subrules if key in entries.rule_row]
    if not rows:
        return None
    stems = [s for s in dict.fromkeys(stem(word) for word in index.searcher.terms(text)) if s in entries.idf]
    holding = entries.masks.holding(stems, rows)
    held = {s: len(holding[s]) for s in stems}

    def value(row: int) -> float:
        return sum(entries.idf[s] * math.log(1 + len(rows) / held[s]) for s in stems if row in holding[s])

    best = max(rows, key=value)
    return entries.docs[best][1] if value(best) > 0 else None


def question_answer(index: RulesIndex, text: str, *, examples: bool = True) -> Answer:
    """The answer to a question in words (never raises for what people type)."""
    ranking = index.searcher.rank(text, POOL)
    if index.document.is_excerpt and (pointer := _named_elsewhere(index, text, ranking)) is not None:
        return pointer_answer(index, pointer, text)
    if not ranking.hits or not ranking.confident:
        return question_miss(index, text, ranking)
    keys = list(dict.fromkeys(shown_key(index, hit, text) for hit in ranking.hits[:RANKED]))
    chosen = sibling_choice(index, keys)
    if ranking.sure:
        answer = sure_answer(index, text, chosen, examples=examples, deciding=keys[0] if chosen != keys else None)
    else:
        answer = unsure_answer(index, text, chosen)
    answer.certainty = ranking.certainty
    answer.pool = pool(index, ranking.hits, text)
    return answer


def pool(index: RulesIndex, hits: list[Hit], text: str) -> list[str]:
    """The rules the ranking's entries cite, best first, each once (a glossary term as the rule defining it)."""
    numbers = (cited_number(index, shown_key(index, hit, text)) for hit in hits)
    return list(dict.fromkeys(number for number in numbers if number))[:POOL]


def sure_answer(
    index: RulesIndex, text: str, keys: list[str], *, examples: bool = True, deciding: str | None = None
) -> Answer:
    """The first key's rule, leading with the sentence that decides (``deciding``, one of its subrules, when the
    ranking chose it; else the subrule whose own words the question uses most); the others as related rules."""
    first = keys[0]
    if first.startswith("Glossary: "):
        entry = index.glossary_entry(first.removeprefix("Glossary: "))
        answer = glossary_answer(index, entry, examples=examples, query=text)
        answer.kind = "question"
        answer.cited = answer.cited[:1]
        answer.related = _unique(_others(index, keys[1:], answer) + answer.related)
        cite_related(index, answer)
        return answer
    document = index.document
    rule = document.get(first)
    title = index.heading(first)
    cited = [Cited(first, index.title_of(first))]
    lead: list[Line] = []
    if rule.kind == "subrule":
        lead.append(Line(rule.text, rule.label()))
        whole = first.rstrip("abcdefghijklmnopqrstuvwxyz")
    else:
        whole = first
        if not rule.is_titled:
            lead.append(Line(rule.text, rule.label()))
        chosen = deciding if deciding is not None else deciding_subrule(index, first, text)
        if chosen is not None:
            lead.append(Line(document.get(chosen).text, chosen))
            cited.append(Cited(chosen, index.title_of(chosen)))
    whole_rule_ = document.get(whole)
    shown = whole_rule(index, whole)
    answer = Answer(text, "question", SURE, title, index.edition, lead=lead, cited=cited, url=cited_url(first))
    answer.lines = rule_lines(index, shown, examples=examples, titled=whole if whole_rule_.is_titled else "")
    answer.whole = f"Rule {whole}" + (f" {whole_rule_.text}" if whole_rule_.is_titled else "")
    if len(shown) == 1 and lead and lead[-1].number == whole:
        answer.lines, answer.whole = [], ""  # the lead is the whole rule: nothing behind Next
    answer.related = _others(index, keys[1:], answer) + choices(
        index, index.references(shown), {line.number.rstrip(".") for line in lead} | {first}
    )
    answer.related = _unique(answer.related)
    cite_related(index, answer)
    if document.is_excerpt:
        answer.note = NOT_LOADED
    return answer


def unsure_answer(index: RulesIndex, text: str, keys: list[str]) -> Answer:
    """The rules that may answer, each on one line: public, so the table can pick."""
    numbers = [number for number in (cited_number(index, key) for key in keys) if number]
    found = choices(index, list(dict.fromkeys(numbers)), set(), CANDIDATES)
    if len(found) < FEW_CANDIDATES:
        extra = [hit.key for hit in index.searcher.related(text, 4 * CANDIDATES) if hit.kind == "rule"]
        found += choices(index, extra, {choice.value for choice in found}, CANDIDATES - len(found))
    answer = Answer(
        text,
        "question",
        UNSURE,
        "Rules that may answer this",
        index.edition,
        candidates=found,
        related=list(found),
        cited=[Cited(choice.value, index.title_of(choice.value)) for choice in found],
        url=cited_url(found[0].value) if found else "",
    )
    if index.document.is_excerpt:
        answer.note = NOT_LOADED
    return answer


def question_miss(index: RulesIndex, text: str, ranking: Ranking) -> Answer:
    """Nothing answers: the ranking's best rules are listed only when the text was nearly taken for a question."""
    close: list[Choice] = []
    if ranking.hits and ranking.belief >= CLOSE * GATE_THRESHOLD:
        keys = [cited_number(index, shown_key(index, hit, text)) for hit in ranking.hits]
        close = choices(index, list(dict.fromkeys(keys)), set(), FEW_CANDIDATES)
    lines = ["Nothing in the Comprehensive Rules answers that clearly enough."]
    lines.append("Ask with a rule number (702.29), a term (cycling) or a question about a game.")
    if index.document.is_excerpt:
        lines.append(NOT_LOADED)
    answer = miss(index, text, f"No rule answers “{clip(text, 60)}”", lines, close)
    answer.certainty = 0.0
    return answer


def cited_url(key: str) -> str:
    return rule_url(key) if key[:1].isdigit() else ""


def _others(index: RulesIndex, keys: list[str], answer: Answer) -> list[Choice]:
    """The ranking's other rules, none shown on the page already (the lead, the whole rule's own number)."""
    shown = {cited.number for cited in answer.cited} | {line.number.rstrip(".") for line in answer.lead}
    numbers = []
    for key in keys:
        number = cited_number(index, key)
        if number and not any(number == seen or is_under(number, seen) and seen[-1:].isalpha() for seen in shown):
            numbers.append(number)
    return choices(index, numbers, set(shown))


def _unique(found: list[Choice]) -> list[Choice]:
    seen: set[str] = set()
    out = []
    for choice in found:
        if choice.value not in seen:
            seen.add(choice.value)
            out.append(choice)
    return out


def _named_elsewhere(index: RulesIndex, text: str, ranking: Ranking):
    """On the excerpt: the rule of the full edition a question names outright when the excerpt does not hold it
    ("how does first strike work": 702.7)."""
    outline = index.outline
    if outline is None:
        return None
    pointer = outline.term(text) or outline.named(tuple(stem(word) for word in index.searcher.terms(text)))
    if pointer is None or index.document.get(pointer.number) is not None:
        return None
    if ranking.topic is not None and index.document.get(cited_number(index, shown_key(index, ranking.topic, text))):
        return None
    return pointer
