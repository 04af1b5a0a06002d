"""The sample cards (the cycling sample and every layout) imported once per test process into a local copy, and a
:class:`~bot.carddb.CardData` over a copy of it for each test that resolves lists."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from bot.carddb import FILE_NAME, CardData
from bot.carddb.update import update_from_scryfall
from bot.goldfish.decks import DeckResolver, LocalCards
from tests.data import LAYOUT_CARDS, SCRYFALL_CARDS
from tests.support.fake_bulk import FakeBulk


@pytest.fixture(scope="session")
def imported_cards(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("deck-cards")
    both = folder / "cards.jsonl"
    both.write_bytes(SCRYFALL_CARDS.read_bytes() + LAYOUT_CARDS.read_bytes())
    path = folder / FILE_NAME
    with FakeBulk(both) as fake:
        update_from_scryfall(path, fake.base_url)
    return path


@pytest.fixture
async def card_data(imported_cards: Path, data_dir: Path):
    shutil.copyfile(imported_cards, data_dir / FILE_NAME)
    data = await CardData.open(data_dir, "http://127.0.0.1:9")
    yield data
    await data.close()


@pytest.fixture
def resolver(card_data) -> DeckResolver:
    return DeckResolver([LocalCards(card_data)])
