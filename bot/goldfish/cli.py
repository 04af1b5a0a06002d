"""``cyclebot goldfish``: play a goldfish game in the terminal (no Discord token needed)."""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
from collections.abc import Callable
from pathlib import Path

from bot.goldfish.coach_cli import COACH_COMMANDS, coach_command, show_review
from bot.goldfish.coach_cli import HELP as COACH_HELP
from bot.goldfish.decks import preset_decks
from bot.goldfish.engine import Action, Event, Game, IllegalAction
from bot.goldfish.sim_cli import register_odds_commands
from bot.goldfish.table import TableView, render_table, table_view
from bot.text import plural

# Draws a view as ``fmt`` ("webp" or "png"), or None when the card images could not be had.
Draw = Callable[[TableView, str], bytes | None]

HELP = """Commands (n = position in your hand, from 1; l = land number from 'lands'):
  hand                          show your hand with numbers
  cycle <n> [ability] [find <m>|nothing] [x <X>] [nopay] [sac <l>] [tap <l> ...]
                                cycle card n (ability number for cards with several;
                                find m = the m-th candidate of a search, or nothing;
                                sac l = the land to sacrifice; tap = the lands to pay with)
  candidates <n> [ability]      list what a typecycling search could find
  play <n> [face]               play a land (face 2: the back face of a double-faced card)
  cast <n> [x <X>] [tap <l> ...] cast any spell from your hand
  lands                         your lands with numbers (for tap and sac)
  next                          go on to the next stop: the opponent's end step, your upkeep, your turn
  discard <n> ...               cleanup: discard down to seven
  echo pay|sacrifice            settle an echo trigger in your upkeep
  activate <g>                  an upkeep ability of graveyard card g (see 'graveyard')
  graveyard | library           your graveyard; your library by name (order hidden)
  undo                          take back the last action
  mulligan | keep [n ...]       London mulligan; keep, putting the chosen cards on the bottom
  picture FILE                  save a picture of the table (FILE.webp, or FILE.png for PNG), drawn with
                                the card images of the bot's data directory (BOT_DATA_DIR)
  status | log | help | quit
"""
HELP += COACH_HELP


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("goldfish", help="practise cycling in a solitaire game in the terminal")
    parser.add_argument("--deck", choices=sorted(preset_decks()), default="slide", help="preset deck")
    parser.add_argument("--seed", type=int, default=None, help="random seed (the same seed deals the same game)")
    parser.add_argument("--draw", action="store_true", help="be on the draw instead of on the play")
    parser.add_argument("--review", action="store_true", help="review the game when it ends (takes seconds)")
    parser.set_defaults(handler=run)
    register_odds_commands(parser)


def run(args: argparse.Namespace) -> int:
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1, 10**9)
    deck = preset_decks()[args.deck]
    game = Game.new(deck, seed=seed, on_the_play=not args.draw)
    return play(game, input_fn=typed_line, output=print, draw=draw_with_card_images, review=args.review)


def typed_line(prompt: str) -> str:
    """The next command. From a pipe or a file, each command is written after its prompt, as a terminal
    would show it, so the output reads as the session it was (and not as prompts run into the answers)."""
    line = input(prompt)
    if not sys.stdin.isatty():
        print(line.rstrip("\r\n"))
    return line


def draw_with_card_images(view: TableView, fmt: str) -> bytes | None:
    """The bot's way: card images from the local card data and the image cache of ``BOT_DATA_DIR``."""
    from bot.config import Config
    from bot.goldfish.table import picture_file

    config = Config.from_env()
    return asyncio.run(picture_file(view, config.data_dir, config.scryfall_api_url, fmt=fmt))


def draw_frames(view: TableView, fmt: str) -> bytes:
    """Without card images: every card drawn as a frame with its name and cost."""
    return render_table(view, {}, fmt=fmt)


def save_picture(game: Game, file: str, draw: Draw, output: Callable[..., None]) -> None:
    path = Path(file).expanduser()
    fmt = "png" if path.suffix.lower() == ".png" else "webp"
    data = draw(table_view(game), fmt)
    if data is None:
        output("  The card images could not be fetched just now (is the network up?); try again in a moment.")
        return
    try:
        path.write_bytes(data)
    except OSError as error:
        output(f"  Could not write {path}: {error.strerror or error}")
        return
    output(f"  Saved a picture of the table to {path} ({len(data) / 1024:.0f} KB).")


def play(
    game: Game,
    *,
    input_fn: Callable[[str], str],
    output: Callable[..., None],
    draw: Draw = draw_frames,
    review: bool = False,
) -> int:
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
        if command == "picture":
            if not rest:
                output("  Say where to save it: picture FILE (FILE.webp, or FILE.png).")
            else:
                save_picture(game, " ".join(rest), draw, output)
            continue
        if command == "undo":
            try:
                game = game.undone()
            except IllegalAction as error:
                output(f"Not allowed: {error}")
                continue
            output("  Undid the last action.")
            show_hand(game, output)
            continue
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
            if review:
                show_review(game, output)
            return 0


def prompt(game: Game) -> str:
    if game.phase == "mulligan":
        return f"[mulligan {game.player.mulligans}] keep or mulligan> "
    if game.phase != "main":
        return f"[turn {game.turn} | {game.decision().prompt}]> "
    mana = game.available_mana() or "-"
    return f"[turn {game.turn} | life {game.player.life} | opp {game.opponent.life} | mana {mana}]> "


def card_at(game: Game, position: str) -> int:
    index = int(position) - 1
    if not 0 <= index < len(game.zones.hand):
        raise IllegalAction(f"Your hand has {plural(len(game.zones.hand), 'card')}; choose 1–{len(game.zones.hand)}.")
    return game.zones.hand[index].iid


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
        events = game.play_land(card_at(game, rest[0]), int(rest[1]) - 1 if len(rest) > 1 else 0)
    elif command == "cast":
        options = choices(game, rest[1:])
        events = game.cast(card_at(game, rest[0]), x=options.get("x", 0), tap=options.get("tap", ()))
    elif command == "lands":
        for position, permanent in enumerate(lands(game), 1):
            output(f"  {position}. {game.permanent_name(permanent)}{' (tapped)' if permanent.tapped else ''}")
    elif command in ("graveyard", "library"):
        zone = game.zones.graveyard if command == "graveyard" else sorted(game.zones.library, key=lambda c: c.name)
        output(f"  {command.title()}: " + (", ".join(f"{i}. {c.name}" for i, c in enumerate(zone, 1)) or "empty"))
    elif command == "next":
        events = game.apply(Action("next"))
    elif command == "discard":
        events = game.discard_down([card_at(game, p) for p in rest])
    elif command == "echo":
        pending = game.echo_pending()
        if not pending:
            raise IllegalAction("There is no echo trigger waiting.")
        events = game.apply(Action("echo", pending[0].iid, pay=rest[0].lower().startswith("p")))
    elif command == "activate":
        events = game.apply(Action("activate", game.zones.graveyard[int(rest[0]) - 1].iid))
    elif command in ("candidates", "search"):
        iid = card_at(game, rest[0])
        ability = int(rest[1]) - 1 if len(rest) > 1 else 0
        found = game.search_candidates(iid, ability)
        output("  Could find: " + (", ".join(f"{i}. {c.name}" for i, c in enumerate(found, 1)) or "nothing"))
    elif command == "cycle":
        events = cycle(game, rest)
    elif command in COACH_COMMANDS:
        coach_command(game, command, output)
    else:
        return False
    if events:
        for event in events:
            rule = f"  [{event.rule}]" if event.rule else ""
            output(f"  {event.text}{rule}")
        if game.phase != "over" and command in (
            "mulligan",
            "keep",
            "next",
            "cycle",
            "play",
            "cast",
            "discard",
            "echo",
            "activate",
        ):
            show_hand(game, output)
    return True


def lands(game: Game) -> list:
    return [p for p in game.zones.battlefield if game.is_land(p.name)]


def choices(game: Game, words: list[str]) -> dict:
    """``x <X>``, ``tap <l> ...``, ``sac <l>``, ``nopay`` from the words of a command."""
    found: dict = {}
    words = list(words)
    while words:
        word = words.pop(0).lower()
        if word == "x" and words:
            found["x"] = int(words.pop(0))
        elif word == "nopay":
            found["pay"] = False
        elif word in ("sac", "sacrifice") and words:
            found["sacrifice"] = lands(game)[int(words.pop(0)) - 1].iid
        elif word == "tap":
            taps = []
            while words and words[0].isdigit():
                taps.append(lands(game)[int(words.pop(0)) - 1].iid)
            found["tap"] = tuple(taps)
        else:
            found.setdefault("rest", []).append(word)
    return found


def cycle(game: Game, rest: list[str]) -> list[Event]:
    iid = card_at(game, rest[0])
    words = rest[1:]
    ability = 0
    if words and words[0].isdigit():
        ability = int(words.pop(0)) - 1
    options = choices(game, words)
    words = options.pop("rest", [])
    find = None
    find_nothing = False
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
                    raise IllegalAction(f"There are {plural(len(candidates), 'candidate')}; see 'candidates'.")
                find = candidates[index].iid
        elif word == "nothing":
            find_nothing = True
        else:
            raise ValueError(word)
    return game.cycle(iid, ability, find=find, find_nothing=find_nothing, **options)


def show_hand(game: Game, output: Callable[..., None]) -> None:
    if game.phase == "over":
        return
    options: dict[int, list[str]] = {}
    for option in game.cycle_options():
        mark = "" if option.affordable else " (can't pay)"
        options.setdefault(option.iid, []).append(f"{option.label}{mark}")
    playable = {c.iid for c in game.playable_lands()}
    casts = {o.iid: o for o in game.cast_options() if o.affordable}
    output(f"Hand ({len(game.zones.hand)}), library {len(game.zones.library)}:")
    for position, card in enumerate(game.zones.hand, 1):
        notes = [f"{i}: {label}" for i, label in enumerate(options.get(card.iid, []), 1)]
        if card.iid in playable:
            notes.append("play")
        if card.iid in casts:
            notes.append("cast" + ("" if casts[card.iid].modelled else " (effect not modelled)"))
        output(f"  {position}. {card.name}" + (f"  — {'; '.join(notes)}" if notes else ""))
    if game.phase == "mulligan" and game.bottom_count():
        output(f"  Keep with 'keep' and {plural(game.bottom_count(), 'card number')} to put on the bottom.")
    elif game.phase != "main":
        output(f"  Now: {game.decision().prompt}")


def show_status(game: Game, output: Callable[..., None]) -> None:
    output(f"Turn {game.turn}, phase {game.phase}; life {game.player.life}, opponent {game.opponent.life}.")
    field = ", ".join(f"{p.name}{' (tapped)' if p.tapped else ''}" for p in game.zones.battlefield) or "nothing"
    output(f"Battlefield: {field}")
    output(f"Graveyard: {len(game.zones.graveyard)}, library: {len(game.zones.library)}, hand: {len(game.zones.hand)}")
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
    sys.exit(run(argparse.Namespace(deck="slide", seed=None, draw=False, review=False)))
