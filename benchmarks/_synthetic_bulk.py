"""A synthetic oracle-cards bulk file: real Scryfall card objects under new names and ids.

``write_bulk(path, count)`` writes ``count`` cards as gzipped JSON Lines (Scryfall's format) and
returns their names; ``synthetic_copy(count)`` writes one into a temporary folder with an empty data
folder beside it. Every card is a deep copy of one of the real cards in
``tests/data/scryfall/cycling-cards.jsonl`` with a new, unique name made of words from real names,
a new id and oracle id, and its own name substituted in its oracle text, so the file has the
exact shape, field sizes and text of Scryfall's.
"""

from __future__ import annotations

import gzip
import json
import random
import re
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from tests.data import SCRYFALL_CARDS

ROOT = Path(__file__).resolve().parent.parent
REAL_CARDS = SCRYFALL_CARDS
FULL_SIZE = 35_000


def _real_cards() -> list[dict]:
    with open(REAL_CARDS, encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


def synthetic_names(count: int, rng: random.Random, words: list[str]) -> list[str]:
    names: set[str] = set()
    ordered: list[str] = []
    while len(ordered) < count:
        name = " ".join(rng.choice(words) for _ in range(rng.choice((2, 2, 3))))
        if name.lower() not in names:
            names.add(name.lower())
            ordered.append(name)
    return ordered


def write_bulk(path: Path, count: int = FULL_SIZE, seed: int = 35) -> list[str]:
    rng = random.Random(seed)
    cards = _real_cards()
    words = sorted({word for card in cards for word in re.findall(r"[A-Z][a-z]{3,}", card["name"])})
    names = synthetic_names(count, rng, words)
    with gzip.open(path, "wt", encoding="utf-8", compresslevel=6) as out:
        for index, name in enumerate(names):
            model = cards[index % len(cards)]
            card = json.loads(json.dumps(model))
            card_id = str(uuid.UUID(int=rng.getrandbits(128), version=4))
            card.update(id=card_id, oracle_id=str(uuid.UUID(int=rng.getrandbits(128), version=4)), name=name)
            if card.get("oracle_text"):
                card["oracle_text"] = card["oracle_text"].replace(model["name"], name)
            card["uri"] = f"https://api.scryfall.com/cards/{card_id}"
            out.write(json.dumps(card, ensure_ascii=False) + "\n")
    return names


@dataclass(frozen=True)
class SyntheticCopy:
    bulk: Path  # the bulk file
    data_dir: Path  # an empty folder for the bot's data, beside it
    names: list[str]  # the cards' names, as write_bulk returns them


@contextmanager
def synthetic_copy(count: int = FULL_SIZE) -> Iterator[SyntheticCopy]:
    """A temporary folder holding a bulk file of ``count`` synthetic cards and an empty data folder."""
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp)
        bulk = folder / "oracle-cards.jsonl.gz"
        names = write_bulk(bulk, count)
        data_dir = folder / "data"
        data_dir.mkdir()
        yield SyntheticCopy(bulk, data_dir, names)


def typed(names: list[str], count: int, rng: random.Random) -> list[str]:
    """What users type: full names, lower case, first words, prefixes and one-letter typos."""
    mixed = []
    for name in rng.sample(names, count):
        kind = rng.randrange(5)
        if kind == 0:
            mixed.append(name)
        elif kind == 1:
            mixed.append(name.lower())
        elif kind == 2:
            mixed.append(" ".join(name.split()[:2]))
        elif kind == 3:
            mixed.append(name[: max(4, len(name) - 3)])
        else:
            cut = rng.randrange(1, len(name) - 1)
            mixed.append(name[:cut] + name[cut + 1 :])
    return mixed
