"""/search before the first download of the card data: Scryfall's API answers, page by page."""

from __future__ import annotations

from tests.cards.conftest import private


async def test_a_search_before_the_first_download_is_asked_of_scryfall(cards, channel, alice, fake_scryfall):
    result = await alice.slash(channel, "search", query="o:cycling")

    embed = result.response.embeds[0]
    assert embed.title.startswith("Search: ")
    assert embed.footer.text.endswith("Scryfall API")
    assert fake_scryfall.requests_to("/cards/search")[0].query["q"] == "o:cycling"
    await alice.click(result.response.message, label="Next")
    assert "page 2/" in result.response.embeds[0].footer.text


async def test_scryfalls_own_refusal_is_shown(cards, channel, alice):
    result = await alice.slash(channel, "search", query="foo:bar")
    answer = private(result)
    assert answer.content.startswith("Scryfall could not read that search: All of your terms were ignored.")
    assert "Unknown keyword “foo”" in answer.content
