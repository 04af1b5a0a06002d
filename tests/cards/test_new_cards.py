"""A card revealed since the local copy's file: asked of Scryfall's fuzzy /cards/named when a lookup names it (never
per keystroke of autocomplete), answered and marked new; a card Scryfall knows by another name than the copy shows
the local card; a miss stays private and is not asked twice within the hour."""

from __future__ import annotations

import copy

import pytest

from bot.carddb import FILE_NAME
from bot.carddb.update import update_from_scryfall
from bot.cards.printed import RecentMisses
from bot.config import Config
from tests.cards.conftest import private

NEW = "Street Wraith"  # revealed this morning: on Scryfall's API, not yet in its bulk file


@pytest.fixture
def bot_config(data_dir, fake_scryfall):
    fake_scryfall.bulk.cards = [card for card in fake_scryfall.bulk.cards if card["name"] != NEW]
    update_from_scryfall(data_dir / FILE_NAME, fake_scryfall.base_url)
    return Config(data_dir=data_dir, scryfall_api_url=fake_scryfall.base_url, inline_cards=True)


@pytest.fixture
def cards(simcord_env, fake_scryfall):
    assert simcord_env.bot.card_data.loaded
    fake_scryfall.reset()
    return simcord_env.bot.get_cog("Cards")


def named_requests(fake) -> list[dict]:
    return [request.query for request in fake.api_requests() if request.path == "/cards/named"]


async def test_a_card_new_today_is_answered_from_scryfall_and_marked_new(cards, channel, alice, fake_scryfall):
    result = await alice.slash(channel, "card", name="Street Wraith")
    embed = (result.followups[-1] if result.followups else result.response).embeds[0]
    assert embed.title.startswith(NEW) and embed.footer.text == "Scryfall API · new: not in the local copy yet"
    assert named_requests(fake_scryfall) == [{"fuzzy": "street wraith"}]
    await alice.send(channel, "[[street wraith]]")  # inline too, from the API's cache this time
    reply = max((m for m in channel.history() if m.author.bot), key=lambda m: m.id)
    assert reply.embeds[0].title.startswith(NEW) and "new: not in the local copy yet" in reply.embeds[0].footer.text
    assert len(named_requests(fake_scryfall)) == 1


async def test_autocomplete_never_asks_scryfall_for_a_name_the_copy_lacks(cards, channel, alice, fake_scryfall):
    for typed in ("str", "street w", "street wraith"):
        await alice.autocomplete(channel, "card", "name", typed)
    assert fake_scryfall.api_requests() == []


async def test_a_card_scryfall_knows_by_another_name_is_the_local_card(cards, channel, alice, fake_scryfall):
    tusker = next(card for card in fake_scryfall.cards if card["name"] == "Krosan Tusker")
    renamed = {**copy.deepcopy(tusker), "id": "f0000000-0000-4000-8000-00000000beef", "name": "Vorthos Nightglider"}
    fake_scryfall.cards.append(renamed)  # renamed by Scryfall since the copy's file: the same oracle id
    result = await alice.slash(channel, "card", name="Vorthos Nightglider")
    embed = (result.followups[-1] if result.followups else result.response).embeds[0]
    assert embed.title.startswith("Krosan Tusker") and embed.footer.text.startswith("Scryfall bulk data of")
    assert named_requests(fake_scryfall) == [{"fuzzy": "vorthos nightglider"}]


async def test_a_miss_is_private_and_not_asked_again_within_the_hour(cards, channel, alice, bob, fake_scryfall):
    first = await alice.slash(channel, "card", name="Qwyx Vorlath")
    assert private(first).content.startswith("No card is called “Qwyx Vorlath”.")
    again = await bob.slash(channel, "card", name="qwyx  VORLATH")
    assert private(again).content.startswith("No card is called")
    assert named_requests(fake_scryfall) == [{"fuzzy": "qwyx vorlath"}]


def test_a_miss_is_forgotten_after_its_hour_and_the_oldest_first():
    misses = RecentMisses(seconds=0.0)
    misses.add("qwyx")
    assert "qwyx" not in misses  # its time is up
    misses = RecentMisses(kept=2)
    for key in ("a", "b", "c"):
        misses.add(key)
    assert "a" not in misses and "b" in misses and "c" in misses
