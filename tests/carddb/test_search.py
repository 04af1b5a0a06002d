"""Simple Scryfall-style searches answered locally; anything more is left to Scryfall's API."""

from __future__ import annotations

import pytest

from bot.carddb import UnsupportedQuery
from bot.carddb.store import CardStore


def names(store: CardStore, query: str, **options) -> list[str]:
    return [card.name for card in store.search(query, **options)]


def test_words_search_names_and_fields_narrow_them(store: CardStore):
    assert names(store, "lightning") == ["Lightning Bolt", "Lightning Helix", "Lightning Rift"]
    assert names(store, "lightning c:w") == ["Lightning Helix"]
    assert names(store, "t:instant o:damage c:r s:m10") == ["Lightning Bolt"]
    assert names(store, 'o:"sacrifice a creature" t:instant') == ["Fling"]
    assert names(store, "bolt -s:m10") == []
    assert "Eagles of the North" in names(store, "kw:plainscycling")


def test_search_never_returns_tokens_playtest_or_rebalanced_cards(store: CardStore):
    # A name containing the word, as on Scryfall; never A-Fling or the Fling art card.
    assert names(store, "fling") == ["Akki Boneflinger", "Fling"]
    assert names(store, "t:token") == []
    assert names(store, "lightning bolt") == ["Lightning Bolt"]


def test_search_within_a_cycling_kind(store: CardStore):
    found = names(store, "t:creature", kind="landtype")
    assert "Eagles of the North" in found and "Step Through" not in found
    assert all("Creature" in card.type_line for card in store.search("t:creature", kind="landtype"))


@pytest.mark.parametrize("query", ["cmc<=3", "c:r or c:u", "(t:goblin)", "pow>2", "is:commander", "", 'o:"open'])
def test_what_only_scryfall_understands_is_refused(store: CardStore, query: str):
    with pytest.raises(UnsupportedQuery):
        store.search(query)


def test_like_wildcards_in_a_search_are_literal(store: CardStore):
    assert names(store, "o:%") == []
    assert names(store, "o:_") == []
