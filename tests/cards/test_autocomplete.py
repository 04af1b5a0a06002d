"""Autocomplete as forgiving as the lookup, through discord.py: the card name options of /card, /search's card
picker, /goldfish and /rule's terms all match typos, word order, nicknames and faces the same way."""

from __future__ import annotations

import pytest

from bot.cards.complete import MATCHER, card_matcher
from tests.support.waits import until

STREET_WRAITH = "Street Wraith"


@pytest.fixture
def bot_config(loaded_config):
    return loaded_config


@pytest.fixture
async def cards(local_cards, simcord_env):
    """The Cards cog with the local copy's name matcher built (the first autocomplete starts building it)."""
    await simcord_env.bot.card_data.derived(MATCHER, card_matcher)
    return local_cards


def values(choices) -> list[str]:
    return [choice["value"] for choice in choices]


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("bloated toed", "Bloated Toad"),  # a typo in a word
        ("blaoted", "Bloated Toad"),  # letters swapped, the name unfinished
        ("eagles north", "Eagles of the North"),  # words left out
        ("wraith street", STREET_WRAITH),  # words swapped
        ("fire", "Fire // Ice"),  # a face's name
    ],
)
async def test_card_autocomplete_forgives_what_the_lookup_forgives(cards, channel, alice, fake_scryfall, typed, meant):
    choices = await alice.autocomplete(channel, "card", "name", typed)

    assert meant in values(choices)[:5], values(choices)
    assert 0 < len(choices) <= 25
    assert fake_scryfall.api_requests() == []
    # And /card itself finds the same card from the same words.
    answered = await alice.slash(channel, "card", name=typed)
    assert answered.response.embeds[0].title.startswith(meant)


async def test_a_nickname_completes_to_its_card(cards, channel, alice):
    choices = await alice.autocomplete(channel, "card", "name", "tusk")
    assert values(choices)[0] == "Krosan Tusker"  # "tusk" is also the start of the name: one choice, not two


async def test_a_digital_only_card_says_so_in_its_choice_and_comes_after_paper_cards(cards, channel, alice):
    choices = await alice.autocomplete(channel, "card", "name", "aswan")
    assert choices[0] == {"name": "Aswan Jaguar (digital only, Astral)", "value": "Aswan Jaguar"}


async def test_search_offers_the_search_as_typed_then_exact_card_names(cards, channel, alice):
    choices = await alice.autocomplete(channel, "search", "query", "krosan tus")
    assert choices[0] == {"name": "Search: krosan tus", "value": "krosan tus"}
    assert choices[1] == {"name": "Krosan Tusker", "value": '!"Krosan Tusker"'}
    picked = await alice.slash(channel, "search", query=choices[1]["value"])
    assert picked.response.embeds[0].title == "Search: 1 card"
    # A search in Scryfall's syntax is not a name: only itself is offered.
    assert values(await alice.autocomplete(channel, "search", "query", "t:creature c:g")) == ["t:creature c:g"]


async def test_autocomplete_answers_by_prefix_before_the_matcher_is_built(local_cards, channel, alice, simcord_env):
    card_data = simcord_env.bot.card_data
    assert card_data.derived_now(MATCHER) is None
    choices = await alice.autocomplete(channel, "card", "name", "street wr")
    assert values(choices)[0] == STREET_WRAITH  # never refused while the matcher is being built
    # ...and the build was started by that first request.
    await until(lambda: card_data.derived_now(MATCHER) is not None, "the matcher to be built")
