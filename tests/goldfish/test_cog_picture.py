"""The table's picture through the real discord.py stack: attached to the one table message after the text
answer, redrawn when the game changes, from card images served by a fake image host (down, slow, garbage),
kept on disk across a restart, and turned off with /goldfish view."""

from __future__ import annotations

import io

import discord
import pytest
from PIL import Image

from bot.client import CycleBot
from bot.config import Config
from bot.goldfish.table.picture import MAX_BYTES, WIDTH
from bot.hosts.images import user_agent
from cogs.goldfish._picture import FILE_NAME as PICTURE
from tests.cards.conftest import start_slash
from tests.goldfish.cog_support import SLIDE_FULL, SLIDE_SIMPLE, choose, controls, fields, table
from tests.support.fake_images import FakeImageHost, import_cards_on
from tests.support.waits import CEILING, SLACK, until


@pytest.fixture
def image_host():
    with FakeImageHost(slow_seconds=1.0) as host:
        yield host


@pytest.fixture
def bot_config(data_dir, image_host) -> Config:
    """Card data whose image addresses name the fake image host (as the real data names Scryfall's), and the
    fake's host as SCRYFALL_API_URL's, the one other host the image cache asks."""
    import_cards_on(image_host, data_dir)
    return Config(data_dir=data_dir, scryfall_api_url=image_host.base_url)


@pytest.fixture
def cog(simcord_env):
    cog = simcord_env.bot.get_cog("Goldfish")
    assert simcord_env.bot.card_data.loaded
    images = simcord_env.bot.card_images
    # No test here checks the deadlines (test_cog_picture_hosts.py does): a busy machine may keep the fake host
    # seconds from answering.
    images.timeout = images.grace = CEILING
    images.retry_after = 0.0
    return cog


def picture_of(env, message) -> Image.Image | None:
    pictures = [a for a in message.attachments if a.filename == PICTURE]
    if not pictures:
        return None
    data = env.backend.cdn.get(pictures[0].url)
    assert len(data) <= MAX_BYTES and pictures[0].size == len(data)
    image = Image.open(io.BytesIO(data))
    assert image.format == "WEBP"
    image.load()
    return image


async def test_the_table_gets_its_picture_after_the_text_answer_and_it_changes_with_the_game(
    simcord_env, cog, channel, alice, image_host
):
    message = (await alice.slash(channel, "goldfish start", deck="slide", seed=SLIDE_SIMPLE)).response
    await cog.pictures.settled()

    first = picture_of(simcord_env, table(channel))
    assert first is not None and first.width == WIDTH
    assert table(channel).id == message.id and "Life" in fields(table(channel))  # the text stays
    description = table(channel).attachments[0].description
    assert description.startswith("Goldfish table") and "Hand:" in description
    assert "Secluded Steppe (cycling {W})" in description  # the cycling cost is drawn on each hand card too
    assert image_host.requests and {r.user_agent for r in image_host.requests} == {user_agent()}

    await alice.click(message, label="Keep")
    await cog.pictures.settled()
    kept = picture_of(simcord_env, table(channel))
    await choose(alice, message, "gf:land:", "Plains")
    await cog.pictures.settled()
    played = picture_of(simcord_env, table(channel))

    assert kept.tobytes() != played.tobytes()  # the Plains left the hand for the battlefield
    assert len(table(channel).attachments) == 1  # replaced, not piled up
    paths = [r.path for r in image_host.requests]
    assert len(paths) == len(set(paths))  # no image fetched twice
    assert not simcord_env.errors


@pytest.mark.parametrize("mode", ["down", "garbage", "truncated"])
async def test_a_broken_image_host_leaves_the_text_table_alone_and_is_tried_again(
    simcord_env, cog, channel, alice, image_host, mode
):
    image_host.mode = mode
    result = await alice.slash(channel, "goldfish start", deck="slide", seed=SLIDE_SIMPLE)
    await cog.pictures.settled()

    assert result.response.embeds and picture_of(simcord_env, table(channel)) is None
    assert [m for m in channel.history() if m.author.bot and "error" in (m.content or "").lower()] == []

    image_host.mode = "ok"
    await alice.click(result.response, label="Keep")
    await cog.pictures.settled()
    assert picture_of(simcord_env, table(channel)) is not None
    assert not simcord_env.errors


async def test_a_slow_image_host_does_not_hold_up_the_answer(simcord_env, cog, channel, alice, image_host):
    image_host.mode, image_host.slow_seconds = "slow", SLACK  # each image takes longer than the answer may

    result = start_slash(simcord_env, alice, channel, "goldfish start", deck="slide", seed=SLIDE_SIMPLE)
    await until(lambda: result.response is not None, "the text table")

    assert result.response.embeds and "/goldfish log" in result.response.embeds[0].footer.text
    assert picture_of(simcord_env, result.response) is None and cog.pictures.tasks  # still drawing
    await cog.pictures.settled()
    await simcord_env.settle()
    assert picture_of(simcord_env, table(channel)) is not None


async def test_card_images_stay_on_disk_across_a_restart(simcord_env, cog, channel, alice, image_host, bot_config):
    await alice.slash(channel, "goldfish start", deck="slide", seed=SLIDE_SIMPLE)
    await cog.pictures.settled()
    fetched = len(image_host.requests)

    await simcord_env.restart_bot(CycleBot(bot_config))
    restarted = simcord_env.bot.get_cog("Goldfish")
    await alice.slash(channel, "goldfish keep")
    await restarted.pictures.settled()

    assert picture_of(simcord_env, table(channel)) is not None
    assert len(image_host.requests) == fetched


async def test_view_off_takes_the_picture_away_and_keeps_it_away(simcord_env, cog, channel, alice):
    message = (await alice.slash(channel, "goldfish start", deck="slide", seed=SLIDE_SIMPLE)).response
    await cog.pictures.settled()
    assert picture_of(simcord_env, table(channel)) is not None

    off = await alice.slash(channel, "goldfish view", pictures=False)
    await cog.pictures.settled()
    assert off.ephemeral and "Text only" in off.response.content
    assert picture_of(simcord_env, table(channel)) is None

    await alice.click(message, label="Keep")
    await cog.pictures.settled()
    assert picture_of(simcord_env, table(channel)) is None and "**Turn 1**" in table(channel).embeds[0].description

    on = await alice.slash(channel, "goldfish view", pictures=True)
    await cog.pictures.settled()
    assert "Pictures on" in on.response.content and picture_of(simcord_env, table(channel)) is not None


async def test_a_server_can_turn_pictures_off_but_only_with_manage_server(simcord_env, cog, guild, channel, bob):
    refused = await bob.slash(channel, "goldfish view", pictures=False, scope="server")
    assert refused.ephemeral and "Manage Server" in refused.response.content
    assert await cog.pictures.display.pictures_on(guild.id, bob.id)

    role = guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    admin = guild.add_member(simcord_env.create_user("admin"), roles=[role])
    done = await admin.slash(channel, "goldfish view", pictures=False, scope="server")
    assert "every goldfish table in this server" in done.response.content

    await bob.slash(channel, "goldfish start", deck="slide", seed=SLIDE_SIMPLE)
    await cog.pictures.settled()
    assert picture_of(simcord_env, table(channel)) is None
    again = await bob.slash(channel, "goldfish view", pictures=True)
    assert "turned pictures off" in again.response.content


def picture_edits(env) -> int:
    return sum(1 for r in env.http_requests if r.method == "PATCH" and "attachments" in str(r.json or ""))


async def test_a_choice_that_does_not_change_the_game_does_not_draw_it_again(simcord_env, cog, channel, alice):
    message = (await alice.slash(channel, "goldfish start", deck="slide", seed=SLIDE_FULL)).response
    await alice.click(message, label="Mulligan")
    await cog.pictures.settled()
    drawn = picture_edits(simcord_env)
    assert drawn == 2  # the first hand, then the hand after the mulligan

    await alice.click(message, label="Keep (bottom 1)")  # asks which card to put on the bottom: same game
    await cog.pictures.settled()

    assert "gf:bottom:" in str(controls(message)) and picture_edits(simcord_env) == drawn
    assert picture_of(simcord_env, table(channel)) is not None
