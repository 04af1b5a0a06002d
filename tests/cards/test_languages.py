"""Cards named as printed in the players' languages: /card, its autocomplete, inline ``[[…]]`` and Look up cards
take the printed names of the languages an operator chose, and the player's own language (their client's locale)
comes first in the choices. The names are real (``tests/data/scryfall/printed-names.json``, ``localized.jsonl``)."""

from __future__ import annotations

import shutil

import pytest

from bot.carddb import FILE_NAME
from bot.carddb.printed import FILE_NAME as PRINTED_FILE
from bot.carddb.printed import update_printed
from bot.carddb.update import update_from_scryfall
from bot.config import Config
from tests.cards.conftest import private, speaking
from tests.data import SCRYFALL_CARDS
from tests.support.fake_all_cards import missing_cards
from tests.support.fake_scryfall import FakeScryfall
from tests.support.installs import message_command, say

LANGUAGES = ("de", "fr", "it", "es", "ja", "ru", "zhs")
GERMAN_FOREST = "**Wald** · [German printing](https://scryfall.com/card/tsp/298/de)"


def with_time_spiral(fake: FakeScryfall) -> FakeScryfall:
    """The fake with the five Time Spiral cards the sample lacks (Cancel, Wipe Away…) in its API and bulk files."""
    for card in missing_cards(fake.bulk.cards):
        fake.bulk.cards.append(card)
        fake.cards.append(card)
        fake.by_id[card["id"]] = card
    return fake


@pytest.fixture(scope="module")
def stored_languages(tmp_path_factory):
    """The cards and their printed names imported once, the way the bot imports them."""
    folder = tmp_path_factory.mktemp("languages")
    with FakeScryfall(SCRYFALL_CARDS) as fake:
        with_time_spiral(fake)
        update_from_scryfall(folder / FILE_NAME, fake.base_url)
        update_printed(folder / PRINTED_FILE, fake.base_url, LANGUAGES)
    return folder


@pytest.fixture
def bot_config(data_dir, fake_scryfall, stored_languages):
    with_time_spiral(fake_scryfall)
    for name in (FILE_NAME, PRINTED_FILE):
        shutil.copyfile(stored_languages / name, data_dir / name)
    return Config(
        data_dir=data_dir, scryfall_api_url=fake_scryfall.base_url, inline_cards=True, card_languages=LANGUAGES
    )


@pytest.fixture
async def cards(simcord_env, fake_scryfall):
    assert simcord_env.bot.card_data.printed.loaded
    await simcord_env.bot.card_source.matcher()
    fake_scryfall.reset()
    return simcord_env.bot.get_cog("Cards")


def values(choices) -> list[str]:
    return [choice["value"] for choice in choices]


async def test_a_printed_name_finds_its_card_with_a_link_to_that_printing(cards, channel, alice, fake_scryfall):
    result = await alice.slash(channel, "card", name="Wald")
    embed = result.response.embeds[0]
    assert not result.ephemeral and embed.title.startswith("Forest")  # the Oracle name
    assert embed.description.split("\n")[0] == GERMAN_FOREST  # the name as printed, and that printing
    assert "({T}: Add {G}.)" in embed.description  # the Oracle text, in English
    assert embed.footer.text.startswith("Scryfall bulk data of")
    assert fake_scryfall.api_requests() == []


@pytest.mark.parametrize(
    ("typed", "card"),
    [
        ("eclaireuse AMROUE", "Amrou Scout"),  # French, without its accent and in other case
        ("Grace de l ange", "Angel's Grace"),  # French's "Grâce de l'ange" as typed on a phone
        ("разведчик амру", "Amrou Scout"),  # Russian, lower case
        ("Разведчек Амру", "Amrou Scout"),  # Russian, one letter wrong
        ("Gnade des Engles", "Angel's Grace"),  # German, two letters swapped
        ("Montana", "Mountain"),  # Spanish's "Montaña"
    ],
)
async def test_latin_and_cyrillic_names_forgive_accents_case_and_a_typo(cards, channel, alice, typed, card):
    result = await alice.slash(channel, "card", name=typed)
    assert result.response.embeds[0].title.startswith(card)


async def test_japanese_and_chinese_names_match_by_prefix_and_characters(cards, channel, alice):
    assert "天使の嗜み · Angel's Grace" in values(await alice.autocomplete(channel, "card", "name", "天使"))
    assert "天使の嗜み · Angel's Grace" in values(await alice.autocomplete(channel, "card", "name", "嗜み"))  # inside
    # Half-width katakana as a phone may type them: the same name after NFKC.
    assert "アムローの偵察兵 · Amrou Scout" in values(await alice.autocomplete(channel, "card", "name", "ｱﾑﾛｰ"))
    island = await alice.slash(channel, "card", name="海岛")
    assert island.response.embeds[0].title.startswith("Island")
    ice = await alice.slash(channel, "card", name="氷")  # one face of a Japanese split card
    embed = ice.response.embeds[0]
    assert embed.title.startswith("Fire // Ice") and embed.description.startswith("**氷** · [Japanese printing](")


async def test_a_printed_name_several_cards_share_offers_them_all(cards, channel, alice):
    result = await alice.slash(channel, "card", name="Eliminare")  # Italian for Cancel, and for Wipe Away
    picker = private(result)
    options = [o["label"] for row in picker.components for c in row["components"] for o in c.get("options", [])]
    assert sorted(options) == ["Eliminare · Cancel", "Eliminare · Wipe Away"]
    picked = await alice.select(picker, values=["Eliminare · Wipe Away"])
    embed = picked.followups[-1].embeds[0]
    assert embed.title.startswith("Wipe Away") and embed.description.startswith("**Eliminare** · [Italian printing](")
    assert "Eliminare · Cancel" in values(await alice.autocomplete(channel, "card", "name", "elimin"))
    assert "Eliminare · Wipe Away" in values(await alice.autocomplete(channel, "card", "name", "elimin"))


@pytest.mark.parametrize(
    ("locale", "first"),
    [
        ("en-US", "Island"),
        ("es-419", "Isla · Island"),
        ("es-ES", "Isla · Island"),
        ("it", "Isola · Island"),
        ("zh-TW", "Island"),  # Traditional Chinese is not among the languages chosen: English first
    ],
)
async def test_the_players_language_comes_first_and_each_choice_opens_its_card(cards, channel, alice, locale, first):
    with speaking(locale):
        choices = await alice.autocomplete(channel, "card", "name", "is")
    shown = values(choices)
    assert shown[0] == first
    assert {"Island", "Isla · Island", "Isola · Island"} <= set(shown)
    assert shown.index("Island") < min(shown.index(v) for v in shown if " · " in v and v != first)
    assert {choice["name"] for choice in choices} == set(shown)  # labelled as sent: "Printed · English"
    opened = await alice.slash(channel, "card", name=first)
    embed = opened.response.embeds[0]
    assert embed.title.startswith("Island")
    assert (" · " in first) == embed.description.startswith(f"**{first.split(' · ')[0]}** · [")


async def test_an_exact_english_name_wins_over_the_players_language(cards, channel, alice):
    with speaking("de"):
        choices = values(await alice.autocomplete(channel, "card", "name", "Island"))
        result = await alice.slash(channel, "card", name="Island")
    assert choices[0] == "Island"
    assert (
        result.response.embeds[0].title.startswith("Island")
        and "printing](" not in result.response.embeds[0].description
    )


async def test_inline_references_and_look_up_cards_take_printed_names(cards, simcord_env, channel, alice, bob):
    await alice.send(channel, "Sumpf oder 森? [[Sumpf]] [[森]]")
    reply = max((m for m in channel.history() if m.author.bot), key=lambda m: m.id)
    swamp, forest = reply.embeds
    assert swamp.title.startswith("Swamp") and swamp.description.startswith("**Sumpf** · [German printing](")
    assert forest.title.startswith("Forest") and forest.description.startswith("**森** · [Japanese printing](")
    message = say(simcord_env, channel, bob, "Mein Deck spielt [[Gebirge]].")
    looked = await message_command(alice, channel, "Look up cards", message)
    embed = looked.response.embeds[0]
    assert embed.title.startswith("Mountain") and embed.description.startswith("**Gebirge** · [German printing](")
