"""Each kind of move in words, declared once: as advice ("Play Forest"), as done ("Played Forest") and as an undo
takes it back ("playing Forest"). The coach's sentences and the table's lines both read this table, adding what
is particular to one move (what a cycling found, the lands a keep put on the bottom, an X).

``{card}`` is the card a move is made with, ``{found}`` what a cycling found, ``{cards}`` the cards it names,
``{mulligans}`` how many mulligans were taken, ``{x}`` the X it was cast with. Plain text: a shell escapes names for
its medium.
"""

from __future__ import annotations

from typing import NamedTuple

from bot.goldfish.engine.model import Action


class MoveWords(NamedTuple):
    advice: str
    done: str
    undone: str


MOVE_WORDS = {
    "cycle": MoveWords("Cycle {card}", "Cycled {card}", "cycling {card}"),
    "cycle finding": MoveWords("Cycle {card}, finding {found}", "Cycled {card}, found {found}", "cycling {card}"),
    "cycle finding nothing": MoveWords(
        "Cycle {card}, finding nothing", "Cycled {card}, found nothing", "cycling {card}"
    ),
    "play": MoveWords("Play {card}", "Played {card}", "playing {card}"),
    "cast": MoveWords("Cast {card}", "Cast {card}", "casting {card}"),
    "cast with X": MoveWords("Cast {card}", "Cast {card} with X = {x}", "casting {card}"),
    "keep": MoveWords("Keep this hand", "Kept the hand", "keeping the hand"),
    "keep with a bottom": MoveWords(
        "Keep, putting {cards} on the bottom", "Kept, with {cards} on the bottom", "keeping the hand"
    ),
    "mulligan": MoveWords("Mulligan", "Mulligan {mulligans}", "the mulligan"),
    "discard": MoveWords("Discard {cards}", "Discarded {cards}", "the cleanup discard"),
    "echo": MoveWords("Pay echo for {card}", "Paid echo for {card}", "the echo choice for {card}"),
    "echo declined": MoveWords(
        "Sacrifice {card} instead of paying its echo",
        "Sacrificed {card} rather than pay its echo",
        "the echo choice for {card}",
    ),
    "activate": MoveWords("Activate {card} from your graveyard", "Activated {card}", "activating {card}"),
    "next": MoveWords("Go on", "Moved on", "moving on to the next step"),
}


def move_key(action: Action) -> str:
    """Which of :data:`MOVE_WORDS` says ``action``: its kind, or the kind with what is particular to it."""
    if action.kind == "cycle" and action.find is not None:
        return "cycle finding"
    if action.kind == "cycle" and action.find_nothing:
        return "cycle finding nothing"
    if action.kind == "cast" and action.x:
        return "cast with X"
    if action.kind == "keep" and action.bottom:
        return "keep with a bottom"
    if action.kind == "echo" and not action.pay:
        return "echo declined"
    return action.kind


def move_words(action: Action, form: str, **names: object) -> str:
    """``action`` in words, in ``form`` ("advice", "done" or "undone"), with the names filled in (``x`` from the
    action)."""
    return getattr(MOVE_WORDS[move_key(action)], form).format(x=action.x, **names)
