"""Finding [[card]] references in chat text, outside code and quotes."""

from __future__ import annotations

from bot.cards.inline import CardReference, find_references


def test_finds_references_in_order_up_to_five():
    text = " ".join(f"[[Card {n}]]" for n in range(1, 7))
    assert [ref.name for ref in find_references(text)] == [f"Card {n}" for n in range(1, 6)]


def test_set_variant_is_read_and_a_bad_set_code_is_dropped():
    assert find_references("[[Street Wraith|MM2]] [[Ash Barrens|not a set!]]") == [
        CardReference("Street Wraith", "mm2"),
        CardReference("Ash Barrens", None),
    ]


def test_code_blocks_inline_code_and_quotes_are_ignored():
    text = "```\n[[Fenced]]\n```\n`[[Inline]]`\n> [[Quoted]]\n  > [[Indented quote]]\nsay [[Real One]]"
    assert find_references(text) == [CardReference("Real One")]


def test_an_unclosed_fence_hides_the_rest_of_the_message():
    assert find_references("```python\n[[Hidden]]") == []


def test_duplicates_empty_and_overlong_names_are_skipped():
    text = "[[Lightning Bolt]] [[lightning  bolt]] [[ ]] [[" + "x" * 300 + "]] [[Shock]]"
    assert [ref.name for ref in find_references(text)] == ["Lightning Bolt", "Shock"]


def test_shortcuts_of_scryfalls_bot_are_read_image_prices_legality_and_printing():
    text = "[[!Street Wraith]] [[$Fling]] [[# Nix]] [[Ash Barrens|C16|285]] [[Ash Barrens|c16|no good!]]"
    assert find_references(text) == [
        CardReference("Street Wraith", mode="image"),
        CardReference("Fling", mode="prices"),
        CardReference("Nix", mode="legality"),
        CardReference("Ash Barrens", "c16", "285"),
        CardReference("Ash Barrens", "c16"),
    ]


def test_a_shortcut_without_a_name_is_skipped_and_a_number_needs_a_set():
    assert find_references("[[!]] [[$ ]] [[Fling||12]]") == [CardReference("Fling")]
