"""The simulation's player: every decision a simulated game makes, in one place.

The stated policy (``POLICY_TEXT`` is what reports print):

- **Keep**: a hand of seven or six is kept with 2–5 lands among the seven cards drawn, else it
  is mulliganed; the third hand (five cards after the bottom) is always kept. After a mulligan
  (London, 103.5) the cards put on the bottom are spare lands when the hand has more than three,
  else the most expensive spells that are not payoffs.
- **Land drop**: each turn, the land that enters untapped and makes the colours the hand's costs
  need, keeping lands that can cycle for cycling; with no land in hand, a typecycling ability that
  can find a land is activated first, for the land that fits best.
- **Cast first**: payoffs (permanents whose "whenever you cycle" or cost-changing abilities the
  engine models), most expensive first; then creatures of mana value 5 or more when the engine
  lets them be cast (the threats a ramp deck ramps into).
- **Then cycle**, cheapest first: never the last land in hand while lands are still needed,
  nor a payoff that isn't on the battlefield yet, nor for life below 10, nor by sacrificing a
  land before six are out.
- **Cleanup**: discards down to seven by the order used for the bottom of a mulligan (spare
  lands when over three, else the dearest spells that are not payoffs).
- **Everything else** passes: ``next``; at any other stop the engine makes (the opponent's end
  step, the upkeep, an echo trigger) the policy cycles what it would in a main phase, then takes
  the engine's own legal actions (``Game.legal_actions()``: paying echo before sacrificing), then ``next``.

Decisions are *proposals*: an ordered list of actions, best first, so the runner can move on
when the engine refuses one (a rule the policy does not know about) instead of stopping.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from typing import TYPE_CHECKING

from bot.goldfish.engine import Action, CardInstance, script_for

if TYPE_CHECKING:
    from bot.goldfish.engine import CycleCost, Game

KEEP_LANDS = (2, 5)
ALWAYS_KEEP_AFTER = 2  # mulligans: the hand after the second is kept (five cards)
IDEAL_LANDS_IN_HAND = 3
LANDS_ENOUGH = 5  # with this many lands out, spare land cards are cycled too
SACRIFICE_LANDS_FROM = 6
LIFE_FLOOR = 10
THREAT_MANA_VALUE = 5

POLICY_TEXT = (
    "Keep 2–5 lands in seven, else mulligan (keep any five); play the land that enters untapped with the "
    "colours the hand needs, typecycling for it when none is in hand; cast payoffs first, then creatures "
    "of mana value 5+; cycle the cheapest, keeping a land for the next drop and life above 10."
)


# ------------------------------------------------------------------ what cards are


@lru_cache(maxsize=4096)
def is_payoff(name: str) -> bool:
    """A permanent whose cycling-related abilities the engine models (Lightning Rift, Fluctuator, …)."""
    script = script_for(name)
    return bool(script.payoff or script.cycling_reduction or script.free_cycling_hand_size or script.on_enter)


def _mana_value(game: Game, name: str) -> int:
    return len(game.book[name].cast_symbols)


def _is_threat(game: Game, name: str) -> bool:
    facts = game.book[name]
    return "creature" in facts.types and len(facts.cast_symbols) >= THREAT_MANA_VALUE


def _lands_in(game: Game, cards: list[CardInstance]) -> list[CardInstance]:
    return [c for c in cards if game.is_land(c.name)]


def lands_out(game: Game) -> int:
    """Lands on the battlefield (tokens are never lands here)."""
    return sum(1 for p in game.zones.battlefield if not p.token and game.is_land(p.name))


# ------------------------------------------------------------------ mulligans


def mulligan_proposals(game: Game) -> Iterator[Action]:
    """Keep (with the bottom cards chosen) or mulligan, by the keep rule."""
    lands = len(_lands_in(game, game.zones.hand))
    if game.player.mulligans >= ALWAYS_KEEP_AFTER or KEEP_LANDS[0] <= lands <= KEEP_LANDS[1]:
        yield Action("keep", bottom=tuple(bottom_cards(game, game.player.mulligans)))
        return
    yield Action("mulligan")
    yield Action("keep", bottom=tuple(bottom_cards(game, game.player.mulligans)))


def bottom_cards(game: Game, count: int) -> list[int]:
    """The ``count`` cards to put on the bottom: spare lands first when over three, else the dearest spells."""
    hand = list(game.zones.hand)
    chosen: list[int] = []
    for _ in range(min(count, len(hand))):
        lands = _lands_in(game, hand)
        if len(lands) > IDEAL_LANDS_IN_HAND or len(lands) == len(hand):
            worst = min(lands, key=lambda c: (_land_value(game, c), -c.iid))
        else:
            spells = [c for c in hand if not game.is_land(c.name)]
            worst = max(spells, key=lambda c: (not is_payoff(c.name), _mana_value(game, c.name), c.iid))
        chosen.append(worst.iid)
        hand.remove(worst)
    return chosen


# ------------------------------------------------------------------ lands


def _needed_colours(game: Game) -> set[str]:
    """Colours named by the mana costs the hand would pay: cycling costs and payoff or threat casts."""
    needed: set[str] = set()
    for card in game.zones.hand:
        facts = game.book[card.name]
        symbols = list(facts.cast_symbols) if is_payoff(card.name) or _is_threat(game, card.name) else []
        for ability in facts.cycling:
            symbols += ability.cost.mana or ()
        for symbol in symbols:
            needed.update(part for part in symbol.split("/") if part in "WUBRG")
    return needed


def best_land(game: Game, lands: list[CardInstance]) -> CardInstance | None:
    """The land to play (or find): untapped, makes missing colours, makes needed colours, can't cycle."""
    if not lands:
        return None
    needed = _needed_colours(game)
    have: set[str] = set()
    for permanent in game.zones.battlefield:
        have |= game.colours_of(permanent)

    def key(card: CardInstance) -> tuple:
        facts = game.book[card.name]
        return (
            not facts.enters_tapped,
            len((facts.colours & needed) - have),
            len(facts.colours & needed),
            not facts.cycling,
            len(facts.colours),
            -card.iid,
        )

    return max(lands, key=key)


def _land_value(game: Game, card: CardInstance) -> tuple:
    """For the bottom after a mulligan: a land that enters untapped, can't cycle and makes more colours is kept."""
    facts = game.book[card.name]
    return (not facts.enters_tapped, not facts.cycling, len(facts.colours))


# ------------------------------------------------------------------ cycling


def _allowed_cost(game: Game, cost: CycleCost) -> bool:
    if cost.life and game.player.life - cost.life < LIFE_FLOOR:
        return False
    return not (cost.sacrifice and lands_out(game) < SACRIFICE_LANDS_FROM)


def _worth_cycling(game: Game, name: str) -> bool:
    if is_payoff(name) and not any(p.name == name for p in game.zones.battlefield):
        return False
    if game.is_land(name) and lands_out(game) < LANDS_ENOUGH:
        spare = len(_lands_in(game, game.zones.hand)) - (0 if game.player.land_played else 1)
        if spare < 2:
            return False
    return True


def _cycles(game: Game, *, typecycling_only: bool = False) -> Iterator[tuple[CardInstance, int]]:
    """The cycles worth making that the untapped lands can pay for, cheapest first.

    The engine is asked for each cost (after its cost changes) and whether it can be paid, in
    order, and only as far as the runner needs: the engine checks the action again when it is
    applied, so a guess that turns out illegal is refused and the next one is tried.
    """
    sources = len(game.mana_sources())
    statics = game.cycle_statics()
    keyed = []
    for card in game.zones.hand:
        abilities = game.book[card.name].cycling
        if not abilities or not _worth_cycling(game, card.name):
            continue
        for index, ability in enumerate(abilities):
            if typecycling_only and not ability.is_typecycling:
                continue
            cost = game.cycle_cost(ability, statics=statics)
            if len(cost.symbols) > sources or not _allowed_cost(game, cost):
                continue
            weight = (len(cost.symbols) + (1 if cost.sacrifice else 0), cost.life, ability.is_typecycling)
            keyed.append((weight, card.iid, index, card, cost))
    keyed.sort(key=lambda entry: entry[:3])
    for _, _, index, card, cost in keyed:
        if game.can_pay(cost.symbols):
            yield card, index


def cycle_proposals(game: Game) -> Iterator[Action]:
    """Cycles worth making, cheapest first (plain cycling before typecycling at equal cost)."""
    for card, index in _cycles(game):
        yield Action("cycle", card.iid, index)


def _land_finders(game: Game) -> Iterator[Action]:
    """Typecycling that can find a land, for the land that fits best."""
    for card, index in _cycles(game, typecycling_only=True):
        land = best_land(game, _lands_in(game, game.search_candidates(card.iid, index)))
        if land is not None:
            yield Action("cycle", card.iid, index, find=land.iid)


# ------------------------------------------------------------------ a main phase


def main_phase_proposals(game: Game) -> Iterator[Action]:
    """The next action of a main phase, best first; ``next`` last."""
    if not game.player.land_played:
        land = best_land(game, game.playable_lands())
        if land is not None:
            yield Action("play", land.iid)
        elif lands_out(game) < LANDS_ENOUGH or not _lands_in(game, game.zones.hand):
            yield from _land_finders(game)
    casts = [o for o in game.cast_options() if o.affordable]
    casts.sort(key=lambda o: (-_mana_value(game, o.name), o.iid))
    for option in casts:
        if is_payoff(option.name):
            yield Action("cast", option.iid)
    for option in casts:
        if not is_payoff(option.name) and _is_threat(game, option.name):
            yield Action("cast", option.iid)
    yield from cycle_proposals(game)
    yield Action("next")


def discard_proposals(game: Game) -> Iterator[Action]:
    """Cleanup (514.1): discard down to the hand size, by the same order as the cards put on the bottom."""
    decision = game.decision()
    yield Action("discard", cards=tuple(bottom_cards(game, decision.count)))


def other_stop_proposals(game: Game) -> Iterator[Action]:
    """Any stop that is not a main phase (an end step, a choice the engine waits for)."""
    if game.phase == "cleanup":
        yield from discard_proposals(game)
        return
    yield from cycle_proposals(game)
    yield from game.legal_actions()  # an echo payment first, then sacrificing, then moving on
    yield Action("next")


def proposals(game: Game) -> Iterator[Action]:
    """What the policy would do now, best first."""
    if game.phase == "mulligan":
        return mulligan_proposals(game)
    if game.phase == "main":
        return main_phase_proposals(game)
    return other_stop_proposals(game)
