"""``cyclebot mtr …``, ``cyclebot ipg …`` and ``cyclebot judge-docs update``: the judges' documents from a terminal,
no token needed."""

from __future__ import annotations

import argparse
import json
import sys

from bot.config import Config
from bot.judge.catalog import SPECS

EXIT_NOT_FOUND = 1
EXIT_FAILED = 1
UPDATE_HELP = (
    "Read Wizards' rules-documents page (JUDGE_DOCS_URL), download the current MTR and IPG PDFs, read them and keep "
    "each as a dated version. A document that fails keeps its last good copy and gets one line saying why; the exit "
    "code is 1 when any failed."
)


def register(subparsers: argparse._SubParsersAction) -> None:
    for spec in SPECS.values():
        example = "2.2, hce, 'usc minor'" if spec.key == "ipg" else "3.8, 'appendix b'"
        command = subparsers.add_parser(
            spec.key,
            help=f"look up the {spec.title} by section, name or words",
            description=f"Print the answer /{spec.key} would give: the section's deciding paragraph, then the whole "
            f"section; words list the sections that may answer. 'history 2.2' follows a section through the "
            f"versions kept. Exit code 1 when nothing answers.",
        )
        command.add_argument("query", nargs="+", help=f"a section number or name ({example}), or words")
        command.add_argument(
            "--json",
            action="store_true",
            help='print one JSON object: {"query", "confidence", "document", "rules": [{"number", "title"}], '
            '"edition", "url"}',
        )
        command.set_defaults(handler=run_lookup, document=spec.key)
    docs = subparsers.add_parser("judge-docs", help="manage the judges' documents (MTR, IPG)")
    docs.set_defaults(handler=lambda args: _usage(docs))
    update = docs.add_subparsers(title="actions", metavar="ACTION").add_parser(
        "update", help="download the current MTR and IPG into BOT_DATA_DIR", description=UPDATE_HELP
    )
    update.set_defaults(handler=run_update)
    update.add_argument("--url", help="the rules-documents page (default: JUDGE_DOCS_URL, else Wizards' page)")


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_help(sys.stderr)
    return 2


def run_lookup(args: argparse.Namespace) -> int:
    from bot.documents import answer_text
    from bot.judge.service import JudgeDocs

    service = JudgeDocs.load(Config.from_env())
    answer = service.answer(args.document, " ".join(args.query))
    if args.json:
        full = service.loaded[args.document].document.full
        data = {
            **answer.to_json(),
            "document": args.document,
            "source": "full" if full else "outline",
            "url": answer.url,
        }
        data.pop("cards", None)
        print(json.dumps(data, ensure_ascii=False))
    else:
        print(answer_text(answer), file=sys.stdout if answer.found else sys.stderr)
    return 0 if answer.found else EXIT_NOT_FOUND


def run_update(args: argparse.Namespace) -> int:
    import asyncio
    import dataclasses

    import pypdf  # noqa: F401 (the PDFs are read by it in a child process: a Python without it says so first)

    from bot.judge.service import JudgeDocs
    from bot.judge.updater import UpdateError

    config = Config.from_env()
    if args.url:
        config = dataclasses.replace(config, judge_docs_url=args.url)

    async def update_all() -> int:
        service = JudgeDocs.load(config)
        try:
            results = await service.update_all()
        finally:
            await service.close()
        for result in results:
            if isinstance(result, UpdateError):
                print(f"error: {result}", file=sys.stderr)
            else:
                print(result.line())
        return EXIT_FAILED if any(isinstance(result, UpdateError) for result in results) else 0

    return asyncio.run(update_all())
