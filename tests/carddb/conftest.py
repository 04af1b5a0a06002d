from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from bot.carddb.importer import stored_meta
from bot.carddb.store import CardStore
from bot.carddb.update import update_from_scryfall
from tests.data import SCRYFALL_CARDS
from tests.support.fake_bulk import FakeBulk

# A listing date after the fake's own: the file on offer once a copy is stored (see ``stored``).
NEWER = "2026-11-21T09:03:55.101+00:00"


@pytest.fixture
def fake_bulk():
    with FakeBulk(SCRYFALL_CARDS) as fake:
        yield fake


@pytest.fixture
def db_path(data_dir: Path) -> Path:
    return data_dir / "cards.sqlite3"


@pytest.fixture(scope="session")
def imported_copy(tmp_path_factory) -> Path:
    """The sample cards imported once per test process, the way the bot imports them (from the fake's bulk
    listing); every test that reads them gets a copy of its own."""
    path = tmp_path_factory.mktemp("imported") / "cards.sqlite3"
    with FakeBulk(SCRYFALL_CARDS) as fake:
        update_from_scryfall(path, fake.base_url)
    return path


@pytest.fixture
def store(imported_copy: Path, db_path: Path):
    """The fake's cards imported the way the bot imports them, in this test's own file."""
    shutil.copyfile(imported_copy, db_path)
    opened = CardStore(db_path)
    yield opened
    opened.close()


@pytest.fixture
def stored(fake_bulk: FakeBulk, db_path: Path) -> dict[str, str]:
    """A good copy imported before the host turns hostile; a newer file is then on offer."""
    update_from_scryfall(db_path, fake_bulk.base_url)
    fake_bulk.updated_at = NEWER
    return stored_meta(db_path)


def leftovers(db_path: Path) -> list[str]:
    """What an update left beside the card data (temporary files it should have removed)."""
    return sorted(p.name for p in db_path.parent.iterdir() if p.name != db_path.name)
