"""The generated blocks of the documentation: where they are, what they run, and how a page is rewritten.

A generated block is an HTML comment naming what to run, the output, and a closing comment::

    <!-- example: .venv/bin/cyclebot rule 702.29c -->
    ```console
    $ .venv/bin/cyclebot rule 702.29c
    Rule 702.29c · Cycling
    ```
    <!-- /example -->

The comments start a line. Only the text between the two comments is ever rewritten. A block may run several
steps, one a line inside the comment; a setting before the colon changes where they run:
``example without card data:`` (before the first download) or ``example offline:`` (no card data, and no
network to reach).
Steps that start with ``/``, ``say`` or ``look up:`` play a conversation with the bot; anything else is a terminal
command, run as written by a shell.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
OPEN = re.compile(r"^<!-- example(?P<setting>[^:\n>]*):(?P<spec>.*?)-->\n", re.DOTALL | re.MULTILINE)
OPENING = re.compile(r"^<!-- example", re.MULTILINE)
CLOSE = "<!-- /example -->"
SETTINGS = ("", "without card data", "offline")
DISCORD_STEP = re.compile(r"^(/|say |click |choose |as |look up: )")
# What changes from one run or machine to the next without the code changing: how long something took, and how
# large a file SQLite wrote (its version comes with the Python that runs it).
VOLATILE = ((re.compile(r"\b\d+(\.\d+)? s\b"), "N s"), (re.compile(r"\b\d+(\.\d+)? ([KM]B)\b"), r"N \2"))


class MarkerError(ValueError):
    """A generated block written wrongly: the page and line say where."""


@dataclass(frozen=True)
class Example:
    page: Path
    line: int  # of the opening comment, 1-based
    setting: str
    steps: tuple[str, ...]
    body_start: int  # offsets of the generated text in the page
    body_end: int
    body: str

    @property
    def kind(self) -> str:
        return "discord" if DISCORD_STEP.match(self.steps[0]) else "terminal"

    @property
    def where(self) -> str:
        return f"{self.page.relative_to(REPO)}:{self.line}"


def pages() -> list[Path]:
    """Every page a reader sees: the README and the documentation."""
    return [REPO / "README.md", *sorted((REPO / "docs").rglob("*.md"))]


def find_examples(page: Path, text: str) -> list[Example]:
    openings = len(OPENING.findall(text))
    found = []
    position = 0
    while match := OPEN.search(text, position):
        line = text.count("\n", 0, match.start()) + 1
        end = text.find(CLOSE, match.end())
        following = OPEN.search(text, match.end())
        if end < 0 or (following and following.start() < end):
            raise MarkerError(f"{page.name}:{line}: an example without its closing {CLOSE}")
        setting = " ".join(match["setting"].split())
        if setting not in SETTINGS:
            raise MarkerError(f"{page.name}:{line}: unknown setting {setting!r} (known: {SETTINGS[1:]})")
        steps = tuple(step.strip() for step in match["spec"].splitlines() if step.strip())
        if not steps:
            raise MarkerError(f"{page.name}:{line}: an example that runs nothing")
        kinds = {bool(DISCORD_STEP.match(step)) for step in steps}
        if len(kinds) > 1:
            raise MarkerError(f"{page.name}:{line}: terminal commands and Discord steps mixed in one example")
        found.append(Example(page, line, setting, steps, match.end(), end, text[match.end() : end]))
        position = end + len(CLOSE)
    if len(found) != openings:
        raise MarkerError(f"{page.name}: an opening comment not of the form <!-- example: … --> (see tests/docs)")
    return found


def rewrite(text: str, bodies: dict[int, str]) -> str:
    """``text`` with the generated block starting at each offset replaced by its new body."""
    out = []
    position = 0
    for start in sorted(bodies):
        end = text.find(CLOSE, start)
        out += [text[position:start], bodies[start]]
        position = end
    out.append(text[position:])
    return "".join(out)


def normalised(text: str) -> str:
    """The text with what varies between identical runs (timings, file sizes) made equal, for comparisons."""
    for pattern, placeholder in VOLATILE:
        text = pattern.sub(placeholder, text)
    return text


def fence(info: str, text: str) -> str:
    """A fenced code block that no backtick run inside ``text`` can close early."""
    ticks = "```"
    while ticks in text:
        ticks += "`"
    return f"{ticks}{info}\n{text}\n{ticks}\n"
