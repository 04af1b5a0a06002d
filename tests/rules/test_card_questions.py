"""Rules questions that name cards (core, no Discord): the cards are found in the local card data, shown with
the rulings that bear on the question, and the rules are chosen from the question and the cards together."""

from __future__ import annotations

import shutil

import pytest

from bot.carddb.service import FILE_NAME, CardData
from bot.cards.questions import MAX_CARDS, QuestionCards, card_names
from bot.documents import SURE
from bot.documents import answer_text as terminal_text
from bot.rules.asking.ask import answer_about
from bot.rules.asking.cards import CardFacts, interaction_rules


async def answer_about_cards(index, card_data, query: str):
    """The answer with cards, or None when the question is answered from the rules alone."""
    answer = await answer_about(index, query, QuestionCards(card_data))
    return answer if answer.kind == "cards" else None


@pytest.fixture
async def card_data(question_cards_copy, tmp_path):
    shutil.copyfile(question_cards_copy, tmp_path / FILE_NAME)
    opened = await CardData.open(tmp_path, "http://127.0.0.1:9")
    yield opened
    await opened.close()


async def names_in(full_index, card_data, text: str) -> list[str]:
    names = await card_names(card_data, full_index)
    found = names.find(text)
    cards = await card_data.with_rulings([mention.card for mention in found.mentions])
    return [card.name for card, _rulings in cards]


@pytest.mark.parametrize(
    ("question", "cards"),
    [
        ("if I evoke solitude do I still get to exile their creature", ["Solitude"]),
        ("can I still cycle while my opponent has teferi time raveller out", ["Teferi, Time Raveler"]),
        (
            "does [[Chalice of the Void]] on 1 counter [[prismatic ending]] with X=1",
            ["Chalice of the Void", "Prismatic Ending"],
        ),
        (
            "Does Chalice of the Void on 1 counter Prismatic Ending with X=1?",
            ["Chalice of the Void", "Prismatic Ending"],
        ),
        ("can I cast Stomp from exile after it resolves", ["Bonecrusher Giant // Stomp"]),
        ("how does fuse work on wear // tear", ["Wear // Tear"]),
        (
            "does Insectile Aberration keep its counters when it transforms",
            ["Delver of Secrets // Insectile Aberration"],
        ),
        ("what happens with [[Fire//Ice]] and [[Lions eye diamond]]", ["Fire // Ice", "Lion's Eye Diamond"]),
    ],
)
async def test_card_names_are_found_plain_misspelt_bracketed_and_by_a_face(full_index, card_data, question, cards):
    assert await names_in(full_index, card_data, question) == cards


@pytest.mark.parametrize(
    "question",
    [
        "can I block with a tapped creature",
        "what happens when my library runs out",
        "can I play an island and a forest in the same turn",
        "does a counter spell work on a cycled card",
        "what happens to the top card of my library when I mill",
    ],
)
async def test_ordinary_words_do_not_become_cards(full_index, card_data, question):
    assert await names_in(full_index, card_data, question) == []
    assert await answer_about_cards(full_index, card_data, question) is None


async def test_the_answer_shows_the_card_its_ruling_on_the_point_first_and_leads_with_evoke_702_74(
    full_index, card_data
):
    answer = await answer_about_cards(
        full_index, card_data, "if I evoke Solitude do I still get to exile their creature"
    )
    assert answer is not None and answer.found and answer.kind == "cards"
    (card,) = answer.cards
    assert card.facts.name == "Solitude" and card.facts.mana_cost == "{3}{W}{W}"
    assert card.facts.type_line == "Creature — Elemental Incarnation"
    assert "exile up to one other target creature" in card.facts.oracle_text
    assert card.rulings and "evoke cost" in card.rulings[0]["comment"]
    assert all("Lifelink matters" not in ruling["comment"] for ruling in card.rulings)
    assert answer.target.startswith("702.74") and answer.confidence == SURE
    assert card.facts.oracle_id
    text = terminal_text(answer)
    # One title, then the card, its ruling, then the rule.
    assert text.startswith(answer.title + "\n") and text.count("Evoke") >= 1
    assert text.index("Solitude {3}{W}{W}") < text.index("evoke cost") < text.index("702.74a")


@pytest.mark.parametrize(
    ("question", "rule"),
    [
        ("how does fuse work with wear // tear", "702.102"),
        ("when does The Eldest Reborn get sacrificed", "714"),
        ("can my opponent's Wrath of God destroy Progenitus", "702.16j"),
        ("can I activate Lion's Eye Diamond with a spell on the stack", "701.9"),
    ],
)
async def test_the_cards_keywords_types_and_costs_point_to_their_rules(full_index, card_data, question, rule):
    answer = await answer_about_cards(full_index, card_data, question)
    assert answer is not None
    assert rule in answer.ranked()[:4], answer.ranked()
    assert any(rule in card.rules for card in answer.cards)


async def test_a_question_about_a_card_without_a_deciding_keyword_still_ranks_the_question_702_29(
    full_index, card_data
):
    answer = await answer_about_cards(
        full_index, card_data, "can I still cycle while my opponent has Teferi, Time Raveler out"
    )
    assert answer is not None and answer.cards[0].facts.name == "Teferi, Time Raveler"
    assert answer.target.startswith("702.29")
    assert "cycling" in answer.cards[0].rulings[0]["comment"]


async def test_a_hundred_card_names_show_the_first_few_and_say_how_many_more(full_index, card_data):
    names = ["Solitude", "Progenitus", "Street Wraith", "Bloated Toad", "Astral Slide", "Cast Out"] * 17
    answer = await answer_about_cards(full_index, card_data, " ".join(f"[[{name}]]" for name in names)[:500])
    assert answer is not None
    assert len(answer.cards) == MAX_CARDS and answer.more_cards == 2
    assert "2 more cards" in terminal_text(answer)


async def test_questions_with_numbers_glossary_terms_or_too_long_are_left_to_the_rules(full_index, card_data):
    for query in ("702.29 street wraith", "trample", "solitude " * 100):
        assert await answer_about_cards(full_index, card_data, query) is None


async def test_without_card_data_the_rules_answer_alone(full_index, tmp_path):
    empty = await CardData.open(tmp_path, "http://127.0.0.1:9")
    try:
        assert await answer_about_cards(full_index, empty, "if I evoke Solitude do I exile it") is None
        assert await answer_about_cards(full_index, None, "if I evoke Solitude do I exile it") is None
    finally:
        await empty.close()


async def test_a_copy_imported_without_a_rulings_file_says_the_rulings_are_not_there_yet(full_index, tmp_path):
    from bot.carddb.update import update_from_file
    from tests.data import SCRYFALL_CARDS

    update_from_file(tmp_path / FILE_NAME, SCRYFALL_CARDS)
    opened = await CardData.open(tmp_path, "http://127.0.0.1:9")
    try:
        answer = await answer_about_cards(full_index, opened, "can I cycle Street Wraith with no mana")
    finally:
        await opened.close()
    assert answer is not None and answer.cards[0].rulings_note() == "Its rulings are not in the local card data yet."
    assert "not in the local card data yet" in terminal_text(answer)


def card(name: str, text: str) -> CardFacts:
    return CardFacts(name=name, mana_cost="", type_line="Enchantment", oracle_text=text)


def test_two_cards_with_replacement_effects_propose_the_rule_that_orders_them_616_1():
    kalitas = card("Kalitas", "If a nontoken creature an opponent controls would die, exile that card instead.")
    procession = card(
        "Procession",
        "If an effect would create one or more tokens under your control, it creates "
        "twice that many of those tokens instead.",
    )
    assert interaction_rules([kalitas, procession]) == ["616.1"]
    assert interaction_rules([kalitas]) == []


def test_a_card_that_copies_proposes_the_copy_rules_707():
    clone = card("Clone", "You may have Clone enter the battlefield as a copy of any creature on the battlefield.")
    assert {"707.2", "707.10"} <= set(interaction_rules([clone]))
