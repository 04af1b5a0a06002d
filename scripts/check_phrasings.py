"""Check every phrasing (bot/data/phrasings/*.toml) against the rules: each key names a rule, and after an update
each follows its rule to its new number or is reported.

Usage: python scripts/check_phrasings.py [--rules CR.txt] [--since OLD_CR.txt] [--folder DIR] [--write]

Without ``--since``, every key must be a rule of ``--rules`` (default: the 2026 edition the phrasings are written
for). With ``--since OLD_CR.txt`` (the edition the phrasings were written for), the two editions are aligned
(bot/rules/editions/align.py) and each key is followed into ``--rules``: kept, moved to another number, or removed.
``--write`` rewrites the keys that moved in their files. Exits 1 when a key names no rule or a removed one
(each is printed with its file), 0 otherwise; moved keys are printed either way.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bot.documents.phrasings import PhrasingError, merge, read_file  # noqa: E402
from bot.rules.editions.phrasing_check import MOVED, check, follow, problems, rewrite  # noqa: E402
from bot.rules.ranking.search import PHRASINGS  # noqa: E402
from bot.rules.text.document import RulesFormatError, load_document  # noqa: E402
from tests.data import CR_2026  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", type=Path, default=CR_2026, help="the rules to check against (default: 2026)")
    parser.add_argument("--since", type=Path, help="the edition the phrasings were written for, if another")
    parser.add_argument("--folder", type=Path, default=PHRASINGS, help="the phrasing files (default: the bundled)")
    parser.add_argument("--write", action="store_true", help="rewrite the keys that moved")
    args = parser.parse_args(argv)
    phrasings: dict = {}
    try:
        for path in sorted(args.folder.glob("*.toml")):
            merge(phrasings, read_file(path))
        newer = load_document(args.rules)
        findings = follow(phrasings, load_document(args.since), newer) if args.since else check(phrasings, newer)
    except (OSError, PhrasingError, RulesFormatError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    moved = [finding for finding in findings if finding.status == MOVED]
    wrong = problems(findings)
    for finding in moved + wrong:
        print(finding.line())
    if args.write and moved:
        for path in rewrite(args.folder, moved):
            print(f"rewrote {path.name}")
    print(
        f"{len(findings)} phrased rules: {len(findings) - len(moved) - len(wrong)} kept, {len(moved)} moved, "
        f"{len(wrong)} naming no rule"
    )
    return 1 if wrong else 0


if __name__ == "__main__":
    raise SystemExit(main())
