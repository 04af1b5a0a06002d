"""/cycling through the real discord.py stack against the fake Scryfall (CR 702.29)."""

from __future__ import annotations

import pytest
from simcord.interactions import OptionError

from tests.cards.conftest import private


async def test_default_lists_every_cycling_card_with_costs_and_the_total(cards, channel, alice, fake_scryfall):
    result = await alice.slash(channel, "cycling")

    embed = result.response.embeds[0]
    lines = embed.description.splitlines()
    assert embed.title == "Cycling cards: any cycling"
    assert len(lines) == 15
    assert lines[0] == "Absorb Vis {6}{B} — Basic landcycling {1}{B}"
    assert all(" — " in line and "cycling" in line.lower() for line in lines)
    assert embed.footer.text.startswith("235 cards · page 1/16 · ")
    assert "keyword:" not in embed.footer.text  # the query built for Scryfall is not the player's business
    query = fake_scryfall.requests_to("/cards/search")[0].query
    assert query["q"].startswith("(keyword:cycling or keyword:typecycling")


async def test_a_narrowed_list_says_what_was_asked_once_in_the_asker_words(cards, channel, alice):
    result = await alice.slash(channel, "cycling", kind="landtype", query="c:g")

    embed = result.response.embeds[0]
    assert embed.title == "Cycling cards: landcycling by land type · c:g"
    assert "c:g" not in embed.footer.text and "keyword:" not in embed.footer.text
    assert len(embed.footer.text) <= 80  # a phone's line or two: count, page and where the answer came from


async def test_next_turns_the_page_for_the_requester(cards, channel, alice):
    result = await alice.slash(channel, "cycling")
    first = result.response.embeds[0].description

    await alice.click(result.response.message, label="Next")
    page = result.response.embeds[0]
    assert page.description != first
    assert "page 2/16" in page.footer.text

    await alice.click(result.response.message, label="Previous")
    assert result.response.embeds[0].description == first


async def test_someone_else_cannot_turn_the_pages(cards, channel, alice, bob):
    result = await alice.slash(channel, "cycling")
    refused = await bob.click(result.response.message, label="Next")
    assert refused.ephemeral and "belong to whoever asked" in refused.response.content
    assert "page 1/16" in result.response.embeds[0].footer.text


async def test_scryfalls_next_page_is_fetched_only_when_the_reader_gets_there(cards, channel, alice, fake_scryfall):
    result = await alice.slash(channel, "cycling")
    for _ in range(10):
        await alice.click(result.response.message, label="Next")
    assert len(fake_scryfall.requests_to("/cards/search")) == 1  # 11 pages × 15 = 165 of the first 175

    await alice.click(result.response.message, label="Next")
    assert len(fake_scryfall.requests_to("/cards/search")) == 2
    page = result.response.embeds[0]
    assert "page 12/16" in page.footer.text
    assert len(page.description.splitlines()) == 15


@pytest.mark.parametrize(
    ("kind", "count", "example"),
    [
        ("plain", 204, "Street Wraith {3}{B}{B} — Cycling—Pay 2 life"),
        ("basic", 11, "Ash Barrens — Basic landcycling {1}"),
        ("landtype", 17, "Sanctum Plowbeast {4}{W}{U} — Plainscycling {2}, Islandcycling {2}"),
        ("creature", 3, "Step Through {3}{U}{U} — Wizardcycling {2}"),
    ],
)
async def test_each_kind_of_cycling_is_its_own_search(cards, channel, alice, kind, count, example):
    options = {"query": "street"} if kind == "plain" else {}
    result = await alice.slash(channel, "cycling", kind=kind, **options)
    embed = result.response.embeds[0]
    if kind == "plain":
        assert embed.description == example
        return
    assert embed.footer.text.startswith(f"{count} cards")
    all_lines = embed.description.splitlines()
    while "Next" in [c.get("label") for row in result.response.components for c in row["components"]] and not any(
        c.get("disabled") for row in result.response.components for c in row["components"] if c.get("label") == "Next"
    ):
        await alice.click(result.response.message, label="Next")
        all_lines += result.response.embeds[0].description.splitlines()
    assert example in all_lines


async def test_extra_query_narrows_the_search(cards, channel, alice, fake_scryfall):
    result = await alice.slash(channel, "cycling", query="c:r cmc<=2")
    embed = result.response.embeds[0]
    assert embed.footer.text.startswith("8 cards · page 1/1")
    assert not result.response.components  # one page: no buttons
    assert fake_scryfall.requests_to("/cards/search")[0].query["q"].endswith("(c:r cmc<=2)")


async def test_a_malformed_query_shows_scryfalls_details(cards, channel, alice):
    result = await alice.slash(channel, "cycling", query="c:r)")
    told = private(result)  # the asker's alone
    assert told.content.startswith("Scryfall could not read that search:")
    assert "unmatched closing parenthesis" in told.content


async def test_ignored_terms_show_scryfalls_warnings(cards, channel, alice):
    result = await alice.slash(channel, "cycling", query="foo:bar street")
    embed = result.response.embeds[0]
    assert "Unknown keyword “foo”" in {f.name: f.value for f in embed.fields}["Scryfall warnings"]


async def test_no_results_is_said_plainly(cards, channel, alice):
    result = await alice.slash(channel, "cycling", kind="basic", query="t:dragon")
    assert private(result).content == "No cards with basic landcycling match that search."
    assert channel.history() == []


async def test_a_query_over_200_characters_cannot_be_sent(cards, channel, alice, fake_scryfall):
    with pytest.raises(OptionError):
        await alice.slash(channel, "cycling", query="c:r " * 1500)
    assert not fake_scryfall.requests


async def test_mentions_in_the_query_ping_nobody(cards, channel, alice, simcord_env):
    result = await alice.slash(channel, "cycling", query="@everyone")
    answer = result.response or private(result)
    assert not answer.message.mention_everyone
    token = result._interaction.token
    sent = [r.json for r in simcord_env.http_requests if token in r.path and isinstance(r.json, dict)]
    bodies = [body.get("data", body) if "type" in body else body for body in sent]  # a callback's, or a follow-up
    assert bodies and all(body.get("allowed_mentions") == {"parse": []} for body in bodies if "content" in body)


async def test_scryfall_down_while_paging_keeps_the_page_and_tells_the_user(cards, channel, alice, fake_scryfall):
    result = await alice.slash(channel, "cycling")
    for _ in range(10):
        await alice.click(result.response.message, label="Next")
    fake_scryfall.fail_next(500, count=2)  # the first try and its retry
    failed = await alice.click(result.response.message, label="Next")
    told = failed.followups[-1] if failed.followups else failed.response
    assert told.ephemeral and told.content.startswith("Scryfall is not answering")
    assert "page 11/16" in result.response.embeds[0].footer.text
    # Scryfall is back: the same click now works.
    await alice.click(result.response.message, label="Next")
    assert "page 12/16" in result.response.embeds[0].footer.text


async def test_rate_limited_search_tells_the_user_when_to_retry(cards, channel, alice, fake_scryfall):
    fake_scryfall.fail_next(429, retry_after=3)
    result = await alice.slash(channel, "cycling")
    assert private(result).content == "Scryfall asked us to slow down, try again in 3 s."
