"""Card features answered from the loaded local copy of Scryfall's bulk data: no API call, and
still answering while Scryfall's API refuses or hangs on every request."""

from __future__ import annotations

import pytest

from bot.carddb import BulkError
from bot.cards.query import KINDS
from tests.cards.conftest import only_refusals, private
from tests.goldfish.cog_support import game_of
from tests.support.waits import HANG

DATA_FOOTER = "Scryfall bulk data of 2026-11-20"


@pytest.fixture
def bot_config(loaded_config):
    return loaded_config


@pytest.fixture
def cards(local_cards):
    return local_cards


def bot_replies(channel) -> list:
    return sorted((m for m in channel.history() if m.author.bot), key=lambda m: m.id)


def fields(embed) -> dict[str, str]:
    return {field.name: field.value for field in embed.fields}


async def test_card_is_answered_locally_with_the_data_date_in_the_footer(cards, channel, alice, fake_scryfall):
    result = await alice.slash(channel, "card", name="Street Wraith")

    embed = result.response.embeds[0]
    assert embed.title == "Street Wraith {3}{B}{B}"
    assert "Cycling—Pay 2 life" in embed.description
    assert embed.footer.text == DATA_FOOTER
    assert fake_scryfall.api_requests() == []


async def test_card_keeps_answering_while_scryfall_refuses_every_request(cards, channel, alice, fake_scryfall):
    fake_scryfall.refuse_api(503)

    exact = await alice.slash(channel, "card", name="Street Wraith")
    fuzzy = await alice.slash(channel, "card", name="sanctum plow")
    choices = await alice.autocomplete(channel, "card", "name", "gempalm")

    assert exact.response.embeds[0].title == "Street Wraith {3}{B}{B}"
    assert fuzzy.response.embeds[0].title.startswith("Sanctum Plowbeast")
    # The name matcher's choices (built as the copy loaded): the shorter names first.
    assert [c["value"] for c in choices][:2] == ["Gempalm Avenger", "Gempalm Strider"]
    assert fake_scryfall.api_requests() == []


async def test_card_keeps_answering_while_scryfall_hangs(cards, channel, alice, fake_scryfall):
    fake_scryfall.hang_next(count=100, seconds=HANG)

    result = await alice.slash(channel, "card", name="Ash Barrens")

    assert result.response.embeds[0].title.startswith("Ash Barrens")
    assert fake_scryfall.api_requests() == []


async def test_autocomplete_is_answered_locally(cards, channel, alice, fake_scryfall):
    choices = await alice.autocomplete(channel, "card", "name", "gempalm")

    assert [c["value"] for c in choices] == [  # the name matcher's order: the shorter names first
        "Gempalm Avenger",
        "Gempalm Strider",
        "Gempalm Polluter",
        "Gempalm Sorcerer",
        "Gempalm Incinerator",
    ]
    assert fake_scryfall.api_requests() == []


async def test_names_users_trust_nix_is_nix_and_fling_is_fling(cards, channel, alice, fake_scryfall):
    nix = await alice.slash(channel, "card", name="Nix")
    fling = await alice.slash(channel, "card", name="fling")

    assert nix.response.embeds[0].title.startswith("Nix ")
    assert fling.response.embeds[0].title.startswith("Fling ")
    assert fake_scryfall.api_requests() == []


async def test_a_close_call_gets_the_picker_from_local_candidates(cards, channel, alice, fake_scryfall):
    result = await alice.slash(channel, "card", name="test")

    picker = private(result)
    assert "matches several cards" in picker.content
    options = [
        option["label"]
        for row in picker.components
        for component in row["components"]
        for option in component.get("options", [])
    ]
    assert options == ["Test Xcycler", "Test Cycling Face // Test Far Face"]
    picked = await alice.select(picker, values=["Test Xcycler"])
    assert picked.followups[-1].embeds[0].title == "Test Xcycler {3}{U}"
    assert fake_scryfall.api_requests() == []


async def test_a_miss_names_its_candidates_and_asks_scryfall_once(cards, channel, alice, fake_scryfall):
    result = await alice.slash(channel, "card", name="Street")

    assert result.response.embeds[0].title.startswith("Street Wraith")
    assert fake_scryfall.api_requests() == []
    miss = await alice.slash(channel, "card", name="Gempalm Xyzzy **bold**")
    assert private(miss).content.startswith("No card is called “Gempalm Xyzzy \\*\\*bold\\*\\*”.")
    assert "Scryfall says" not in private(miss).content
    # A name the local copy does not know may be a card revealed today: Scryfall is asked, once within the hour.
    again = await alice.slash(channel, "card", name="gempalm xyzzy **BOLD**")
    assert private(again).content.startswith("No card is called")
    assert [r.query for r in fake_scryfall.api_requests()] == [{"fuzzy": "gempalm xyzzy bold"}]


async def test_a_typod_name_the_local_copy_misses_is_told_privately_with_no_public_flash(
    cards, simcord_env, channel, alice, bob
):
    miss = await alice.slash(channel, "card", name="Gempalm Xyzzy")

    callbacks = [r.json for r in simcord_env.http_requests if r.path.endswith("/callback")]
    assert [(c["type"], c["data"]["flags"] & 64) for c in callbacks] == [(4, 64)]  # no "thinking…" first
    assert miss.response.ephemeral and miss.response.content.startswith("No card is called “Gempalm Xyzzy”.")
    assert not [r for r in simcord_env.http_requests if r.method == "DELETE"]  # nothing shown, then taken back
    assert channel.history(viewer=bob) == []


async def test_a_set_code_asks_scryfall_for_that_printing(cards, channel, alice, fake_scryfall):
    result = await alice.slash(channel, "card", name="Test Xcycler", set="TST")

    assert result.response.embeds[0].title == "Test Xcycler {3}{U}"
    assert result.response.embeds[0].footer.text == "Scryfall API"
    assert fake_scryfall.requests_to("/cards/named")[-1].query["set"] == "tst"


async def test_info_buttons_answer_locally_and_old_prices_carry_their_date(cards, channel, alice, fake_scryfall):
    result = await alice.slash(channel, "card", name="Street Wraith")

    prices = await alice.click(result.response, label="Prices")
    legality = await alice.click(result.response, label="Legality")

    assert prices.response.embeds[0].footer.text.endswith("Prices of 2026-11-20 from Scryfall")
    assert legality.response.embeds[0].title == "Legality: Street Wraith"
    assert fake_scryfall.api_requests() == []


async def test_rulings_are_read_from_the_local_copy_without_asking_scryfall(cards, channel, alice, fake_scryfall):
    fake_scryfall.refuse_api(503)
    result = await alice.slash(channel, "card", name="Street Wraith")

    rulings = await alice.click(result.response, label="Rulings")

    assert rulings.ephemeral
    embed = rulings.response.embeds[0]
    assert embed.title == "Rulings: Street Wraith"
    assert "Cycling is an activated ability" in embed.description
    assert fake_scryfall.api_requests() == []


@pytest.mark.parametrize("kind", list(KINDS))
async def test_every_cycling_kind_is_answered_locally(cards, channel, alice, fake_scryfall, kind):
    fake_scryfall.refuse_api(500)

    result = await alice.slash(channel, "cycling", kind=kind)

    embed = result.response.embeds[0]
    assert embed.title == f"Cycling cards: {KINDS[kind].label}"
    assert embed.footer.text.endswith(DATA_FOOTER)
    assert "page 1/" in embed.footer.text
    assert fake_scryfall.api_requests() == []


async def test_cycling_pages_turn_without_asking_scryfall(cards, channel, alice, fake_scryfall):
    result = await alice.slash(channel, "cycling")
    assert result.response.embeds[0].footer.text.startswith("235 cards · page 1/16 · ")

    page = await alice.click(result.response, label="Next")

    assert "page 2/16" in page.response.embeds[0].footer.text
    assert fake_scryfall.api_requests() == []


async def test_a_simple_cycling_query_is_answered_locally(cards, channel, alice, fake_scryfall):
    result = await alice.slash(channel, "cycling", kind="landtype", query="t:dragon")

    embed = result.response.embeds[0]
    assert embed.footer.text.endswith(DATA_FOOTER)
    assert "Eternal Dragon" in embed.description
    assert fake_scryfall.api_requests() == []


async def test_a_cycling_query_with_comparisons_is_answered_locally(cards, channel, alice, fake_scryfall):
    result = await alice.slash(channel, "cycling", kind="basic", query="cmc>=5 (c:g or c:b)")

    embed = result.response.embeds[0]
    assert embed.footer.text.startswith("5 cards") and embed.footer.text.endswith(DATA_FOOTER)
    lines = embed.description.splitlines()
    assert [line.split(" {")[0] for line in lines] == [
        "Absorb Vis",
        "Grave Upheaval",
        "Sylvan Bounty",
        "Sylvan Reclamation",
        "Treacherous Terrain",
    ]
    assert all("Basic landcycling" in line for line in lines)
    assert fake_scryfall.api_requests() == []


async def test_a_cycling_query_the_local_engine_cannot_read_says_why(cards, simcord_env, channel, alice, fake_scryfall):
    result = await alice.slash(channel, "cycling", query="c:r)")

    assert result.response.content == "There's a closing parenthesis (character 4) with no opening one."
    assert fake_scryfall.api_requests() == []
    assert only_refusals(simcord_env)


async def test_a_cycling_query_with_an_unknown_term_names_it_and_searches_the_rest(cards, channel, alice):
    result = await alice.slash(channel, "cycling", query="foo:bar street")

    embed = result.response.embeds[0]
    assert embed.description == "Street Wraith {3}{B}{B} — Cycling—Pay 2 life"
    assert {f.name: f.value for f in embed.fields}[
        "Note"
    ] == "foo:bar isn't a search term I know, so I searched the rest."


async def test_a_cycling_query_about_artists_goes_to_scryfall(cards, channel, alice, fake_scryfall):
    result = await alice.slash(channel, "cycling", query="a:fixture")

    assert result.response.embeds[0].footer.text.endswith("Scryfall API")
    assert fake_scryfall.requests_to("/cards/search")


async def test_inline_lookups_and_shortcuts_are_answered_locally(cards, channel, alice, fake_scryfall):
    fake_scryfall.refuse_api(503)

    await alice.send(channel, "[[Street Wraith]] [[!Ash Barrens]] [[$Fling]] [[#Nix]]")
    (reply,) = bot_replies(channel)

    card, image, prices, legality = reply.embeds
    assert card.title == "Street Wraith {3}{B}{B}" and card.footer.text == DATA_FOOTER
    assert image.image.url and not image.description
    assert prices.title == "Prices: Fling"
    assert legality.title == "Legality: Nix"
    assert fake_scryfall.api_requests() == []


async def test_an_inline_miss_names_its_candidates(cards, channel, alice, fake_scryfall):
    await alice.send(channel, "what about [[test]] and [[Gempalm Xyzzy]]?")
    (reply,) = bot_replies(channel)

    assert reply.content.split("\n") == [
        "“test” matches several cards: **Test Xcycler**, **Test Cycling Face // Test Far Face**. Which one?",
        "No card is called “Gempalm Xyzzy”.",
    ]
    assert [r.query for r in fake_scryfall.api_requests()] == [{"fuzzy": "gempalm xyzzy"}]  # a card new today?


async def test_an_inline_printing_asks_scryfall_by_set_and_number(cards, channel, alice, fake_scryfall):
    card = next(c for c in fake_scryfall.cards if c["name"] == "Street Wraith")

    await alice.send(channel, f"[[Street Wraith|{card['set']}|{card['collector_number']}]]")
    (reply,) = bot_replies(channel)

    assert reply.embeds[0].footer.text == "Scryfall API"
    assert fake_scryfall.requests_to(f"^/cards/{card['set']}/{card['collector_number']}$")


async def test_a_custom_goldfish_decklist_is_resolved_locally(simcord_env, cards, channel, alice, fake_scryfall):
    fake_scryfall.refuse_api(503)
    decklist = "4 Secluded Steppe; 4 Winged Shepherd; 4 Eternal Dragon\n24 Plains; 4 Renewed Faith"

    result = await alice.slash(channel, "goldfish start", decklist=decklist, seed=3)

    assert "40 cards" in result.response.content
    game = await game_of(simcord_env, channel)
    assert len(game.zones.library) + len(game.zones.hand) == 40
    assert fake_scryfall.api_requests() == []


async def test_a_failed_refresh_keeps_the_old_copy_answering(simcord_env, cards, channel, alice, fake_scryfall):
    fake_scryfall.bulk.updated_at = "2026-11-21T09:00:00.000+00:00"
    fake_scryfall.bulk.fault = "truncated"

    with pytest.raises(BulkError):
        await simcord_env.bot.card_data.refresh()

    fake_scryfall.refuse_api(503)
    result = await alice.slash(channel, "card", name="Street Wraith")
    assert result.response.embeds[0].footer.text == DATA_FOOTER
    assert fake_scryfall.api_requests() == []
    assert fake_scryfall.requests_to("^/file/")  # the download was tried, through the same host


async def test_a_set_that_does_not_exist_says_so_privately_and_never_suggests_what_was_typed(
    cards, channel, alice, bob, fake_scryfall
):
    result = await alice.slash(channel, "card", name="Bloated Toad", set="zzz")

    miss = private(result).content
    assert miss.startswith("There is no set with the code ZZZ.")
    assert "Did you mean" not in miss and "Bloated Toad?" not in miss
    assert channel.history(viewer=bob) == []


async def test_a_card_not_in_the_set_asked_for_lists_the_sets_it_is_in(cards, channel, alice, fake_scryfall):
    result = await alice.slash(channel, "card", name="Bloated Toad", set="akh")

    miss = private(result).content
    assert miss.startswith("**Bloated Toad** isn't in AKH. It was printed in: Urza's Legacy (ULG).")
    # One look-up of the set and one prints search: the rare path's only API requests.
    assert [r.path for r in fake_scryfall.api_requests()][-2:] == ["/sets/akh", "/cards/search"]


async def test_a_nickname_whose_card_the_local_copy_lacks_says_which_card_it_means(cards, channel, alice):
    result = await alice.slash(channel, "card", name="bob")
    assert private(result).content == (
        "“bob” is what players call **Dark Confidant**, which the local card data doesn't hold yet."
    )


async def test_a_search_syntax_error_goes_only_to_the_asker_at_once(cards, channel, alice, bob, simcord_env):
    result = await alice.slash(channel, "search", query='o:"draw a card')

    assert result.ephemeral and "never closed" in result.response.content
    callbacks = [r.json for r in simcord_env.http_requests if r.path.endswith("/callback")]
    assert callbacks[-1]["type"] == 4  # answered at once, never a public "thinking…"
    assert channel.history(viewer=bob) == []
    assert only_refusals(simcord_env)


async def test_a_digital_only_card_is_labelled_in_card(cards, channel, alice):
    result = await alice.slash(channel, "card", name="aswan")
    embed = result.response.embeds[0]
    assert embed.title.startswith("Aswan Jaguar") and embed.description.startswith("*Digital only (Astral)*")


async def test_a_cycling_syntax_error_goes_only_to_the_asker_at_once(cards, simcord_env, channel, alice, bob):
    result = await alice.slash(channel, "cycling", query='o:"draw a card')
    assert result.ephemeral and "never closed" in result.response.content
    assert channel.history(viewer=bob) == []
    assert only_refusals(simcord_env)
