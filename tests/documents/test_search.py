"""Finding sections: numbers as people type them, names, and the passage of a section that answers words."""

from __future__ import annotations

from datetime import date

from bot.documents import Document, Part, Section, SectionIndex

FILLER = "Players follow the announced procedures at every level of the tournament. " * 4


def document() -> Document:
    long = f"{FILLER}Notes taken before the match may be read only between games. {FILLER}"
    sections = [
        Section("1", "Tournament Fundamentals", []),
        Section("1.1", "Taking Notes", [Part("", (long,))]),
        Section("1.2", "Game Markers", [Part("", ("Small items may be used as markers.",))]),
        Section("A", "Time Limits", [Part("", ("Fifty minutes a round.",))]),
    ]
    return Document("mtr", "Magic Tournament Rules", date(2025, 11, 10), "https://media.wizards.com/mtr.pdf", sections)


def test_numbers_are_read_as_people_type_them():
    index = SectionIndex(document())
    assert [index.number(text).number for text in ("1.1", "1-1", "1.1.", "section 1", "appendix a", "Appendix A")] == [
        "1.1",
        "1.1",
        "1.1",
        "1",
        "A",
        "A",
    ]
    assert index.number("a") is None and index.number("9.9") is None


def test_a_long_paragraph_answers_with_the_sentence_holding_the_words_asked_and_what_follows():
    index = SectionIndex(document())
    section = document().get("1.1")

    passage = index.best_passage(section, "can I read my notes between games")

    assert passage.startswith("Notes taken before the match may be read only between games.")
    assert len(passage) <= 400


def test_titles_and_other_names_find_their_section_and_a_title_in_a_question_counts_more():
    index = SectionIndex(document(), {"markers": ("1.2",), "gone": ("9.9",)})
    assert index.named("Taking notes") == ("1.1",)
    assert index.named("markers") == ("1.2",)
    assert index.named("gone") == ()  # a name for a section this version lacks is left out
    assert index.search("is taking notes allowed")[0].number == "1.1"
