"""Hypergeometric odds: "at least k of the K copies among the first n cards", exact with ``math.comb``.

By turn t a player has seen the seven-card opening hand and one card per draw step: 7 + (t − 1)
cards on the play (the first draw is skipped, 103.8a) and 7 + t on the draw. Mulligans,
cycling and searches are left out: that is what ``/goldfish simulate`` measures.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import comb

from bot.goldfish.decks import MAX_CARDS
from bot.goldfish.engine import IllegalAction
from bot.text import plural

OPENING_HAND = 7
ODDS_MAX_TURNS = 20


def at_least(wanted: int, copies: int, deck_size: int, seen: int) -> Fraction:
    """P(at least ``wanted`` of ``copies`` among ``seen`` cards drawn from ``deck_size``), exactly."""
    if not 0 <= copies <= deck_size or seen < 0 or wanted < 0:
        raise ValueError("copies must be within the deck, seen and wanted not negative")
    seen = min(seen, deck_size)
    if wanted == 0:
        return Fraction(1)
    total = comb(deck_size, seen)
    hits = sum(comb(copies, k) * comb(deck_size - copies, seen - k) for k in range(wanted, min(copies, seen) + 1))
    return Fraction(hits, total)


def cards_seen(turn: int, on_the_play: bool) -> int:
    """Cards seen by the end of ``turn``'s draw step: 7 + turn − 1 on the play, 7 + turn on the draw."""
    return OPENING_HAND + turn - (1 if on_the_play else 0)


@dataclass(frozen=True)
class OddsRow:
    turn: int
    seen_play: int
    seen_draw: int
    on_the_play: float
    on_the_draw: float


def check_odds(copies: int, deck_size: int, wanted: int, turns: int) -> None:
    """Refuse what can't be asked, with the reason."""
    if not 1 <= deck_size <= MAX_CARDS:
        raise IllegalAction(f"A deck has from 1 to {MAX_CARDS} cards; you said {deck_size:,}.")
    if not 1 <= copies <= deck_size:
        raise IllegalAction(f"The copies must be from 1 to the deck size ({deck_size}); you said {copies:,}.")
    if not 1 <= wanted <= copies:
        raise IllegalAction(
            f"You can want from 1 to {copies} of the {plural(copies, 'copy', 'copies')}; you said {wanted:,}."
        )
    if not 1 <= turns <= ODDS_MAX_TURNS:
        raise IllegalAction(f"The turns must be from 1 to {ODDS_MAX_TURNS}; you said {turns:,}.")


def odds_table(copies: int, deck_size: int, wanted: int = 1, turns: int = 6) -> list[OddsRow]:
    """One row per turn 1..``turns``: the chance on the play and on the draw."""
    check_odds(copies, deck_size, wanted, turns)
    rows = []
    for turn in range(1, turns + 1):
        play, draw = cards_seen(turn, True), cards_seen(turn, False)
        rows.append(
            OddsRow(
                turn,
                min(play, deck_size),
                min(draw, deck_size),
                float(at_least(wanted, copies, deck_size, play)),
                float(at_least(wanted, copies, deck_size, draw)),
            )
        )
    return rows


TABLE_COLUMNS = 36  # what a phone shows of a code block without scrolling


def odds_text(rows: list[OddsRow]) -> str:
    """The rows as a fixed-width table, at most :data:`TABLE_COLUMNS` wide: turn, cards seen on the play/draw, and
    the chance on the play and on the draw."""
    lines = [f"{'Turn':>4}  {'Seen':>5}  {'Play':>7}  {'Draw':>7}"]
    for row in rows:
        seen = f"{row.seen_play}/{row.seen_draw}"
        lines.append(f"{row.turn:>4}  {seen:>5}  {row.on_the_play:>7.2%}  {row.on_the_draw:>7.2%}")
    return "\n".join(lines)
