"""``python -m bot rule …`` and ``python -m bot rules update``: the rules from a terminal, no token needed."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from bot.config import Config
from bot.rules.document import RulesFormatError

EXIT_NOT_FOUND = 1
EXIT_FAILED = 1


def register(subparsers: argparse._SubParsersAction) -> None:
    rule = subparsers.add_parser(
        "rule",
        help="look up a Comprehensive Rules number, glossary term or words",
        description="Print the answer /rule would give, as plain text. Exit code 1 when nothing matches.",
    )
    rule.add_argument("query", nargs="+", help="a rule number (702.29, 704.5k, 702), a glossary term or words")
    rule.add_argument("--rules-file", type=Path, help="a Comprehensive Rules .txt file (default: RULES_FILE, …)")
    rule.add_argument("--no-examples", action="store_true", help="leave out the examples under each rule")
    rule.set_defaults(handler=run_rule)

    rules = subparsers.add_parser("rules", help="manage the Comprehensive Rules text (update)")
    actions = rules.add_subparsers(title="actions", metavar="ACTION")
    update = actions.add_parser(
        "update",
        help="download the current Comprehensive Rules into BOT_DATA_DIR",
        description="Download the current rules text from Wizards of the Coast (or --url / RULES_URL), "
        "check it parses, and replace the stored copy. A failed download keeps the previous text.",
    )
    update.add_argument("--url", help="the rules page or .txt address (default: RULES_URL, else the official page)")
    update.set_defaults(handler=run_update)
    diff = actions.add_parser(
        "diff",
        help="list the rules added, removed and reworded between two rules files",
        description="Compare two Comprehensive Rules .txt files (an older one first). With --number, show that "
        "rule's old and new text.",
    )
    diff.add_argument("old", type=Path, help="the older rules file")
    diff.add_argument("new", type=Path, help="the newer rules file")
    diff.add_argument("--number", help="one rule to compare (702.29a)")
    diff.set_defaults(handler=run_diff)
    history = actions.add_parser(
        "history",
        help="follow one rule through every edition kept: its numbers, additions, removals and rewordings",
        description="Show a rule's number in each Comprehensive Rules edition the bot keeps (BOT_DATA_DIR, "
        "RULES_FILE) or in --rules-dir, and what changed in each: subrules added and removed, each rewording "
        "with its old and new text. Exit code 1 when no edition has the rule or none can be read.",
    )
    history.add_argument("number", help="a rule number as in the newest edition that has it (702.29, 509.2a, 702)")
    history.add_argument("--rules-dir", type=Path, help="a folder of Comprehensive Rules .txt files, one per edition")
    history.add_argument("--edition", help="read NUMBER as numbered in that edition: a date (2013-05-01) or a year")
    history.set_defaults(handler=run_history)
    rules.set_defaults(handler=lambda args: _usage(rules))


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_help(sys.stderr)
    return 2


def run_rule(args: argparse.Namespace) -> int:
    from bot.rules.sources import load_configured, load_rules

    try:
        if args.rules_file is not None:
            loaded = load_rules(args.rules_file, "--rules-file")
        else:
            config = Config.from_env()
            loaded = load_configured(config.rules_file, config.data_dir, strict=True)
    except (OSError, RulesFormatError) as error:
        print(f"error: could not load the rules: {error}", file=sys.stderr)
        return EXIT_FAILED
    query = " ".join(args.query)
    answer = _about_cards(loaded.index, query) or loaded.index.lookup(query, examples=not args.no_examples)
    if not answer.found:
        print(answer.to_text(), file=sys.stderr)
        return EXIT_NOT_FOUND
    print(answer.to_text())
    return 0


def _about_cards(index, query: str):
    """The answer with the cards the question names, when the card data has been imported (else None)."""
    import asyncio

    from bot.carddb.service import FILE_NAME, CardData
    from bot.cards.questions import answer_about_cards

    data_dir = Config.from_env().data_dir
    if not (data_dir / FILE_NAME).is_file() or not index.is_question(query):
        return None

    async def ask():
        card_data = await CardData.open(data_dir, "")
        try:
            return await answer_about_cards(index, card_data, query)
        finally:
            await card_data.close()

    return asyncio.run(ask())


def run_diff(args: argparse.Namespace) -> int:
    from bot.rules.diff import diff_documents
    from bot.rules.document import load_document
    from bot.rules.numbers import find_numbers

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
    from bot.rules.editions import NoEditionsError
    from bot.rules.history import HistoryCache, UnknownRuleError
    from bot.rules.history_text import history_answer, parse_history_query
    from bot.rules.sources import edition_paths

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
        paths, where = edition_paths(config.data_dir, config.rules_file), f"{config.data_dir} (BOT_DATA_DIR)"
    try:
        index = HistoryCache().get(paths)
        answer = history_answer(index, number, full=True, edition=edition)
    except NoEditionsError as error:
        hint = "" if args.rules_dir else "; `python -m bot rules update` downloads the current one, or use --rules-dir"
        print(f"error: no Comprehensive Rules edition to read in {where}: {error}{hint}", file=sys.stderr)
        return EXIT_FAILED
    except UnknownRuleError as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_NOT_FOUND
    for skipped in index.skipped:
        print(f"note: left out {skipped.path.name}: {skipped.reason}", file=sys.stderr)
    print(answer.to_text())
    return 0


def run_update(args: argparse.Namespace) -> int:
    from bot.rules.updater import UpdateError, update_rules

    config = Config.from_env()
    url = args.url or config.rules_url
    try:
        result = update_rules(config.data_dir, url)
    except UpdateError as error:
        print(f"error: rules not updated: {error}", file=sys.stderr)
        return EXIT_FAILED
    document = result.document
    print(
        f"Stored the Comprehensive Rules effective {document.effective} ({document.rule_count:,} rules, "
        f"{len(document.glossary):,} glossary entries) from {result.url} in {result.path}"
    )
    return 0
