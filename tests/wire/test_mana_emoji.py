"""Mana symbols over the wire: the bot uploads them as application emoji to a fake Discord on 127.0.0.1, once,
by name, and a second start (a restart, or another shard's process) uploads nothing."""

from __future__ import annotations

import pytest

from tests.data import SCRYFALL_CARDS
from tests.support.fake_scryfall import FakeScryfall


@pytest.fixture
def fake_scryfall():
    with FakeScryfall(SCRYFALL_CARDS) as fake:
        yield fake


async def test_the_symbols_are_uploaded_once_and_a_restart_reuses_them(start_bot, wired, fake_scryfall):
    first = await start_bot(scryfall_api_url=fake_scryfall.base_url, mana_emoji=True)
    await first._symbols

    created = [r for r in wired.requests if r.method == "POST" and r.path.endswith("/emojis")]
    assert len(created) == 75 and len(wired.application_emojis) == 75
    assert all(image.startswith(b"\x89PNG") for image in wired.emoji_images.values())
    green = next(e for e in wired.application_emojis.values() if e["name"] == "mana_G")
    assert first.mana.one("{G}") == f"<:mana_G:{green['id']}>"

    second = await start_bot(scryfall_api_url=fake_scryfall.base_url, mana_emoji=True)
    await second._symbols

    assert len([r for r in wired.requests if r.method == "POST" and r.path.endswith("/emojis")]) == 75
    assert len(wired.application_emojis) == 75 and second.mana.one("{G}") == first.mana.one("{G}")
    assert len(fake_scryfall.requests_to("/symbology")) == 1  # the second start read the kept pictures
    assert not wired.unexpected
