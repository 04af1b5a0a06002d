"""The card a player means: paper cards first for partial and misspelt names, digital-only cards labelled, and a
stored copy of the previous format upgraded in place, with real Scryfall card objects of both kinds."""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path

import pytest

from bot.carddb.importer import FORMAT, import_cards
from bot.carddb.names import digital_label, is_digital_only
from bot.carddb.service import CardData
from bot.carddb.store import CardStore
from bot.cards.render import render_card, render_text
from tests.data import DIGITAL_AND_PAPER_CARDS, SCRYFALL_CARDS


def real_cards() -> dict[str, dict]:
    with open(DIGITAL_AND_PAPER_CARDS, encoding="utf-8") as lines:
        return {card["name"]: card for card in map(json.loads, lines)}


def sample() -> list[dict]:
    with open(SCRYFALL_CARDS, encoding="utf-8") as lines:
        return [json.loads(line) for line in lines]


def renamed(card: dict, name: str, oracle_id: str) -> dict:
    """A real card object under another name (every other field as Scryfall served it)."""
    return {**card, "name": name, "oracle_id": oracle_id, "id": oracle_id}


@pytest.fixture
def gitrog_store(tmp_path: Path):
    """The case players met, played with real objects: a digital-only card whose name starts with "Gitrog" (Aswan
    Jaguar's object, Astral) and a paper card with "Gitrog" as a later word (Llanowar Elves' object)."""
    cards = real_cards()
    digital = renamed(cards["Aswan Jaguar"], "Gitrog, Horror of Zhava", "0b7a43e1-0000-4000-8000-000000000001")
    paper = renamed(cards["Llanowar Elves"], "The Gitrog Monster", "0b7a43e1-0000-4000-8000-000000000002")
    path = tmp_path / "cards.sqlite3"
    import_cards([*sample(), *cards.values(), digital, paper], path, updated_at="2026-11-20T10:00:00+00:00", source="t")
    store = CardStore(path)
    yield store
    store.close()


def test_digital_only_is_read_from_the_card_not_from_its_printing():
    cards = real_cards()
    assert is_digital_only(cards["Aswan Jaguar"]) and digital_label(cards["Aswan Jaguar"]) == "Digital only (Astral)"
    assert (
        is_digital_only(cards["Lydari Elephant"]) and digital_label(cards["Lydari Elephant"]) == "Digital only (Sega)"
    )
    # An online printing of a paper card (Academy Manufactor's Magic Online promo) is no digital-only card.
    assert cards["Academy Manufactor"]["digital"] and not is_digital_only(cards["Academy Manufactor"])
    assert not is_digital_only(cards["Lightning Bolt"]) and digital_label(cards["Lightning Bolt"]) == ""


def test_a_partial_name_prefers_the_paper_card_over_a_digital_one_found_earlier(gitrog_store: CardStore):
    match = gitrog_store.named("gitrog")
    assert match.card is not None and match.card.name == "The Gitrog Monster"
    assert gitrog_store.named("gitrog monstr").card.name == "The Gitrog Monster"  # misspelt too
    # The quick path (indexed steps only) does not settle for the digital card either.
    assert gitrog_store.named("gitrog", indexed_only=True) is None


def test_the_digital_card_is_found_when_it_is_the_one_named(gitrog_store: CardStore):
    for query in ("Gitrog, Horror of Zhava", "gitrog horror", "aswan jaguar", "lydari"):
        match = gitrog_store.named(query)
        assert match.card is not None and match.card.digital_only, query
    assert gitrog_store.named("gitrog horror").card.name == "Gitrog, Horror of Zhava"


def test_the_columns_of_a_printing_are_stored(gitrog_store: CardStore):
    jaguar = gitrog_store.named("Aswan Jaguar").card
    assert (jaguar.games, jaguar.digital, jaguar.digital_only) == (["astral"], True, True)
    manufactor = gitrog_store.named("Academy Manufactor").card
    assert (manufactor.games, manufactor.digital, manufactor.digital_only) == (["mtgo"], True, False)


def test_a_digital_only_card_is_labelled_wherever_it_is_shown(gitrog_store: CardStore):
    card = gitrog_store.named("Lydari Elephant").card.scryfall
    assert render_card(card).description.startswith("*Digital only (Sega)*\n")
    assert render_text(card).splitlines()[1] == "Digital only (Sega)"
    paper = gitrog_store.named("The Gitrog Monster").card.scryfall
    assert "Digital only" not in render_card(paper).description


async def test_a_copy_of_the_previous_format_is_upgraded_in_place_when_opened(tmp_path: Path):
    path = tmp_path / "cards.sqlite3"
    cards = real_cards()
    import_cards([*sample(), *cards.values()], path, updated_at="2026-11-20T10:00:00+00:00", source="t")
    with sqlite3.connect(path) as db:  # the copy as format 2 wrote it: no printing columns
        for column in ("games", "digital", "digital_only"):
            db.execute(f"ALTER TABLE cards DROP COLUMN {column}")
        db.execute("UPDATE meta SET value = '2' WHERE key = 'format'")

    card_data = await CardData.open(tmp_path, "http://127.0.0.1:9")
    try:
        assert card_data.loaded and card_data._store.meta["format"] == FORMAT
        jaguar = (await card_data.named("Aswan Jaguar")).card
        assert jaguar.digital_only and jaguar.games == ["astral"]
        assert not (await card_data.named("Academy Manufactor")).card.digital_only
        assert not [name for name in os.listdir(tmp_path) if name.endswith(".upgrading")]
    finally:
        await card_data.close()
