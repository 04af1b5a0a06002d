"""Decklists written with the names cards are printed with in the languages an operator chose: the one resolver
reads them after the English names (basic lands too: "Sumpf", "Plaine", "沼"), a typo of a Latin printed name is read
as its card, and a name several cards share offers them all and saves nothing; through the resolver and through
``/deck save`` in discord.py (simcord). The printed names are real (``tests/data/scryfall/printed-names.json``)."""

from __future__ import annotations

import shutil

import pytest

from bot.carddb import FILE_NAME, CardData
from bot.carddb.printed import FILE_NAME as PRINTED_FILE
from bot.cards.matchers import Matchers
from bot.config import Config
from bot.goldfish.decks import (
    MAIN,
    SIDEBOARD,
    DeckProblem,
    DeckResolver,
    LocalCards,
    Near,
    PrintedCards,
    read_file,
    read_list,
)
from tests.goldfish.decks.cog_support import private, text_of
from tests.goldfish.decks.conftest import PRINTED_LANGUAGES

GERMAN = "Deck\n4 Amrou-Späher\n4 Gnade des Engels\n4 Lotus-Blütezeit\n4 Street Wraith\n22 Ebene\n22 Sumpf\n"
GERMAN += "\nSideboard\n2 Abbrechen\n1 Davonwischen"
FRENCH = "4 Éclaireuse amroue\r\n4 Grâce de l'ange\r\n4 Floraison de lotu\r\n24 Plaine\r\n24 Marais\r\n\r\n2 Révocation"
JAPANESE = "Quantity,Name\n4,アムローの偵察兵\n4,天使の嗜み\n2,火 // 氷\n25,平地\n25,沼\n"
SHARED = "4 Eliminare\n4 Street Wraith\n32 Ebene"  # Italian for Cancel, and for Wipe Away
SHARED_REFUSAL = [
    "I couldn't find 1 card of that list, so nothing was used:",
    "• Eliminare: the name several cards are printed with; write the one you mean: **Cancel** or **Wipe Away**",
    "Check the spelling and try again.",
]


@pytest.fixture
async def printed_data(printed_cards, data_dir):
    for name in (FILE_NAME, PRINTED_FILE):
        shutil.copyfile(printed_cards / name, data_dir / name)
    data = await CardData.open(data_dir, "http://127.0.0.1:9", languages=PRINTED_LANGUAGES)
    yield data
    await data.close()


@pytest.fixture
async def printed_resolver(printed_data) -> DeckResolver:
    """The resolver as the bot makes it: the local copy, then the printed names, their typos read by the name
    matcher."""
    matchers = Matchers(lambda: printed_data)
    assert await matchers.current() is not None
    return DeckResolver([LocalCards(printed_data), PrintedCards(printed_data, matchers.printed)])


async def test_a_german_list_is_read_by_its_printed_names_basic_lands_too(printed_data, printed_resolver):
    with pytest.raises(DeckProblem):  # English names alone know no "Sumpf"
        await DeckResolver([LocalCards(printed_data)]).resolve(read_list(GERMAN), "Deutsch")
    deck = await printed_resolver.resolve(read_list(GERMAN), "Deutsch")
    assert deck.entries(MAIN) == (
        (4, "Amrou Scout"),
        (4, "Angel's Grace"),
        (4, "Lotus Bloom"),
        (4, "Street Wraith"),
        (22, "Plains"),
        (22, "Swamp"),
    )
    assert deck.entries(SIDEBOARD) == ((2, "Cancel"), (1, "Wipe Away"))
    assert deck.readings == ()  # printed names are exact names


async def test_a_french_file_reads_its_names_and_a_typo_of_one_as_its_card(printed_resolver):
    deck = await printed_resolver.resolve(read_file("deck.txt", FRENCH.encode("utf-16")), "Français")
    assert deck.entries(MAIN) == (
        (4, "Amrou Scout"),
        (4, "Angel's Grace"),
        (4, "Lotus Bloom"),
        (24, "Plains"),
        (24, "Swamp"),
    )
    assert deck.entries(SIDEBOARD) == ((2, "Cancel"),)
    assert [(r.typed, r.read_as) for r in deck.readings] == [("Floraison de lotu", "Lotus Bloom")]


async def test_a_japanese_file_reads_its_names_a_split_card_by_its_faces(printed_resolver):
    deck = await printed_resolver.resolve(read_file("deck.csv", JAPANESE.encode("utf-8-sig")), "日本語")
    assert deck.entries(MAIN) == (
        (4, "Amrou Scout"),
        (4, "Angel's Grace"),
        (2, "Fire // Ice"),
        (25, "Plains"),
        (25, "Swamp"),
    )


async def test_a_japanese_name_cut_short_is_offered_never_read(printed_resolver):
    with pytest.raises(DeckProblem) as refused:
        await printed_resolver.resolve(read_list("4 アムローの偵察\n36 平地"), "短い")
    assert "• アムローの偵察: no card has that name; closest: **Amrou Scout**" in str(refused.value).splitlines()


async def test_a_printed_name_several_cards_share_offers_them_all_and_reads_none(printed_resolver):
    with pytest.raises(DeckProblem) as refused:
        await printed_resolver.resolve(read_list(SHARED), "Eliminare")
    assert str(refused.value).splitlines() == SHARED_REFUSAL


class ReadsEverything:
    """A source that reads any name as a typo of one card ("Eliminare" is one letter from Eliminate)."""

    async def exact(self, names):
        return {}

    async def near(self, name):
        return Near({"name": "Eliminate", "type_line": "Instant"}, ("Eliminate",))


async def test_a_shared_printed_name_is_never_read_as_a_typo_of_an_english_name(printed_data, printed_resolver):
    resolver = DeckResolver([ReadsEverything(), *printed_resolver.sources])
    _found, readings = await resolver.cards(["Eliminare", "Elminate"])
    assert [(r.typed, r.read_as, r.offered, r.shared) for r in readings] == [
        ("Eliminare", None, ("Cancel", "Wipe Away"), True),
        ("Elminate", "Eliminate", (), False),  # a typo no printed name is exactly: read as the first source reads it
    ]


async def test_only_the_languages_chosen_are_read_and_without_a_matcher_exactly(printed_data):
    resolver = DeckResolver([LocalCards(printed_data), PrintedCards(printed_data)])
    deck = await resolver.resolve(read_list("4 Wald\n4 Forêt\n4 森"), "Forests")
    assert deck.entries(MAIN) == ((12, "Forest"),)
    with pytest.raises(DeckProblem) as refused:  # Portuguese is not chosen; no typo is read without the matcher
        await resolver.resolve(read_list("4 Floresta\n4 Walt"), "Forests")
    assert [line.split(":")[0] for line in str(refused.value).splitlines()[1:3]] == ["• Floresta", "• Walt"]


# ---------------------------------------------------------------- through /deck save (simcord)


@pytest.fixture
def bot_config(data_dir, printed_cards, cdn, archidekt, tappedout) -> Config:
    for name in (FILE_NAME, PRINTED_FILE):
        shutil.copyfile(printed_cards / name, data_dir / name)
    return Config(
        data_dir=data_dir,
        scryfall_api_url="http://127.0.0.1:9",
        discord_api_base=cdn.api_base,
        archidekt_url=archidekt.base_url,
        tappedout_url=tappedout.base_url,
        card_languages=PRINTED_LANGUAGES,
    )


@pytest.fixture
async def decks(simcord_env):
    assert simcord_env.bot.card_data.printed.loaded
    await simcord_env.bot.card_source.matcher()  # the one name matcher, printed names in it
    return simcord_env.bot.get_cog("Decks")


async def test_deck_save_takes_a_german_list_pasted_in_one_line(decks, simcord_env, channel, alice):
    one_line = GERMAN.replace("Deck\n", "").replace("\n\nSideboard\n", ", Sideboard: ").replace("\n", ", ")
    saved = await alice.slash(channel, "deck save", name="Deutsch", decklist=one_line)
    assert text_of(saved).startswith("Saved **Deutsch**: 60 main · 3 sideboard.")
    shown = private(await alice.slash(channel, "deck show", name="Deutsch")).embeds[0].description
    assert "22 Swamp" in shown and "4 Amrou Scout {1}{W}" in shown and "Sumpf" not in shown
    assert not simcord_env.errors


async def test_deck_save_takes_french_and_japanese_files(decks, simcord_env, channel, alice, cdn):
    cdn.serve(simcord_env)
    french = await alice.slash(channel, "deck save", name="Français", file=("deck.txt", FRENCH.encode("utf-16")))
    said = text_of(french).splitlines()
    assert said[0] == "Saved **Français**: 60 main · 2 sideboard."
    assert "• Floraison de lotu: read as **Lotus Bloom**" in said
    japanese = await alice.slash(channel, "deck save", name="日本語", file=("deck.csv", JAPANESE.encode("utf-8-sig")))
    assert text_of(japanese).startswith("Saved **日本語**: 60 main.")
    game = await alice.slash(channel, "goldfish start", deck="日本語", seed=4)
    assert game.response.content.startswith("Deck ready: 日本語 (60 cards).")


async def test_deck_save_of_a_shared_printed_name_offers_every_card_and_saves_nothing(decks, channel, alice):
    refused = await alice.slash(channel, "deck save", name="Italiano", decklist=SHARED.replace("\n", ", "))
    assert text_of(refused).splitlines() == SHARED_REFUSAL
    assert await decks.store.summaries(alice.id) == []
