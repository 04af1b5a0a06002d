"""Check every phrasing (bot/data/phrasings/*.toml) against the rules: each key names a rule, and after an update
each follows its rule to its new number or is reported; and every rule the card reader's kinds of ability cite
(bot/data/card-abilities.toml) the same way.

Usage: python scripts/check_phrasings.py [--rules CR.txt] [--since OLD_CR.txt] [--folder DIR] [--abilities FILE]
       [--write]

Without ``--since``, every key must be a rule of ``--rules`` (default: the 2026 edition the phrasings are written
for). With ``--since OLD_CR.txt`` (the edition the phrasings were written for), the two editions are aligned
(bot/rules/editions/align.py) and each key is followed into ``--rules``: kept, moved to another number, or removed.
``--write`` rewrites the keys that moved in their files (the kinds' rules that moved are printed, to be edited by
hand). Exits 1 when a key or a kind's rule names no rule or a removed one (each is printed with its file), 0
otherwise; moved ones are printed either way.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bot.documents.phrasings import Phrasing, PhrasingError, merge, read_file  # noqa: E402
from bot.rules.asking.abilities import ABILITIES, AbilityError, cited_rules  # noqa: E402
from bot.rules.editions.phrasing_check import MOVED, check, follow, problems, rewrite  # noqa: E402
from bot.rules.ranking.search import PHRASINGS  # noqa: E402
from bot.rules.text.document import RulesFormatError, load_document  # noqa: E402
from tests.data import CR_2026  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", type=Path, default=CR_2026, help="the rules to check against (default: 2026)")
    parser.add_argument("--since", type=Path, help="the edition the phrasings were written for, if another")
    parser.add_argument("--folder", type=Path, default=PHRASINGS, help="the phrasing files (default: the bundled)")
    parser.add_argument("--abilities", type=Path, default=ABILITIES, help="the card reader's kinds (default: bundled)")
    parser.add_argument("--write", action="store_true", help="rewrite the keys that moved")
    args = parser.parse_args(argv)
    phrasings: dict = {}
    try:
        for path in sorted(args.folder.glob("*.toml")):
            merge(phrasings, read_file(path))
        # Each rule a kind of ability cites, checked as a phrasing's key is (its "file" names the kinds citing it).
        kinds = {
            number: Phrasing(number, files=(f"{args.abilities.name}: {', '.join(names)}",))
            for number, names in cited_rules(args.abilities).items()
        }
        newer = load_document(args.rules)
        older = load_document(args.since) if args.since else None
        findings = follow(phrasings, older, newer) if older else check(phrasings, newer)
        kind_findings = follow(kinds, older, newer) if older else check(kinds, newer)
    except (OSError, PhrasingError, AbilityError, RulesFormatError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    kinds_moved = [finding for finding in kind_findings if finding.status == MOVED]
    kinds_wrong = problems(kind_findings)
    for finding in kinds_moved + kinds_wrong:
        print(finding.line())
    print(
        f"{len(kind_findings)} rules cited by {args.abilities.name}: "
        f"{len(kind_findings) - len(kinds_moved) - len(kinds_wrong)} kept, {len(kinds_moved)} moved, "
        f"{len(kinds_wrong)} naming no rule"
    )
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
    return 1 if wrong or kinds_wrong else 0


if __name__ == "__main__":
    raise SystemExit(main())
