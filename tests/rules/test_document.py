"""Parsing real Comprehensive Rules files of 2009–2026 and the bundled excerpt."""

from __future__ import annotations

import codecs

import pytest

from bot.rules.editions.sources import BUNDLED_EXCERPT
from bot.rules.text.document import RulesFormatError, decode, load_document, parse_bytes, parse_text
from tests.data import CR_DIR

# Counted independently of the parser (iconv + awk over the numbered lines and glossary blocks).
# rules = rule headings ("702."), rules ("702.29.") and subrules ("702.29a"); sections 1–9 not counted.
EXPECTED = {
    "MagicCompRules-2009-10-01.txt": (1714, 424, "October 1, 2009"),
    "MagicCompRules-2013-04-29.txt": (2054, 476, "May 1, 2013"),
    "MagicCompRules-2017-04-28.txt": (2329, 531, "April 28, 2017"),
    "MagicCompRules-2020-04-17.txt": (2567, 571, "April 17, 2020"),
    "MagicCompRules-2022-11-18.txt": (2932, 647, "November 18, 2022"),
    "MagicCompRules-2024-11-08.txt": (3151, 698, "November 8, 2024"),
    "MagicCompRules-2026-01-16.txt": (3260, 725, "January 16, 2026"),
}


def test_every_shared_cr_file_has_expected_counts():
    assert sorted(path.name for path in CR_DIR.glob("*.txt")) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_cr_file_loads_with_its_rule_and_glossary_counts(name):
    rules, glossary, effective = EXPECTED[name]
    document = load_document(CR_DIR / name)

    assert document.rule_count == rules
    assert len(document.glossary) == glossary
    assert document.effective == effective
    assert [rule.number for rule in document.entries if rule.kind == "section"] == list("123456789")
    # The table of contents is skipped: the rules start at section 1, rule 100, and 100 appears once.
    assert [rule.number for rule in document.entries[:3]] == ["1", "100", "100.1"]
    assert len(document.by_number["100"]) == 1
    assert document.glossary[0].term in ("Abandon", "Ability")
    assert document.has_credits
    assert not any("\ufffd" in rule.text for rule in document.entries)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_cr_file_text_has_no_mojibake_from_a_wrong_encoding(name):
    document = load_document(CR_DIR / name)
    text = document.get("100.1").text.replace("_", "")  # older files mark titles as _Magic_
    assert text.startswith("These Magic rules apply to any Magic game with two or more players")
    assert not any(marker in rule.text for rule in document.entries[:200] for marker in ("â€", "Ã", "\x00"))


def test_cp1252_file_is_not_decoded_as_utf16_garbage():
    data = (CR_DIR / "MagicCompRules-2017-04-28.txt").read_bytes()
    assert not data.startswith((codecs.BOM_UTF8, codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE))
    text = decode(data)
    assert text.startswith("Magic: The Gathering Comprehensive Rules")
    assert "player’s" in text  # 0x92 in Windows-1252


def test_704_5_subrules_are_in_order_and_skip_l_and_o():
    document = load_document(CR_DIR / "MagicCompRules-2026-01-16.txt")
    letters = [rule.number.removeprefix("704.5") for rule in document.descendants("704.5")]
    assert letters == list("abcdefghijkmnpqrstuvwxyz")


@pytest.mark.parametrize(
    ("name", "number", "start"),
    [
        ("MagicCompRules-2022-11-18.txt", "901.4", "All plane and phenomenon cards"),  # "901.4.All"
        ("MagicCompRules-2024-11-08.txt", "119.1d", "In a two-player Brawl game"),  # "119.1d."
        ("MagicCompRules-2024-11-08.txt", "606.5", "If the total cost to activate a loyalty ability"),  # no period
        ("MagicCompRules-2009-10-01.txt", "809.5", "In the Teams variant"),  # no period
        ("MagicCompRules-2009-10-01.txt", "509.1c", "The defending player checks"),  # leading space
        ("MagicCompRules-2013-04-29.txt", "702.93a", "Soulbond is a keyword"),  # "702.93a."
    ],
)
def test_irregular_rule_lines_are_parsed(name, number, start):
    rule = load_document(CR_DIR / name).get(number)
    assert rule is not None and rule.text.startswith(start)


def test_indented_continuation_lines_stay_with_their_rule():
    rule = load_document(CR_DIR / "MagicCompRules-2026-01-16.txt").get("205.4c")
    first, second = rule.text.split("\n")
    assert first.startswith("Any land with the supertype “basic”")
    assert second.startswith("Cards printed in sets prior to the Eighth Edition")


def test_several_example_lines_are_kept_apart_from_the_rule_text():
    document = load_document(CR_DIR / "MagicCompRules-2026-01-16.txt")
    with_many = [rule for rule in document.entries if len(rule.examples) >= 2]
    assert with_many
    assert all(not rule.text.startswith("Example") for rule in document.entries)
    assert document.get("101.2").examples[0].startswith("If one effect reads")


def test_a_duplicated_rule_number_keeps_both_entries_2009_702_30d():
    document = load_document(CR_DIR / "MagicCompRules-2009-10-01.txt")
    duplicates = document.by_number["702.30d"]
    assert len(duplicates) == 2
    assert duplicates[0].text != duplicates[1].text


def test_crlf_bare_cr_and_utf16_variants_parse_the_same():
    source = (CR_DIR / "MagicCompRules-2026-01-16.txt").read_bytes()
    text = decode(source).replace("\r\n", "\n").replace("\r", "\n")
    variants = [
        text.encode("utf-8"),
        codecs.BOM_UTF8 + text.replace("\n", "\r\n").encode("utf-8"),
        text.replace("\n", "\r").encode("utf-16"),
        codecs.BOM_UTF16_BE + text.encode("utf-16-be"),
    ]
    counts = {(doc.rule_count, len(doc.glossary)) for doc in map(parse_bytes, variants)}
    assert counts == {(3260, 725)}


def test_text_without_numbered_rules_is_rejected():
    with pytest.raises(RulesFormatError):
        parse_text("<html><body>Not found</body></html>")


def test_bundled_excerpt_has_702_29a_to_f_and_121_1_to_121_9():
    document = load_document(BUNDLED_EXCERPT)
    assert [rule.number for rule in document.descendants("702.29")] == [f"702.29{c}" for c in "abcdef"]
    rules_121 = [rule.number for rule in document.descendants("121") if rule.kind == "rule"]
    assert rules_121 == [f"121.{n}" for n in range(1, 10)]
    assert [r.number for r in document.descendants("121.2")] == ["121.2a", "121.2b", "121.2c", "121.2d"]
    assert [r.number for r in document.descendants("121.6")] == ["121.6a", "121.6b", "121.6c"]
    assert document.get("702.29e").text.startswith("Typecycling is a variant of the cycling ability.")


def test_bundled_excerpt_glossary_and_header():
    document = load_document(BUNDLED_EXCERPT)
    terms = {entry.term: entry for entry in document.glossary}
    assert {"Cycling", "Typecycling", "Basic Landcycling", "Draw", "Trample", "Echo", "Mulligan"} <= set(terms)
    assert {"State-Based Actions", "Priority", "Mana Ability", "Cleanup Step", "Double-Faced Cards"} <= set(terms)
    assert terms["Basic Landcycling"].redirect == "Typecycling"
    assert terms["Draw"].definition.split("\n")[1].startswith("2. The result of a game")
    assert document.is_excerpt and document.effective is None
    assert document.preamble_dates == ["January 16, 2026"]


EXCERPT_RULES = ["100", "103", "106", "107", "117", "119", "120", "121", "122", "305", "400", "401", "402", "403"]
EXCERPT_RULES += ["404", "405", "406", *map(str, range(500, 515)), "601", "602", "603", "605", "608", "701", "704"]
EXCERPT_RULES += ["712", "702.19", "702.29", "702.30"]


@pytest.mark.parametrize("number", EXCERPT_RULES)
def test_bundled_excerpt_holds_the_whole_rule(number, excerpt_index, full_index):
    excerpt, full = excerpt_index.document, full_index.document
    assert [rule.number for rule in excerpt.descendants(number)] == [rule.number for rule in full.descendants(number)]
    assert excerpt.get(number) is not None


def test_bundled_excerpt_is_transcribed_exactly_from_the_2026_rules():
    excerpt = load_document(BUNDLED_EXCERPT)
    full = load_document(CR_DIR / "MagicCompRules-2026-01-16.txt")
    for rule in excerpt.entries:
        original = full.get(rule.number)
        assert (rule.text, rule.examples) == (original.text, original.examples), rule.number
    definitions = {entry.term: entry.definition for entry in full.glossary}
    for entry in excerpt.glossary:
        assert entry.definition == definitions[entry.term], entry.term
    # The table of contents is the full edition's: the excerpt knows which rules exist beyond it.
    assert excerpt.contents == full.contents
    assert excerpt.rule_count < full.rule_count / 2  # still an excerpt
