"""The full edition's outline bundled beside the excerpt: made from the edition the excerpt was transcribed from,
by the script kept in the repository, and it names what the excerpt does not hold."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from bot.documents import stem
from bot.rules.editions.sources import BUNDLED_EXCERPT
from bot.rules.ranking.outline import BUNDLED_OUTLINE, Outline, load_outline
from bot.rules.text.document import load_document
from scripts.make_rules_outline import outline_for
from tests.data import CR_2026

REPO = Path(__file__).resolve().parents[2]


def test_the_bundled_outline_is_what_the_script_makes_from_the_2026_edition():
    assert BUNDLED_OUTLINE.read_text(encoding="utf-8") == outline_for(CR_2026)


def test_the_outline_is_of_the_edition_the_excerpt_was_transcribed_from():
    excerpt = load_document(BUNDLED_EXCERPT)
    outline = load_outline()
    assert outline is not None and outline.effective == excerpt.preamble_dates[0] == "January 16, 2026"
    full = load_document(CR_2026)
    assert outline.numbers == {rule.number for rule in full.entries}
    # Everything the excerpt holds is in the full edition it came from.
    assert {rule.number for rule in excerpt.entries} <= outline.numbers


def test_the_outline_names_rules_titles_and_terms():
    outline = load_outline()
    assert outline.title_of("702.7b") == "First Strike"
    assert outline.title_of("704.5j") == "State-Based Actions"
    assert outline.title_of("601.2") == "Casting Spells"
    assert outline.term("evoke").number == "702.74"
    assert outline.term("frist strike").number == "702.7"
    assert outline.term("lol") is None and outline.term("") is None
    assert outline.named(tuple(stem(word) for word in ("first", "strike"))).number == "702.7"


def test_a_missing_or_broken_outline_leaves_the_excerpt_naming_only_what_it_holds(tmp_path):
    assert load_outline(tmp_path / "missing.json") is None
    broken = tmp_path / "broken.json"
    broken.write_text("{not json", encoding="utf-8")
    assert load_outline(broken) is None
    assert Outline({}).title_of("702.7") == ""


def test_the_script_checks_the_bundled_outline():
    done = subprocess.run(
        [sys.executable, "scripts/make_rules_outline.py", "--check"], cwd=REPO, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "up to date" in done.stdout
