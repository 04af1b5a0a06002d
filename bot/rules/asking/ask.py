"""One place that answers a rules query, for Discord and the terminal alike.

A query is routed by what it is: a rule's history ("history 702.29"), what the last update changed
("changes"), rule numbers or a range, a glossary term, or a question in words, which may name cards. Numbers,
terms and questions without cards are answered from the loaded edition at once (:func:`lookup`); history,
changes and card questions read files or the card data's pool, so a caller that must answer quickly (a slash
command) acknowledges first when :func:`waits` says so.
"""

from __future__ import annotations

from bot.documents import Answer
from bot.rules.asking.answers import glossary_answer, miss, numbers_answer
from bot.rules.asking.card_facts import CardFinder
from bot.rules.asking.cards import answer_with_cards
from bot.rules.asking.questions import question_answer
from bot.rules.editions import is_changes_query, is_history_query
from bot.rules.ranking import MAX_QUERY, RulesIndex
from bot.rules.text import find_numbers

EMPTY, TOO_LONG, HISTORY, CHANGES, NUMBERS, TERM, QUESTION = (
    "empty",
    "too long",
    "history",
    "changes",
    "numbers",
    "term",
    "question",
)


def route(index: RulesIndex, query: str) -> str:
    """What ``query`` asks for (one of the names above)."""
    cleaned = " ".join(query.split())
    if not cleaned:
        return EMPTY
    if is_history_query(cleaned):
        return HISTORY
    if is_changes_query(cleaned):
        return CHANGES
    if len(cleaned) > MAX_QUERY:
        return TOO_LONG
    if find_numbers(cleaned):
        return NUMBERS
    if index.is_term(cleaned) or (index.outline is not None and _outline_term(index, cleaned)):
        return TERM
    return QUESTION


def lookup(index: RulesIndex, query: str, *, examples: bool = True) -> Answer:
    """Numbers, a term or a question, from the rules alone (no card data, no other edition); never raises for
    what people type."""
    cleaned = " ".join(query.split())
    kind = route(index, cleaned)
    if kind == EMPTY:
        return miss(index, query, "Nothing asked", ["Ask for a rule number such as 702.29 or a term such as cycling."])
    if kind == TOO_LONG:
        return miss(
            index,
            cleaned[:60] + "…",
            "That is too long to look up",
            [f"That is {len(cleaned):,} characters; ask with a rule number or a few words (at most {MAX_QUERY})."],
        )
    if kind == NUMBERS:
        return numbers_answer(index, find_numbers(cleaned), examples=examples, query=cleaned)
    if kind == TERM:
        entry = index.glossary_entry(cleaned, follow=False)
        if entry is not None:
            return glossary_answer(index, entry, examples=examples, query=cleaned)
    return question_answer(index, cleaned, examples=examples)


def waits(index: RulesIndex, query: str, cards: CardFinder | None) -> bool:
    """Whether answering ``query`` may wait on a pool (card data) or on files (history, changes)."""
    kind = route(index, query)
    if kind in (HISTORY, CHANGES):
        return True
    return kind == QUESTION and cards is not None and cards.ready()


async def answer_about(index: RulesIndex, query: str, cards: CardFinder | None, *, examples: bool = True) -> Answer:
    """A question, with the cards it names when card data is loaded; numbers and terms as :func:`lookup`."""
    cleaned = " ".join(query.split())
    if cards is not None and cards.ready() and route(index, cleaned) == QUESTION:
        found = await cards.find(index, cleaned)
        if found is not None and found.cards:
            return answer_with_cards(index, cleaned, found.asked, found.cards, found.more, found.shared)
    return lookup(index, cleaned, examples=examples)


def _outline_term(index: RulesIndex, text: str) -> bool:
    """On the excerpt: a glossary term of the full edition ("first strike", "frist strike")."""
    return index.document.is_excerpt and len(text.split()) <= 4 and index.outline.term(text) is not None
