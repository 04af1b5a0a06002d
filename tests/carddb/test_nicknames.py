"""Nicknames players use for cards: the data file, and each entry against the real card objects."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.carddb.names import extra_kind
from bot.carddb.nicknames import nicknames, resolve_nickname
from bot.text import normalise
from tests.data import SCRYFALL_CARDS
from tests.support.fake_bulk import CONSTRUCTED_CARDS

DATA = Path(__file__).resolve().parents[2] / "bot" / "data" / "nicknames.json"


def real_names() -> dict[str, str]:
    """Every real card (and face) name of the card objects the tests have, by normalised name."""
    cards = [json.loads(line) for line in SCRYFALL_CARDS.read_text(encoding="utf-8").splitlines() if line.strip()]
    cards += CONSTRUCTED_CARDS
    found = {}
    for card in cards:
        if extra_kind(card) is None:
            for name in [card["name"], *(face["name"] for face in card.get("card_faces") or ())]:
                found[normalise(name)] = card["name"]
    return found


def test_the_file_holds_the_nicknames_players_use():
    raw = json.loads(DATA.read_text(encoding="utf-8"))["nicknames"]
    assert {"bob", "jtms", "sfm", "tnn", "w6", "t3feri"} <= set(raw)
    assert all(nickname == normalise(nickname) for nickname in raw)  # written the way they are looked up
    names = [entry["card"] for entry in raw.values()]
    assert all(isinstance(name, str) and name.strip() == name and name for name in names)


def test_every_nickname_says_where_it_is_recorded_and_a_list_says_its_licence():
    data = json.loads(DATA.read_text(encoding="utf-8"))
    sources = data["sources"]
    assert {entry["source"] for entry in data["nicknames"].values()} <= set(sources)
    listed = {key: source for key, source in sources.items() if source["url"]}
    assert listed and all(source["licence"] and source["url"].startswith("https://") for source in listed.values())
    from_lists = [nick for nick, entry in data["nicknames"].items() if entry["source"] in listed]
    assert len(from_lists) > len(data["nicknames"]) / 2  # most come from a public list that allows reuse


def test_a_nickname_resolves_whatever_its_case_and_spacing():
    assert resolve_nickname("JTMS") == "Jace, the Mind Sculptor"
    assert resolve_nickname("  Bob ") == "Dark Confidant"
    assert resolve_nickname("tnn") == "True-Name Nemesis"
    assert resolve_nickname("lightning bolt") is None
    assert resolve_nickname("x" * 10_000) is None


def test_no_nickname_is_itself_the_name_of_a_real_card():
    names = real_names()
    assert not [nickname for nickname in nicknames() if nickname in names]


@pytest.mark.parametrize("nickname", sorted(n for n, name in nicknames().items() if normalise(name) in real_names()))
def test_each_nickname_whose_card_the_tests_hold_names_that_real_card(nickname):
    # The entries for cards outside the test data are checked by the same rule at run time: a nickname is used
    # only when the local copy holds its card (see CardSource.named), so a wrong entry is never a wrong card.
    assert real_names()[normalise(nicknames()[nickname])] == nicknames()[nickname]


@pytest.fixture(scope="module")
def nickname_store(tmp_path_factory):
    """The sample cards with the real cards every nickname stands for, imported the way the bot imports them."""
    from bot.carddb.store import CardStore
    from bot.carddb.update import update_from_scryfall
    from tests.support.fake_bulk import FakeBulk
    from tests.support.nickname_cards import CARDS

    path = tmp_path_factory.mktemp("nicknames") / "cards.sqlite3"
    with FakeBulk(SCRYFALL_CARDS) as fake:
        fake.cards += CARDS
        update_from_scryfall(path, fake.base_url)
    store = CardStore(path)
    yield store
    store.close()


@pytest.mark.parametrize("nickname", sorted(nicknames()))
def test_every_nickname_finds_its_card_by_exact_name_in_the_card_data(nickname_store, nickname):
    name = resolve_nickname(nickname)
    found = nickname_store.named(name)
    assert found is not None and found.card is not None and found.card.name == name
