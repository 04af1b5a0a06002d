"""What a goldfish game is waiting for, and the actions legal now: one query for players and automated policies.

:func:`decision` names the decision (mulligan, main phase, cleanup discards, an echo trigger, the upkeep, the
opponent's end step) and lists complete legal actions with the engine's default choices; a choice of several
cards (cleanup discards, the cards put on the bottom) comes as ``count`` of ``choices``.
"""

from __future__ import annotations

from bot.goldfish.engine.board import bottom_count, can_pay, cleanup_prompt, echo_pending, echo_prompt, upkeep_offers
from bot.goldfish.engine.casting import cast_options, playable_lands
from bot.goldfish.engine.cycling import cycle_options, search_candidates
from bot.goldfish.engine.model import Action, Decision
from bot.goldfish.engine.parts import GameState
from bot.text import plural


def decision(game: GameState) -> Decision:
    """What the game waits for now, with the legal actions (see :class:`~bot.goldfish.engine.model.Decision`)."""
    hand = game.zones.hand
    if game.phase == "over":
        return Decision("over", f"The game is over ({game.result}).", [])
    if game.phase == "mulligan":
        actions = [] if game.player.mulligans >= 7 else [Action("mulligan")]
        count = bottom_count(game)
        if count:
            prompt = f"Keep, putting {plural(count, 'card')} on the bottom, or mulligan (103.5)."
            return Decision("bottom", prompt, actions, count, hand.iids())
        return Decision("mulligan", "Keep this hand or mulligan (103.5).", [Action("keep"), *actions])
    if game.phase == "cleanup":
        return Decision("discard", cleanup_prompt(game), [], len(hand) - 7, hand.iids())
    pending = echo_pending(game)
    if pending:
        permanent = pending[0]
        actions = [Action("echo", permanent.iid, pay=False)]
        if can_pay(game, game.book[permanent.name].echo or ()):
            actions.insert(0, Action("echo", permanent.iid, pay=True))
        return Decision("echo", echo_prompt(game, permanent), actions)
    actions = _instant_actions(game)
    if game.phase == "upkeep":
        actions = [Action("activate", card.iid) for card in upkeep_offers(game)] + actions
        return Decision("upkeep", "Your upkeep: activate an upkeep ability, cycle, or go on to your draw.", actions)
    if game.phase == "end_step":
        return Decision("end_step", "The opponent's end step: cycle with your untapped lands, or go on.", actions)
    lands = [Action("play", c.iid, f.index) for c in playable_lands(game) for f in game.book[c.name].land_faces]
    casts = [Action("cast", o.iid) for o in cast_options(game) if o.affordable]
    return Decision("main", f"Your main phase, turn {game.turn}.", lands + casts + actions)


def _instant_actions(game: GameState) -> list[Action]:
    actions = []
    for option in cycle_options(game):
        if not option.affordable:
            continue
        if option.search:
            candidates = search_candidates(game, option.iid, option.ability_index)
            actions += [Action("cycle", option.iid, option.ability_index, find=c.iid) for c in candidates]
            actions.append(Action("cycle", option.iid, option.ability_index, find_nothing=True))
        else:
            actions.append(Action("cycle", option.iid, option.ability_index))
    if game.phase in ("end_step", "upkeep"):
        actions += [Action("cast", o.iid) for o in cast_options(game) if o.affordable]
    return actions + [Action("next")]


def legal_actions(game: GameState) -> list[Action]:
    """The complete legal actions now (a choice of several cards is in :func:`decision` instead)."""
    return decision(game).actions
