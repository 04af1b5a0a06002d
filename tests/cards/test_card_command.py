"""/card through the real discord.py stack against the fake Scryfall."""

from __future__ import annotations

import asyncio

import pytest
from simcord.interactions import OptionError

from bot.client import CycleBot
from bot.scryfall import ScryfallClient
from tests.cards.conftest import only_refusals, private, start_slash

XCYCLER_ID = "f0000000-0000-4000-8000-000000000004"


def fields(embed) -> dict[str, str]:
    return {field.name: field.value for field in embed.fields}


def labels(message) -> list[str]:
    return [
        component.get("label")
        for row in message.components
        for component in row.get("components", [])
        if component.get("type") == 2
    ]


async def test_exact_name_shows_the_card_with_its_cycling_cost_set_link_and_picture(cards, channel, alice):
    result = await alice.slash(channel, "card", name="Street Wraith")

    embed = result.response.embeds[0]
    assert embed.title == "Street Wraith {3}{B}{B}"
    assert embed.description.count("Cycling—Pay 2 life") == 1 and "Cycling" not in fields(embed)  # said once
    # The printing the card data holds: Masters 25.
    assert fields(embed)["Set"].startswith("Masters 25 (A25)")
    assert embed.url.startswith("https://scryfall.com/card/")
    assert embed.thumbnail.url and not embed.image.url  # a thumbnail: the card fits a phone's screen
    assert labels(result.response) == ["Picture", "Rulings", "Legality", "Prices"]
    assert not result.response.ephemeral


async def test_a_card_scryfall_answers_at_once_is_sent_without_thinking_first(cards, channel, alice, simcord_env):
    # Deferred only when the answer takes over a second (tests/wire/test_acknowledging.py times that on real sockets).
    await alice.slash(channel, "card", name="Street Wraith")
    callbacks = [r for r in simcord_env.http_requests if r.path.endswith("/callback")]
    assert [c.json["type"] for c in callbacks] == [4]


async def test_fuzzy_name_finds_the_card(cards, channel, alice):
    result = await alice.slash(channel, "card", name="sanctum plow")
    embed = result.response.embeds[0]
    assert embed.title.startswith("Sanctum Plowbeast")
    assert "Plainscycling {2}, islandcycling {2}" in embed.description


async def test_set_option_is_passed_to_scryfall(cards, channel, alice, fake_scryfall):
    result = await alice.slash(channel, "card", name="Test Xcycler", set="TST")
    assert result.response.embeds[0].title == "Test Xcycler {3}{U}"
    assert fake_scryfall.requests_to("/cards/named")[-1].query["set"] == "tst"


async def test_a_nonsense_set_code_is_refused_without_asking_scryfall(
    cards, simcord_env, channel, alice, fake_scryfall
):
    result = await alice.slash(channel, "card", name="Street Wraith", set="x!")
    assert result.ephemeral
    assert "not a set code" in result.response.content
    assert not fake_scryfall.requests_to("/cards/named")
    assert only_refusals(simcord_env)


async def test_double_faced_card_shows_both_faces_and_an_other_faces_button(cards, channel, alice):
    result = await alice.slash(channel, "card", name="Delver of Secrets")
    embed = result.response.embeds[0]
    assert "**Delver of Secrets** {U}" in embed.description
    assert "**Insectile Aberration**" in embed.description
    assert "delver-front" in embed.thumbnail.url
    assert labels(result.response) == ["Picture", "Rulings", "Legality", "Prices", "Other faces"]

    faces = await alice.click(result.response.message, label="Other faces")
    assert faces.ephemeral
    assert [e.title for e in faces.response.embeds] == ["Delver of Secrets {U}", "Insectile Aberration"]
    assert "delver-back" in faces.response.embeds[1].image.url


async def test_split_card_shows_both_halves(cards, channel, alice):
    result = await alice.slash(channel, "card", name="Fire // Ice")
    embed = result.response.embeds[0]
    assert embed.title == "Fire // Ice {1}{R} // {1}{U}"
    assert "**Fire** {1}{R}" in embed.description and "**Ice** {1}{U}" in embed.description


async def test_autocomplete_offers_scryfall_names(cards, channel, alice):
    choices = await alice.autocomplete(channel, "card", "name", "gempalm")
    names = [choice["name"] for choice in choices]
    assert len(names) == 5 and all(name.startswith("Gempalm") for name in names)
    assert all(choice["value"] == choice["name"] and len(choice["name"]) <= 100 for choice in choices)


async def test_autocomplete_of_short_input_is_empty_without_asking_scryfall(cards, channel, alice, fake_scryfall):
    assert await alice.autocomplete(channel, "card", "name", "g") == []
    assert await alice.autocomplete(channel, "card", "name", "   ") == []
    assert not fake_scryfall.requests_to("/cards/autocomplete")


async def test_autocomplete_answers_empty_when_scryfall_is_rate_limiting(cards, channel, alice, fake_scryfall):
    fake_scryfall.fail_next(429, retry_after=1)
    assert await alice.autocomplete(channel, "card", "name", "street") == []


async def test_ambiguous_name_offers_a_select_and_picking_shows_the_card(cards, channel, alice):
    result = await alice.slash(channel, "card", name="gempalm")
    picker = private(result)  # the question is the asker's alone…
    assert "matches several cards" in picker.content
    menu = picker.components[0]["components"][0]
    options = [option["value"] for option in menu["options"]]
    assert "Gempalm Incinerator" in options

    picked = await alice.select(picker.message, ["Gempalm Incinerator"])
    assert "Picked **Gempalm Incinerator**" in picker.content and not picker.components
    shown = picked.followups[-1]  # …the card they picked helps the table
    assert not shown.ephemeral and shown.embeds[0].title.startswith("Gempalm Incinerator")
    assert labels(shown) == ["Picture", "Rulings", "Legality", "Prices"]


async def test_only_the_requester_sees_the_ambiguous_list(cards, channel, alice, bob):
    result = await alice.slash(channel, "card", name="gempalm")
    picker = private(result)
    assert "matches several cards" in picker.content
    assert channel.history(viewer=bob) == []  # nobody else sees the question, so nobody else can pick


async def test_a_miss_shows_scryfalls_details_and_suggestions(cards, channel, alice):
    result = await alice.slash(channel, "card", name="Street Wraithh")
    content = private(result).content
    assert "No card is called “Street Wraithh”" in content
    assert "No cards found matching" in content  # Scryfall's own details


async def test_a_miss_suggests_names_scryfall_autocompletes(cards, channel, alice, fake_scryfall):
    fake_scryfall.fail_next(404, path="/cards/named")
    result = await alice.slash(channel, "card", name="Street Wr")
    assert "Did you mean **Street Wraith**?" in private(result).content


async def test_everyone_as_a_card_name_pings_nobody(cards, channel, alice, simcord_env):
    result = await alice.slash(channel, "card", name="@everyone")
    message = private(result).message
    # Echoed as the user reads it (Discord hides the escapes), yet inert even where mentions parse.
    assert "@everyone" in message.content.replace("\\", "").replace("\u200b", "")
    assert "@everyone" not in message.content
    assert not message.mention_everyone
    sent = [r for r in simcord_env.http_requests if "/webhooks/" in r.path and r.json]
    assert all(r.json.get("allowed_mentions") == {"parse": []} for r in sent)


async def test_a_6000_character_name_cannot_be_sent(cards, channel, alice, fake_scryfall):
    with pytest.raises(OptionError):
        await alice.slash(channel, "card", name="x" * 6000)
    assert not fake_scryfall.requests


async def test_rulings_button_lists_scryfall_rulings_to_the_presser(cards, channel, alice, bob, fake_scryfall):
    result = await alice.slash(channel, "card", name="Test Xcycler")
    assert "Cycling {X}{U}" in result.response.embeds[0].description
    assert not fake_scryfall.requests_to("/rulings")  # fetched only when asked

    rulings = await bob.click(result.response.message, label="Rulings")
    assert rulings.ephemeral
    embed = rulings.response.embeds[0]
    assert embed.title == "Rulings: Test Xcycler"
    assert "2024-01-01 — (Constructed ruling.) X is the amount" in embed.description


async def test_rulings_button_says_when_there_are_none(cards, channel, alice):
    result = await alice.slash(channel, "card", name="Street Wraith")
    rulings = await alice.click(result.response.message, label="Rulings")
    assert rulings.ephemeral and "no rulings" in rulings.response.content


async def test_legality_and_prices_buttons(cards, channel, alice):
    result = await alice.slash(channel, "card", name="Test Xcycler")
    legality = await alice.click(result.response.message, label="Legality")
    assert legality.ephemeral
    assert fields(legality.response.embeds[0]) == {"Legal": "Modern, Legacy, Vintage", "Not legal": "Standard"}

    prices = await alice.click(result.response.message, label="Prices")
    assert prices.ephemeral
    assert prices.response.embeds[0].description == "USD: $0.25\nEUR: €0.20\nMTGO: 0.03 tix"


async def test_buttons_carry_the_card_id_and_keep_working_after_a_restart(
    cards, channel, alice, simcord_env, bot_config
):
    result = await alice.slash(channel, "card", name="Test Xcycler")
    custom_ids = [c["custom_id"] for row in result.response.components for c in row["components"]]
    assert f"card:rulings:{XCYCLER_ID}" in custom_ids

    await simcord_env.restart_bot(CycleBot(bot_config))

    rulings = await alice.click(result.response.message, label="Rulings")
    assert rulings.ephemeral
    assert rulings.response.embeds[0].title == "Rulings: Test Xcycler"


async def test_scryfall_down_tells_the_user(cards, channel, alice, fake_scryfall):
    fake_scryfall.fail_next(500, count=5)
    result = await alice.slash(channel, "card", name="Street Wraith")
    assert private(result).content == "Scryfall is not answering right now, please try again in a few minutes."
    assert len(fake_scryfall.statuses(500)) == 2  # one retry, then the user hears of it


async def test_scryfall_rate_limiting_tells_the_user_when_to_retry(cards, channel, alice, fake_scryfall):
    fake_scryfall.fail_next(429, retry_after=1)
    result = await alice.slash(channel, "card", name="Street Wraith")
    assert private(result).content == "Scryfall asked us to slow down, try again in 2 s."
    # The pause holds: no further request goes upstream while it lasts.
    again = await alice.slash(channel, "card", name="Ash Barrens")
    assert private(again).content.startswith("Scryfall asked us to slow down")
    assert len(fake_scryfall.requests_to("/cards/named")) == 1


async def test_a_cached_card_is_shown_as_stale_when_scryfall_is_down(cards, channel, alice, fake_scryfall, data_dir):
    await cards.bot.scryfall.close()
    cards.bot.scryfall = ScryfallClient(fake_scryfall.base_url, data_dir, cache_hours=1e-6, timeout=0.5, retries=0)
    await alice.slash(channel, "card", name="Street Wraith")
    await asyncio.sleep(0.05)  # the cached copy has expired
    fake_scryfall.fail_next(500, count=5)
    result = await alice.slash(channel, "card", name="Street Wraith")
    embed = result.response.embeds[0]
    assert embed.title == "Street Wraith {3}{B}{B}"
    assert embed.footer.text == "Scryfall is unreachable; showing a cached copy"
    await cards.client.close()


async def test_a_hanging_scryfall_times_out_while_other_commands_still_answer(
    cards, channel, alice, simcord_env, fake_scryfall
):
    fake_scryfall.hang_next(count=2, path="/cards/named", seconds=1.5)
    card = start_slash(simcord_env, alice, channel, "card", name="Street Wraith")
    await asyncio.sleep(0.05)
    about = await alice.slash(channel, "about")  # answered while /card is still waiting on Scryfall
    assert about.response.embeds

    await simcord_env.settle(timeout=10)
    assert private(card).content.startswith("Scryfall timed out")
    paths = [r.path for r in simcord_env.http_requests]
    about_answer = next(
        i for i, r in enumerate(simcord_env.http_requests) if isinstance(r.json, dict) and r.json.get("type") == 4
    )
    token = card._interaction.token
    card_answer = max(i for i, path in enumerate(paths) if token in path)
    assert about_answer < card_answer


async def test_the_bot_owns_the_scryfall_client_and_closes_it_on_close(cards, simcord_env):
    client = simcord_env.bot.scryfall
    assert cards.client is client  # the card feature borrows the bot's client
    await simcord_env.bot.remove_cog("Cards")
    assert not client.closed  # unloading a feature leaves the shared client to the others
    await simcord_env.bot.close()
    with pytest.raises(RuntimeError):
        await client.named("Street Wraith")


async def test_a_card_fits_a_phone_screen_with_its_picture_a_tap_away(cards, channel, alice, bob):
    shown = (await alice.slash(channel, "card", name="Street Wraith")).response
    embed = shown.embeds[0]
    assert embed.thumbnail.url and not embed.image.url
    lines = len(embed.description.split("\n")) + 2 * len(embed.fields)
    assert lines <= 12, embed.description  # title, text and set: no full-size picture under them

    picture = await bob.click(shown.message, label="Picture")
    assert picture.ephemeral  # for whoever asked to see it
    (full,) = picture.response.embeds
    assert full.image.url and full.title == "Street Wraith {3}{B}{B}"


async def test_the_embed_colour_follows_the_cards_colours(cards, channel, alice):
    async def colour(name: str) -> int:
        return (await alice.slash(channel, "card", name=name)).response.embeds[0].colour.value

    black, green, blue = await colour("Street Wraith"), await colour("Krosan Tusker"), await colour("Test Xcycler")
    colourless, gold = await colour("Ash Barrens"), await colour("Fire // Ice")
    assert len({black, green, blue, colourless, gold}) == 5
    assert green == await colour("Generous Ent")  # the same colour for every green card


async def test_cycling_is_said_once_whether_the_text_says_it_or_not(cards, channel, alice):
    toad = (await alice.slash(channel, "card", name="Bloated Toad")).response.embeds[0]
    shown = "\n".join([toad.description, *(f"{f.name} {f.value}" for f in toad.fields)])
    assert shown.count("Cycling {2}") == 1
