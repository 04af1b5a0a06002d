"""Answers built from one edition: a rule number, several numbers or a range, a glossary term, a rule the
bundled excerpt does not hold, and a miss.

A number looked up shows its whole text from page one. A term leads with its definition and its rule's first
words (or the list it holds: "sba" opens on 704.5's state-based actions), the whole rule behind Next. The related
rules are those the shown text refers to, or that refer to the rule: never the rules printed next to it. A rule
the excerpt lacks is named from the full edition's outline with a link to read it, and says once that the full
rules are not loaded here.
"""

from __future__ import annotations

from bot.documents import NONE, SURE, Answer, Choice, Cited, Line, clip
from bot.rules.ranking import Pointer, RulesIndex
from bot.rules.text import GlossaryEntry, NumberRef, Rule, rule_url

NOT_LOADED = "The full rules are not loaded here."

RELATED = 3  # related rules listed on page one
MENU = 20  # rules offered in the menu at most
LIST = 5  # subrules of one rule that make it a list worth opening on ("704.5 The state-based actions are as follows")


def rule_lines(index: RulesIndex, shown: list[Rule], *, examples: bool, titled: str = "") -> list[Line]:
    """The shown rules as lines, each with its examples; the line of the rule ``titled`` is left out: its text is
    the answer's title already."""
    lines: list[Line] = []
    for entry in shown:
        if entry.number != titled:
            lines.append(Line(entry.text, entry.label()))
        if examples:
            lines.extend(Line(example, example=True) for example in entry.examples)
    return lines


def whole_rule(index: RulesIndex, number: str) -> list[Rule]:
    """A rule with every subrule under it (a subrule alone)."""
    rule = index.document.get(number)
    if rule is None:
        return []
    return [rule] if rule.kind == "subrule" else [rule, *index.document.descendants(number)]


def choices(index: RulesIndex, numbers: list[str], shown: set[str], limit: int = MENU) -> list[Choice]:
    """Rules to open, none of them already shown, without repeats."""
    out: list[Choice] = []
    for number in numbers:
        if number in shown or not number:
            continue
        shown.add(number)
        out.append(index.choice(number))
        if len(out) >= limit:
            break
    return out


def cite_related(index: RulesIndex, answer: Answer) -> None:
    """The related rules page one lists are cited too, after the answer's own."""
    answer.cited += [Cited(choice.value, index.title_of(choice.value)) for choice in answer.related[:RELATED]]


def rule_answer(index: RulesIndex, number: str, *, examples: bool = True, query: str = "") -> Answer:
    """A rule, subrule, heading or section by number: its whole text from page one."""
    document = index.document
    rule = document.get(number)
    if rule is None:
        if document.is_excerpt and (index.outline is not None and index.outline.has(number)):
            return pointer_answer(index, Pointer(number, index.title_of(number)), query or number)
        return number_miss(index, number, query or number)
    title = index.heading(number)
    cited = [Cited(number, index.title_of(number))]
    if rule.kind == "section" or (rule.kind == "heading" and index.is_listing(rule)):
        lines = [Line(child.text, child.label()) for child in document.children.get(number, [])]
        if rule.kind == "heading":
            lines.append(Line("Ask for one of these numbers to see its full text."))
        return Answer(
            query or number, "section", SURE, title, index.edition, lines=lines, cited=cited, url=rule_url(number)
        )
    shown = whole_rule(index, number)
    lines = rule_lines(index, shown, examples=examples, titled=number if rule.is_titled else "")
    related = choices(index, index.references(shown), {entry.number for entry in shown})
    return Answer(
        query or number,
        "rule",
        SURE,
        title,
        index.edition,
        lines=lines,
        related=related,
        cited=cited,
        url=rule_url(number),
    )


def numbers_answer(index: RulesIndex, refs: list[NumberRef], *, examples: bool = True, query: str = "") -> Answer:
    """One number answers as :func:`rule_answer`; several (a list or a range) are shown one after another."""
    document = index.document
    if len(refs) == 1 and refs[0].end is None:
        return rule_answer(index, refs[0].start, examples=examples, query=query)
    wanted: list[str] = []
    for ref in refs:
        wanted += index.completer.between(ref.start, ref.end) if ref.end else [ref.start]
    found = [number for number in dict.fromkeys(wanted) if number in document.by_number]
    missing = [str(ref) for ref in refs if not ref.end and ref.start not in document.by_number]
    if not found:
        return rule_answer(index, refs[0].start, examples=examples, query=query)
    shown: list[Rule] = []
    for number in found:
        shown += [entry for entry in whole_rule(index, number) if entry not in shown]
    lines = rule_lines(index, shown, examples=examples)
    if missing:
        where = "in the bundled excerpt" if document.is_excerpt else "in these rules"
        lines.append(Line(f"Not {where}: {', '.join(missing)}."))
    listed = ", ".join(str(ref) for ref in refs)
    contexts = {index.title_of(number) for number in found}
    title = f"Rules {listed}" + (f" · {contexts.pop()}" if len(contexts) == 1 and "" not in contexts else "")
    related = choices(index, index.references(shown), {entry.number for entry in shown})
    cited = [Cited(number, index.title_of(number)) for number in found]
    return Answer(
        query or listed,
        "rule",
        SURE,
        clip(title, 256),
        index.edition,
        lines=lines,
        related=related,
        cited=cited,
        url=rule_url(found[0]),
    )


def glossary_answer(
    index: RulesIndex, entry: GlossaryEntry, *, examples: bool = True, query: str = "", confidence: str = SURE
) -> Answer:
    """A term: its definition and the first words of the rule defining it, the whole rule behind Next."""
    document = index.document
    typed = entry
    if entry.redirect and (redirected := index.glossary_entry(entry.redirect)) is not None:
        entry = redirected
    lead = [Line(part) for part in entry.definition.split("\n")]
    if typed is not entry:
        lead.insert(0, Line(f"“{typed.term}” is listed under “{entry.term}”."))
    defining = index.defining_rule_of(entry)
    rule = document.get(defining) if defining else None
    title = clip(f"{entry.term} · {defining}" if defining else entry.term, 256)
    cited = [Cited(defining or "", entry.term if not defining else index.title_of(defining) or entry.term)]
    answer = Answer(query or entry.term, "glossary", confidence, title, index.edition, lead=lead, cited=cited)
    refs = list(index.find_references(entry.definition))
    if rule is None:
        answer.related = choices(index, refs, set())
        cite_related(index, answer)
        return answer
    answer.url = rule_url(defining)
    children = [child for child in document.children.get(defining, []) if child.kind != "section"]
    if rule.kind in ("section", "heading") and index.is_listing(rule):
        answer.related = choices(index, [child.number for child in children] + refs, {defining})
        cite_related(index, answer)
        return answer
    shown = whole_rule(index, defining)
    listing = next((child for child in children if len(document.children.get(child.number, [])) >= LIST), None)
    first = listing or next((child for child in children if not child.is_titled), None)
    if rule.kind == "subrule" or not rule.is_titled and not children:
        answer.lead.append(Line(rule.text, rule.label()))
    elif first is not None:
        answer.lead.append(Line(first.text, first.label()))
        if listing is not None:  # the list players look for, as far as page one holds it
            answer.lead += [Line(item.text, item.label()) for item in document.children[listing.number]]
    # The title names the defining rule, and the lead shows its first subrule: neither is listed again.
    on_page = {defining} | {line.number.rstrip(".") for line in answer.lead if line.number}
    answer.lines = rule_lines(index, shown, examples=examples, titled=defining if rule.is_titled else "")
    answer.whole = f"Rule {defining}" + (f" {rule.text}" if rule.is_titled else "")
    answer.related = choices(index, refs + index.references(shown), on_page)
    answer.parts = choices(index, [child.number for child in children], on_page | {c.value for c in answer.related})
    cite_related(index, answer)
    return answer


def pointer_answer(index: RulesIndex, pointer: Pointer, query: str) -> Answer:
    """A rule the bundled excerpt does not hold, named from the full edition's outline, with where to read it."""
    number = pointer.number
    where = f"“{pointer.term}” is defined in rule {number}" if pointer.term else f"Rule {number}"
    title = clip(f"{number} {pointer.title}" if pointer.title else f"Rule {number}", 256)
    lead = [
        Line(f"{where} of the Comprehensive Rules: read it online.", links=(rule_url(number),)),
        Line(NOT_LOADED),
    ]
    return Answer(
        query,
        "excerpt",
        SURE,
        title,
        index.edition,
        lead=lead,
        related=choices(index, index.referring_to(number), set()),
        cited=[Cited(number, pointer.title)],
        url=rule_url(number),
    )


def miss(index: RulesIndex, query: str, title: str, lines: list[str], candidates: list[Choice] | None = None) -> Answer:
    """Nothing answers ``query``: said privately, with the rules that come close, if any do."""
    shown = [Line(text) for text in lines]
    found = list(candidates or [])
    return Answer(
        query, "none", NONE, clip(title, 256), index.edition, lead=shown, candidates=found, related=list(found)
    )


def number_miss(index: RulesIndex, number: str, query: str) -> Answer:
    """A rule number that does not exist: the numbers close to it, when there are any (702.299 → 702.29)."""
    head = number.split(".")[0]
    close = [choice for choice in index.nearby(number) if choice.value.split(".")[0] == head]
    lines = [f"There is no rule {number} in these rules."]
    if index.document.is_excerpt:
        lines = [f"There is no rule {number} in the Comprehensive Rules."]
    return miss(index, query, f"No rule {number}", lines, close)
