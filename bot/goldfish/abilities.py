"""The card abilities the goldfish engine models: cycling triggers, cycling payoffs and cost changes.

* "When you cycle this card" triggers (702.29c) live in ``SELF_TRIGGERS``.
* "Whenever you cycle (or discard) a card" payoffs on the battlefield (702.29d) live in ``PAYOFFS``.
* Static abilities that change cycling costs (Fluctuator, New Perspectives) live in ``COST_REDUCTIONS``
  and ``FREE_CYCLING_HAND_SIZE``; "enters" triggers of castable payoffs in ``ENTERS``.

Targets are chosen as a goldfish player would: damage goes to the opponent, who controls no
creatures, so "target creature" effects meant for the opponent's creatures do nothing.
Any other ability that refers to cycling or discarding is reported as not modelled.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot.cycling import abilities_in_text

if TYPE_CHECKING:
    from bot.goldfish.engine import Event, Game

Handler = Callable[["Game", "CycleContext"], list["Event"]]


@dataclass
class CycleContext:
    """What the player chose when cycling: used by triggers that search or let you pay X."""

    iid: int
    name: str
    x: int = 0
    find: int | None = None
    find_nothing: bool = False
    pay: bool = True
    typecycling: bool = False


@dataclass(frozen=True)
class Payoff:
    """A triggered ability of a permanent that triggers on cycling (and maybe discarding)."""

    text: str
    handler: Callable[[Game, CycleContext, int], list[Event]]
    another: bool = False


def _gain(amount: int) -> Handler:
    def handler(game: Game, ctx: CycleContext) -> list[Event]:
        return game._gain_life(amount, ctx.name)

    return handler


def _damage_opponent(amount: int) -> Handler:
    def handler(game: Game, ctx: CycleContext) -> list[Event]:
        return game._damage_opponent(amount, ctx.name)

    return handler


def _token(name: str, power: int, toughness: int, description: str) -> Handler:
    def handler(game: Game, ctx: CycleContext) -> list[Event]:
        return game._create_tokens(1, name, power, toughness, description, ctx.name)

    return handler


def _decree_of_justice(game: Game, ctx: CycleContext) -> list[Event]:
    from bot.goldfish.engine import Event

    if ctx.x <= 0:
        return [Event("trigger", "Decree of Justice: you paid no {X}, so no Soldiers", "702.29c")]
    paid = game._pay_mana(("1",) * ctx.x)
    assert paid is not None  # checked before the cycle began
    events = [Event("mana", f"Paid {{{ctx.x}}} for Decree of Justice's X ({paid})", "107.3")]
    events += game._create_tokens(ctx.x, "Soldier", 1, 1, "1/1 white Soldier", ctx.name)
    return events


def _slice_and_dice(game: Game, ctx: CycleContext) -> list[Event]:
    from bot.goldfish.engine import Event

    if any(p.power is not None for p in game.battlefield):
        return [Event("trigger", "Slice and Dice: declined, it would only damage your own creatures", "702.29c")]
    return [Event("trigger", "Slice and Dice deals 1 damage to each creature: there are none", "702.29c")]


def _search_basic_to_hand(game: Game, ctx: CycleContext) -> list[Event]:
    return game._search_library(ctx, ("basic land",), to="hand", source=ctx.name, rule="702.29c")


def _shefet_monitor(game: Game, ctx: CycleContext) -> list[Event]:
    return game._search_library(ctx, ("basic land", "Desert"), to="battlefield", source=ctx.name, rule="702.29c")


def _vizier(game: Game, ctx: CycleContext) -> list[Event]:
    return game._untap_best_land(ctx.name)


SELF_TRIGGERS: dict[str, Handler] = {
    "Renewed Faith": _gain(2),
    "Solar Blast": _damage_opponent(1),
    "Decree of Justice": _decree_of_justice,
    "Slice and Dice": _slice_and_dice,
    "Krosan Tusker": _search_basic_to_hand,
    "Shefet Monitor": _shefet_monitor,
    "Stir the Sands": _token("Zombie", 2, 2, "2/2 black Zombie"),
    "Vizier of Tumbling Sands": _vizier,
}
# Self triggers that search: the same ``find`` / ``find_nothing`` choice as typecycling.
SELF_SEARCHES: dict[str, tuple[str, ...]] = {
    "Krosan Tusker": ("basic land",),
    "Shefet Monitor": ("basic land", "Desert"),
}
# Self triggers that let you pay {X}: the ``x`` of ``Game.cycle``.
SELF_X: frozenset[str] = frozenset({"Decree of Justice"})


def _pay_one_then(game: Game, ctx: CycleContext, name: str, missed: str, effect) -> list[Event]:
    """The optional "you may pay {1}" of Lightning Rift and Drake Haven, then the effect."""
    from bot.goldfish.engine import Event

    paid = game._pay_optional(("1",), ctx.pay)
    if paid is None:
        why = "you chose not to pay {1}" if not ctx.pay else "no untapped land to pay {1}"
        return [Event("trigger", f"{name}: {why}, {missed}", "702.29d")]
    return [Event("mana", f"Paid {{1}} for {name} ({paid})", "107.3")] + effect()


def _lightning_rift(game: Game, ctx: CycleContext, source: int) -> list[Event]:
    return _pay_one_then(game, ctx, "Lightning Rift", "no damage", lambda: game._damage_opponent(2, "Lightning Rift"))


def _drake_haven(game: Game, ctx: CycleContext, source: int) -> list[Event]:
    return _pay_one_then(
        game,
        ctx,
        "Drake Haven",
        "no Drake",
        lambda: game._create_tokens(1, "Drake", 2, 2, "2/2 blue Drake with flying", "Drake Haven"),
    )


def _no_target(text: str) -> Callable[[Game, CycleContext, int], list[Event]]:
    def handler(game: Game, ctx: CycleContext, source: int) -> list[Event]:
        from bot.goldfish.engine import Event

        return [Event("trigger", text, "702.29d")]

    return handler


PAYOFFS: dict[str, Payoff] = {
    "Lightning Rift": Payoff("Whenever a player cycles a card, you may pay {1}: 2 damage", _lightning_rift),
    "Drake Haven": Payoff("Whenever you cycle or discard a card, you may pay {1}: a 2/2 Drake", _drake_haven),
    "Astral Slide": Payoff(
        "Whenever a player cycles a card, you may exile target creature",
        _no_target("Astral Slide: no creature exiled (the opponent controls none)"),
    ),
    "Archfiend of Ifnir": Payoff(
        "Whenever you cycle or discard another card, a -1/-1 counter on each opposing creature",
        _no_target("Archfiend of Ifnir: the opponent controls no creatures to get -1/-1 counters"),
        another=True,
    ),
    "Zenith Seeker": Payoff(
        "Whenever you cycle or discard a card, target creature gains flying",
        _no_target("Zenith Seeker: a creature gains flying until end of turn (no effect here)"),
    ),
}

# "Cycling abilities you activate cost up to {2} less to activate" (generic mana only).
COST_REDUCTIONS: dict[str, int] = {"Fluctuator": 2}
# "As long as you have seven or more cards in hand, you may pay {0} rather than pay cycling costs."
FREE_CYCLING_HAND_SIZE: dict[str, int] = {"New Perspectives": 7}


def _draw_three(game: Game, name: str) -> list[Event]:
    return game._draw(3, f"{name} enters")


ENTERS: dict[str, Callable[[Game, str], list[Event]]] = {"New Perspectives": _draw_three}

CASTABLE: frozenset[str] = frozenset(PAYOFFS) | frozenset(COST_REDUCTIONS) | frozenset(FREE_CYCLING_HAND_SIZE)
MODELLED: frozenset[str] = CASTABLE | frozenset(SELF_TRIGGERS)

REMINDER = re.compile(r"\([^()]*\)")
CYCLING_RELATED = re.compile(r"\bcycl|\bdiscard (?:a|another) card\b", re.IGNORECASE)


def ability_lines(card: Mapping[str, Any]) -> list[str]:
    faces = card.get("card_faces") or [card]
    lines = []
    for face in faces:
        for line in (face.get("oracle_text") or "").splitlines():
            line = REMINDER.sub("", line).strip()
            if line:
                lines.append(line)
    return lines


def unmodelled_text(card: Mapping[str, Any]) -> list[str]:
    """The card's abilities about cycling or discarding that the engine does not model.

    Cycling abilities themselves are always modelled; spell text is irrelevant because
    non-land spells are not cast.
    """
    if card.get("name") in MODELLED:
        return []
    found = []
    for line in ability_lines(card):
        if abilities_in_text(line) and "cycle" not in line.lower():
            continue  # the cycling keyword line itself
        if CYCLING_RELATED.search(line):
            found.append(line)
    return found
