"""Searches are measured on their parse tree: nesting and terms past the limits are refused in one sentence,
double negations drop out, and anything that still overflows Python or SQLite is the user's query error, logged
once a minute at most."""

from __future__ import annotations

import logging
import sqlite3

import pytest

from bot.carddb.query import QueryError, engine, grammar
from bot.carddb.store import CardStore


def names(store: CardStore, query: str, **options) -> list[str]:
    return [card.name for card in store.search(query, page_size=1000, **options).cards]


def nested(depth: int) -> str:
    """A search ``depth`` levels deep on its tree: negations and ``or``s inside each other, a term at each level."""
    query, levels = "t:creature", 0
    while levels < depth:
        if depth - levels >= 2 and levels % 3 == 0:
            query, levels = f"-(o:draw {query})", levels + 2  # a negation, and an "and" inside it
        else:
            query, levels = f"(c:r or {query})", levels + 1
    return query


@pytest.mark.parametrize("count", [44, 45, 300, 901])
def test_any_number_of_leading_negations_is_read_as_one_or_none(store, count):
    query = "-" * count + "t:creature"
    expected = names(store, "-t:creature" if count % 2 else "t:creature")
    assert names(store, query) == expected and expected


def test_double_negations_inside_a_search_drop_out(store):
    assert names(store, "c:r -(-(-t:creature))") == names(store, "c:r -t:creature")
    assert names(store, "-(-(t:land or t:creature))") == names(store, "t:land or t:creature")


def test_redundant_parentheses_are_not_nesting(store):
    assert names(store, "(" * 60 + "t:goblin" + ")" * 60) == names(store, "t:goblin")


def test_nesting_up_to_the_limit_runs_even_inside_a_cycling_kind(store):
    query = nested(grammar.MAX_DEPTH)
    assert grammar._shape(grammar._PARSER.parse(query))[0] == grammar.MAX_DEPTH
    store.search(query, within="kw:cycling mv>=1")  # SQLite's parser takes the deepest SQL the limit allows


@pytest.mark.parametrize(
    "query",
    [
        nested(grammar.MAX_DEPTH + 2),
        'name:/"/ ' + "a (" * 40 + "b" + ")" * 40,  # a quote inside a regular expression opens no quote
        "-(a " * 30 + "b" + ")" * 30,
        "(c:r or " * 14 + "x" + ")" * 14,
    ],
)
def test_deep_nesting_is_refused_in_one_sentence(store, query):
    with pytest.raises(QueryError) as raised:
        store.search(query)
    message = str(raised.value)
    assert message.startswith("That search nests") and f"at most {grammar.MAX_DEPTH}" in message
    assert message.count(". ") == 0


def test_too_many_terms_are_refused_counting_terms_inside_negations(store):
    with pytest.raises(QueryError, match=f"at most {grammar.MAX_TERMS}"):
        store.search(" ".join(f"-o:w{n}" for n in range(grammar.MAX_TERMS + 1)))


@pytest.mark.parametrize(
    ("where", "error"),
    [
        ("compile_query", RecursionError("maximum recursion depth exceeded")),
        ("execute", sqlite3.OperationalError("parser stack overflow")),
    ],
)
def test_an_overflow_past_the_limits_is_a_query_error_logged_once_a_minute(store, monkeypatch, caplog, where, error):
    if where == "compile_query":

        def overflow(*args, **kwargs):
            raise error

        monkeypatch.setattr(engine, "compile_query", overflow)
    else:

        class Overflowing:
            def __init__(self, db):
                self.db = db

            def execute(self, *args):
                raise error

            def set_progress_handler(self, *args):
                self.db.set_progress_handler(*args)

        real = store._db
        monkeypatch.setattr(store, "_db", lambda: Overflowing(real()))
    monkeypatch.setattr(engine, "complaints", engine.RateLimitedLog(engine.log, seconds=60))
    caplog.set_level(logging.WARNING, logger=engine.log.name)

    for _ in range(5):
        with pytest.raises(QueryError) as raised:
            store.search("t:creature")
        assert str(raised.value) == engine.TOO_COMPLEX

    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1 and not warnings[0].exc_info  # one line, no traceback
    assert "t:creature" not in warnings[0].getMessage()  # what the user typed is not logged
