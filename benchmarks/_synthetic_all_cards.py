"""A synthetic All Cards file the size of Scryfall's: every printing of a synthetic oracle-cards copy, in English and
in the ten languages Scryfall prints names in, as gzipped JSON Lines.

``write_all_cards(oracle_bulk, path)`` reads the oracle cards ``_synthetic_bulk.write_bulk`` wrote (35,000 cards,
each a real card object under a made-up name) and writes, for each card, a few English printings and printings in
other languages, in the proportions Scryfall holds them (Japanese most, Traditional Chinese least). A printed name is
made of words of that language (``wordfreq``'s most common: Latin, Cyrillic, Japanese, Korean and Chinese words),
one per card and language, now and then a second translation in a later printing; the printed type line and text
are words of the language too, so a printing's object is as large as Scryfall's (about 4.6 kB, 2.3 GB in all, some
400 MB compressed). Returns what was written: objects, bytes unpacked, and the printed names by language.

``write_printed_index(oracle_bulk, dest)`` writes the index the bot would import from such a file (the same printed
names, drawn the same way), straight from the printings' names, in seconds rather than minutes: for benchmarks of
what reads the printed names (decklists, rules questions), not of their import.
"""

from __future__ import annotations

import gzip
import json
import random
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import orjson
from wordfreq import top_n_list

from bot.carddb.printed.build import build_index

# About how many printings Scryfall holds in each language, as shares of the printings not in English, and how many
# English printings a card has (All Cards: about 500,000 objects, some 110,000 of them English).
SHARES = {"ja": 0.2, "de": 0.13, "fr": 0.13, "it": 0.12, "es": 0.12, "pt": 0.09, "ru": 0.06, "ko": 0.04}
SHARES |= {"zhs": 0.07, "zht": 0.04}
ENGLISH_PRINTINGS = 3.2
OTHER_PRINTINGS = 11.3  # printings in other languages per card
WORDS_OF = {"zhs": "zh", "zht": "zh"}
UNSPACED = {"ja", "zhs", "zht"}
TEXT_WORDS = 180  # words of printed text: objects as large as Scryfall's (about 4.6 kB)
SETS = ("tsp", "m10", "ktk", "uma", "dom", "war", "neo", "one", "mh2", "lci")


@dataclass
class Written:
    objects: int = 0
    unpacked: int = 0
    names: dict[str, set[tuple[str, str]]] = field(default_factory=dict)  # (oracle id, printed name) by language


def _words(lang: str) -> list[str]:
    """The language's 8,000 most common words (of letters; at least three of them in a spaced script)."""
    words = top_n_list(WORDS_OF.get(lang, lang), 20000)
    return [word for word in words if word.isalpha() and len(word) >= (1 if lang in UNSPACED or lang == "ko" else 3)][
        :8000
    ]


def _name(rng: random.Random, words: list[str], lang: str) -> str:
    count = rng.choice((1, 2, 2, 3)) if lang in UNSPACED else rng.choice((1, 2, 2, 3, 3, 4))
    picked = rng.choices(words, k=count)
    if lang in UNSPACED:
        return ("の" if lang == "ja" and count > 1 and rng.random() < 0.4 else "").join(picked)
    return " ".join(word.capitalize() if n == 0 or rng.random() < 0.5 else word for n, word in enumerate(picked))


def _oracle(oracle_bulk: Path) -> Iterator[dict]:
    with gzip.open(oracle_bulk, "rt", encoding="utf-8") as lines:
        for line in lines:
            yield json.loads(line)


VARYING = ("object", "id", "lang", "printed_name", "printed_type_line", "printed_text", "set", "collector_number")


def write_all_cards(oracle_bulk: Path, path: Path, seed: int = 42, level: int = 6) -> Written:
    rng = random.Random(seed)
    vocab = {lang: _words(lang) for lang in SHARES}
    texts = {  # printed texts, never read by the import: a pool of them per language is enough
        lang: [(" " if lang not in UNSPACED else "").join(rng.choices(words, k=TEXT_WORDS)) for _ in range(500)]
        for lang, words in vocab.items()
    }
    langs, weights = list(SHARES), list(SHARES.values())
    written = Written(names={lang: set() for lang in SHARES})
    with gzip.open(path, "wb", compresslevel=level) as out:
        for card in _oracle(oracle_bulk):
            # Each object is written as Scryfall orders its fields (the printing's own first, then the card's),
            # the card's part made once.
            rest = orjson.dumps({key: value for key, value in card.items() if key not in VARYING})[1:]

            def emit(own: dict, rest: bytes = rest) -> None:
                line = orjson.dumps({"object": "card", "id": str(uuid.UUID(int=rng.getrandbits(128))), **own})
                line = line[:-1] + b"," + rest + b"\n"
                out.write(line)
                written.objects += 1
                written.unpacked += len(line)

            for number in range(max(1, round(rng.expovariate(1 / ENGLISH_PRINTINGS)))):
                emit({"lang": "en", "set": card["set"], "collector_number": str(number + 1)})
            names: dict[str, str] = {}
            for number in range(round(rng.expovariate(1 / OTHER_PRINTINGS))):
                lang = rng.choices(langs, weights)[0]
                if lang not in names or rng.random() < 0.1:  # now and then a second translation
                    names[lang] = _name(rng, vocab[lang], lang)
                words = vocab[lang]
                emit(
                    {
                        "lang": lang,
                        "printed_name": names[lang],
                        "printed_type_line": _name(rng, words, lang),
                        "printed_text": rng.choice(texts[lang]),
                        "set": rng.choice(SETS),
                        "collector_number": str(100 + number),
                    }
                )
                written.names[lang].add((card["oracle_id"], names[lang]))
    return written


def printed_objects(oracle_bulk: Path, written: Written, seed: int = 42) -> Iterator[dict]:
    """A card's printings in other languages, each only as much of a card object as the names index reads, in the
    proportions :func:`write_all_cards` writes them (their names recorded in ``written``)."""
    rng = random.Random(seed)
    vocab = {lang: _words(lang) for lang in SHARES}
    langs, weights = list(SHARES), list(SHARES.values())
    written.names = {lang: set() for lang in SHARES}
    for card in _oracle(oracle_bulk):
        names: dict[str, str] = {}
        for number in range(round(rng.expovariate(1 / OTHER_PRINTINGS))):
            lang = rng.choices(langs, weights)[0]
            if lang not in names or rng.random() < 0.1:
                names[lang] = _name(rng, vocab[lang], lang)
            written.objects += 1
            written.names[lang].add((card["oracle_id"], names[lang]))
            yield {
                "lang": lang,
                "printed_name": names[lang],
                "oracle_id": card["oracle_id"],
                "set": rng.choice(SETS),
                "collector_number": str(100 + number),
                "released_at": "2026-01-01",
            }


def write_printed_index(oracle_bulk: Path, dest: Path, languages: tuple[str, ...] = tuple(SHARES)) -> Written:
    """The printed names index of ``languages`` for the oracle cards of ``oracle_bulk``, written at ``dest`` as the
    bot's import writes it; the names by language."""
    written = Written()
    build_index(
        printed_objects(oracle_bulk, written), dest, languages=languages, updated_at="2026-01-01", source="synthetic"
    )
    return written
