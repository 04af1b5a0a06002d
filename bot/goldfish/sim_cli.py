"""``cyclebot goldfish simulate`` and ``cyclebot goldfish odds``: a deck's odds in the terminal."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from bot.goldfish.decks import preset_decks
from bot.goldfish.engine import IllegalAction
from bot.goldfish.practice import DEFAULT_GAMES, DEFAULT_TURNS, Settings, SimulationPool, odds_table, odds_text
from bot.text import plural


def register_odds_commands(goldfish: argparse.ArgumentParser) -> None:
    """Add ``simulate`` and ``odds`` under the ``goldfish`` command (which still plays a game without them)."""
    commands = goldfish.add_subparsers(title="deck odds", metavar="{simulate,odds}")
    simulate = commands.add_parser("simulate", help="play many games by a fixed policy and report the odds per turn")
    simulate.add_argument("--deck", dest="sim_deck", choices=sorted(preset_decks()), default="slide")
    simulate.add_argument("--games", type=int, default=DEFAULT_GAMES, help=f"default {DEFAULT_GAMES}")
    simulate.add_argument("--turns", type=int, default=DEFAULT_TURNS, help=f"default {DEFAULT_TURNS}")
    simulate.add_argument("--seed", dest="sim_seed", type=int, default=1, help="base seed (default 1)")
    simulate.add_argument("--draw", dest="sim_draw", action="store_true", help="be on the draw")
    simulate.add_argument("--chart", type=Path, help="also write the chart to this PNG file")
    simulate.set_defaults(handler=run_simulate)
    odds = commands.add_parser("odds", help="the exact chance to have seen at least k of K copies by each turn")
    odds.add_argument("copies", type=int)
    odds.add_argument("--deck-size", type=int, default=60)
    odds.add_argument("--wanted", type=int, default=1)
    odds.add_argument("--turns", dest="odds_turns", type=int, default=6)
    odds.set_defaults(handler=run_odds)


def run_simulate(args: argparse.Namespace) -> int:
    deck = preset_decks()[args.sim_deck]
    settings = Settings(games=args.games, turns=args.turns, on_the_play=not args.sim_draw, seed=args.sim_seed)
    pool = SimulationPool()
    try:
        report = pool.run(deck, settings)
    except IllegalAction as refusal:
        print(f"Not allowed: {refusal}", file=sys.stderr)
        return 2
    finally:
        pool.close()
    print(f"{report.deck_name}: {report.summary()}")
    print(f"Policy: {report.policy}")
    print(report.table())
    for sample in report.error_samples:
        print(f"  left out: {sample}")
    if args.chart:
        from bot.goldfish.practice import render_png

        args.chart.write_bytes(render_png(report))
        print(f"Chart written to {args.chart}")
    return 0


def run_odds(args: argparse.Namespace) -> int:
    try:
        rows = odds_table(args.copies, args.deck_size, args.wanted, args.odds_turns)
    except IllegalAction as refusal:
        print(f"Not allowed: {refusal}", file=sys.stderr)
        return 2
    print(
        f"At least {args.wanted} of {args.copies} in {plural(args.deck_size, 'card')} (seen: on the play/on the draw):"
    )
    print(odds_text(rows))
    return 0
