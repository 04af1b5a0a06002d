"""Playing lands and casting spells in a goldfish game (305, 601, 712.12).

Every card can be cast when its cost can be paid: a permanent spell resolves onto the battlefield
(creatures attack the goldfish from the next turn), an instant or sorcery goes to the graveyard.
What a card does that the engine does not model is said when it is cast ("cast; its effect is not
modelled").
"""

from __future__ import annotations

from bot.goldfish.engine.board import cast_symbols, echo_pending, is_land, mana_problem, not_main_reason, require_phase
from bot.goldfish.engine.effects import check_state, pay_cost, put_land_onto_battlefield
from bot.goldfish.engine.mana import cost_text
from bot.goldfish.engine.model import Action, CardInstance, CastOption, Event, IllegalAction, Permanent
from bot.goldfish.engine.parts import GameState
from bot.goldfish.engine.scripts import script_for, unmodelled_spell_text

INSTANT_SPEED = ("main", "end_step", "upkeep")


def hand_card(game: GameState, iid: int | None) -> CardInstance:
    """The card ``iid`` in the hand, or a refusal that says where it is."""
    card = game.zones.hand.find(iid)
    if card is None:
        name = game.iid_names.get(iid) if iid is not None else None
        if name is None:
            raise IllegalAction(f"There is no card #{iid} in this game.")
        raise IllegalAction(f"{name} is {game.zones.where(iid)}, not in your hand.")
    return card


# ------------------------------------------------------------ lands


def playable_lands(game: GameState) -> list[CardInstance]:
    """Lands in hand that can be played now (one land per turn, main phase)."""
    if game.phase != "main" or game.player.land_played:
        return []
    return [c for c in game.zones.hand if is_land(game, c.name)]


def land_problem(game: GameState, card: CardInstance) -> str | None:
    """Why ``card`` can't be played as a land now, or None."""
    if not is_land(game, card.name):
        return f"{card.name} is not a land; cast it instead"
    if game.phase != "main":
        return not_main_reason(game) if game.phase in ("mulligan", "over") else "lands are played in your main phase"
    if game.player.land_played:
        return "you have already played a land this turn (305.2: one land a turn)"
    return None


def play_land(game: GameState, action: Action) -> list[Event]:
    require_phase(game, "main")
    card = hand_card(game, action.iid)
    problem = land_problem(game, card)
    if problem:
        raise IllegalAction(f"You can't play {card.name}: {problem}.")
    faces = game.book[card.name].land_faces
    face = next((f for f in faces if f.index == action.ability), None)
    if face is None:
        names = " or ".join(f"{f.index + 1}. {f.name}" for f in faces)
        raise IllegalAction(f"{card.name} has no such land face; choose {names} (712.12).")
    game.zones.hand.take(card.iid)
    events = put_land_onto_battlefield(game, card, "Played", face=face.index)
    game.player.land_played = True
    game.stats["lands_played"] += 1
    return events + check_state(game)


# ------------------------------------------------------------ spells


def cast_problem(game: GameState, card: CardInstance, x: int = 0) -> str | None:
    """Why ``card`` can't be cast now (with X = ``x``), or None."""
    facts = game.book[card.name]
    if "land" in facts.types:
        return f"{card.name} is a land: play it (305.1)"
    if game.phase not in INSTANT_SPEED or (game.phase != "main" and "instant" not in facts.types):
        if game.phase in ("mulligan", "over"):
            return not_main_reason(game)
        return "only instants can be cast now; other spells in your main phase (117.1a)"
    if game.phase == "upkeep" and echo_pending(game):
        return "settle the echo trigger first (702.30a)"
    return mana_problem(game, cast_symbols(game, card.name, x))


def cast_options(game: GameState) -> list[CastOption]:
    """Every spell in hand (not lands) and whether it can be cast now, with X = 0."""
    return game.memo("cast_options", lambda: _cast_options(game))


def _cast_options(game: GameState) -> list[CastOption]:
    options = []
    for card in game.zones.hand:
        facts = game.book[card.name]
        if "land" in facts.types:
            continue
        reason = cast_problem(game, card)
        modelled = game.book.fully_modelled(card.name, unmodelled_spell_text)
        options.append(
            CastOption(
                card.iid,
                card.name,
                cost_shown(cast_symbols(game, card.name), facts.x_count),
                reason is None,
                reason,
                modelled,
                bool(facts.x_count),
            )
        )
    return options


def cost_shown(symbols: tuple[str, ...], x_count: int) -> str:
    return "{X}" * x_count + (cost_text(symbols) if symbols or not x_count else "")


def cast(game: GameState, action: Action) -> list[Event]:
    card = hand_card(game, action.iid)
    facts = game.book[card.name]
    x = int(action.x)
    if x < 0:
        raise IllegalAction("X can't be negative.")
    if x and not facts.x_count:
        raise IllegalAction(f"{card.name} has no {{X}} in its cost.")
    problem = cast_problem(game, card, x)
    if problem:
        raise IllegalAction(f"You can't cast {card.name}: {problem}.")
    symbols = cast_symbols(game, card.name, x)
    paid = pay_cost(game, symbols, action.tap, exclude=card.iid) if symbols else "no mana"
    game.zones.hand.take(card.iid)
    rule = "601.2"
    if facts.is_permanent:
        game.zones.battlefield.append(
            Permanent(
                card.iid,
                card.name,
                power=facts.power,
                toughness=facts.toughness,
                entered_turn=game.turn,
                echo=facts.echo is not None,
            )
        )
        where = "it resolves and enters the battlefield"
    else:
        game.zones.graveyard.append(card)
        where = "it resolves and goes to your graveyard"
        rule = "608.2"
    shown = cost_shown(symbols, 0) if symbols else "{0}"
    events = [Event("cast", f"Cast {card.name} for {shown} ({paid}); {where}", rule)]
    script = script_for(card.name)
    if script.on_enter and facts.is_permanent:
        events += check_state(game)
        events += script.on_enter(game, card.name)
    if script.on_cast:
        events += script.on_cast(game, card.name, x)
    for line in unmodelled_spell_text(game.cards[card.name]):
        events.append(Event("unmodelled", f"{card.name}: cast; its effect is not modelled: {line}"))
    if facts.echo is not None:
        events.append(
            Event("echo", f"{card.name} has echo {cost_text(facts.echo)}: pay it at your next upkeep", "702.30a")
        )
    return events + check_state(game)
