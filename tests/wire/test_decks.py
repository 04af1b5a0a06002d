"""/deck save over real sockets: the form as the first answer and its submit, and a file attached to the command read
from the fake Discord's CDN on 127.0.0.1."""

from __future__ import annotations

from bot.carddb import FILE_NAME
from bot.carddb.update import update_from_scryfall
from tests.data import SCRYFALL_CARDS
from tests.goldfish.decks.test_files import DEK
from tests.support.fake_bulk import FakeBulk
from tests.support.fake_discord import EPHEMERAL, FakeDiscord


def save(name: str, *more: dict) -> list[dict]:
    return [{"name": "save", "type": 1, "options": [{"name": "name", "type": 3, "value": name}, *more]}]


async def test_the_form_and_an_attached_file_over_the_wire(start_bot, wired: FakeDiscord, data_dir):
    with FakeBulk(SCRYFALL_CARDS) as bulk:
        update_from_scryfall(data_dir / FILE_NAME, bulk.base_url)
    await start_bot(["cogs.decks"], discord_api_base=wired.api_base)

    opened = await wired.send_interaction(wired.command_interaction("deck", options=save("Pasted")))
    form = await wired.callback(opened)
    assert form["type"] == 9  # the form is the first answer
    text_input = form["data"]["components"][0]["components"][0]
    assert text_input["style"] == 2 and text_input["max_length"] == 4000
    submitted = wired.modal_submit_interaction(form["data"]["custom_id"], {"decklist": "4 Street Wraith\n56 Swamp"})
    await wired.send_interaction(submitted)
    assert (await wired.callback(submitted))["data"]["flags"] & EPHEMERAL
    said = await wired.followup(submitted)
    assert said["content"].startswith("Saved **Pasted**: 60 main.")

    attachment = wired.upload("wraiths.dek", DEK.encode("utf-8"))
    option = {"name": "file", "type": 11, "value": attachment["id"]}
    resolved = {"attachments": {attachment["id"]: attachment}}
    uploaded = await wired.send_interaction(
        wired.command_interaction("deck", options=save("Uploaded", option), resolved=resolved)
    )
    said = await wired.followup(uploaded)
    assert said["content"].startswith("Saved **Uploaded**: 60 main · 3 sideboard.")
    assert [r.path for r in wired.requests if r.path.startswith("/attachments/")] == [
        f"/attachments/{attachment['id']}/wraiths.dek"
    ]
    assert wired.unexpected == []
