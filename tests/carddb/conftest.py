from __future__ import annotations

from pathlib import Path

import pytest

from bot.carddb.store import CardStore
from bot.carddb.update import update_from_scryfall
from tests.data import SCRYFALL_CARDS
from tests.support.fake_bulk import FakeBulk


@pytest.fixture
def fake_bulk():
    with FakeBulk(SCRYFALL_CARDS) as fake:
        yield fake


@pytest.fixture
def db_path(data_dir: Path) -> Path:
    return data_dir / "cards.sqlite3"


@pytest.fixture
def store(fake_bulk: FakeBulk, db_path: Path):
    """The fake's cards imported the way the bot imports them."""
    update_from_scryfall(db_path, fake_bulk.base_url)
    opened = CardStore(db_path)
    yield opened
    opened.close()
