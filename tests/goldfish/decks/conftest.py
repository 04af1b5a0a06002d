"""The sample cards (the cycling sample and every layout) imported once per test process into a local copy, and a
:class:`~bot.carddb.CardData` over a copy of it for each test that resolves lists; for the tests through discord.py,
a bot whose local card data is that copy, with Discord's CDN, Archidekt and TappedOut on 127.0.0.1. Beside it, the
same cards with the Time Spiral cards whose printed names the test data holds, and those names in German, French,
Italian and Japanese (``printed_cards``), imported as the bot imports them."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from bot.carddb import FILE_NAME, CardData
from bot.carddb.printed import FILE_NAME as PRINTED_FILE
from bot.carddb.printed import update_printed
from bot.carddb.update import update_from_scryfall
from bot.config import Config
from bot.goldfish.decks import DeckResolver, LocalCards
from tests.data import LAYOUT_CARDS, SCRYFALL_CARDS
from tests.support.fake_all_cards import missing_cards
from tests.support.fake_bulk import FakeBulk
from tests.support.fake_cdn import SimcordCdn
from tests.support.fake_deck_sites import FakeArchidekt, FakeTappedOut

PRINTED_LANGUAGES = ("de", "fr", "it", "ja")


@pytest.fixture(scope="session")
def imported_cards(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("deck-cards")
    both = folder / "cards.jsonl"
    both.write_bytes(SCRYFALL_CARDS.read_bytes() + LAYOUT_CARDS.read_bytes())
    path = folder / FILE_NAME
    with FakeBulk(both) as fake:
        update_from_scryfall(path, fake.base_url)
    return path


@pytest.fixture(scope="session")
def printed_cards(tmp_path_factory) -> Path:
    """A folder holding the sample cards with the Time Spiral cards the sample lacks (Cancel, Wipe Away, Amrou
    Scout…) and their names as printed in :data:`PRINTED_LANGUAGES` (real ones: ``tests/data/scryfall``)."""
    folder = tmp_path_factory.mktemp("deck-printed")
    both = folder / "cards.jsonl"
    both.write_bytes(SCRYFALL_CARDS.read_bytes() + LAYOUT_CARDS.read_bytes())
    with FakeBulk(both) as fake:
        fake.cards += missing_cards(fake.cards)
        update_from_scryfall(folder / FILE_NAME, fake.base_url)
        update_printed(folder / PRINTED_FILE, fake.base_url, PRINTED_LANGUAGES)
    return folder


@pytest.fixture
async def card_data(imported_cards: Path, data_dir: Path):
    shutil.copyfile(imported_cards, data_dir / FILE_NAME)
    data = await CardData.open(data_dir, "http://127.0.0.1:9")
    yield data
    await data.close()


@pytest.fixture
def resolver(card_data) -> DeckResolver:
    return DeckResolver([LocalCards(card_data)])


@pytest.fixture
def cdn():
    with SimcordCdn() as fake:
        yield fake


@pytest.fixture
def archidekt():
    with FakeArchidekt() as fake:
        yield fake


@pytest.fixture
def tappedout():
    with FakeTappedOut() as fake:
        yield fake


@pytest.fixture
def bot_config(data_dir, imported_cards, cdn, archidekt, tappedout) -> Config:
    shutil.copyfile(imported_cards, data_dir / FILE_NAME)
    return Config(
        data_dir=data_dir,
        scryfall_api_url="http://127.0.0.1:9",
        discord_api_base=cdn.api_base,
        archidekt_url=archidekt.base_url,
        tappedout_url=tappedout.base_url,
    )
