"""Hypergeometric odds: "at least k of K copies among the first n cards", on the play and on the draw."""

from __future__ import annotations

from fractions import Fraction
from math import comb

import pytest

from bot.goldfish.engine.model import IllegalAction
from bot.goldfish.practice.odds import at_least, cards_seen, odds_table, odds_text


def test_four_copies_in_sixty_at_least_one_in_the_opening_seven_is_39_95_percent():
    assert round(float(at_least(1, 4, 60, 7)) * 100, 2) == 39.95
    assert at_least(1, 4, 60, 7) == 1 - Fraction(comb(56, 7), comb(60, 7))


def test_known_values_two_of_four_and_a_forty_card_deck():
    # P(X >= 2), X ~ Hypergeometric(N=60, K=4, n=7) = 1 - P(0) - P(1) = 0.0632
    p0 = Fraction(comb(56, 7), comb(60, 7))
    p1 = Fraction(4 * comb(56, 6), comb(60, 7))
    assert at_least(2, 4, 60, 7) == 1 - p0 - p1
    assert round(float(at_least(2, 4, 60, 7)), 4) == 0.0632
    # 17 lands in 40, at least 3 in seven: 0.6493 (a limited deck's usual question), by the complement
    below = sum(Fraction(comb(17, k) * comb(23, 7 - k), comb(40, 7)) for k in range(3))
    assert at_least(3, 17, 40, 7) == 1 - below
    assert round(float(at_least(3, 17, 40, 7)), 4) == 0.6493


def test_edges_want_none_want_all_and_seeing_the_whole_deck():
    assert at_least(0, 4, 60, 0) == 1
    assert at_least(1, 4, 60, 0) == 0
    assert at_least(4, 4, 60, 60) == 1
    assert at_least(5, 4, 60, 60) == 0
    assert at_least(1, 4, 10, 500) == 1  # more cards than the deck: every card is seen


def test_cards_seen_on_the_play_skip_the_first_draw_103_8a():
    assert [cards_seen(t, True) for t in (1, 2, 3)] == [7, 8, 9]
    assert [cards_seen(t, False) for t in (1, 2, 3)] == [8, 9, 10]


def test_the_table_goes_up_turn_by_turn_and_the_draw_is_one_card_ahead():
    rows = odds_table(4, 60, 1, 6)
    assert [r.turn for r in rows] == [1, 2, 3, 4, 5, 6]
    assert rows[0].on_the_play == pytest.approx(0.39950, abs=1e-5)
    for earlier, later in zip(rows, rows[1:], strict=False):
        assert later.on_the_play > earlier.on_the_play
        assert later.on_the_play == pytest.approx(earlier.on_the_draw)
    text = odds_text(rows)
    assert "39.95%" in text and "44.48%" in text and text.count("\n") == 6
    assert max(len(line) for line in text.splitlines()) <= 36


@pytest.mark.parametrize(
    ("copies", "deck_size", "wanted", "turns", "reason"),
    [
        (5, 4, 1, 3, "copies must be from 1 to the deck size"),
        (4, 60, 5, 3, "from 1 to 4 of the 4 copies"),
        (4, 60, 0, 3, "from 1 to 4"),
        (4, 251, 1, 3, "from 1 to 250 cards"),
        (4, 60, 1, 21, "turns must be from 1 to 20"),
        (0, 60, 1, 3, "copies must be from 1"),
    ],
)
def test_nonsense_is_refused_with_the_reason(copies, deck_size, wanted, turns, reason):
    with pytest.raises(IllegalAction, match=reason):
        odds_table(copies, deck_size, wanted, turns)
