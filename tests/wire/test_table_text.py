"""A goldfish table keeps its text where the bot may not embed, over the wire: edited through the interaction that
posted it while its token lasts (Discord asks no Embed Links there), then through the channel as text, and back to an
embed when a button on it is pressed."""

from __future__ import annotations

from tests.support.fake_discord import EMBED_LINKS, FakeDiscord
from tests.wire.test_processes import SLIDE_SIMPLE, button, command, goldfish, press


async def test_without_embed_links_a_table_is_edited_by_its_interaction_then_as_text(start_bot, wired: FakeDiscord):
    wired.bot_denied = EMBED_LINKS
    await start_bot(["cogs.goldfish"])
    deck, seed = {"name": "deck", "type": 3, "value": "slide"}, {"name": "seed", "type": 4, "value": SLIDE_SIMPLE}
    table = await command(wired, wired.guild_id, "goldfish", goldfish("start", deck, seed))
    start = next(i for i in wired.interactions.values() if wired.original.get(i["token"]) == table["id"])
    in_channel = f"/channels/{table['channel_id']}/messages/{table['id']}"
    assert table["embeds"]  # the command's answer: no Embed Links asked

    await command(wired, wired.guild_id, "goldfish", goldfish("keep"))
    webhook = f"/webhooks/{wired.app_id}/{start['token']}/messages/@original"
    edited = await wired.wait_for(lambda r: r.method == "PATCH" and r.path == webhook)
    assert edited.status == 200 and edited.json["embeds"]
    assert "**Turn 1**" in wired.messages[table["id"]]["embeds"][0]["description"]

    wired.expire_tokens()  # a quarter of an hour later
    await command(wired, wired.guild_id, "goldfish", goldfish("next"))
    as_text = await wired.wait_for(lambda r: r.method == "PATCH" and r.path == in_channel and "content" in r.json)
    assert as_text.status == 200 and as_text.json["embeds"] == []
    assert as_text.json["allowed_mentions"] == {"parse": []}  # the owner named in the text is never pinged
    shown = wired.messages[table["id"]]
    assert shown["content"].startswith("**Goldfish · Astral Slide") and "**Turn 2**" in shown["content"]
    assert "**Hand (" in shown["content"] and shown["components"]  # the text table, its buttons kept
    assert not any(r.path == in_channel and r.json.get("embeds") for r in wired.requests)  # never an embed refused

    pressed = await press(wired, shown, button(shown, "Next turn"))  # the press answers with the table as an embed
    assert pressed["content"] == "" and "you have 8 cards in hand" in pressed["embeds"][0]["description"]
    assert wired.unexpected == []
