"""CardData, the bot's card database: async reads, the background refresh, backoff and shutdown."""

from __future__ import annotations

import asyncio
import copy
import dataclasses
import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from bot.carddb import CardData, CardDataUnavailable
from bot.carddb.importer import stored_meta
from bot.carddb.store import CardDataError
from bot.carddb.update import update_from_scryfall
from bot.client import CycleBot
from bot.config import Config
from tests.support.fake_bulk import FakeBulk
from tests.support.waits import until

NEWER = "2026-11-21T09:03:55.101+00:00"


async def wait_for(condition) -> None:
    """Polled: the condition changes in other threads."""
    await until(condition, "the card data to get there")


def clones(fake: FakeBulk, count: int, start: int = 0) -> list[dict]:
    model = next(card for card in fake.cards if card["name"] == "Street Wraith")
    made = []
    for i in range(start, start + count):
        card = copy.deepcopy(model)
        card.update(name=f"Clone Cycler {i:05d}", id=f"f00000d0-0000-4000-8000-{i:012d}")
        made.append(card)
    return made


@pytest.fixture
async def card_data(fake_bulk: FakeBulk, data_dir: Path):
    opened = await CardData.open(data_dir, fake_bulk.base_url, first_retry_seconds=0.05, refresh_seconds=3600)
    yield opened
    await opened.close()


async def test_reads_before_the_first_import_say_to_use_the_api(card_data: CardData):
    assert not card_data.loaded and card_data.info() is None
    with pytest.raises(CardDataUnavailable):
        await card_data.named("Fling")


async def test_a_refresh_loads_the_copy_and_reads_answer_from_it(card_data: CardData, fake_bulk: FakeBulk):
    outcome = await card_data.refresh()
    assert outcome.result.count == len(fake_bulk.cards)
    assert (await card_data.named("fling")).card.set_code == "m20"
    assert await card_data.autocomplete("stom") == ["Bonecrusher Giant // Stomp"]
    assert "Ash Barrens" in {card.name for card in await card_data.cycling("basic")}
    assert (await card_data.collection(["Ice"]))["Ice"].name == "Fire // Ice"
    info = card_data.info()
    assert (info.count, info.updated_at) == (len(fake_bulk.cards), fake_bulk.updated_at)


async def test_a_stored_copy_is_served_at_start_with_no_request(fake_bulk: FakeBulk, data_dir: Path):
    first = await CardData.open(data_dir, fake_bulk.base_url)
    await first.refresh()
    await first.close()
    requests = len(fake_bulk.requests)
    again = await CardData.open(data_dir, fake_bulk.base_url)
    try:
        assert (await again.named("Nix")).card.name == "Nix"
        assert len(fake_bulk.requests) == requests
    finally:
        await again.close()


async def test_a_hundred_concurrent_lookups_make_no_request(card_data: CardData, fake_bulk: FakeBulk):
    await card_data.refresh()
    before = len(fake_bulk.requests)
    names = fake_bulk.card_names()[-100:]
    matches = await asyncio.gather(*(card_data.named(name) for name in names))
    assert [match.card.name for match in matches] == names
    assert len(fake_bulk.requests) == before


async def test_the_background_refresh_backs_off_after_failures_then_recovers(card_data: CardData, fake_bulk):
    fake_bulk.fault = "error"
    card_data.first_retry_seconds = FIRST_RETRY = 0.1
    card_data.start()
    await wait_for(lambda: len(fake_bulk.file_downloads()) >= 4)
    assert not card_data.loaded
    assert "503" in card_data.last_error
    times = [request.time for request in fake_bulk.file_downloads()[:4]]
    gaps = [later - earlier for earlier, later in zip(times, times[1:], strict=False)]
    # Waits of 0.1 s, 0.2 s, 0.4 s; each gap adds the failed attempt's own time, which a loaded machine stretches,
    # so only the lower bounds are sure (a steady 0.1 s would leave the third gap far below 0.4 s).
    assert [gap >= FIRST_RETRY * 2**i - 0.01 for i, gap in enumerate(gaps)] == [True] * 3, gaps
    fake_bulk.fault = None
    await wait_for(lambda: card_data.loaded)
    assert card_data.last_error is None
    assert (await card_data.named("Black Lotus")).card.set_code == "lea"


async def test_lookups_during_a_refresh_see_the_old_copy_or_the_new(card_data: CardData, fake_bulk: FakeBulk):
    await card_data.refresh()
    old_count = len(fake_bulk.cards)
    fake_bulk.cards.extend(clones(fake_bulk, 3000))
    fake_bulk.updated_at = NEWER
    refresh = asyncio.create_task(card_data.refresh())
    seen = set()
    while not refresh.done():
        before = card_data.info().count
        match = await card_data.named("Clone Cycler 02999")
        if card_data.info().count == before:  # no swap while it was read: the answer is that copy's
            seen.add((before, match.card is not None and match.card.name == "Clone Cycler 02999"))
        assert (await card_data.named("Street Wraith")).card is not None
    await refresh
    assert (old_count, False) in seen
    assert seen <= {(old_count, False), (old_count + 3000, True)}
    assert (await card_data.named("Clone Cycler 02999")).card is not None


async def test_close_stops_an_import_in_flight_and_keeps_the_old_copy(card_data: CardData, fake_bulk, data_dir):
    await card_data.refresh()
    fake_bulk.cards.extend(clones(fake_bulk, 20000))
    fake_bulk.updated_at = NEWER
    card_data.start()
    await wait_for(lambda: len(fake_bulk.file_downloads()) == 2)
    await card_data.close()
    assert stored_meta(data_dir / "cards.sqlite3")["updated_at"] != NEWER
    assert sorted(path.name for path in data_dir.iterdir()) == ["cards.sqlite3"]


class TestTheBotOwnsTheCardData:
    @pytest.fixture
    def simcord_bot(self, bot_config: Config, fake_bulk: FakeBulk):
        config = dataclasses.replace(bot_config, scryfall_api_url=fake_bulk.base_url, card_data_auto_update=True)
        return CycleBot(config, extensions=["cogs.about"])

    async def test_the_bot_refreshes_at_start_and_about_shows_the_data(self, simcord_env, channel, alice, fake_bulk):
        bot = simcord_env.bot
        await wait_for(lambda: bot.card_data.loaded)
        result = await alice.slash(channel, "about")
        fields = {field.name: field.value for field in result.response.embeds[0].fields}
        assert fields["Card data"].startswith(f"{len(fake_bulk.cards):,} cards, Scryfall data of 2026-11-20")

    async def test_closing_the_bot_closes_the_card_data(self, simcord_env):
        bot = simcord_env.bot
        await wait_for(lambda: bot.card_data.loaded)
        await bot.close()
        assert not bot.card_data.loaded


async def test_about_says_when_there_is_no_card_data_yet(simcord_env, channel, alice):
    result = await alice.slash(channel, "about")
    fields = {field.name: field.value for field in result.response.embeds[0].fields}
    assert fields["Card data"] == "not downloaded yet: card lookups ask Scryfall directly"


def renamed_over(path: Path, fake: FakeBulk) -> None:
    """A newer copy imported beside ``path`` and renamed over it, as a refresh does before the copy is swapped in."""
    newer = path.with_name("newer.sqlite3")
    update_from_scryfall(newer, fake.base_url)
    os.replace(newer, path)


async def test_a_copy_replaced_on_disk_is_never_read_through_the_old_reader(card_data: CardData, fake_bulk: FakeBulk):
    await card_data.refresh()
    old = card_data._store
    fake_bulk.cards.extend(clones(fake_bulk, 5))
    renamed_over(card_data.path, fake_bulk)

    # A thread that never read the old copy opens its first connection now: by the file's path, which names the newer
    # copy, whose rows the old reader's indexes don't know. It is refused, never handed the newer file's rows.
    def first_read_in_a_new_thread():
        with old:
            return old.collection(["Clone Cycler 00001"])

    with pytest.raises(CardDataError, match="replaced"):
        await asyncio.to_thread(lambda: ThreadPoolExecutor(1).submit(first_read_in_a_new_thread).result())

    # Through the card data, such a read waits for the refresh to swap the newer copy in, and answers from it.
    fresh = ThreadPoolExecutor(1)
    read = asyncio.create_task(
        card_data._read(
            lambda store: (store.count, store.collection(["Clone Cycler 00001"])["Clone Cycler 00001"]), fresh
        )
    )
    await asyncio.sleep(0.1)
    assert not read.done()
    await card_data._reload()
    count, found = await read
    assert count == len(fake_bulk.cards) and found is not None and found.name == "Clone Cycler 00001"
    assert card_data._store is not old
    fresh.shutdown()
