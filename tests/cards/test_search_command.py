"""/search through the real discord.py stack, answered from the local copy of the fake Scryfall's cards."""

from __future__ import annotations

import asyncio

import pytest

from tests.cards.conftest import only_refusals, private

DATA_FOOTER = "Scryfall bulk data of 2026-11-20"


@pytest.fixture
def bot_config(loaded_config):
    return loaded_config


@pytest.fixture
def cards(local_cards):
    return local_cards


def names_on(embed) -> list[str]:
    return [line.split(" {")[0].split(" — ")[0] for line in embed.description.splitlines()]


def buttons(message) -> dict[str, dict]:
    return {c.get("label"): c for row in message.components for c in row["components"] if c.get("type") == 2}


def sent_payloads(env) -> list[dict]:
    return [r.json for r in env.http_requests if "/webhooks/" in r.path and isinstance(r.json, dict)]


async def test_a_search_answers_with_the_count_names_costs_and_types_and_no_api_request(
    cards, channel, alice, fake_scryfall
):
    result = await alice.slash(channel, "search", query="t:creature c:g pow>=4")

    expected = sorted(
        card["name"]
        for card in fake_scryfall.cards
        if "Creature" in card.get("type_line", "")
        and "G" in card.get("colors", [])
        and str(card.get("power", "0")).isdigit()  # a power of "*" is no number (Aswan Jaguar's)
        and int(card["power"]) >= 4
    )
    embed = result.response.embeds[0]
    assert embed.title == f"Search: {len(expected)} cards"
    lines = embed.description.splitlines()
    assert lines[0] == "Barkhide Mauler {4}{G} — Creature — Beast"
    assert names_on(embed) == expected
    assert embed.footer.text == f"{len(expected)} cards · page 1/1 · {DATA_FOOTER}\nt:creature c:g pow>=4"
    assert fake_scryfall.api_requests() == []


async def test_pages_turn_for_the_requester_and_still_turn_after_a_restart(cards, channel, alice, simcord_env):
    result = await alice.slash(channel, "search", query="o:cycling order:cmc")
    first = result.response.embeds[0]
    assert first.footer.text.startswith("240 cards · page 1/16 · ")
    assert buttons(result.response)["Previous"].get("disabled")

    await alice.click(result.response.message, label="Next")
    second = result.response.embeds[0]
    assert "page 2/16" in second.footer.text and names_on(second) != names_on(first)

    await simcord_env.bot.reload_extension("cogs.cards")
    simcord_env.bot.pagers.clear()  # nothing of the search is kept in memory: as after a restart
    await alice.click(result.response.message, label="Next")
    assert "page 3/16" in result.response.embeds[0].footer.text
    await alice.click(result.response.message, label="Previous")
    assert names_on(result.response.embeds[0]) == names_on(second)


async def test_someone_else_cannot_turn_the_pages(cards, channel, alice, bob):
    result = await alice.slash(channel, "search", query="o:cycling")
    refused = await bob.click(result.response.message, label="Next")
    assert refused.ephemeral and "belong to whoever asked" in refused.response.content
    assert "page 1/16" in result.response.embeds[0].footer.text


async def test_the_select_opens_a_card_for_whoever_picks_it(cards, channel, alice, bob, fake_scryfall):
    result = await alice.slash(channel, "search", query="!fling")
    select = next(c for row in result.response.components for c in row["components"] if c.get("type") == 3)
    assert [option["label"] for option in select["options"]] == ["Fling"]

    opened = await bob.select(result.response.message, [select["options"][0]["value"]], custom_id="search:open")

    shown = opened.followups[-1] if opened.followups else opened.response
    assert shown.ephemeral and shown.embeds[0].title == "Fling {1}{R}"
    assert fake_scryfall.api_requests() == []


async def test_an_unknown_key_is_named_and_the_rest_searched(cards, channel, alice):
    result = await alice.slash(channel, "search", query="wibble:3 lightning")
    embed = result.response.embeds[0]
    assert names_on(embed) == ["Lightning Bolt", "Lightning Helix", "Lightning Rift"]
    notes = {field.name: field.value for field in embed.fields}["Note"]
    assert notes == "• wibble:3 isn't a search term I know, so I searched the rest."


async def test_a_search_matching_nothing_says_so(cards, channel, alice):
    result = await alice.slash(channel, "search", query="t:dragon c:w mv=1")
    assert private(result).content == "No cards match that search."
    assert channel.history() == []  # a miss helps nobody else


async def test_a_broad_search_says_how_many_and_shows_the_first_page(cards, channel, alice, monkeypatch):
    from cogs.cards import _search

    monkeypatch.setattr(_search, "BROAD", 100)
    result = await alice.slash(channel, "search", query="mv>=0")
    embed = result.response.embeds[0]
    assert embed.title.startswith("Search: 2") and len(embed.description.splitlines()) == 15
    assert "broad search" in {field.name: field.value for field in embed.fields}["Note"]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("t:creature (c:g or c:u", "A parenthesis is opened and never closed"),
        ("t:creature c:g)", "closing parenthesis (character 15) with no opening one"),
        ('o:"draw a card', "A quote opened (character 3) is never closed"),
        ("c:r " * 1500, "That search is 5,999 characters long; keep it under 1,000."),
        ("o:/(unclosed/", "isn't a regular expression I can read"),
    ],
)
async def test_malformed_searches_get_a_clear_answer(
    cards, simcord_env, channel, alice, fake_scryfall, query, expected
):
    result = await alice.slash(channel, "search", query=query)
    assert expected in private(result).content
    assert fake_scryfall.api_requests() == []
    assert only_refusals(simcord_env)


async def test_a_catastrophic_regex_is_answered_in_linear_time_and_the_bot_keeps_answering(
    cards, channel, alice, simcord_env
):
    started = asyncio.get_running_loop().time()
    result = await alice.slash(channel, "search", query=r"o:/(.*?,?)*\d$/")
    plain = await alice.slash(channel, "search", query=r"o:/\d$/")
    assert asyncio.get_running_loop().time() - started < 5

    def seen(answer):  # what the asker sees: the results, or the miss told to them alone
        shown = answer.response if answer.response is not None else private(answer)
        return shown.content, [embed.description for embed in shown.embeds]

    assert seen(result) == seen(plain)
    after = await alice.slash(channel, "card", name="Street Wraith")
    assert after.response.embeds[0].title == "Street Wraith {3}{B}{B}"


async def test_sql_in_a_value_is_only_text(cards, channel, alice):
    result = await alice.slash(channel, "search", query='o:"\'; DROP TABLE search_cards; --" or name:"x\' OR 1=1 --"')
    assert private(result).content == "No cards match that search."
    again = await alice.slash(channel, "search", query="!fling")
    assert names_on(again.response.embeds[0]) == ["Fling"]


async def test_markdown_and_mentions_in_a_search_ping_nobody_and_stay_inert(cards, channel, alice, simcord_env):
    result = await alice.slash(channel, "search", query="@everyone **bold** <@123> wibble:[x](https://evil.example)")
    answer = private(result)
    content = answer.content or ""
    assert not answer.message.mention_everyone
    assert "**bold**" not in content and "](https://" not in content
    assert all(payload.get("allowed_mentions") == {"parse": []} for payload in sent_payloads(simcord_env))


async def test_what_only_scryfall_knows_goes_to_its_api(cards, channel, alice, fake_scryfall):
    result = await alice.slash(channel, "search", query="a:fixture t:instant")
    embed = result.response.embeds[0]
    assert embed.footer.text.endswith("Scryfall API")
    assert fake_scryfall.requests_to("/cards/search")[0].query["q"] == "a:fixture t:instant"


def bot_replies(channel) -> list:
    return sorted((m for m in channel.history() if m.author.bot), key=lambda m: m.id)


async def test_an_inline_search_answers_with_its_first_results(cards, channel, alice, fake_scryfall):
    await alice.send(channel, "which are these? [[?t:creature c:g pow>=4]] and [[Street Wraith]]")
    (reply,) = bot_replies(channel)

    search, card = reply.embeds
    assert search.title.startswith("Search: ") and len(search.description.splitlines()) == 5
    assert search.footer.text.endswith("\nt:creature c:g pow>=4")
    assert card.title == "Street Wraith {3}{B}{B}"
    assert fake_scryfall.api_requests() == []


async def test_an_inline_search_that_cannot_run_or_finds_nothing_says_why(cards, channel, alice):
    await alice.send(channel, "[[?t:creature (c:g]] [[?t:dragon c:w mv=1]]")
    (reply,) = bot_replies(channel)
    assert "parenthesis is opened and never closed" in reply.content
    assert "t:dragon c:w mv=1: no cards match." in reply.content


async def test_nicknames_find_their_card_in_card_search_and_inline(cards, channel, alice, fake_scryfall):
    card = await alice.slash(channel, "card", name="troll")
    assert card.response.embeds[0].title.startswith("Troll of Khazad-dûm")
    found = await alice.slash(channel, "search", query="tusker")
    assert names_on(found.response.embeds[0]) == ["Krosan Tusker"]
    await alice.send(channel, "[[helix]]")
    assert bot_replies(channel)[-1].embeds[0].title.startswith("Lightning Helix")
    assert fake_scryfall.api_requests() == []


async def test_a_nickname_whose_card_the_copy_lacks_is_no_answer(cards, channel, alice, fake_scryfall):
    result = await alice.slash(channel, "card", name="jtms")  # Jace, the Mind Sculptor is not in the copy
    miss = private(result).content
    assert miss.startswith("“jtms” is what players call **Jace, the Mind Sculptor**, which the local card data")
    assert "Did you mean" not in miss
    # The card may be new today: Scryfall is asked for it by its name, once.
    assert [r.query for r in fake_scryfall.api_requests()] == [{"fuzzy": "jace the mind sculptor"}]
