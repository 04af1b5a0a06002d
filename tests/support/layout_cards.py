"""A fake Scryfall serving the sample cards and the real objects of every layout (tests/data/scryfall/layouts.jsonl),
and a bot configuration whose local copy was imported from it: for tests of cards beyond the cycling sample."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from bot.carddb.service import FILE_NAME
from bot.carddb.update import update_from_scryfall
from bot.config import Config
from tests.data import LAYOUT_CARDS, SCRYFALL_CARDS
from tests.support.fake_scryfall import FakeScryfall


@contextmanager
def fake_scryfall_with_layouts(folder: Path) -> Iterator[FakeScryfall]:
    both = folder / "cards.jsonl"
    both.write_bytes(SCRYFALL_CARDS.read_bytes() + LAYOUT_CARDS.read_bytes())
    with FakeScryfall(both) as fake:
        yield fake


def imported_config(data_dir: Path, fake: FakeScryfall, **options) -> Config:
    """The bot's configuration once the fake's bulk data (as it is now) is its local copy."""
    update_from_scryfall(data_dir / FILE_NAME, fake.base_url)
    return Config(data_dir=data_dir, scryfall_api_url=fake.base_url, **options)
