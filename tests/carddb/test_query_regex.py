"""Regular expressions in searches: the time limit, the literals looked for first, and which patterns
are matched with a timeout."""

from __future__ import annotations

import threading
import time

import pytest

from bot.carddb.query import QueryError, QueryTooSlow
from bot.carddb.store import CardStore


def names(store: CardStore, query: str) -> list[str]:
    return [card.name for card in store.search(query, page_size=1000).cards]


def faces(card: dict) -> list[dict]:
    return card.get("card_faces") or [card]


def test_a_catastrophic_regular_expression_is_stopped_within_the_time_limit(store):
    started = time.perf_counter()
    with pytest.raises(QueryTooSlow):
        store.search(r"o:/(.*?,?)*\d$/")
    assert time.perf_counter() - started < 4
    assert names(store, "!fling") == ["Fling"]  # the connection still answers


def test_a_slow_search_in_one_thread_does_not_hold_up_another(store):
    stuck = threading.Thread(target=lambda: pytest.raises(QueryTooSlow, store.search, r"o:/(.*?,?)*\d$/"))
    stuck.start()
    time.sleep(0.05)
    started = time.perf_counter()
    assert names(store, "t:creature c:g pow>=4")
    assert time.perf_counter() - started < 0.5
    stuck.join()


def test_a_too_long_regular_expression_is_refused(store):
    with pytest.raises(QueryError, match="regular expression is 201 characters"):
        store.search("o:/" + "a" * 201 + "/")


@pytest.mark.parametrize(
    "pattern",
    [
        r"\bdraw (a|two|three) cards?\b",
        r"^(when|whenever) .* (enters|dies)",
        r"(?:sacrifice|discard)s? (an?|two) \w+",
        r"cycl(e|ing)",
        r"^[a-m].*(dragon|serpent|drake)$",
        r"x{2}yz|abc",
        r"\{[wubrg]\}\{[wubrg]\}",
    ],
)
def test_the_literals_a_regex_is_filtered_by_are_in_every_text_it_matches(fake_bulk, pattern):
    import regex

    from bot.carddb.query.regexp import literal_filters

    compiled = regex.compile(pattern, regex.IGNORECASE | regex.MULTILINE)
    texts = [(f.get("oracle_text") or "").lower() for card in fake_bulk.cards for f in faces(card)]
    texts += [card["name"].lower() for card in fake_bulk.cards]
    matched = [text for text in texts if compiled.search(text)]
    filters = literal_filters(pattern)
    assert all(any(literal in text for literal in group) for text in matched for group in filters)


@pytest.mark.parametrize(
    ("pattern", "slow"),
    [
        (r"\bdraw (a|two|three) cards?\b", False),
        (r"^(when|whenever) .* (enters|dies)", False),
        (r"\b[a-z]{11,}\b", False),
        (r"(.*?,?)*\d$", True),
        (r"^(a+)+$", True),
        (r"(a|aa)+$", True),
        (r".*a.*b.*c", True),
        (r"(\w)\1", True),
        (r"(?=.*x)y", True),
    ],
)
def test_patterns_that_can_backtrack_without_bound_are_matched_with_a_timeout(pattern, slow):
    from bot.carddb.query.regexp import risky

    assert risky(pattern) is slow
