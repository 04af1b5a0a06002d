"""Chat as people type it (core, no Discord): short spellings written out, never inside a card's name; typo
correction that leaves English words alone; idioms and card names that are not rules terms."""

from __future__ import annotations

import pytest

from bot.rules.asking.ask import lookup
from bot.rules.words.chat import normalise, without_idioms


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("can u block w/ a tapped creature rn", "can you block with a tapped creature right now"),
        ("r tokens cards bc they dont go to the gy", "are tokens cards because they do not go to the gy"),
        ("Dont triggers go on the stack cuz", "do not triggers go on the stack because"),
        ("what happens w/o a library thx", "what happens without a library thanks"),
        ("it doesnt untap til my turn", "it does not untap until my turn"),
        ("doesn't it", "does not it"),
    ],
)
def test_chat_spellings_are_written_out(typed, meant):
    assert normalise(typed).lower() == meant.lower()


@pytest.mark.parametrize(
    "typed",
    [
        "does [[Ur-Dragon]] reduce u costs",  # a card reference is left as typed
        "can I pay U for it",  # a capital letter alone is a mana symbol
        "does Til trigger",  # a capitalised word inside a sentence is a name
    ],
)
def test_chat_spellings_are_never_rewritten_inside_a_card_name_or_a_symbol(typed):
    kept = {"[[Ur-Dragon]]", " U ", "Til"}
    assert all(part in normalise(typed) for part in kept if part in typed)


def test_a_chat_question_is_answered_as_the_same_question_written_out_302_6(full_index):
    typed = lookup(full_index, "can u attack w/ a creature u just cast")
    written = lookup(full_index, "can you attack with a creature you just cast")
    assert typed.found and typed.ranked() == written.ranked()


def test_typo_correction_leaves_a_word_of_the_english_dictionary_alone(full_index):
    searcher = full_index.searcher
    # Words of everyday English that are one or two letters from a rules word stay what they are ...
    for word in ("solitude", "morning", "stuff", "anyway", "whatever"):
        assert searcher.correct(word) == word
    # ... while a typo of a rules word is still corrected.
    assert searcher.correct("frist") == "first"
    assert searcher.correct("trampel") == "trample"


@pytest.mark.parametrize(
    ("idiom", "kept"),
    [
        ("at the end of the day can i counter it", "can i counter it"),
        ("in that case does it die", "does it die"),
        ("turns out my opponent had a blocker", "my opponent had a blocker"),
        ("what happens in the end step", "what happens in the end step"),  # the rules' own "end step" stays
        ("first of all, how does first strike work", ", how does first strike work"),
        ("what is an illegal target in magic: the gathering?", "what is an illegal target in ?"),
    ],
)
def test_idioms_are_not_read_as_rules_terms(idiom, kept):
    assert " ".join(without_idioms(idiom).split()) == " ".join(kept.split())


def test_an_idiom_does_not_pull_the_answer_to_the_rule_it_sounds_like(full_index):
    searcher = full_index.searcher
    assert "case" not in searcher.terms("in that case can my creature block two attackers")
    assert "turn" not in searcher.terms("turns out my opponent can block, is that right")


def test_a_card_named_in_brackets_is_not_read_as_a_rules_term(full_index):
    searcher = full_index.searcher
    assert searcher.terms("can [[Flash]] put a creature with flying onto the battlefield") == searcher.terms(
        "can it put a creature with flying onto the battlefield"
    )
    assert "flash" not in searcher.terms("does [[Flash]] work with evoke")


def test_the_entry_stating_the_answer_in_its_own_words_stands_out_in_its_section(full_index):
    from bot.rules.ranking.features import distinctness, holders_of

    searcher = full_index.searcher
    entries = searcher.entries
    rows = [entries.rule_row[key] for key in ("505.1", "505.6b", "505.5")]
    weighted = [(s, s, 1 / 3) for s in ("land", "play", "main")]
    held = entries.masks.holding([s for s, _a, _w in weighted], rows)
    found = distinctness(entries, rows, holders_of(weighted, held))
    assert found[entries.rule_row["505.6b"]] == 1.0  # "play a land" is its own words
    assert found[entries.rule_row["505.1"]] < 1.0
