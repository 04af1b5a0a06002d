"""Lists as players paste them, read into their sections: Arena, MTGO, Moxfield, TappedOut, plain text and one line."""

from __future__ import annotations

import pytest

from bot.goldfish.decks import COMMANDER, COMPANION, MAIN, SIDEBOARD, DeckProblem, parse_decklist, read_list

WRAITHS = {MAIN: [(4, "Street Wraith"), (56, "Swamp")], SIDEBOARD: [(2, "Flame Jet"), (1, "Bloated Toad")]}


def sections(text: str) -> dict[str, list[tuple[int, str]]]:
    found: dict[str, list[tuple[int, str]]] = {}
    for line in read_list(text).lines:
        found.setdefault(line.section, []).append((line.count, line.name))
    return found


def test_arena_keeps_commander_companion_deck_and_sideboard_apart_with_printings():
    text = """About
Name Gavi cycling

Commander
1 Gavi, Nest Warden (C20) 7

Companion
1 Jegantha, the Wellspring (IKO) 222

Deck
4 Street Wraith (FUT) 88
30 Plains (M21) 260 *F*

Sideboard
2 Flame Jet (TOR) 94
"""
    read = read_list(text)
    assert read.title == "Gavi cycling"
    assert [(line.count, line.name, line.section, line.card_set, line.number) for line in read.lines] == [
        (1, "Gavi, Nest Warden", COMMANDER, "c20", "7"),
        (1, "Jegantha, the Wellspring", COMPANION, "iko", "222"),
        (4, "Street Wraith", MAIN, "fut", "88"),
        (30, "Plains", MAIN, "m21", "260"),
        (2, "Flame Jet", SIDEBOARD, "tor", "94"),
    ]


def test_mtgo_text_has_its_sideboard_after_the_last_blank_line():
    text = "4 Street Wraith\r\n56 Swamp\r\n\r\n2 Flame Jet\r\n1 Bloated Toad\r\n"
    assert sections(text) == WRAITHS


def test_a_last_block_of_more_than_15_cards_is_still_the_main_deck():
    assert sections("4 Street Wraith\n20 Swamp\n\n16 Island") == {
        MAIN: [(4, "Street Wraith"), (20, "Swamp"), (16, "Island")]
    }


def test_headers_win_over_blank_lines_in_any_case():
    text = "DECK\n4 Street Wraith\n\n20 Swamp\n\n2 Island\nsideboard:\n3 Flame Jet\n\nMAYBEBOARD\n1 Bloated Toad"
    assert sections(text) == {MAIN: [(4, "Street Wraith"), (20, "Swamp"), (2, "Island")], SIDEBOARD: [(3, "Flame Jet")]}


def test_moxfield_and_plain_text():
    text = "1 Gavi, Nest Warden\n4x Street Wraith\nForest\nCreatures (5)\n\nSIDEBOARD:\n2x Flame Jet"
    assert sections(text) == {
        MAIN: [(1, "Gavi, Nest Warden"), (4, "Street Wraith"), (1, "Forest")],
        SIDEBOARD: [(2, "Flame Jet")],
    }


def test_mtgo_dec_files_mark_each_sideboard_line_and_old_ones_name_a_set_in_brackets():
    text = "// Deck file\n4 [FUT] Street Wraith\nSB: 2 [TOR] Flame Jet\n20 Swamp\nSB:  1 Bloated Toad"
    read = read_list(text)
    assert [(line.count, line.name, line.section, line.card_set) for line in read.lines] == [
        (4, "Street Wraith", MAIN, "fut"),
        (2, "Flame Jet", SIDEBOARD, "tor"),
        (20, "Swamp", MAIN, None),
        (1, "Bloated Toad", SIDEBOARD, None),
    ]


def test_a_commander_marked_on_its_line():
    assert sections("1 Gavi, Nest Warden *CMDR*\n99 Plains") == {
        COMMANDER: [(1, "Gavi, Nest Warden")],
        MAIN: [(99, "Plains")],
    }


@pytest.mark.parametrize(
    "text",
    [
        "4 Street Wraith, 56 Swamp, Sideboard: 2 Flame Jet, 1 Bloated Toad",
        "4 Street Wraith; 56 Swamp; SB: 2 Flame Jet; 1 Bloated Toad",
        "4 Street Wraith, 56 Swamp, sb: 2 Flame Jet, 1 Bloated Toad",
    ],
)
def test_one_line_marks_its_sideboard(text):
    assert sections(text) == WRAITHS


def test_one_line_names_its_commander_alone():
    assert sections("Commander: Gavi, Nest Warden, 99 Plains") == {
        COMMANDER: [(1, "Gavi, Nest Warden")],
        MAIN: [(99, "Plains")],
    }


@pytest.mark.parametrize(
    ("text", "entries"),
    [
        ("4 Bloated Toad, 4 Forest", [(4, "Bloated Toad"), (4, "Forest")]),
        ("4 Bloated Toad,4x Forest;2 Island", [(4, "Bloated Toad"), (4, "Forest"), (2, "Island")]),
        (
            "1 Gisa, Glorious Resurrector, 1 Kozilek, the Great Distortion",
            [(1, "Gisa, Glorious Resurrector"), (1, "Kozilek, the Great Distortion")],
        ),
        ("1 Borrowing 100,000 Arrows, 3 Forest", [(1, "Borrowing 100,000 Arrows"), (3, "Forest")]),
        ("2 Bloated Toad (AKH) 160, 2 Forest\r\n1 Island", [(2, "Bloated Toad"), (2, "Forest"), (1, "Island")]),
        ("1 Circle of Protection: Red\n1 Forest", [(1, "Circle of Protection: Red"), (1, "Forest")]),
    ],
)
def test_a_comma_before_a_count_separates_entries(text, entries):
    assert [(line.count, line.name) for line in parse_decklist(text).lines] == entries


def test_a_line_that_is_not_a_card_is_quoted_escaped():
    with pytest.raises(DeckProblem) as refused:
        parse_decklist("4 Forest\n**bold** <@123>")
    assert "Line 2" in str(refused.value)
    assert "\\*\\*bold\\*\\*" in str(refused.value) and "<@123>" not in str(refused.value)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("4 Flame Jet\n" + "x" * 300, "Line 2"),
        ("0 Island", "at least 1"),
        ("", "no main deck"),
        ("Sideboard\n2 Negate", "only a sideboard"),
        ("200 Island\n51 Swamp", "251 cards in its main deck"),
        ("9" * 5000 + " Plains", "too large"),
        ("1 Island\nSideboard\n" + "\n".join(["200 Swamp", "51 Island"]), "beside its main deck"),
    ],
)
def test_list_errors(text, message):
    with pytest.raises(DeckProblem, match=message):
        parse_decklist(text)


def test_the_250_cards_are_the_main_decks_a_sideboard_beside_them_is_kept():
    read = parse_decklist("250 Island\nSideboard\n15 Swamp")
    assert read.count(MAIN) == 250 and read.count(SIDEBOARD) == 15
