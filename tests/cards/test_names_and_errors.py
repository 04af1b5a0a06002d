"""Names and errors the same everywhere, through discord.py: nicknames players use (w6, t3feri), tokens asked for as
"name token", inline misses that explain as /card does (a bad set code named as the problem), and /search errors that
name the term at fault."""

from __future__ import annotations

import pytest

from tests.cards.conftest import only_refusals, private
from tests.data import SCRYFALL_CARDS
from tests.support.fake_scryfall import FakeScryfall
from tests.support.layout_cards import imported_config
from tests.support.nickname_cards import CARDS as NICKNAMED


@pytest.fixture
def fake_scryfall():
    """The sample cards, and the real cards the nicknames stand for, in the bulk data the bot imports."""
    with FakeScryfall(SCRYFALL_CARDS) as fake:
        fake.bulk.cards += NICKNAMED
        yield fake


@pytest.fixture
def bot_config(data_dir, fake_scryfall):
    return imported_config(data_dir, fake_scryfall, inline_cards=True)


def bot_messages(channel) -> list:
    return sorted((m for m in channel.history() if m.author.bot), key=lambda m: m.id)


async def test_nicknames_players_use_find_their_cards_in_every_entry_point(simcord_env, channel, alice):
    await simcord_env.bot.card_source.matcher()
    shown = await alice.slash(channel, "card", name="w6")
    assert shown.response.embeds[0].title.startswith("Wrenn and Six ")
    choices = await alice.autocomplete(channel, "card", "name", "t3feri")
    assert choices and choices[0]["value"] == "Teferi, Time Raveler"

    await alice.send(channel, "[[t3feri]] and [[W6]]")
    reply = bot_messages(channel)[-1]
    assert [embed.title.split(" {")[0] for embed in reply.embeds] == ["Teferi, Time Raveler", "Wrenn and Six"]


async def test_a_token_is_found_by_its_name_and_the_word_token(simcord_env, channel, alice):
    shown = (await alice.slash(channel, "card", name="snake token")).response.embeds[0]
    assert shown.title == "Snake" and "Token Creature — Snake" in shown.description

    await alice.send(channel, "[[Snake Token]]")
    assert bot_messages(channel)[-1].embeds[0].title == "Snake"


async def test_an_inline_miss_explains_as_the_card_command_does(simcord_env, channel, alice):
    await simcord_env.bot.card_source.matcher()
    typo = "Gitrog Toadd"
    by_command = private(await alice.slash(channel, "card", name=typo)).content
    await alice.send(channel, f"[[{typo}]]")
    inline = bot_messages(channel)[-1].content

    assert inline == by_command.replace("\n", " ")
    assert inline == f"No card is called “{typo}”."  # not the bare "No single card found for: …" of before


async def test_a_bad_set_code_is_named_as_the_problem_not_the_card(simcord_env, channel, alice):
    await alice.send(channel, "[[Bloated Toad|zzz]]")

    said = bot_messages(channel)[-1].content
    assert said == "There is no set with the code ZZZ. Set codes are 2–6 letters or digits, like MH2 or AKH."
    assert "Bloated Toad" not in said


@pytest.mark.parametrize(
    ("query", "said"),
    [
        ("t:creature pow>", "“pow\\>” needs a number after it, as in pow\\>3."),
        ("t:creature set:", "“set:” needs something after it, as in set:akh."),
        ("c:g or", "The search ends at “or”, in the middle of a term: what comes after it?"),
        ("set:zzz t:frog", "There is no set with the code ZZZ. Set codes are 2–6 letters or digits, like MH2 or AKH."),
    ],
)
async def test_a_search_error_names_the_term_at_fault(simcord_env, channel, alice, query, said):
    answer = await alice.slash(channel, "search", query=query)
    assert private(answer).content == said
    assert only_refusals(simcord_env)

    await alice.send(channel, f"[[?{query}]]")
    assert said in bot_messages(channel)[-1].content  # inline searches say the same
