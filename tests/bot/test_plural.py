"""One helper for every count a player reads: no "card(s)" anywhere."""

import ast
from pathlib import Path

import pytest

from bot.text.lines import plural
from tests.support.source import parse

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("count", "word", "many", "expected"),
    [
        (0, "mulligan", None, "0 mulligans"),
        (1, "card", None, "1 card"),
        (2, "card", None, "2 cards"),
        (1000, "game", None, "1,000 games"),
        (1, "cycling ability", "cycling abilities", "1 cycling ability"),
        (3, "cycling ability", "cycling abilities", "3 cycling abilities"),
        (-1, "life", "life", "-1 life"),
    ],
)
def test_plural_agrees_with_the_count(count, word, many, expected):
    assert plural(count, word, many) == expected


def _texts(path: Path):
    for node in ast.walk(parse(path)):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            yield node.value


def test_no_text_a_player_reads_says_s_in_brackets():
    """Every string in the bot and its cogs: "card(s)" or "turn(s)" is a count that skipped the helper."""
    offenders = []
    for folder in ("bot", "cogs"):
        for path in (ROOT / folder).rglob("*.py"):
            for text in _texts(path):
                log_format = "%s" in text or "%d" in text  # the log, which players never read
                if "(s)" in text and not log_format and "http(s)" not in text and "``card(s)``" not in text:
                    offenders.append(f"{path.relative_to(ROOT)}: {text[:60]!r}")
    assert offenders == []


def test_every_count_outside_goldfish_agrees_through_the_one_helper():
    """No reply or command output picks a noun's form by hand ("card" if n == 1 else "cards"): bot.text.plural does,
    everywhere (the goldfish package has its own sweep)."""
    import re

    root = ROOT
    # Not counts: a rule's kind ("section" or "heading"), and the word before a list of shard ids ("shards 0, 1").
    not_counts = ('self.kind = "section"', 'label = "shard"')
    by_hand = re.compile(r"""["']\w+["'] if [\w.()\[\]]+ == 1 else ["']\w+["']|\[:-1\] if [\w.()\[\]]+ == 1""")
    found = [
        f"{path.relative_to(root)}:{number}"
        for folder in ("bot", "cogs")
        for path in sorted((root / folder).rglob("*.py"))
        if "goldfish" not in path.parts and path.name not in ("admission.py", "text.py")
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if by_hand.search(line) and not any(allowed in line for allowed in not_counts)
    ]
    assert found == []
