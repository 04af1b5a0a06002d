"""Cycling in a goldfish game (702.29): the options and the activation.

``cycle`` is split into its steps: check the choices, pay the costs (the discard is one, 702.29a), put the
triggers on the stack above the cycling ability (702.29c/d), resolve them, then draw or search (702.29e).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot.cycling import CyclingAbility
from bot.goldfish.engine.board import (
    CycleCost,
    can_pay,
    colours_of,
    cycle_cost,
    cycle_statics,
    is_sacrificable,
    mana_problem,
    mana_sources,
    matching,
    priority_problem,
)
from bot.goldfish.engine.effects import check_state, draw, pay_cost, pay_life, sacrifice, search_library
from bot.goldfish.engine.mana import cost_text
from bot.goldfish.engine.model import Action, CardInstance, CycleChoices, CycleOption, Event, IllegalAction, Permanent
from bot.goldfish.engine.parts import GameState
from bot.goldfish.engine.scripts import SCRIPTS, script_for, unmodelled_text
from bot.text import plural


@dataclass
class Trigger:
    label: str
    rule: str
    resolve: Callable[[], list[Event]]


def _find_ability(game: GameState, iid: int, ability_index: int) -> tuple[CardInstance, CyclingAbility]:
    card = game.zones.hand.find(iid)
    if card is None:
        name = game.iid_names.get(iid)
        if name is None:
            raise IllegalAction(f"There is no card #{iid} in this game.")
        raise IllegalAction(
            f"{name} is {game.zones.where(iid)}: cycling works only while the card is in your hand (702.29a)."
        )
    abilities = game.book[card.name].cycling
    if not abilities:
        raise IllegalAction(f"{card.name} has no cycling ability.")
    if not 0 <= ability_index < len(abilities):
        raise IllegalAction(
            f"{card.name} has {plural(len(abilities), 'cycling ability', 'cycling abilities')}; "
            f"choose 1–{len(abilities)}."
        )
    return card, abilities[ability_index]


def _cost_problem(game: GameState, cost: CycleCost) -> str | None:
    if cost.life and game.player.life < cost.life:
        return f"it costs {cost.life} life and you have {game.player.life} (119.4)"
    if cost.sacrifice and not any(is_sacrificable(game, p, cost.sacrifice) for p in game.zones.battlefield):
        return f"it needs you to sacrifice a {cost.sacrifice} and you control none"
    return mana_problem(game, cost.symbols)


def _searches(name: str, ability: CyclingAbility) -> tuple[str, ...]:
    return (ability.search,) if ability.search else script_for(name).searches


def cycle_options(game: GameState) -> list[CycleOption]:
    """Every cycling ability of every card in hand, affordable or not (with the reason).

    ``search`` is the card type a typecycling ability (or a "when you cycle" search such as
    Krosan Tusker's) looks for. Costs assume ``x = 0``.
    """
    return game.memo("cycle_options", lambda: _cycle_options(game))


def _cycle_options(game: GameState) -> list[CycleOption]:
    options = []
    statics = cycle_statics(game)
    for card in game.zones.hand:
        for index, ability in enumerate(game.book[card.name].cycling):
            reason = priority_problem(game)
            if reason is None:
                reason = _cost_problem(game, cycle_cost(game, ability, statics=statics))
            searches = _searches(card.name, ability)
            options.append(
                CycleOption(
                    iid=card.iid,
                    name=card.name,
                    ability_index=index,
                    label=str(ability),
                    affordable=reason is None,
                    reason=reason,
                    is_typecycling=ability.is_typecycling,
                    search=" or ".join(searches) if searches else None,
                )
            )
    return options


def search_candidates(game: GameState, iid: int, ability_index: int = 0) -> list[CardInstance]:
    """Library cards (the first of each distinct name, sorted by name) the ability's search could find."""
    card, ability = _find_ability(game, iid, ability_index)
    seen: dict[str, CardInstance] = {}
    for candidate in matching(game, _searches(card.name, ability)):
        seen.setdefault(candidate.name, candidate)
    return [seen[name] for name in sorted(seen)]


def cycle(game: GameState, action: Action) -> list[Event]:
    """Activate a cycling ability of a card in hand (702.29a).

    The cost is paid (mana, life or a sacrifice, plus discarding the card), so the card is in
    the graveyard before anything resolves. The cycling ability goes on the stack; the card's
    own "when you cycle" trigger (702.29c) and the payoffs' "whenever you cycle" triggers
    (702.29d, once per cycle) go above it and resolve first; then the ability draws a card, or
    for typecycling (702.29e) searches for a card of the type, reveals it, puts it in hand and
    shuffles. ``find`` is the iid of the library card to find (see ``search_candidates``);
    ``find_nothing=True`` finds nothing by choice; with neither, the first candidate is found.
    ``x`` is the {X} of the cost or of a "when you cycle" trigger (Decree of Justice);
    ``sacrifice`` picks the permanent for "Sacrifice a land"; ``pay`` answers "you may pay {1}";
    ``tap`` names the lands to tap for the cost (else the engine keeps the rest of the hand payable).
    Cycling is instant speed: in your main phase, your upkeep and the opponent's end step.
    """
    problem = priority_problem(game)
    if problem:
        raise IllegalAction(problem[0].upper() + problem[1:] + ".")
    card, ability = _find_ability(game, action.iid, action.ability)
    x = int(action.x)
    choices = CycleChoices(card.iid, card.name, find=action.find, find_nothing=action.find_nothing, pay=action.pay)
    choices.typecycling = ability.is_typecycling
    cost, sacrificed, searches = _check_cycle(game, card, ability, choices, x, action.sacrifice)
    events = _pay_cycle_cost(game, card, ability, cost, sacrificed, action.tap)
    triggers = _cycle_triggers(game, card, choices)
    events += [
        Event("unmodelled", f"{card.name}: not modelled by the engine, resolve it yourself: {line}")
        for line in unmodelled_text(game.cards[card.name])
    ]
    if triggers:
        also = " (typecycling is cycling, 702.29f)" if ability.is_typecycling else ""
        events.append(
            Event(
                "stack",
                f"{plural(len(triggers), 'trigger')} {'goes' if len(triggers) == 1 else 'go'} on the stack above "
                f"the cycling ability and {'resolves' if len(triggers) == 1 else 'resolve'} first{also}: "
                + "; ".join(t.label for t in triggers),
                triggers[0].rule,
            )
        )
    events += check_state(game)
    for trigger in triggers:
        if game.phase == "over":
            break
        events.append(Event("trigger", f"Resolving {trigger.label}", trigger.rule))
        events += trigger.resolve()
        events += check_state(game)
    if game.phase != "over":
        if ability.is_typecycling:
            events += search_library(game, choices, searches, to="hand", source=card.name, rule="702.29e")
        else:
            events += draw(game, 1, f"cycling {card.name}")
        events += check_state(game)
    return events


def _check_cycle(
    game: GameState, card: CardInstance, ability: CyclingAbility, choices: CycleChoices, x: int, sacrifice: int | None
) -> tuple[CycleCost, Permanent | None, tuple[str, ...]]:
    """Every check before anything is paid: the game is unchanged when one fails."""
    script = script_for(card.name)
    if x < 0:
        raise IllegalAction("X can't be negative.")
    if x and not ability.cost.has_x and not script.pays_x:
        raise IllegalAction(f"{card.name}'s {ability} has no {{X}} to choose.")
    cost = cycle_cost(game, ability, x if ability.cost.has_x else 0)
    choices.x = x if script.pays_x else 0
    problem = _cost_problem(game, cost)
    if problem:
        raise IllegalAction(f"You can't cycle {card.name}: {problem}.")
    if choices.x and not can_pay(game, cost.symbols + ("1",) * choices.x):
        raise IllegalAction(
            f"You can't pay {cost_text(cost.symbols)} for {ability} and {{{choices.x}}} for X: "
            f"you have {plural(len(mana_sources(game)), 'untapped land')}."
        )
    sacrificed = _check_sacrifice(game, card, ability, cost, sacrifice)
    searches = _searches(card.name, ability)
    if (choices.find is not None or choices.find_nothing) and not searches:
        raise IllegalAction(f"{card.name}'s {ability} doesn't search your library.")
    if choices.find is not None:
        if choices.find_nothing:
            raise IllegalAction("Choose a card to find or find nothing, not both.")
        if all(c.iid != choices.find for c in matching(game, searches)):
            raise IllegalAction(f"Card #{choices.find} is not a {' or '.join(searches)} card in your library.")
    return cost, sacrificed, searches


def _check_sacrifice(
    game: GameState, card: CardInstance, ability: CyclingAbility, cost: CycleCost, sacrifice: int | None
) -> Permanent | None:
    if not cost.sacrifice:
        if sacrifice is not None:
            raise IllegalAction(f"{card.name}'s {ability} doesn't ask you to sacrifice anything.")
        return None
    battlefield = game.zones.battlefield
    if sacrifice is None:
        candidates = [p for p in battlefield if is_sacrificable(game, p, cost.sacrifice)]
        return min(candidates, key=lambda p: (not p.tapped, len(colours_of(game, p)), p.iid))
    chosen = battlefield.find(sacrifice)
    if chosen is None or not is_sacrificable(game, chosen, cost.sacrifice):
        raise IllegalAction(f"Card #{sacrifice} is not a {cost.sacrifice} you control.")
    return chosen


def _pay_cycle_cost(
    game: GameState,
    card: CardInstance,
    ability: CyclingAbility,
    cost: CycleCost,
    sacrificed: Permanent | None,
    tap: tuple[int, ...] = (),
) -> list[Event]:
    """Pay the costs (601.2g–h); discarding the card is part of the cost (702.29a)."""
    events: list[Event] = []
    if cost.symbols:
        tapped = pay_cost(game, cost.symbols, tap, exclude=card.iid)
        events.append(Event("mana", f"Paid {cost_text(cost.symbols)}: {tapped}", "601.2g"))
    if cost.life:
        pay_life(game, cost.life)
    if sacrificed is not None:
        events += sacrifice(game, sacrificed)
    game.zones.discard(card.iid)
    game.stats["cards_cycled"] += 1
    if ability.is_typecycling:
        game.stats["typecycling_searches"] += 1
    rule = "702.29e" if ability.is_typecycling else "702.29a"
    events.append(Event("cycle", f"Cycled {card.name} ({ability}): paid {cost.text}, discarded it", rule))
    return events


def _cycle_triggers(game: GameState, card: CardInstance, choices: CycleChoices) -> list[Trigger]:
    """The card's own trigger first, then each payoff's: they go on the stack above the cycling ability."""
    triggers = []
    own = script_for(card.name).when_cycled
    if own is not None:
        label = f'{card.name}\'s "when you cycle" ability (from the graveyard)'
        triggers.append(Trigger(label, "702.29c", lambda: own(game, choices)))
    return triggers + payoff_triggers(game, card, choices, discarding=False)


def payoff_triggers(game: GameState, card: CardInstance, choices: CycleChoices, *, discarding: bool) -> list[Trigger]:
    """The battlefield's "whenever you cycle (or discard)" triggers for ``card`` (702.29d: once per cycle)."""
    triggers = []
    for permanent in list(game.zones.battlefield):
        script = SCRIPTS.get(permanent.name)
        payoff = script.payoff if script else None
        if payoff is None or permanent.token or (payoff.another and permanent.iid == card.iid):
            continue
        if discarding and not payoff.discard:
            continue
        triggers.append(
            Trigger(
                f'{permanent.name} ("{payoff.text}")',
                "702.29d",
                lambda p=payoff, s=permanent.iid: p.effect(game, choices, s),
            )
        )
    return triggers
