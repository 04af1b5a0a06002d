"""Every Comprehensive Rules number the bot cites (goldfish narration, card rendering, help texts) can be
looked up out of the box: each one resolves in the bundled excerpt."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.rules.editions.sources import BUNDLED_EXCERPT
from bot.rules.text.document import load_document

ROOT = Path(__file__).resolve().parents[2]
# A rule or subrule anywhere: "121.4", "(CR 702.29d)", "rule 704.5b" — not part of a longer dotted
# number such as an address (127.0.0.1) or a version; subrules count from 1, so 300.0 is a number of seconds.
RULE_RE = re.compile(r"(?<![\w.])([1-9]\d{2}\.[1-9]\d{0,2}[a-z]?)(?![\w]|\.\d)")
# A rule heading only where it is named as one: "CR 106", "rule 704", "rules 121", "§ 305".
HEADING_RE = re.compile(r"(?:\bCR|\b[Rr]ules?|§)\s*([1-9]\d{2})(?![\w]|\.\d)")
# The rules package itself shows numbers as examples of what people type (a typo, a range), not citations.
EXAMPLES_NOT_CITATIONS = ("bot/rules/",)


def cited_rules() -> dict[str, list[str]]:
    """Rule number → the files that cite it."""
    found: dict[str, list[str]] = {}
    for folder in ("bot", "cogs"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            if relative.startswith(EXAMPLES_NOT_CITATIONS):
                continue
            text = path.read_text(encoding="utf-8")
            for match in [*RULE_RE.finditer(text), *HEADING_RE.finditer(text)]:
                found.setdefault(match.group(1), []).append(relative)
    return found


CITED = cited_rules()


def test_the_code_cites_the_rules_it_follows():
    # The scan finds the goldfish engine's citations (drawing 121.1, cycling 702.29a, SBAs 704.5a) …
    assert {"121.1", "702.29a", "704.5a", "103.5"} <= set(CITED)
    # … and not addresses or versions.
    assert "127.0" not in CITED and "300.0" not in CITED


@pytest.mark.parametrize("number", sorted(CITED))
def test_every_cited_rule_resolves_in_the_bundled_excerpt(number):
    excerpt = load_document(BUNDLED_EXCERPT)
    assert excerpt.get(number) is not None, f"{number} (cited in {', '.join(sorted(set(CITED[number])))})"


def test_the_pattern_reads_citations_as_the_code_writes_them():
    text = 'Event("draw", "Drew", "121.1") # CR 702.29d; see rule 704 and (CR 106); http://127.0.0.1:9 v1.2.3'
    numbers = [m.group(1) for m in RULE_RE.finditer(text)] + [m.group(1) for m in HEADING_RE.finditer(text)]
    assert numbers == ["121.1", "702.29d", "704", "106"]


# A citation as a player reads it: "(CR 103.5)". The bot writes them one way, "(103.5)", as its rules answers,
# refusals and goldfish narration do.
CR_CITATION = re.compile(r"\(CR \{?[\w.]+")


def test_every_reply_cites_a_rule_one_way_with_its_bare_number():
    written = []
    for folder in ("bot", "cogs"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
                code = line.split("#", 1)[0]
                # A command's docstring is its description, which players read; the core's docstrings are not.
                docstring = folder == "bot" and code.lstrip().startswith(('"""', "'"))
                if CR_CITATION.search(code) and not docstring:
                    written.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert written == []
