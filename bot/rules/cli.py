"""``python -m bot rule …`` and ``python -m bot rules update``: the rules from a terminal, no token needed."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from bot.config import Config
from bot.rules.text import RulesFormatError

if TYPE_CHECKING:
    from collections.abc import Callable
    from contextlib import AbstractAsyncContextManager

    from bot.rules.asking import CardFinder

    # Given the data folder and whether the text is a question: a card finder for the time of one answer.
    CardsIn = Callable[[Path, bool], AbstractAsyncContextManager[CardFinder]]

EXIT_NOT_FOUND = 1
EXIT_FAILED = 1


def _action(actions: argparse._SubParsersAction, name: str, handler, summary: str, description: str, *arguments):
    """One command: its help, what it takes (``(names, options)`` an argument) and what runs it."""
    parser = actions.add_parser(name, help=summary, description=description)
    for names, options in arguments:
        parser.add_argument(*names, **options)
    parser.set_defaults(handler=handler)
    return parser


def register(subparsers: argparse._SubParsersAction) -> None:
    _action(
        subparsers,
        "rule",
        run_rule,
        "look up a Comprehensive Rules number, glossary term or question",
        "Print the answer /rule would give, in the same order: the cards a question names and their "
        "rulings, the rule that decides, the rules that may answer or the related ones, then the whole rule. "
        "Also answers 'history 702.29' and 'changes'. Exit code 1 when nothing answers.",
        (["query"], {"nargs": "+", "help": "a rule number (702.29, 704.5k, 702), a glossary term or a question"}),
        (["--rules-file"], {"type": Path, "help": "a Comprehensive Rules .txt file (default: RULES_FILE, …)"}),
        (["--no-examples"], {"action": "store_true", "help": "leave out the examples under each rule"}),
        (
            ["--json"],
            {
                "action": "store_true",
                "help": 'print one JSON object: {"query", "confidence", "rules": [{"number", "title"}], "cards", '
                '"edition", "source"}',
            },
        ),
    )
    rules = subparsers.add_parser("rules", help="manage the Comprehensive Rules text (update, diff, history)")
    actions = rules.add_subparsers(title="actions", metavar="ACTION")
    _action(
        actions,
        "update",
        run_update,
        "download the current Comprehensive Rules into BOT_DATA_DIR",
        "Download the current rules text from Wizards of the Coast (or --url / RULES_URL), check it parses, and "
        "keep it among the editions kept, where the newest answers. A failed download keeps every edition as it was "
        "and exits with code 1 after one line saying what to do.",
        (["--url"], {"help": "the rules page or .txt address (default: RULES_URL, else the official page)"}),
    )
    _action(
        actions,
        "diff",
        run_diff,
        "list the rules added, removed and reworded between two rules files",
        "Compare two Comprehensive Rules .txt files (an older one first). With --number, show that rule's old and "
        "new text.",
        (["old"], {"type": Path, "help": "the older rules file"}),
        (["new"], {"type": Path, "help": "the newer rules file"}),
        (["--number"], {"help": "one rule to compare (702.29a)"}),
    )
    _action(
        actions,
        "history",
        run_history,
        "follow one rule through every edition kept: its numbers, additions, removals and rewordings",
        "Show a rule's number in each Comprehensive Rules edition the bot keeps (BOT_DATA_DIR, RULES_FILE) or in "
        "--rules-dir, and what changed in each: subrules added and removed, each rewording with its old and new "
        "text. Exit code 1 when no edition has the rule or none can be read.",
        (["number"], {"help": "a rule number as in the newest edition that has it (702.29, 509.2a, 702)"}),
        (["--rules-dir"], {"type": Path, "help": "a folder of Comprehensive Rules .txt files, one per edition"}),
        (["--edition"], {"help": "read NUMBER as numbered in that edition: a date (2013-05-01) or a year"}),
    )
    rules.set_defaults(handler=lambda args: _usage(rules))


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_help(sys.stderr)
    return 2


def run_rule(args: argparse.Namespace) -> int:
    import asyncio

    from bot.documents import answer_text as text
    from bot.rules.editions import load_configured, load_rules
    from bot.rules.service import RulesService

    config = Config.from_env()
    try:
        if args.rules_file is not None:
            loaded = load_rules(args.rules_file, "--rules-file")
        else:
            loaded = load_configured(config.rules_file, config.data_dir, strict=True)
    except (OSError, RulesFormatError) as error:
        print(f"error: could not load the rules: {error}", file=sys.stderr)
        return EXIT_FAILED
    service = RulesService(config, loaded)
    query = " ".join(args.query)
    cards_in = getattr(args, "cards_in", None)
    answer = asyncio.run(_answer(service, query, examples=not args.no_examples, cards_in=cards_in))
    if args.json:
        print(json.dumps(answer.to_json(), ensure_ascii=False))
    else:
        print(text(answer), file=sys.stdout if answer.found else sys.stderr)
    return 0 if answer.found else EXIT_NOT_FOUND


async def _answer(service, query: str, *, examples: bool, cards_in: CardsIn | None):
    """The service's answer, with the cards a question names when the terminal was given a way to find them
    (``bot.cli`` gives the card data's; the rules know nothing of where cards come from)."""
    if cards_in is None:
        return await service.answer(query, examples=examples)
    async with cards_in(service.config.data_dir, service.index.is_question(query)) as cards:
        return await service.answer(query, examples=examples, cards=cards)


def run_diff(args: argparse.Namespace) -> int:
    from bot.rules.editions import diff_documents
    from bot.rules.text import find_numbers, load_document

    try:
        old, new = load_document(args.old), load_document(args.new)
    except (OSError, RulesFormatError) as error:
        print(f"error: could not load the rules: {error}", file=sys.stderr)
        return EXIT_FAILED
    number = None
    if args.number:
        found = find_numbers(args.number)
        if not found:
            print(f"error: {args.number!r} is not a rule number (such as 702.29a)", file=sys.stderr)
            return 2
        number = found[0].start
    print(diff_documents(old, new).to_text(number))
    return 0


def run_history(args: argparse.Namespace) -> int:
    from bot.rules.editions import (
        HistoryCache,
        NoEditionsError,
        UnknownRuleError,
        edition_paths,
        history_answer,
        kept_editions,
        parse_history_query,
    )

    number, edition = parse_history_query(args.number)
    edition = args.edition or edition
    if number is None:
        print(f"error: {args.number[:100]!r} is not a rule number (such as 702.29, 509.2a or 702)", file=sys.stderr)
        return 2
    if args.rules_dir is not None:
        from bot.rules.editions import rules_files

        if not args.rules_dir.is_dir():
            print(f"error: {args.rules_dir} is not a folder", file=sys.stderr)
            return EXIT_FAILED
        paths, where = rules_files(args.rules_dir), str(args.rules_dir)
    else:
        config = Config.from_env()
        kept = kept_editions(config.data_dir, config.rules_file)
        paths, where = edition_paths(kept, config.rules_file), f"{config.data_dir} (BOT_DATA_DIR)"
    try:
        index = HistoryCache().get(paths)
        answer = history_answer(index, number, full=True, edition=edition)
    except NoEditionsError as error:
        hint = "" if args.rules_dir else "; `cyclebot rules update` downloads the current one, or use --rules-dir"
        print(f"error: no Comprehensive Rules edition to read in {where}: {error}{hint}", file=sys.stderr)
        return EXIT_FAILED
    except UnknownRuleError as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_NOT_FOUND
    from bot.documents import answer_text as text

    for skipped in index.skipped:
        print(f"note: left out {skipped.path.name}: {skipped.reason}", file=sys.stderr)
    print(text(answer))
    return 0


def run_update(args: argparse.Namespace) -> int:
    from bot.rules.editions import UpdateError, update_rules

    config = Config.from_env()
    url = args.url or config.rules_url
    try:
        result = update_rules(config.data_dir, url, rules_file=config.rules_file)
    except UpdateError as error:
        print(f"error: rules not updated: {error}", file=sys.stderr)
        return EXIT_FAILED
    print(result.line())
    return 0
