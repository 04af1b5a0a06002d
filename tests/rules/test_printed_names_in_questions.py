"""Rules questions that name cards as they are printed in the languages an operator chose (core, no Discord): the one
card finder finds them (Latin, Cyrillic, Japanese names, inside a run of Japanese too), an English name always wins
over a printed one, a printed name several cards share shows them all and guesses no card's rules, a printed-names
swap rebuilds the finder, and Look up cards stays exact. The printed names are real
(``tests/data/scryfall/printed-names.json``)."""

from __future__ import annotations

import shutil

import pytest

from bot.carddb import FILE_NAME, CardData
from bot.carddb.printed import FILE_NAME as PRINTED_FILE
from bot.carddb.update import update_from_scryfall
from bot.cards.mentions import PRINTED, CardNames
from bot.cards.questions import QuestionCards, card_names, written_card_names
from bot.documents import SURE
from bot.rules.asking.ask import answer_about
from tests.data import SCRYFALL_CARDS
from tests.rules.conftest import PRINTED_LANGUAGES, time_spiral
from tests.support.fake_bulk import FakeBulk


@pytest.fixture
async def card_data(printed_copy, tmp_path):
    for name in (FILE_NAME, PRINTED_FILE):
        shutil.copyfile(printed_copy / name, tmp_path / name)
    opened = await CardData.open(tmp_path, "http://127.0.0.1:9", languages=PRINTED_LANGUAGES)
    assert opened.printed.loaded
    yield opened
    await opened.close()


async def shown(index, card_data, question: str):
    answer = await answer_about(index, question, QuestionCards(card_data))
    return answer, [card.facts.name for card in answer.cards]


@pytest.mark.parametrize(
    ("question", "cards"),
    [
        ("If I cast Gnade des Engels, can my opponent respond to it?", ["Angel's Grace"]),  # German
        ("can my opponent respond when I cast grâce de l'ange", ["Angel's Grace"]),  # French, in lower case
        ("can my opponent respond when I cast Благоволение Ангела", ["Angel's Grace"]),  # Russian
        ("can my opponent respond when I cast 天使の嗜み", ["Angel's Grace"]),  # Japanese
        ("can my opponent respond to [[天使の嗜み]] at all", ["Angel's Grace"]),
        ("does Разведчик Амру's ability let me search for a Rebel", ["Amrou Scout"]),  # a possessive
        ("if I cast Abbrechen targeting Lotus-Blütezeit while it is suspended", ["Cancel", "Lotus Bloom"]),
    ],
)
async def test_a_question_naming_a_card_as_printed_shows_that_card(full_index, card_data, question, cards):
    answer, names = await shown(full_index, card_data, question)
    assert answer.kind == "cards" and names == cards


async def test_a_name_inside_a_run_of_japanese_is_found(full_index, card_data):
    names = await card_names(card_data, full_index)
    text = "what happens when 天使の嗜みを唱えた and my opponent casts 取り消し"
    found = names.find(text)
    assert [(m.how, m.card) for m in found.mentions] == [
        (PRINTED, names.other["天使の嗜み"][0][0]),
        (PRINTED, names.other["取り消し"][0][0]),
    ]
    # The names' own characters taken out of what the rules are ranked on, the rest of the run kept.
    assert found.without_names(text) == "what happens when  を唱えた and my opponent casts  "


async def test_a_question_by_a_printed_name_is_answered_as_by_the_english_one(full_index, card_data):
    answer, names = await shown(full_index, card_data, "can my opponent respond when I cast 天使の嗜み")
    english, _ = await shown(full_index, card_data, "can my opponent respond when I cast Angel's Grace")
    assert names == ["Angel's Grace"] and answer.cards[0].rules == ("702.61",)  # split second
    assert "702.61" in [choice.value for choice in answer.candidates[:3]]
    assert (answer.title, answer.candidates, answer.confidence) == (
        english.title,
        english.candidates,
        english.confidence,
    )


async def test_a_printed_name_several_cards_share_shows_them_all_and_guesses_no_rule(full_index, card_data):
    answer, names = await shown(full_index, card_data, "if my opponent casts Eliminare can I respond to it")
    assert names == ["Cancel", "Wipe Away"]  # Italian's name for both
    assert answer.confidence != SURE
    assert all(not card.rules for card in answer.cards)  # no card's own rules: which one is meant is unsaid


def test_an_english_name_always_wins_and_an_everyday_english_word_is_no_printed_name():
    names = CardNames([("plains", 1, 0), ("gift of estates", 2, 0)], ordinary=())
    names.add([("Plains", 3), ("Gift", 4), ("Sumpf", 5), ("Gift of Estates", 6)], PRINTED)
    assert "plains" not in names.other and "gift of estates" not in names.other
    found = names.find("if I play Plains and Sumpf can I Gift a card")
    assert [(m.card, m.how) for m in found.mentions] == [(1, "exact"), (5, PRINTED)]


async def test_look_up_cards_and_text_not_addressed_to_the_bot_stay_exact(full_index, card_data):
    names = await card_names(card_data, full_index)
    assert names.find("Mein Deck spielt Gnade des Engels und [[Sumpf]]", fuzzy=False).mentions == []
    found, _ = await written_card_names(card_data, full_index, "Mein Deck spielt Angel's Grace", 5)
    assert [reference.name for reference in found] == ["Angel's Grace"]


async def test_the_finder_is_built_again_when_the_printed_names_are_swapped(full_index, tmp_path):
    with time_spiral(FakeBulk(SCRYFALL_CARDS)) as fake:
        update_from_scryfall(tmp_path / FILE_NAME, fake.base_url)
        card_data = await CardData.open(tmp_path, fake.base_url, languages=("de",))
        try:
            assert not card_data.printed.loaded
            _, before = await shown(full_index, card_data, "If I cast Gnade des Engels, can my opponent respond?")
            assert before == []
            assert (await card_data.printed.refresh()).changed  # downloaded, and swapped in
            _, after = await shown(full_index, card_data, "If I cast Gnade des Engels, can my opponent respond?")
            assert after == ["Angel's Grace"]
        finally:
            await card_data.close()
