"""The goldfish table's picture over the wire: a multipart edit of the table that the fake Discord accepts under
Discord's upload limit, and refuses over it; sent through the interaction that posted the table while its token lasts,
else through the channel."""

from __future__ import annotations

import io

import discord
import pytest
from PIL import Image

from bot.goldfish.table.picture import MAX_BYTES
from cogs.goldfish._picture import FILE_NAME
from tests.support.fake_discord import ATTACHMENT_SIZE_LIMIT, FakeDiscord
from tests.support.fake_images import FakeImageHost, import_cards_on
from tests.support.waits import CEILING
from tests.wire.test_processes import SLIDE_SIMPLE, command, goldfish


async def start_game(fake: FakeDiscord) -> dict:
    deck = {"name": "deck", "type": 3, "value": "slide"}
    seed = {"name": "seed", "type": 4, "value": SLIDE_SIMPLE}
    return await command(fake, fake.guild_id, "goldfish", goldfish("start", deck, seed))


@pytest.fixture
def image_host():
    with FakeImageHost() as host:
        yield host


@pytest.fixture
def card_data(data_dir, image_host):
    import_cards_on(image_host, data_dir)


@pytest.mark.parametrize("token", ["live", "expired"])
async def test_the_table_picture_is_an_attachment_discord_accepts(
    start_bot, wired: FakeDiscord, card_data, image_host, token
):
    bot = await start_bot(["cogs.goldfish"], scryfall_api_url=image_host.base_url)
    # This test checks the attachment, not the image host's deadlines (tests/goldfish/test_cog_picture_hosts.py
    # does): on a busy machine the fake host, in this process, may take longer than the cache's 5 s to answer,
    # and a picture whose images did not come is left out.
    bot.card_images.timeout = bot.card_images.grace = CEILING

    table = await start_game(wired)
    start = next(i for i in wired.interactions.values() if wired.original.get(i["token"]) == table["id"])
    webhook = f"/webhooks/{wired.app_id}/{start['token']}/messages/@original"
    record = await wired.wait_for(lambda r: r.method == "PATCH" and r.path == webhook)
    if token == "expired":  # a move once the start's token no longer answers: its picture goes through the channel
        wired.expire_tokens()
        await command(wired, wired.guild_id, "goldfish", goldfish("keep"))
        channel = f"/channels/{table['channel_id']}/messages/{table['id']}"
        record = await wired.wait_for(lambda r: r.method == "PATCH" and r.path == channel and "attachments" in r.json)

    assert record.status == 200
    assert record.authorization.startswith("Bot ") if token == "expired" else record.authorization is None
    [attachment] = wired.messages[table["id"]]["attachments"]
    data = wired.attachment_data[attachment["id"]]
    assert attachment["filename"] == FILE_NAME and attachment["size"] == len(data) <= MAX_BYTES
    assert attachment["description"].startswith("Goldfish table")
    assert Image.open(io.BytesIO(data)).format == "WEBP"
    assert wired.messages[table["id"]]["embeds"] and wired.messages[table["id"]]["components"]  # text and buttons kept
    assert wired.unexpected == []


async def test_the_fake_refuses_an_attachment_over_discords_upload_limit(start_bot, wired: FakeDiscord):
    bot = await start_bot(["cogs.goldfish"])
    table = await start_game(wired)
    message = bot.get_partial_messageable(int(table["channel_id"])).get_partial_message(int(table["id"]))

    with pytest.raises(discord.HTTPException) as refused:
        await message.edit(attachments=[discord.File(io.BytesIO(b"\0" * (ATTACHMENT_SIZE_LIMIT + 1)), "big.webp")])

    assert refused.value.status == 413 and refused.value.code == 40005
