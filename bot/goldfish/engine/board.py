"""What a goldfish game looks like now, read without changing it: what the cards are, the mana the untapped lands
make, what cycling and casting cost as the battlefield changes them (601.2f), and where the turn stands: what must
be settled before anything else, and why the player can't act now.

Questions only; the rule modules act on the answers (:mod:`bot.goldfish.engine.effects` and the modules of each action).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.cycling import CyclingAbility
from bot.goldfish.engine.mana import cost_symbols, cost_text, explain_shortfall, payable, symbol_text
from bot.goldfish.engine.model import CardInstance, IllegalAction, Permanent
from bot.goldfish.engine.parts import GameState
from bot.goldfish.engine.scripts import script_for
from bot.goldfish.engine.scripts import unmodelled_text as unmodelled_abilities
from bot.text import plural

HAND_SIZE = 7
OPENING_HAND = 7


# ------------------------------------------------------------ the cards and the permanents


def is_land(game: GameState, name: str) -> bool:
    """Whether the card named ``name`` can be played as a land (a land face, 712.12); tokens are not."""
    return name in game.book and game.book[name].is_land


def permanent_name(game: GameState, permanent: Permanent) -> str:
    """The name a permanent shows: the face it was played as (712.12)."""
    if permanent.token or permanent.name not in game.book:
        return permanent.name
    return game.book[permanent.name].face_name(permanent.face)


def colours_of(game: GameState, permanent: Permanent) -> frozenset[str]:
    """The mana a permanent can tap for (lands only, by the face it was played as; tokens make none)."""
    if permanent.token:
        return frozenset()
    return game.book.face_colours(permanent.name, permanent.face)


def creatures(game: GameState) -> list[Permanent]:
    """Your creatures on the battlefield (the opponent controls none)."""
    return game.zones.battlefield.creatures()


def is_sacrificable(game: GameState, permanent: Permanent, what: str) -> bool:
    if permanent.token:
        return what in ("creature", "permanent") and permanent.power is not None
    return what == "permanent" or what in game.book[permanent.name].types


def matching(game: GameState, searches: Sequence[str]) -> list[CardInstance]:
    """Library cards that a search for any of ``searches`` could find."""
    return [c for c in game.zones.library if any(game.book.matches(c.name, s) for s in searches)]


def unmodelled_text(game: GameState, name: str) -> list[str]:
    """The abilities of a card (oracle text lines) about cycling or discarding that the engine does not model."""
    card = game.cards.get(name)
    return unmodelled_abilities(card) if card else []


# ------------------------------------------------------------ mana


def mana_sources(game: GameState) -> list[tuple[int, frozenset[str]]]:
    colours = game.book.face_colours
    return [
        (p.iid, c) for p in game.zones.battlefield if not p.tapped and not p.token and (c := colours(p.name, p.face))
    ]


def can_pay(game: GameState, symbols: Sequence[str]) -> bool:
    return payable(symbols, mana_sources(game), game.player.life)


def mana_problem(game: GameState, symbols: Sequence[str]) -> str | None:
    """Why ``symbols`` can't be paid now, or None."""
    sources = mana_sources(game)
    if payable(symbols, sources, game.player.life):
        return None
    return explain_shortfall(symbols, sources)


def available_mana(game: GameState) -> str:
    """The mana the untapped lands can make, one symbol per land: ``"{W}{W/R}{C}"``."""
    return "".join(symbol_text(colours) for _, colours in mana_sources(game))


# ------------------------------------------------------------ costs


@dataclass
class CycleCost:
    """A cycling cost after cost changes (601.2f): mana symbols, life, what to sacrifice, and how it reads."""

    symbols: tuple[str, ...]
    life: int
    sacrifice: str | None
    text: str


Statics = tuple[str | None, tuple[int, list[str]] | None]


def _free_cycling(game: GameState) -> str | None:
    for permanent in game.zones.battlefield:
        size = script_for(permanent.name).free_cycling_hand_size
        if size is not None and not permanent.token and len(game.zones.hand) >= size:
            return permanent.name
    return None


def _reduction(game: GameState) -> tuple[int, list[str]]:
    total, sources = 0, []
    for permanent in game.zones.battlefield:
        amount = script_for(permanent.name).cycling_reduction
        if amount and not permanent.token:
            total += amount
            sources.append(permanent.name)
    return total, sources


def cycle_statics(game: GameState) -> Statics:
    """What the battlefield does to cycling costs now: a free-cycling permanent, else the reduction; asked
    once by a caller that prices several abilities while the game stands still."""
    free = _free_cycling(game)
    return free, None if free else _reduction(game)


def cycle_cost(game: GameState, ability: CyclingAbility, x: int = 0, statics: Statics | None = None) -> CycleCost:
    """The cost of ``ability`` now, after the statics on the battlefield change it (601.2f)."""
    free, reduced = statics if statics is not None else cycle_statics(game)
    if free:
        return CycleCost((), 0, None, f"{{0}} instead of {ability.cost} ({free})")
    cost = ability.cost
    reduction, sources = reduced
    symbols = cost_symbols(cost.mana, x=x, reduction=reduction) if cost.mana else ()
    if cost.life:
        text = f"{cost.life} life"
    elif cost.sacrifice:
        text = f"sacrifice a {cost.sacrifice}"
    else:
        text = cost_text(symbols)
        if reduction and cost_symbols(cost.mana, x=x) != symbols:
            text += f" ({ability.cost} reduced by {', '.join(sources)})"
    return CycleCost(symbols, cost.life, cost.sacrifice, text)


def cast_symbols(game: GameState, name: str, x: int = 0) -> tuple[str, ...]:
    facts = game.book[name]
    return facts.cast_symbols + ("1",) * (x * facts.x_count)


def hand_costs(game: GameState, exclude: int | None = None) -> list[tuple[str, ...]]:
    """The mana costs of what the other cards in hand could do: cast them, cycle them."""
    costs = []
    statics = cycle_statics(game)
    for card in game.zones.hand:
        if card.iid == exclude:
            continue
        facts = game.book[card.name]
        if "land" not in facts.types and facts.cast_symbols:
            costs.append(facts.cast_symbols)
        for ability in facts.cycling:
            symbols = cycle_cost(game, ability, statics=statics).symbols
            if symbols:
                costs.append(symbols)
    return costs


# ------------------------------------------------------------ where the turn stands


def bottom_count(game: GameState) -> int:
    """How many cards keeping puts on the bottom: one per mulligan, at most the whole hand (103.5)."""
    return min(game.player.mulligans, len(game.zones.hand))


def cleanup_prompt(game: GameState) -> str:
    hand = len(game.zones.hand)
    return f"you have {hand} cards in hand, so discard {plural(hand - HAND_SIZE, 'card')} down to seven (514.1)"


def echo_pending(game: GameState) -> list[Permanent]:
    """Permanents whose echo trigger waits to be settled (only in the upkeep)."""
    if game.phase != "upkeep":
        return []
    return [p for p in game.zones.battlefield if p.echo]


def echo_prompt(game: GameState, permanent: Permanent) -> str:
    cost = cost_text(game.book[permanent.name].echo or ())
    return f"{permanent.name}'s echo: pay {cost} or sacrifice it (702.30a)"


def optional_payers(game: GameState) -> list[str]:
    """The permanents whose "whenever you cycle" trigger lets you pay {1} (Lightning Rift, Drake Haven), by name: a
    cycle or a discard asks whether to pay."""
    names = []
    for permanent in game.zones.battlefield:
        payoff = script_for(permanent.name).payoff
        if payoff and not permanent.token and "you may pay" in payoff.text:
            names.append(permanent.name)
    return names


def upkeep_offers(game: GameState) -> list[CardInstance]:
    """Graveyard cards whose upkeep-only ability (Eternal Dragon's) can be paid now."""
    return [
        card
        for card in game.zones.graveyard
        if script_for(card.name).upkeep_from_graveyard and can_pay(game, script_for(card.name).upkeep_from_graveyard)
    ]


def not_main_reason(game: GameState) -> str:
    if game.phase == "over":
        return f"The game is over ({game.result})."
    if game.phase == "mulligan":
        return "Keep a hand (or mulligan) first."
    if game.phase == "cleanup":
        return f"First discard: {cleanup_prompt(game)}."
    if game.phase == "upkeep" and echo_pending(game):
        return f"First settle {echo_prompt(game, echo_pending(game)[0])}."
    return "It is not your main phase: press Next to go on to it."


def require_phase(game: GameState, phase: str, reason: str | None = None) -> None:
    if game.phase == "over":
        raise IllegalAction(f"The game is over ({game.result}).")
    if game.phase != phase:
        raise IllegalAction(reason or not_main_reason(game))


def priority_problem(game: GameState) -> str | None:
    """Why the player can't cycle (or cast an instant) now, or None: in the main phase, the opponent's end
    step and the upkeep once echo is settled they can."""
    if game.phase in ("main", "end_step"):
        return None
    if game.phase == "upkeep":
        pending = echo_pending(game)
        return f"first settle {echo_prompt(game, pending[0])}" if pending else None
    if game.phase == "cleanup":
        return f"first discard in the cleanup step: {cleanup_prompt(game)}"
    return "the game is over" if game.phase == "over" else "keep a hand (or mulligan) first"
