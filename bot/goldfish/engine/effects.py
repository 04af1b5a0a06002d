"""The effects API of a goldfish game: what card scripts and actions do to the game, each with its events.

Draw, gain life, deal damage, create tokens, pay mana, search, untap, sacrifice, and the state-based actions.
Card scripts reach these through the game (:class:`~bot.goldfish.engine.model.Effects`); the rule modules call them
directly. Each moves the game's parts (:mod:`bot.goldfish.engine.parts`) and says what happened.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.goldfish.engine.board import colours_of, hand_costs, mana_sources, matching, permanent_name
from bot.goldfish.engine.mana import Payment, cost_text, explain_shortfall, plan, plan_with
from bot.goldfish.engine.model import CardInstance, CycleChoices, Event, IllegalAction, Permanent
from bot.goldfish.engine.parts import GameState
from bot.text import plural

# ------------------------------------------------------------ cards and life


def draw(game: GameState, count: int, reason: str) -> list[Event]:
    """Draw ``count`` cards one at a time (121.2); drawing from an empty library loses at the next check."""
    events = []
    for _ in range(count):
        card = game.zones.draw()
        if card is None:
            game.player.drew_from_empty = True
            events.append(
                Event(
                    "draw",
                    f"Tried to draw ({reason}) from an empty library: you lose when state-based actions are "
                    "next checked",
                    "121.4",
                )
            )
            continue
        game.stats["cards_drawn"] += 1
        events.append(Event("draw", f"Drew {card.name} ({reason})", "121.1"))
    return events


def gain_life(game: GameState, amount: int, source: str) -> list[Event]:
    game.player.gain_life(amount)
    game.stats["life_gained"] += amount
    return [Event("life", f"{source}: you gain {amount} life ({game.player.life})", "119.3")]


def pay_life(game: GameState, amount: int) -> None:
    game.player.lose_life(amount)
    game.stats["life_paid"] += amount


def damage_opponent(game: GameState, amount: int, source: str) -> list[Event]:
    game.opponent.lose_life(amount)
    game.stats["damage_dealt"] += amount
    return [Event("damage", f"{source} deals {amount} damage to the opponent ({game.opponent.life})", "120.3")]


def create_tokens(
    game: GameState, count: int, name: str, power: int, toughness: int, description: str, source: str
) -> list[Event]:
    for _ in range(count):
        iid = max(game.iid_names) + 1
        game.iid_names[iid] = f"{name} token"
        game.zones.battlefield.append(
            Permanent(iid, f"{name} token", token=True, power=power, toughness=toughness, entered_turn=game.turn)
        )
    game.stats["tokens"] += count
    return [Event("token", f"{source}: created {plural(count, description + ' token')}", "111.1")]


# ------------------------------------------------------------ mana


def payment_for(
    game: GameState, symbols: Sequence[str], tap: Sequence[int] = (), exclude: int | None = None
) -> Payment:
    """How ``symbols`` will be paid: with the lands the player chose (``tap``), or else with the lands that
    keep the most other cards in hand payable. Refuses, with the reason, when it can't be paid."""
    sources = mana_sources(game)
    if tap:
        by_iid = dict(sources)
        if len(set(tap)) != len(tap):
            raise IllegalAction("Choose each land to tap only once.")
        for iid in tap:
            if iid not in by_iid:
                name = game.iid_names.get(iid, f"card #{iid}")
                raise IllegalAction(f"{name} is not an untapped land you control, so it can't be tapped for mana.")
        payment = plan_with(symbols, [(iid, by_iid[iid]) for iid in tap], life=game.player.life)
        if payment is None:
            names = ", ".join(game.iid_names[iid] for iid in tap)
            raise IllegalAction(f"The lands you chose ({names}) can't pay exactly {cost_text(symbols)}.")
        return payment
    payment = plan(symbols, sources, life=game.player.life, keep=hand_costs(game, exclude))
    if payment is None:
        raise IllegalAction(f"You can't pay: {explain_shortfall(symbols, sources)}.")
    return payment


def pay_cost(game: GameState, symbols: Sequence[str], tap: Sequence[int] = (), exclude: int | None = None) -> str:
    """Pay ``symbols`` (601.2g), tapping the chosen or best lands and paying life for Phyrexian symbols."""
    payment = payment_for(game, symbols, tap, exclude)
    names = []
    for permanent in game.zones.battlefield:
        if permanent.iid in payment.lands:
            permanent.tap()
            names.append(permanent_name(game, permanent))
    game.stats["mana_spent"] += len(payment.lands)
    parts = ["tapped " + ", ".join(names)] if names else []
    if payment.life:
        pay_life(game, payment.life)
        parts.append(f"paid {payment.life} life (107.4f)")
    return "; ".join(parts) or "no mana"


def pay_mana(game: GameState, symbols: Sequence[str]) -> str | None:
    """Tap lands for ``symbols`` (601.2g); ``"tapped …"``, or None (nothing tapped) when it can't be paid."""
    try:
        return pay_cost(game, symbols)
    except IllegalAction:
        return None


def untap_best_land(game: GameState, source: str) -> list[Event]:
    tapped = [p for p in game.zones.battlefield if p.tapped and colours_of(game, p)]
    if not tapped:
        return [Event("trigger", f"{source}: no tapped land to untap", "702.29c")]
    best = max(tapped, key=lambda p: (len(colours_of(game, p)), -p.iid))
    best.untap()
    return [Event("untap", f"{source}: untapped {best.name}", "702.29c")]


# ------------------------------------------------------------ zones


def search_library(
    game: GameState, choices: CycleChoices, searches: Sequence[str], *, to: str, source: str, rule: str
) -> list[Event]:
    """Search (the player's ``find``, or the first by name), put the card ``to`` hand or battlefield, shuffle."""
    library = game.zones.library
    wanted = " or ".join(searches)
    candidates = matching(game, searches)
    found = None
    if choices.find is not None:
        found = next((c for c in candidates if c.iid == choices.find), None)
    elif not choices.find_nothing and candidates:
        found = min(candidates, key=lambda c: (c.name, library.index(c)))
    events = []
    if found is None:
        if candidates:
            text = f"{source}: searched for a {wanted} card and found nothing (by choice)"
        else:
            text = f"{source}: searched for a {wanted} card and found nothing: no {wanted} card left in the library"
        events.append(Event("search", text, rule))
    else:
        library.take(found.iid)
        if to == "hand":
            game.zones.hand.append(found)
            events.append(
                Event(
                    "search",
                    f"{source}: searched for a {wanted} card, revealed {found.name} and put it into your hand "
                    "(a search, not a draw: 121.5)",
                    rule,
                )
            )
        else:
            events.append(Event("search", f"{source}: searched for a {wanted} card: {found.name}", rule))
            events += put_land_onto_battlefield(game, found, "Put onto the battlefield:")
    game.rng.shuffle(library)
    events.append(Event("shuffle", "Shuffled your library", rule))
    return events


def put_land_onto_battlefield(game: GameState, card: CardInstance, verb: str, face: int | None = None) -> list[Event]:
    facts = game.book[card.name]
    land = next((f for f in facts.land_faces if face is None or f.index == face), None)
    face = land.index if land else 0
    tapped = land.enters_tapped if land else facts.enters_tapped
    game.zones.battlefield.append(Permanent(card.iid, card.name, tapped=tapped, entered_turn=game.turn, face=face))
    shown = land.name if land else card.name
    rule = "712.12" if shown != card.name else "305.1"
    return [Event("land", f"{verb} {shown}" + (" (it enters tapped)" if tapped else ""), rule)]


def sacrifice(game: GameState, permanent: Permanent) -> list[Event]:
    game.zones.leave_battlefield(permanent)
    return [Event("sacrifice", f"Sacrificed {permanent_name(game, permanent)}", "701.21a")]


# ------------------------------------------------------------ state-based actions


def check_state(game: GameState) -> list[Event]:
    """State-based actions (704), checked whenever a player would receive priority."""
    if game.phase == "over":
        return []
    events = []
    for permanent in [p for p in game.zones.battlefield if p.toughness is not None and p.toughness <= 0]:
        game.zones.leave_battlefield(permanent)
        events.append(Event("dies", f"{permanent.name} dies", "704.5f"))
    if game.player.drew_from_empty:
        end(game, "lost: drew from an empty library (704.5b)")
        events.append(Event("loss", "You lose: you drew from an empty library", "704.5b"))
    elif game.player.life <= 0:
        end(game, "lost: life total 0 or less (704.5a)")
        events.append(Event("loss", f"You lose: your life total is {game.player.life}", "704.5a"))
    elif game.opponent.life <= 0:
        end(game, f"won: the opponent is at {game.opponent.life} life on turn {game.turn} (704.5a)")
        events.append(Event("win", f"You win on turn {game.turn}: the opponent is at {game.opponent.life}", "704.5a"))
    return events


def end(game: GameState, result: str) -> None:
    game.phase = "over"
    game.result = result
