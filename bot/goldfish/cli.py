"""``python -m bot goldfish``: play a goldfish game in the terminal (no Discord token needed)."""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable

from bot.goldfish.decks import preset_decks
from bot.goldfish.engine import Event, Game, IllegalAction
from bot.goldfish.sim_cli import register_odds_commands

HELP = """Commands (n = position in your hand, from 1):
  hand                          show your hand with numbers
  cycle <n> [ability] [find <m>|nothing] [x <X>] [nopay]
                                cycle card n (ability number for cards with several;
                                find m = the m-th candidate of a search, or nothing)
  candidates <n> [ability]      list what a typecycling search could find
  play <n>                      play a land
  cast <n>                      cast a payoff permanent (Astral Slide, Drake Haven, ...)
  next                          end the turn (creatures attack) and start the next
  mulligan | keep [n ...]       London mulligan; keep, putting the chosen cards on the bottom
  status | log | help | quit"""


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("goldfish", help="practise cycling in a solitaire game in the terminal")
    parser.add_argument("--deck", choices=sorted(preset_decks()), default="slide", help="preset deck")
    parser.add_argument("--seed", type=int, default=None, help="random seed (the same seed deals the same game)")
    parser.add_argument("--draw", action="store_true", help="be on the draw instead of on the play")
    parser.set_defaults(handler=run)
    register_odds_commands(parser)


def run(args: argparse.Namespace) -> int:
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1, 10**9)
    deck = preset_decks()[args.deck]
    game = Game.new(deck, seed=seed, on_the_play=not args.draw)
    return play(game, input_fn=input, output=print)


def play(game: Game, *, input_fn: Callable[[str], str], output: Callable[..., None]) -> int:
    output(f"Goldfish: {game.deck_name}, seed {game.seed}, {'on the play' if game.on_the_play else 'on the draw'}.")
    output("Type 'help' for the commands.")
    show_hand(game, output)
    while True:
        try:
            line = input_fn(prompt(game))
        except EOFError:
            output("")
            output(summary(game))
            return 0
        words = line.strip().split()
        if not words:
            continue
        command, rest = words[0].lower(), words[1:]
        if command in ("quit", "exit", "q"):
            output(summary(game))
            return 0
        try:
            handled = dispatch(game, command, rest, output)
        except IllegalAction as error:
            output(f"Not allowed: {error}")
            continue
        except (ValueError, IndexError):
            output("I didn't understand that. Type 'help' for the commands.")
            continue
        if not handled:
            output(f"Unknown command {command!r}. Type 'help' for the commands.")
        if game.phase == "over":
            output(summary(game))
            return 0


def prompt(game: Game) -> str:
    if game.phase == "mulligan":
        return f"[mulligan {game.mulligans}] keep or mulligan> "
    return f"[turn {game.turn} | life {game.life} | opp {game.opponent_life} | mana {game.available_mana() or '-'}]> "


def card_at(game: Game, position: str) -> int:
    index = int(position) - 1
    if not 0 <= index < len(game.hand):
        raise IllegalAction(f"Your hand has {len(game.hand)} card(s); choose 1–{len(game.hand)}.")
    return game.hand[index].iid


def dispatch(game: Game, command: str, rest: list[str], output: Callable[..., None]) -> bool:
    events: list[Event] | None = None
    if command == "help":
        output(HELP)
    elif command == "hand":
        show_hand(game, output)
    elif command == "status":
        show_status(game, output)
    elif command == "log":
        for line in game.log[-40:]:
            output("  " + line)
    elif command == "mulligan":
        events = game.mulligan()
    elif command == "keep":
        events = game.keep([card_at(game, p) for p in rest])
    elif command == "play":
        events = game.play_land(card_at(game, rest[0]))
    elif command == "cast":
        events = game.cast(card_at(game, rest[0]))
    elif command == "next":
        events = game.next_turn()
    elif command in ("candidates", "search"):
        iid = card_at(game, rest[0])
        ability = int(rest[1]) - 1 if len(rest) > 1 else 0
        found = game.search_candidates(iid, ability)
        output("  Could find: " + (", ".join(f"{i}. {c.name}" for i, c in enumerate(found, 1)) or "nothing"))
    elif command == "cycle":
        events = cycle(game, rest)
    else:
        return False
    if events:
        for event in events:
            rule = f"  [{event.rule}]" if event.rule else ""
            output(f"  {event.text}{rule}")
        if game.phase != "over" and command in ("mulligan", "keep", "next", "cycle", "play", "cast"):
            show_hand(game, output)
    return True


def cycle(game: Game, rest: list[str]) -> list[Event]:
    iid = card_at(game, rest[0])
    words = rest[1:]
    ability = 0
    if words and words[0].isdigit():
        ability = int(words.pop(0)) - 1
    find = None
    find_nothing = False
    x = 0
    pay = True
    while words:
        word = words.pop(0).lower()
        if word == "find" and words:
            target = words.pop(0).lower()
            if target in ("nothing", "none"):
                find_nothing = True
            else:
                candidates = game.search_candidates(iid, ability)
                index = int(target) - 1
                if not 0 <= index < len(candidates):
                    raise IllegalAction(f"There are {len(candidates)} candidate(s); see 'candidates'.")
                find = candidates[index].iid
        elif word == "nothing":
            find_nothing = True
        elif word == "x" and words:
            x = int(words.pop(0))
        elif word == "nopay":
            pay = False
        else:
            raise ValueError(word)
    return game.cycle(iid, ability, find=find, find_nothing=find_nothing, x=x, pay=pay)


def show_hand(game: Game, output: Callable[..., None]) -> None:
    if game.phase == "over":
        return
    options: dict[int, list[str]] = {}
    for option in game.cycle_options():
        mark = "" if option.affordable else " (can't pay)"
        options.setdefault(option.iid, []).append(f"{option.label}{mark}")
    lands = {c.iid for c in game.playable_lands()}
    casts = {o.iid for o in game.cast_options() if o.affordable}
    output(f"Hand ({len(game.hand)}), library {len(game.library)}:")
    for position, card in enumerate(game.hand, 1):
        notes = [f"{i}: {label}" for i, label in enumerate(options.get(card.iid, []), 1)]
        if card.iid in lands:
            notes.append("play")
        if card.iid in casts:
            notes.append("cast")
        output(f"  {position}. {card.name}" + (f"  — {'; '.join(notes)}" if notes else ""))
    if game.phase == "mulligan" and game.mulligans:
        output(f"  Keep with 'keep' and {game.mulligans} card number(s) to put on the bottom.")


def show_status(game: Game, output: Callable[..., None]) -> None:
    output(f"Turn {game.turn}, phase {game.phase}; life {game.life}, opponent {game.opponent_life}.")
    field = ", ".join(f"{p.name}{' (tapped)' if p.tapped else ''}" for p in game.battlefield) or "nothing"
    output(f"Battlefield: {field}")
    output(f"Graveyard: {len(game.graveyard)}, library: {len(game.library)}, hand: {len(game.hand)}")
    output("Stats: " + ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in game.stats.items()))


def summary(game: Game) -> str:
    result = game.result or "unfinished"
    stats = game.stats
    return (f"Game over ({result}). " if game.phase == "over" else f"Stopped ({result}). ") + (
        f"Turns {stats.get('turns', 0)}, cards cycled {stats.get('cards_cycled', 0)}, "
        f"typecycling searches {stats.get('typecycling_searches', 0)}, damage {stats.get('damage_dealt', 0)}. "
        f"Replay with --seed {game.seed}."
    )


if __name__ == "__main__":  # pragma: no cover
    sys.exit(run(argparse.Namespace(deck="slide", seed=None, draw=False)))
