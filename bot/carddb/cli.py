"""``cyclebot cards update [--file F] [--force] [--languages [LIST]]`` and ``cyclebot cards info``: the local card
data, and the printed names of the languages ``CARD_LANGUAGES`` chooses.

No Discord token is needed; ``SCRYFALL_API_URL``, ``BOT_DATA_DIR`` and ``CARD_LANGUAGES`` come from the environment.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from bot.carddb.bulk import BulkError
from bot.carddb.printed import languages_info, update_languages
from bot.carddb.service import FILE_NAME
from bot.carddb.store import CardDataError, CardStore
from bot.carddb.update import update_from_file, update_from_scryfall
from bot.config import Config

EXIT_OK = 0
EXIT_FAILED = 1


def register(subparsers: argparse._SubParsersAction) -> None:
    cards = subparsers.add_parser("cards", help="the local copy of Scryfall's card data")
    commands = cards.add_subparsers(title="sub-commands", metavar="ACTION", required=True)
    update = commands.add_parser("update", help="download Scryfall's oracle cards if newer, or import a file")
    update.add_argument(
        "--file", type=Path, metavar="F", help="import this bulk file (gzipped or not, JSON Lines or a JSON array)"
    )
    update.add_argument("--force", action="store_true", help="download even if the stored copy is current")
    update.add_argument(
        "--languages",
        nargs="?",
        const="",
        metavar="LIST",
        help="the printed names of CARD_LANGUAGES (or of LIST: all, or codes such as de,fr,ja) from Scryfall's All "
        "Cards file, with a progress bar",
    )
    update.set_defaults(handler=update_command)
    info = commands.add_parser("info", help="print the stored card data's date, card count and size")
    info.set_defaults(handler=info_command)


def _path(config: Config) -> Path:
    config.data_dir.mkdir(parents=True, exist_ok=True)
    return config.data_dir / FILE_NAME


def update_command(args: argparse.Namespace) -> int:
    config = Config.from_env()
    path = _path(config)
    languages = getattr(args, "languages", None)  # the option, given without a list or with one
    if languages is not None:
        return update_languages(config, languages, force=args.force)
    try:
        if args.file is not None:
            if not args.file.is_file():
                print(f"error: no such file: {args.file}", file=sys.stderr)
                return EXIT_FAILED
            outcome = update_from_file(path, args.file)
        else:
            outcome = update_from_scryfall(path, config.scryfall_api_url, force=args.force)
    except BulkError as error:
        print(f"error: {error}; the stored card data is unchanged", file=sys.stderr)
        return EXIT_FAILED
    if outcome.result is None:
        print(f"Card data is current (Scryfall's file of {outcome.stored_updated_at}).")
    else:
        result = outcome.result
        print(f"Imported {result.count} cards as of {result.updated_at} in {result.seconds:.1f} s.")
        if result.rulings_refused:
            print(f"Scryfall's rulings file was refused ({result.rulings_refused}); the stored rulings are kept.")
    return EXIT_OK


def info_command(args: argparse.Namespace) -> int:
    config = Config.from_env()
    path = _path(config)
    try:
        store = CardStore(path)
    except CardDataError as error:
        print(f"error: no local card data yet ({error}): run `cyclebot cards update`.", file=sys.stderr)
        return EXIT_FAILED
    try:
        info = store.info()
    finally:
        store.close()
    print(f"{info.count} cards as of {info.updated_at} ({info.size_bytes / 1e6:.1f} MB, from {info.source})")
    print(languages_info(config))
    return EXIT_OK
