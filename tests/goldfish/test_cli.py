"""The terminal game offers the choices Discord offers: lands to tap, X, cleanup discards, echo, undo; it plays
from a pipe, and the same seed deals the same game."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bot.goldfish.cli import play
from bot.goldfish.decks import preset_decks
from bot.goldfish.engine import Game
from bot.goldfish.engine.scenario import position
from tests.goldfish.cog_support import sample_cards
from tests.goldfish.engine.test_turns import ALBINO_TROLL
from tests.support.waits import CEILING

ROOT = Path(__file__).resolve().parent.parent.parent


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


def run_cli(stdin: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "bot", "goldfish", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=CEILING,
        env={"PATH": "", "PYTHONPATH": str(ROOT)},
    )


def test_cli_plays_with_piped_stdin_and_exits_on_eof():
    # The first "next" stops at the opponent's end step (a card can still be cycled), the second begins turn 2.
    result = run_cli("hand\nkeep\nstatus\nnext\nnext\ncycle 99\nbogus\n", "--deck", "two-colour", "--seed", "3")
    assert result.returncode == 0, result.stderr
    assert "end step" in result.stdout
    assert "Kept 7 cards" in result.stdout and "Turn 2" in result.stdout
    assert "Not allowed" in result.stdout and "Unknown command" in result.stdout
    assert "Replay with --seed 3" in result.stdout


def test_cli_from_a_pipe_reads_as_a_typed_session():
    lines = run_cli("help\nkeep\nhand\n", "--seed", "3").stdout.splitlines()
    assert "[mulligan 0] keep or mulligan> help" in lines
    assert lines[lines.index("[mulligan 0] keep or mulligan> help") + 1].startswith("Commands")
    assert lines[lines.index("[mulligan 0] keep or mulligan> keep") + 1].startswith("  Kept 7 cards")
    typed = [line for line in lines if line.startswith("[turn 1 | ")]
    assert typed and typed[0].endswith("]> hand")
    assert lines[lines.index(typed[0]) + 1].startswith("Hand (7)")
    assert lines[-1].startswith("Stopped (unfinished)")  # the end of input: a prompt, a line of its own, then this


def test_cli_same_seed_same_game():
    first = run_cli("keep\nquit\n", "--seed", "9")
    second = run_cli("keep\nquit\n", "--seed", "9")
    assert first.stdout == second.stdout and first.returncode == 0
