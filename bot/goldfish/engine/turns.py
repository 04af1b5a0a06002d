"""The turn in a goldfish game, from the opening hand on: mulligans (103.5), combat, end step and cleanup (514),
the opponent's turn, untap, upkeep, draw.

``keep`` begins turn 1. ``next`` moves on to the next point where the player may act: from the main phase,
creatures attack, the turn ends and cleanup discards down to seven (the player chooses, 514.1; then the game
waits for ``discard``); the opponent's turn then stops at its end step (the goldfish does nothing) so the player
can cycle at instant speed. The next ``next`` begins the player's turn: untap, upkeep (echo triggers must be
settled first, 702.30a; upkeep-only abilities are offered), draw, main phase.
"""

from __future__ import annotations

from bot.goldfish.engine.board import (
    HAND_SIZE,
    OPENING_HAND,
    bottom_count,
    cleanup_prompt,
    creatures,
    echo_pending,
    echo_prompt,
    require_phase,
    upkeep_offers,
)
from bot.goldfish.engine.casting import cast_options
from bot.goldfish.engine.cycling import cycle_options, payoff_triggers
from bot.goldfish.engine.effects import check_state, draw, pay_cost, sacrifice
from bot.goldfish.engine.mana import cost_text
from bot.goldfish.engine.model import Action, CardInstance, CycleChoices, Event, IllegalAction
from bot.goldfish.engine.parts import GameState
from bot.goldfish.engine.scripts import script_for
from bot.text import plural

# ------------------------------------------------------------ the opening hand


def draw_opening(game: GameState) -> list[Event]:
    """Draw the starting hand (103.5); a library under seven cards is drawn out and loses (121.4)."""
    game.zones.deal(OPENING_HAND)
    if len(game.zones.hand) < OPENING_HAND:
        game.player.drew_from_empty = True
        return [
            Event(
                "draw",
                f"Drew {len(game.zones.hand)} of seven: the library ran out, so you lose when state-based actions "
                "are next checked (704.5b)",
                "121.4",
            )
        ]
    return [Event("setup", "Drew an opening hand of seven (103.5): keep or mulligan.", "103.5")]


def mulligan(game: GameState, action: Action) -> list[Event]:
    require_phase(game, "mulligan", "You can only mulligan before keeping a hand.")
    if game.player.mulligans >= OPENING_HAND:
        raise IllegalAction(
            "You have already taken seven mulligans, so keeping would leave no cards in hand; keep this hand (103.5)."
        )
    game.zones.hand_into_library()
    game.rng.shuffle(game.zones.library)
    drawn = draw_opening(game)
    game.player.mulligans += 1
    text = (
        f"Mulligan {game.player.mulligans}: shuffled the hand away and drew {len(game.zones.hand)}; on keeping, "
        f"put {bottom_count(game)} on the bottom"
    )
    return [Event("mulligan", text, "103.5"), *drawn[: 1 if game.player.drew_from_empty else 0]]


def keep(game: GameState, action: Action) -> list[Event]:
    require_phase(game, "mulligan", "You have already kept a hand.")
    bottom = list(action.bottom)
    needed = bottom_count(game)
    if len(bottom) != needed:
        raise IllegalAction(
            f"After {plural(game.player.mulligans, 'mulligan')} put exactly {plural(needed, 'card')} on the bottom "
            f"(103.5); you chose {len(bottom)}."
        )
    if len(set(bottom)) != len(bottom):
        raise IllegalAction("Choose each card to put on the bottom only once.")
    hand = game.zones.hand
    for iid in bottom:
        if not hand.holds(iid):
            raise IllegalAction(f"Card #{iid} is not in your hand.")
    for iid in bottom:
        game.zones.library.append(hand.take(iid))
    names = ", ".join(game.iid_names[i] for i in bottom)
    text = f"Kept {plural(len(hand), 'card')}" + (f", put {names} on the bottom" if bottom else "")
    events = [Event("mulligan", text, "103.5")]
    game.turn = 1
    game.stats["turns"] = 1
    game.phase = "main"
    events.append(Event("turn", "Turn 1: untap, upkeep, draw, main", "500.1"))
    if game.on_the_play:
        events.append(Event("draw", "Skipped the first draw: you are on the play", "103.8a"))
    else:
        events += draw(game, 1, "draw step")
    return events + check_state(game)


# ------------------------------------------------------------ the end of the turn


def next_turn(game: GameState, action: Action) -> list[Event]:
    if game.phase == "main":
        return _end_turn(game)
    if game.phase == "end_step":
        return _begin_turn(game)
    if game.phase == "upkeep":
        pending = echo_pending(game)
        if pending:
            raise IllegalAction(echo_prompt(game, pending[0]))
        return _draw_step(game)
    if game.phase == "cleanup":
        raise IllegalAction(cleanup_prompt(game))
    require_phase(game, "main")
    return []


def _end_turn(game: GameState) -> list[Event]:
    events = []
    attackers = [p for p in creatures(game) if p.entered_turn < game.turn]
    damage = sum(max(0, p.power or 0) for p in attackers)
    if damage:
        game.opponent.lose_life(damage)
        game.stats["damage_dealt"] += damage
        names = ", ".join(p.name for p in attackers)
        events.append(Event("combat", f"Attacked with {names}: {damage} damage to the opponent", "510.1"))
        events += check_state(game)
        if game.phase == "over":
            return events
    if len(game.zones.hand) > HAND_SIZE:
        game.phase = "cleanup"
        events.append(Event("cleanup", f"Cleanup: {cleanup_prompt(game)}", "514.1"))
        return events
    return events + _end_cleanup(game)


def _end_cleanup(game: GameState) -> list[Event]:
    game.phase = "end_step"
    events = [Event("cleanup", 'Cleanup: damage wears off and "until end of turn" effects end', "514.2")]
    if not any(o.affordable for o in cycle_options(game)) and not any(o.affordable for o in cast_options(game)):
        # Nothing to do at instant speed: the opponent's turn passes without a stop.
        events.append(Event("turn", f"The opponent's turn {game.turn}: the goldfish does nothing", "500.1"))
        return events + _begin_turn(game)
    events.append(
        Event(
            "turn",
            f"The opponent's turn {game.turn}: the goldfish does nothing. In its end step you may cycle "
            "with your untapped lands",
            "513.1",
        )
    )
    return events


def discard(game: GameState, action: Action) -> list[Event]:
    require_phase(game, "cleanup", "There is nothing to discard now: you discard in your cleanup step (514.1).")
    excess = len(game.zones.hand) - HAND_SIZE
    chosen = list(action.cards)
    if len(chosen) != excess or len(set(chosen)) != len(chosen):
        raise IllegalAction(f"Choose exactly {plural(excess, 'different card')} to discard (514.1).")
    for iid in chosen:
        if not game.zones.hand.holds(iid):
            raise IllegalAction(f"Card #{iid} is not in your hand.")
    events = []
    for iid in chosen:
        card = game.zones.discard(iid)
        events.append(Event("discard", f"Discarded {card.name} down to seven", "514.1"))
        events += discard_triggers(game, card, pay=action.pay)
        events += check_state(game)
        if game.phase == "over":
            return events
    return events + _end_cleanup(game)


def discard_triggers(game: GameState, card: CardInstance, *, pay: bool) -> list[Event]:
    """The "whenever you cycle or discard a card" abilities a discard triggers (702.29d, 701.9a)."""
    choices = CycleChoices(card.iid, card.name, pay=pay)
    events = []
    for trigger in payoff_triggers(game, card, choices, discarding=True):
        events.append(Event("trigger", f"Resolving {trigger.label}", "702.29d"))
        events += trigger.resolve()
        events += check_state(game)
        if game.phase == "over":
            break
    return events


# ------------------------------------------------------------ the player's turn


def _begin_turn(game: GameState) -> list[Event]:
    game.turn += 1
    game.stats["turns"] = game.turn
    game.player.land_played = False
    game.zones.battlefield.untap_all()
    events = [Event("turn", f"Turn {game.turn}: untapped your permanents", "502.3")]
    game.phase = "upkeep"
    pending = echo_pending(game)
    if pending:
        for permanent in pending:
            events.append(Event("echo", f"Upkeep: {echo_prompt(game, permanent)}", "702.30a"))
        return events
    if upkeep_offers(game):
        names = ", ".join(card.name for card in upkeep_offers(game))
        events.append(Event("upkeep", f"Upkeep: you may activate {names}'s upkeep ability", "503.1"))
        return events
    return events + _draw_step(game)


def _draw_step(game: GameState) -> list[Event]:
    game.phase = "main"
    return draw(game, 1, "draw step") + check_state(game)


def echo(game: GameState, action: Action) -> list[Event]:
    require_phase(game, "upkeep", "There is no echo to pay now: echo triggers in your upkeep (702.30a).")
    permanent = next((p for p in echo_pending(game) if p.iid == action.iid), None)
    if permanent is None:
        raise IllegalAction(f"Card #{action.iid} has no echo trigger waiting.")
    permanent.echo = False
    if action.pay:
        symbols = game.book[permanent.name].echo or ()
        try:
            paid = pay_cost(game, symbols, action.tap) if symbols else "no mana"
        except IllegalAction:
            permanent.echo = True
            raise
        events = [Event("echo", f"Paid echo {cost_text(symbols)} for {permanent.name} ({paid})", "702.30a")]
    else:
        events = sacrifice(game, permanent)
        events[-1] = Event("echo", f"Did not pay echo: sacrificed {permanent.name}", "702.30a")
    events += check_state(game)
    if game.phase == "upkeep" and not echo_pending(game) and not upkeep_offers(game):
        events += _draw_step(game)
    return events


def activate(game: GameState, action: Action) -> list[Event]:
    require_phase(game, "upkeep", "That ability can be activated only during your upkeep.")
    if echo_pending(game):
        raise IllegalAction(echo_prompt(game, echo_pending(game)[0]))
    card = game.zones.graveyard.find(action.iid)
    symbols = script_for(card.name).upkeep_from_graveyard if card else ()
    if card is None or not symbols:
        raise IllegalAction("That card has no ability to activate from your graveyard now.")
    paid = pay_cost(game, symbols, action.tap)
    game.zones.graveyard.take(card.iid)
    game.zones.hand.append(card)
    events = [Event("activate", f"Paid {cost_text(symbols)} ({paid}): returned {card.name} to your hand", "602.2")]
    return events + check_state(game)
