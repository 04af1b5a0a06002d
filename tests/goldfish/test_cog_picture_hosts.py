"""A hostile image host and the table's picture, through the real discord.py stack: images sent a byte a second
cost one table its picture after the grace period, not the other channels theirs; images at the bot's limits
are drawn like any other."""

from __future__ import annotations

import time
import urllib.parse

import pytest

from bot.config import Config
from bot.goldfish.decks import preset_decks
from bot.goldfish.table.view import CardKey
from cogs.goldfish._picture import FILE_NAME as PICTURE
from tests.cards.conftest import start_slash
from tests.goldfish.cog_support import SLIDE_SIMPLE, table
from tests.support.fake_images import FakeImageHost, huge_jpeg, import_cards_on
from tests.support.waits import CEILING, HANG

GRACE = 2.0  # long enough for a busy machine to start sending an ordinary image, far shorter than a trickle


@pytest.fixture
def image_host():
    with FakeImageHost() as host:
        yield host


@pytest.fixture
def bot_config(data_dir, image_host) -> Config:
    import_cards_on(image_host, data_dir)
    return Config(data_dir=data_dir, scryfall_api_url=image_host.base_url)


@pytest.fixture
def cog(simcord_env):
    cog = simcord_env.bot.get_cog("Goldfish")
    images = simcord_env.bot.card_images
    images.timeout, images.grace, images.min_rate, images.retry_after = CEILING, GRACE, 2000, 0.0
    return cog


def has_picture(channel) -> bool:
    return any(a.filename == PICTURE for a in table(channel).attachments)


async def paths_of(cog, deck: str) -> set[str]:
    urls = await cog.pictures.source.urls([CardKey(name) for name in set(preset_decks()[deck].cards)])
    return {urllib.parse.urlsplit(url).path for url in urls.values()}


async def test_a_host_sending_a_byte_a_second_costs_one_table_its_picture_not_the_others(
    simcord_env, cog, guild, alice, bob, image_host
):
    slide, two_colour = await paths_of(cog, "slide"), await paths_of(cog, "two-colour")
    assert len(slide - two_colour) >= 4  # enough to hold every fetcher
    image_host.path_modes = {path: "trickle" for path in slide - two_colour}
    tables, other = guild.create_text_channel("tables"), guild.create_text_channel("other-tables")

    cog.bot.card_images.timeout = HANG  # without the grace period, each trickling image would hold on this long
    started = time.monotonic()
    alices = start_slash(simcord_env, alice, tables, "goldfish start", deck="slide", seed=SLIDE_SIMPLE)
    bobs = start_slash(simcord_env, bob, other, "goldfish start", deck="two-colour", seed=3)
    await simcord_env.settle()
    await cog.pictures.settled()
    elapsed = time.monotonic() - started

    assert alices.response.embeds and bobs.response.embeds  # both text tables answered at once
    assert has_picture(other)  # Bob's picture, though Alice's images held the fetchers for a while
    assert not has_picture(tables)  # Alice's table stays text: its images never came
    assert elapsed < HANG / 2  # the grace period per image and a busy machine's slack, not the timeout
    assert not simcord_env.errors


async def test_a_table_of_the_largest_accepted_images_is_drawn(simcord_env, cog, channel, alice, image_host):
    image_host.maker = huge_jpeg
    images = cog.bot.card_images
    images.grace = images.timeout = CEILING  # the fake takes a moment to make each 2 MB image, longer when busy
    await alice.slash(channel, "goldfish start", deck="slide", seed=SLIDE_SIMPLE)
    await cog.pictures.settled()
    assert has_picture(channel)
