"""Autocomplete as forgiving as the lookup, through discord.py: the card name options of /card, /search's card
picker, /goldfish and /rule's terms all match typos, word order, nicknames and faces the same way."""

from __future__ import annotations

import pytest

from bot.cards.complete import card_matcher
from tests.support.waits import until

STREET_WRAITH = "Street Wraith"


@pytest.fixture
def bot_config(loaded_config):
    return loaded_config


@pytest.fixture
async def cards(local_cards, simcord_env):
    """The Cards cog with the local copy's name matcher built (the first autocomplete starts building it)."""
    await simcord_env.bot.card_source.matcher()
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


async def test_the_first_autocomplete_after_the_copy_loads_is_the_matchers(local_cards, channel, alice, simcord_env):
    """The matcher is built as the copy loads, not at the first request: the first choice list already forgives
    typos and word order (it used to offer names by prefix only, so "wraith street" got nothing)."""
    assert simcord_env.bot.card_source.names.now() is not None
    assert values(await alice.autocomplete(channel, "card", "name", "wraith street"))[0] == STREET_WRAITH


async def test_after_a_refresh_the_previous_matcher_answers_until_the_new_one_is_built(
    local_cards, channel, alice, simcord_env, fake_scryfall
):
    card_data, names = simcord_env.bot.card_data, simcord_env.bot.card_source.names
    built = names.now()
    fake_scryfall.bulk.updated_at = "2026-12-01T09:00:00.000+00:00"  # the next day's file
    assert (await card_data.refresh()).imported
    choices = await alice.autocomplete(channel, "card", "name", "wraith street")
    assert values(choices)[0] == STREET_WRAITH  # never nothing while the new matcher is built
    await until(lambda: names.now() is not built, "the matcher of the new copy, built with no request")
    assert names.now() is not None and values(await alice.autocomplete(channel, "card", "name", "blaoted"))


def one_letter_typos(word: str) -> set[str]:
    """``word`` with one letter dropped, doubled, swapped with the next, or replaced by a neighbouring key."""
    rows = ("qwertyuiop", "asdfghjkl", "zxcvbnm")
    found = set()
    for at, letter in enumerate(word):
        found.add(word[:at] + word[at + 1 :])
        found.add(word[:at] + letter + word[at:])
        if at + 1 < len(word):
            found.add(word[:at] + word[at + 1] + letter + word[at + 2 :])
        for row in rows:
            if letter in row:
                spot = row.index(letter)
                found.update(
                    word[:at] + row[near] + word[at + 1 :] for near in (spot - 1, spot + 1) if 0 <= near < len(row)
                )
    found.discard(word)
    return {typo for typo in found if typo}


def test_a_typo_in_any_position_of_any_word_still_offers_the_card(store_matcher):
    """Over every card of two words or more in the sample: a one-letter typo anywhere, in the first word or the
    last, is offered among the 25 choices (the last word's typo gave no choice at all where swapping the words
    found the card)."""
    matcher, names = store_matcher
    cases = [
        (" ".join([*name.split()[:position], typo, *name.split()[position + 1 :]]), name)
        for name in names
        if len(name.split()) >= 2
        for position, word in enumerate(name.lower().split())
        if len(word) >= 3 and word.isalpha()
        for typo in sorted(one_letter_typos(word))
    ]
    assert len(cases) > 5000
    missed = [(typed, name) for typed, name in cases if name not in {e.value for e in matcher.complete(typed, 25)}]
    assert missed == [], f"{len(missed)} of {len(cases)} missed, e.g. {missed[:5]}"


@pytest.fixture(scope="module")
def store_matcher(tmp_path_factory):
    """The name matcher of the sample cards, built the way the bot builds it, and the real cards' names."""
    from bot.carddb.store import CardStore
    from bot.carddb.update import update_from_scryfall
    from tests.data import SCRYFALL_CARDS
    from tests.support.fake_bulk import FakeBulk

    path = tmp_path_factory.mktemp("typos") / "cards.sqlite3"
    with FakeBulk(SCRYFALL_CARDS) as fake:
        update_from_scryfall(path, fake.base_url)
    store = CardStore(path)
    try:
        matcher = card_matcher(store)
        yield matcher, sorted({entry.value for entry in matcher.entries if entry.rank == 0})
    finally:
        store.close()


def test_a_first_word_begun_with_two_letters_swapped_still_gives_its_card_first(store_matcher):
    """ "nAcient Excavation" offered Sacred Excavation first: the words, sorted, put the typo'd word last and the
    name's other words first. The card is the first choice now, for every name the sample has."""
    matcher, names = store_matcher
    cases = [
        (" ".join([words[0][1] + words[0][0] + words[0][2:], *words[1:]]), name)
        for name in names
        for words in [name.split()]
        if len(words) >= 2 and len(words[0]) >= 4 and words[0].isalpha()
    ]
    assert len(cases) > 150
    first = [(typed, name) for typed, name in cases if [e.value for e in matcher.complete(typed, 1)] != [name]]
    assert first == []
