"""Scryfall queries for each kind of /cycling search (CR 702.29)."""

from __future__ import annotations

import pytest

from bot.cards.query import KINDS, QueryTooLong, cycling_query


def test_default_query_covers_plain_cycling_and_every_typecycling():
    query = cycling_query()
    for term in ("keyword:cycling", "keyword:typecycling", "keyword:landcycling", 'keyword:"basic landcycling"'):
        assert term in query


def test_extra_terms_are_parenthesised_so_they_cannot_widen_the_search():
    assert cycling_query("basic", "c:r  or  t:dragon") == 'keyword:"basic landcycling" (c:r or t:dragon)'


def test_every_kind_has_a_label_and_a_query():
    assert set(KINDS) == {"any", "plain", "typecycling", "basic", "landtype", "creature"}
    assert all(kind.label and kind.query for kind in KINDS.values())


def test_extra_terms_over_200_characters_are_refused():
    with pytest.raises(QueryTooLong):
        cycling_query("any", "c:r " * 100)


def test_unknown_kind_is_refused():
    with pytest.raises(ValueError):
        cycling_query("nonsense")
