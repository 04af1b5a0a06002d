"""Regular expressions in searches: matched in linear time, stopped at the search's deadline, refused in one
sentence when they cannot be matched that way, and the literals looked for first."""

from __future__ import annotations

import contextlib
import threading
import time

import pytest

from bot.carddb.query import QueryError, QueryTooSlow, regexp
from bot.carddb.store import CardStore
from tests.support.waits import HANG, SLACK


def names(store: CardStore, query: str) -> list[str]:
    return [card.name for card in store.search(query, page_size=1000).cards]


def faces(card: dict) -> list[dict]:
    return card.get("card_faces") or [card]


@pytest.mark.parametrize(
    ("pattern", "same_as"),
    [(r"(.*?,?)*\d$", r"\d$"), (r"^(a+)+$", r"^a+$"), (r"(\w+\s?)*cycling$", r"cycling$"), (r"(x+x+)+y", r"xxy")],
)
def test_a_catastrophic_regular_expression_is_answered_in_linear_time(store, pattern, same_as):
    # The search runs in this thread: its CPU time, which other work on the machine does not stretch.
    started = time.thread_time()
    found = names(store, f"o:/{pattern}/")
    assert time.thread_time() - started < 0.5
    assert found == names(store, f"o:/{same_as}/")


def test_a_search_is_stopped_at_its_deadline_even_mid_regex(store):
    # Every card's text is tried against ten large patterns: far more than 50 ms of matching in all.
    query = " or ".join(f"o:/(?:.?){{900}}[{letter}]q/" for letter in "abcdefghij")
    started = time.thread_time()
    with pytest.raises(QueryTooSlow, match="took over 0.05 s"):
        store.search(query, budget=0.05)
    # Stopped mid-search (the whole search takes about a second of CPU here), not at its end; the benchmark times
    # it. CPU time: a busy machine stretches the wall-clock time of any search, never the work one does.
    assert time.thread_time() - started < 0.5
    assert names(store, "!fling") == ["Fling"]  # the connection still answers


def test_a_search_whose_deadline_has_passed_does_not_start(store):
    with pytest.raises(QueryTooSlow):
        store.search("t:creature", deadline=time.perf_counter() - 0.01)


def test_a_slow_search_in_one_thread_does_not_hold_up_another(store):
    query = " or ".join(f"o:/(?:.?){{900}}[{letter}]q/" for letter in "abcdefghij")
    finished = []

    def slow() -> None:
        with contextlib.suppress(QueryTooSlow):
            store.search(query, budget=HANG)  # to its end: about a second, longer on a busy machine
        finished.append(time.perf_counter())

    stuck = threading.Thread(target=slow)
    stuck.start()
    time.sleep(0.05)
    started = time.perf_counter()
    assert names(store, "t:creature c:g pow>=4")
    assert not finished  # answered while the slow one still ran, not after it
    assert time.perf_counter() - started < SLACK
    stuck.join()


@pytest.mark.parametrize(
    "pattern", [r"(\w)\1", r"(?=.*draw)cycling", r"(?<!basic )land", r"(?!x)y", r"a++", r"(?>ab)c"]
)
def test_back_references_and_lookaround_are_refused_in_one_sentence(store, pattern):
    with pytest.raises(QueryError) as raised:
        store.search(f"o:/{pattern}/")
    assert str(raised.value) == regexp.LINEAR_ONLY and str(raised.value).count(". ") == 0


@pytest.mark.parametrize(
    "pattern", [".{0,999}" * 3, "(?:.{0,9})?" + ".{0,999}" * 20 + r"$\d", r"a{1001}", r"(.{0,99}){0,99}"]
)
def test_a_pattern_too_large_to_match_quickly_is_refused(store, pattern):
    with pytest.raises(QueryError) as raised:
        store.search(f"o:/{pattern}/")
    assert str(raised.value) == regexp.TOO_LARGE


def test_an_unreadable_pattern_says_why_without_the_flags_the_bot_adds(store):
    with pytest.raises(QueryError, match=r"missing \)") as raised:
        store.search("o:/draw (a/")
    assert "(?m)" not in str(raised.value)


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
    texts = [(f.get("oracle_text") or "").lower() for card in fake_bulk.cards for f in faces(card)]
    texts += [card["name"].lower() for card in fake_bulk.cards]
    matched = [text for text in texts if regexp.matches(pattern, text)]
    filters = regexp.literal_filters(pattern)
    assert all(any(literal in text for literal in group) for text in matched for group in filters)
