"""Reading a Comprehensive Rules text file: decoding, line endings, rules and glossary.

The official text has changed shape over the years (encodings, line endings, stray periods,
indented continuation lines), so the parser is deliberately forgiving about each rule's line
and strict only about the overall structure: numbered rules, then "Glossary", then "Credits".
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass, field
from pathlib import Path

# A single-digit section heading: "7. Additional Rules".
SECTION_RE = re.compile(r"^(\d)\.\s+(\S.*)$")
# A three-digit rule heading: "702. Keyword Abilities".
HEADING_RE = re.compile(r"^(\d{3})\.\s+(\S.*)$")
# A numbered rule or subrule, with the variations seen in real files:
# "100.1. Text", "100.1a Text", "119.1d. Text" (stray period), "809.5 Text" (no period), "901.4.All" (no space).
RULE_RE = re.compile(r"^(\d{3}\.\d+)([a-z]?)(?![a-z\d])\.?\s*(\S.*)$")
EXAMPLE_RE = re.compile(r"^Example:\s*", re.IGNORECASE)
EFFECTIVE_RE = re.compile(r"These rules are effective as of ([A-Z][a-z]+ \d{1,2}, \d{4})")
DATE_RE = re.compile(r"\b[A-Z][a-z]+ \d{1,2}, \d{4}\b")
REDIRECT_RE = re.compile(r"^See ([^.;:]+?)\.?$")


class RulesFormatError(ValueError):
    """The text is not a Comprehensive Rules document this parser understands."""


def decode(data: bytes) -> str:
    """Bytes to text: a byte-order mark first, then strict UTF-8, then Windows-1252.

    UTF-16 is only ever trusted with a BOM: decoding a BOM-less single-byte file as UTF-16
    "succeeds" and yields garbage.
    """
    if data.startswith(codecs.BOM_UTF8):
        return data[len(codecs.BOM_UTF8) :].decode("utf-8", errors="replace")
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return data.decode("utf-16", errors="replace")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


def normalise_newlines(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n")


@dataclass(slots=True)
class Rule:
    """One numbered entry: a section ("7"), a rule heading ("702"), a rule ("702.29") or a subrule ("702.29a")."""

    number: str
    text: str
    examples: list[str] = field(default_factory=list)
    order: int = 0
    kind: str = field(init=False)  # "section", "heading", "rule" or "subrule"

    def __post_init__(self) -> None:
        if "." not in self.number:
            self.kind = "section" if len(self.number) == 1 else "heading"
        else:
            self.kind = "subrule" if self.number[-1].isalpha() else "rule"

    @property
    def parent(self) -> str | None:
        """The number of the entry this one belongs to (702.29a → 702.29 → 702 → 7)."""
        if self.kind == "subrule":
            return self.number[:-1]
        if self.kind == "rule":
            return self.number.split(".")[0]
        if self.kind == "heading":
            return self.number[0]
        return None

    @property
    def is_titled(self) -> bool:
        """A rule whose text is only a title, such as "702.29. Cycling" (its subrules hold the rules)."""
        if self.kind in ("section", "heading"):
            return True
        return self.kind == "rule" and len(self.text) <= 60 and "\n" not in self.text and self.text[-1:] not in '.:”"'

    def label(self) -> str:
        """The number as the document prints it: "702.29." for rules, "702.29a" for subrules."""
        return self.number if self.kind == "subrule" else f"{self.number}."


@dataclass(slots=True)
class GlossaryEntry:
    term: str
    definition: str

    @property
    def redirect(self) -> str | None:
        """The term this entry only points to ("Basic Landcycling" says "See Typecycling.")."""
        match = REDIRECT_RE.match(self.definition.strip())
        if match and not match.group(1).lower().startswith(("rule", "section")):
            return match.group(1).strip()
        return None


@dataclass
class Document:
    title: str
    effective: str | None
    entries: list[Rule]
    glossary: list[GlossaryEntry]
    has_credits: bool = False
    preamble_dates: list[str] = field(default_factory=list)
    # The table of contents (section and rule headings, "702" → "Keyword Abilities"): an excerpt knows
    # from it which rule numbers exist in the full rules even when it does not hold their text.
    contents: dict[str, str] = field(default_factory=dict)
    by_number: dict[str, list[Rule]] = field(default_factory=dict)
    children: dict[str, list[Rule]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for order, rule in enumerate(self.entries):
            rule.order = order
            self.by_number.setdefault(rule.number, []).append(rule)
            parent = rule.parent
            if parent is not None:
                self.children.setdefault(parent, []).append(rule)

    @property
    def is_excerpt(self) -> bool:
        return "excerpt" in self.title.lower()

    def heading_exists(self, number: str) -> bool:
        """Whether the rules (the full edition, for an excerpt) have the heading ``number`` belongs to."""
        head = number.split(".")[0]
        return head in self.by_number or head in self.contents

    @property
    def rule_count(self) -> int:
        """Rule headings, rules and subrules (the single-digit sections are not counted)."""
        return sum(1 for rule in self.entries if rule.kind != "section")

    def get(self, number: str) -> Rule | None:
        found = self.by_number.get(number)
        return found[0] if found else None

    def descendants(self, number: str) -> list[Rule]:
        """Every entry under ``number`` in document order (duplicated numbers included)."""
        out: list[Rule] = []
        stack = list(reversed(self.children.get(number, [])))
        while stack:
            rule = stack.pop()
            out.append(rule)
            if rule.kind != "subrule":
                stack.extend(reversed(self.children.get(rule.number, [])))
        return out


def _body_start(lines: list[str]) -> int:
    """Index of the first line of the rules proper, after the table of contents.

    The contents list "1. Game Concepts", "100. General", … "Glossary", "Credits"; the rules begin at
    the first numbered rule ("100.1."), preceded by its section and rule headings.
    """
    for index, line in enumerate(lines):
        if RULE_RE.match(line.strip()):
            start = index
            while start > 0:
                previous = lines[start - 1].strip()
                if previous and not (SECTION_RE.match(previous) or HEADING_RE.match(previous)):
                    break
                start -= 1
            return start
    raise RulesFormatError("no numbered rules found (is this a Comprehensive Rules text file?)")


def parse_text(text: str) -> Document:
    text = normalise_newlines(text).lstrip("\ufeff")
    lines = text.split("\n")
    title = next((line.strip() for line in lines if line.strip()), "")
    effective_match = EFFECTIVE_RE.search(text)
    effective = effective_match.group(1) if effective_match else None

    start = _body_start(lines)
    entries: list[Rule] = []
    current: Rule | None = None
    index = start
    glossary_at: int | None = None
    for index in range(start, len(lines)):
        raw = lines[index]
        line = raw.strip()
        if not line:
            continue
        if line == "Glossary":
            glossary_at = index
            break
        if line == "Credits":
            break
        if match := RULE_RE.match(line):
            current = Rule(match.group(1) + match.group(2), match.group(3).strip())
            entries.append(current)
        elif (match := HEADING_RE.match(line)) and not raw[:1].isspace():
            current = Rule(match.group(1), match.group(2).strip())
            entries.append(current)
        elif (match := SECTION_RE.match(line)) and not raw[:1].isspace():
            current = Rule(match.group(1), match.group(2).strip())
            entries.append(current)
        elif current is None:
            continue
        elif EXAMPLE_RE.match(line):
            current.examples.append(EXAMPLE_RE.sub("", line, count=1))
        else:
            # An indented continuation line ("Of that list, Forest, …") belongs to the rule's text.
            current.text += "\n" + line

    glossary: list[GlossaryEntry] = []
    has_credits = False
    if glossary_at is not None:
        block: list[str] = []
        for line in [*lines[glossary_at + 1 :], ""]:
            stripped = line.strip()
            if stripped == "Credits" and not block:
                has_credits = True
                break
            if stripped:
                block.append(stripped)
            elif block:
                if len(block) >= 2:
                    glossary.append(GlossaryEntry(block[0], "\n".join(block[1:])))
                block = []
    if not any(rule.kind in ("rule", "subrule") for rule in entries):
        raise RulesFormatError("no numbered rules found (is this a Comprehensive Rules text file?)")
    contents: dict[str, str] = {}
    for line in lines[:start]:
        if match := (HEADING_RE.match(line.strip()) or SECTION_RE.match(line.strip())):
            contents.setdefault(match.group(1), match.group(2).strip())
    dates = DATE_RE.findall("\n".join(lines[:start]))
    return Document(title, effective, entries, glossary, has_credits, preamble_dates=dates, contents=contents)


def parse_bytes(data: bytes) -> Document:
    return parse_text(decode(data))


def load_document(path: Path | str) -> Document:
    return parse_bytes(Path(path).read_bytes())
