"""The terminal game offers the choices Discord offers: lands to tap, X, cleanup discards, echo, undo."""

from __future__ import annotations

import pytest

from bot.goldfish import Game, preset_decks
from bot.goldfish.cli import play
from bot.goldfish.scenario import position
from tests.goldfish.cog_support import sample_cards
from tests.goldfish.test_engine_turns import ALBINO_TROLL


@pytest.fixture(scope="module")
def cards() -> dict[str, dict]:
    return sample_cards(ALBINO_TROLL)


def run(game: Game, *lines: str) -> list[str]:
    said: list[str] = []
    feed = iter([*lines, "quit"])
    play(game, input_fn=lambda prompt: next(feed), output=lambda *parts: said.append(" ".join(map(str, parts))))
    return said


def test_cli_taps_the_lands_the_player_names(cards):
    game = position(cards, hand=["Fetid Pools", "Barren Moor"], library=["Plains"] * 3, lands=["Swamp", "Island"])
    said = run(game, "lands", "cycle 1 tap 1 2")
    assert any("1. Swamp" in line for line in said)
    assert any("tapped Swamp, Island" in line for line in said)


def test_cli_514_1_discards_in_cleanup_and_passes_the_end_step(cards):
    game = position(cards, hand=["Plains"] * 8, library=["Plains"] * 5)
    said = run(game, "next", "discard 1")
    assert any("discard 1 card down to seven (514.1)" in line for line in said)
    assert any("Discarded Plains down to seven" in line for line in said)
    assert [c.name for c in game.zones.graveyard] == ["Plains"] and game.turn == 2  # nothing to cycle: no end-step stop


def test_cli_702_30a_settles_echo_in_the_upkeep(cards):
    game = position(cards, hand=["Albino Troll"], library=["Plains"] * 5, lands=["Forest", "Forest"])
    said = run(game, "cast 1", "next", "echo sacrifice")
    assert any("Did not pay echo: sacrificed Albino Troll" in line for line in said)


def test_cli_cast_with_x_and_undo():
    game = Game.new(preset_decks()["slide"], seed=12)
    said = run(game, "keep", "play 1", "undo", "status")
    assert any("Undid the last action" in line for line in said)
    assert any("lands played 0" in line.lower() for line in said)


def test_cli_hint_names_the_coachs_move_with_each_moves_figures():
    game = Game.new(preset_decks()["slide"], seed=12)
    said = run(game, "keep", "hint")
    hint = next(i for i, line in enumerate(said) if line.strip().startswith("Play "))
    assert "Played out 32 times" in said[hint]
    figures = [line for line in said[hint + 1 :] if "rollouts)" in line]
    assert len(figures) >= 2 and any("Go on to the next turn" in line for line in figures)


def test_cli_review_replays_the_game_so_far():
    game = Game.new(preset_decks()["slide"], seed=12)
    said = run(game, "keep", "next", "next", "review")
    assert "Your game:" in said and "The deck:" in said and "Moments:" in said
    assert any("Stopped on turn 2" in line for line in said)
    assert any("Land drops missed with a land in hand: 1 (turn 1)" in line for line in said)
