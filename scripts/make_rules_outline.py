"""Write the full edition's outline bundled beside the rules excerpt (bot/data/comprehensive-rules-outline.json).

Usage: python scripts/make_rules_outline.py [--rules CR.txt] [--check]

The outline is made from the edition the excerpt was transcribed from (the excerpt's preamble names its date;
the text is in tests/data/cr/). ``--check`` writes nothing and exits 1 when the bundled file differs from what
the edition gives.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bot.rules.ranking.index import RulesIndex  # noqa: E402
from bot.rules.ranking.outline import BUNDLED_OUTLINE, build_outline, outline_text  # noqa: E402
from bot.rules.text.document import load_document  # noqa: E402
from tests.data import CR_2026  # noqa: E402


def outline_for(path: Path) -> str:
    index = RulesIndex(load_document(path))
    return outline_text(build_outline(index.document, index.defining_rule))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", type=Path, default=CR_2026, help="the full rules text (default: the 2026 edition)")
    parser.add_argument("--check", action="store_true", help="only compare with the bundled outline")
    args = parser.parse_args(argv)
    text = outline_for(args.rules)
    if args.check:
        same = BUNDLED_OUTLINE.is_file() and BUNDLED_OUTLINE.read_text(encoding="utf-8") == text
        print(f"{BUNDLED_OUTLINE.name}: {'up to date' if same else 'differs from ' + args.rules.name}")
        return 0 if same else 1
    BUNDLED_OUTLINE.write_text(text, encoding="utf-8")
    print(f"wrote {BUNDLED_OUTLINE.relative_to(REPO)} ({len(text):,} characters) from {args.rules.name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
