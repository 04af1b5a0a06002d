"""The coach in the terminal: ``hint`` (the recommended move and the figures behind it) and ``review``."""

from __future__ import annotations

from collections.abc import Callable

from bot.goldfish.engine import Game
from bot.goldfish.practice import advise, figure_line, hint_sentence, review_here, review_lines

COACH_COMMANDS = ("hint", "review")
HELP = """  hint                          the coach's move now and why, each move played out by the policy
  review                        your game so far beside the deck in simulation, and the moments to improve"""
SHOWN = 8


def coach_command(game: Game, command: str, output: Callable[..., None]) -> None:
    if command == "hint":
        advice = advise(game)
        output("  " + hint_sentence(game, advice))
        for figures in advice.figures[:SHOWN]:
            output("    " + figure_line(game, figures))
        return
    output("  Reviewing: simulating the deck and playing out your decisions…")
    show_review(game, output)


def show_review(game: Game, output: Callable[..., None]) -> None:
    for section, lines in review_lines(game, review_here(game)).items():
        output(f"{section}:")
        for line in lines:
            output("  " + line)
