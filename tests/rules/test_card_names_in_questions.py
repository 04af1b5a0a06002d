"""The names players use for cards in questions to the bot (core, no Discord), found among every real card's name:
misspellings, nicknames, a legend's first name or title, possessives; a name several legends share shows them all and
guesses no rule; Look up cards stays exact."""

from __future__ import annotations

import pytest

from bot.documents import SURE
from tests.rules.question_cards import FixtureCards


@pytest.fixture(scope="module")
def finder(full_index) -> FixtureCards:
    return FixtureCards(full_index)


def named(finder: FixtureCards, index, text: str, *, fuzzy: bool = True) -> list[str]:
    found = finder.names.find(text, limit=4, fuzzy=fuzzy)
    return [finder.cards[card].name for mention in found.mentions for card in (mention.card, *mention.others)]


@pytest.mark.parametrize(
    ("question", "cards"),
    [
        ("can I respond to Ragavan's trigger", ["Ragavan, Nimble Pilferer"]),
        ("does Torbran add damage to my goblin tokens", ["Torbran, Thane of Red Fell"]),
        (
            "can I get Gonti's exiled card back",
            ["Gonti, Canny Acquisitor", "Gonti, Lord of Luxury", "Gonti, Night Minister"],
        ),
        ("if I Bolt it in response does it die", ["Lightning Bolt"]),
        ("does the Ur-Dragon's trigger let me put a land", ["The Ur-Dragon"]),
        ("my opponent casts Krenko, Mob Boss. Can I kill Krenko in response?", ["Krenko, Mob Boss"]),
        ("does blood artist trigger when my toekns die", ["Blood Artist"]),
        ("if two Volrath's Shapeshifters are out which text do they have", ["Volrath's Shapeshifter"]),
        ("if my opponent Murders the token in response", ["Murder"]),
    ],
)
def test_players_names_for_cards_are_found_in_questions_to_the_bot(finder, full_index, question, cards):
    assert named(finder, full_index, question) == cards


@pytest.mark.parametrize(
    "question",
    [
        "When can I cast it? What happens if it gets countered?",  # no card "When" opening a sentence
        "what is the mana value of a spell with X in its cost",  # no card "X"
        "if I gain life does it heal my creatures",  # "Heal" written as a word
        "I will bolt it if they attack",  # a nickname that is an everyday word, in lower case
        "Can A Creature Study The Stack Before Blocking?",  # a Title Case sentence's capitals name nothing
    ],
)
def test_ordinary_words_and_sentence_capitals_are_no_cards(finder, full_index, question):
    assert named(finder, full_index, question) == []


def test_look_up_cards_stays_exact(finder, full_index):
    assert named(finder, full_index, "can I respond to Ragavan's trigger", fuzzy=False) == []
    assert named(finder, full_index, "if I Bolt it in response", fuzzy=False) == []
    assert named(finder, full_index, "Ragavan, Nimble Pilferer's trigger", fuzzy=False) == ["Ragavan, Nimble Pilferer"]


def test_a_first_name_several_legends_share_shows_them_all_and_guesses_no_rule(finder, full_index):
    answer = finder.answer(full_index, "when does Krenko's ability resolve if I respond")
    names = [card.facts.name for card in answer.cards]
    assert {"Krenko, Mob Boss", "Krenko, Tin Street Kingpin"} <= set(names)
    assert answer.confidence != SURE
    assert all(not card.rules for card in answer.cards)  # no card's own rules: which one is meant is unsaid
