"""What a move did and where the game is now, in the line a player reads first: "Played Mountain · turn 5, main
phase". Also what an undo took back, and why a card someone clicked is no longer there to use.

Card names come from players' decklists: every one is escaped here, so the lines are ready for Discord as they are.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.goldfish.engine import MOVE_WORDS, Action, Game, move_words
from bot.text import escape, plural

# What a card left the hand by, for the refusal of a second click on it.
LEFT_BY = {"play": "played", "cast": "cast", "cycle": "cycled", "discard": "discarded", "keep": "put on the bottom"}


def _name(game: Game, iid: int | None) -> str:
    return escape(game.iid_names.get(iid, "that card")) if iid is not None else "that card"


def _names(game: Game, iids: Sequence[int]) -> str:
    return ", ".join(_name(game, iid) for iid in iids)


def _played_as(game: Game, iid: int | None) -> str:
    """A land by the face it was played as (Tangled Vale, not Tangled Florahedron)."""
    permanent = next((p for p in game.zones.battlefield if p.iid == iid), None)
    return escape(game.permanent_name(permanent)) if permanent is not None else _name(game, iid)


def did_text(game: Game, action: Action) -> str:
    """The move, done: "Played Mountain", "Cycled Eternal Dragon, found Plains" (``game`` as it is after it)."""
    name = _played_as(game, action.iid) if action.kind == "play" else _name(game, action.iid)
    found = _name(game, action.find) if action.find is not None else ""
    cards = _names(game, action.bottom if action.kind == "keep" else action.cards)
    return move_words(action, "done", card=name, found=found, cards=cards, mulligans=game.player.mulligans)


def where_text(game: Game) -> str:
    """Where the game stands, in a few words: "turn 5, main phase", "turn 2, the opponent's end step"."""
    if game.phase == "over":
        return f"game over after {plural(game.turn, 'turn')}: {escape(game.result or 'finished')}"
    if game.phase == "mulligan":
        return f"choosing a hand ({plural(game.player.mulligans, 'mulligan')} so far)"
    if game.phase == "end_step":
        return f"turn {game.turn}, the opponent's end step: cycle now, or My turn goes on"
    if game.phase == "cleanup":
        return f"turn {game.turn}, cleanup: discard {plural(len(game.zones.hand) - 7, 'card')} down to seven"
    if game.phase == "upkeep":
        return f"turn {game.turn}, upkeep: {escape(game.decision().prompt)}"
    drop = "land drop used" if game.player.land_played else "land drop available"
    return f"turn {game.turn}, main phase, {drop}"


def done_text(game: Game, action: Action) -> str:
    """What a move did and where the game is now: "Played Mountain · turn 5, main phase, land drop used"."""
    return f"{did_text(game, action)} · {where_text(game)}"


def undo_text(game: Game, *, shared: bool = False, by: int | None = None) -> str:
    """What an undo of ``game``'s last action took back ("Undid playing Plains"), not the action's internal kind. In
    a shared game, whose move it was when someone else (``by``) undid it: "Undid <@1>'s move: playing Plains"."""
    last = game.actions[-1] if game.actions else None
    if last is None or last.kind not in MOVE_WORDS:
        return "Undid the last action"
    card = game.iid_names.get(last.iid) if last.iid is not None else None
    what = MOVE_WORDS[last.kind].undone
    if "{card}" in what:
        what = what.format(card=escape(card)) if card else what.split(" {card}")[0].replace(" for", "")
    taken_by = game.actors[-1] if len(game.actors) == len(game.actions) else None
    if shared and taken_by is not None and taken_by != by:
        return f"Undid <@{taken_by}>'s move: {what}"
    return f"Undid {what}"


def gone_text(game: Game, action: Action, user_id: int | None = None) -> str:
    """Why the card a click names has left the hand, saying what is used up: a second click on Plains after the
    first played it is refused for the land drop, not for a card that is gone while a second copy is in hand."""
    name = game.iid_names.get(action.iid, "That card")
    taken = next((i for i in range(len(game.actions) - 1, -1, -1) if game.actions[i].iid == action.iid), None)
    kind = game.actions[taken].kind if taken is not None else None
    actor = game.actors[taken] if taken is not None and taken < len(game.actors) else None
    who = "you" if actor is None or actor == user_id else f"<@{actor}>"
    newest = "The newest game message shows what you can do now."
    if action.kind == "play" and game.player.land_played:
        just = f": {who} just played {escape(name)}" if kind == "play" else ""
        return f"This turn's land drop is used up{just}. {newest}"
    copies = [card for card in game.zones.hand if card.name == name]
    if kind in LEFT_BY:
        said = f"{who.capitalize() if who == 'you' else who} just {LEFT_BY[kind]} that {escape(name)}"
    else:
        said = f"That {escape(name)} is no longer in the hand"
    if copies:
        return f"{said}; another copy is in the hand: choose it on the newest game message."
    return f"{said}, so it is gone. {newest}"
