"""Keep the rules question set (tests/rules/questions.json): add gathered questions, split by source, check it.

Usage:
  python benchmarks/question_set.py add GATHERED.json [...]   add new items, each given its part by its source
  python benchmarks/question_set.py check                     every cite is a rule of the 2026 CR, no duplicates
  python benchmarks/question_set.py stats                     counts per part, topic and source

A gathered file is ``{"questions": [{"q", "cite", "topic", "cards", "source"}], "not_rules": [{"q", "source"}]}``.
The split is made once, by source: every question from one page (its URL without the fragment and query
string) falls in the same part, the test part for about 30 % of the pages, chosen by a hash of the URL so that
nobody picks them. An item keeps the part it was given; adding more questions never moves an old one.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections import Counter
from pathlib import Path
from urllib.parse import urlsplit

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bot.rules.text.document import load_document  # noqa: E402
from tests.data import CR_2026  # noqa: E402
from tests.rules.evaluation import QUESTIONS, STUDIED  # noqa: E402

RULES = CR_2026
TEST_SHARE = 30  # per cent of the sources


def source_key(source: str) -> str:
    """One page, however its URL was written (no scheme, "www.", query, fragment or trailing slash)."""
    parts = urlsplit(source.strip())
    if not parts.netloc:
        return source.strip().lower()
    return (parts.netloc.lower().removeprefix("www.") + parts.path.rstrip("/")).lower()


def part_for(source: str) -> str:
    digest = hashlib.sha256(source_key(source).encode()).digest()
    return "test" if int.from_bytes(digest[:4], "big") % 100 < TEST_SHARE else "tune"


def normalised(text: str) -> str:
    return " ".join(text.lower().split())


def add(data: dict, gathered: dict) -> tuple[int, int]:
    seen = {normalised(item["q"]) for item in data["questions"]}
    seen |= {normalised(item if isinstance(item, str) else item["q"]) for item in data["not_rules"]}
    added = [0, 0]
    for kind, fields in (("questions", ("q", "cite", "topic", "cards", "source")), ("not_rules", ("q", "source"))):
        for item in gathered.get(kind, []):
            text = " ".join(str(item.get("q", "")).split())
            if not text or normalised(text) in seen or not item.get("source"):
                continue
            if kind == "questions" and not item.get("cite"):
                continue
            seen.add(normalised(text))
            entry = {name: item[name] for name in fields if name in item}
            entry["q"] = text
            entry["part"] = "tune" if item["source"] in STUDIED else part_for(item["source"])
            data[kind].append(entry)
            added[kind == "not_rules"] += 1
    return added[0], added[1]


def check(data: dict) -> list[str]:
    document = load_document(RULES)
    problems = []
    texts = Counter(normalised(item["q"]) for item in data["questions"])
    problems += [f"duplicate question: {text!r}" for text, count in texts.items() if count > 1]
    for item in data["questions"]:
        for number in item["cite"]:
            if document.get(number) is None and number not in {entry.term for entry in document.glossary}:
                problems.append(f"{item['q']!r} cites {number}, which the 2026 rules don't have")
        if item.get("part", "tune") not in ("tune", "test"):
            problems.append(f"{item['q']!r} has no known part")
    return problems


def stats(data: dict) -> None:
    for kind in ("questions", "not_rules"):
        items = [item if isinstance(item, dict) else {"q": item} for item in data[kind]]
        parts = Counter(item.get("part", "tune") for item in items)
        sources = {
            part: {source_key(i.get("source", "project")) for i in items if i.get("part", "tune") == part}
            for part in parts
        }
        counts = ", ".join(f"{part} {n} from {len(sources[part])} sources" for part, n in parts.items())
        print(f"{kind}: {len(items)} ({counts})")
    topics = Counter(item.get("topic", "?") for item in data["questions"])
    print("topics:", ", ".join(f"{topic} {count}" for topic, count in topics.most_common()))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=("add", "check", "stats"))
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--set", type=Path, default=QUESTIONS, dest="path")
    args = parser.parse_args(argv)
    data = json.loads(args.path.read_text(encoding="utf-8"))
    if args.command == "add":
        for path in args.files:
            questions, not_rules = add(data, json.loads(path.read_text(encoding="utf-8")))
            print(f"{path.name}: {questions} questions, {not_rules} non-questions added")
        args.path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    elif args.command == "check":
        problems = check(data)
        print("\n".join(problems) or "ok")
        return 1 if problems else 0
    stats(data)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
