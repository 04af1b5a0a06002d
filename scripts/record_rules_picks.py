"""Record what an operator's language model picks for every question of the question set, once, so that
benchmarks/bench_rules_eval.py --replies FILE scores it deterministically, without the model.

Usage: RULES_LLM_URL=… RULES_LLM_MODEL=… [RULES_LLM_KEY=…] [RULES_LLM_TIMEOUT=…] \\
       python scripts/record_rules_picks.py OUT.json [--rules CR.txt] [--questions SET.json] [--limit N]

Each question (and non-question) the bot would ask the model about is sent as the bot sends it (the question, the
lexical top 20); its reply is written under the question: ``{"rules": [...], "sure": ...}``, or null where the model
gave no pick (an error, a timeout, a number outside the list). Questions the bot would not ask about (a miss, a
number, a topic named outright) are left out. The settings are read as the bot reads them; the key is never
printed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bot.config import Config  # noqa: E402
from bot.errors import ConfigError  # noqa: E402
from bot.rules.asking.ask import lookup  # noqa: E402
from bot.rules.asking.picking import candidates, wants_pick  # noqa: E402
from bot.rules.ranking.index import RulesIndex  # noqa: E402
from bot.rules.ranking.picker import Picker, PickerSettings  # noqa: E402
from bot.rules.text.document import load_document  # noqa: E402
from tests.data import CR_2026  # noqa: E402
from tests.rules.evaluation import QUESTIONS, load_questions  # noqa: E402


async def record(index: RulesIndex, picker: Picker, texts: list[str]) -> dict[str, object]:
    replies: dict[str, object] = {}
    try:
        for number, text in enumerate(texts, start=1):
            answer = lookup(index, text)
            if not wants_pick(answer):
                continue
            pick = await picker.pick(answer.query, [], candidates(index, answer))
            replies[answer.query] = {"rules": list(pick.rules), "sure": pick.sure} if pick else None
            if number % 50 == 0:
                print(f"  {number}/{len(texts)}", flush=True)
    finally:
        await picker.close()
    return replies


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--rules", type=Path, default=CR_2026)
    parser.add_argument("--questions", type=Path, default=QUESTIONS)
    parser.add_argument("--limit", type=int, default=0, help="only the first N texts (a trial run)")
    args = parser.parse_args(argv)
    try:
        config = Config.from_env()
    except ConfigError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if not config.rules_llm_url or not config.rules_llm_model:
        print("error: set RULES_LLM_URL and RULES_LLM_MODEL (see docs/configuration.md)", file=sys.stderr)
        return 2
    index = RulesIndex(load_document(args.rules))
    index.warm()
    questions, not_rules = load_questions(args.questions)
    texts = [question for question, _cited in questions] + not_rules
    if args.limit:
        texts = texts[: args.limit]
    settings = PickerSettings(
        config.rules_llm_url, config.rules_llm_model, config.rules_llm_key, config.rules_llm_timeout
    )
    replies = asyncio.run(record(index, Picker(settings), texts))
    args.out.write_text(json.dumps(replies, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    picked = sum(reply is not None for reply in replies.values())
    print(f"wrote {args.out} ({len(replies)} questions asked, {picked} picked)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
