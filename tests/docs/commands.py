"""The terminal commands the README and docs/ show, and what their pages say about how they end."""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from pathlib import Path

from tests.docs.markers import CLOSE, OPEN, REPO, pages

PROGRAM = ".venv/bin/cyclebot"
FENCED = re.compile(
    r"^(?P<indent> *)(?P<fence>```+|~~~+)[^\n]*\n(?P<body>.*?)^(?P=indent)(?P=fence)[ \t]*$", re.MULTILINE | re.DOTALL
)
CODE_SPAN = re.compile(r"(?<!`)(`+)(?!`)(?P<code>.+?)(?<!`)\1(?!`)")
MAKE = re.compile(r"^make (?P<target>[a-z][a-z0-9-]*)\b")
# Commands of two words: the rows of the exit-code table name them so.
TWO_WORDS = ("rules", "cards", "db", "judge-docs")


@dataclass(frozen=True)
class Documented:
    command: str
    page: Path

    @property
    def where(self) -> str:
        return str(self.page.relative_to(REPO))


def without_examples(text: str) -> str:
    """The page without its generated blocks (their commands are the examples' steps)."""
    out, position = [], 0
    while match := OPEN.search(text, position):
        out.append(text[position : match.start()])
        position = text.find(CLOSE, match.end()) + len(CLOSE)
    out.append(text[position:])
    return "".join(out)


def shown_commands(text: str) -> list[str]:
    """Every line of a code block and every code span that runs the program or make, as written."""
    found: list[str] = []
    outside = text
    for block in FENCED.finditer(text):
        body = block["body"].replace("\\\n", " ")
        for line in body.splitlines():
            line = line.strip()
            if PROGRAM in line or MAKE.match(line):
                found.append(line)
        outside = outside.replace(block[0], "")
    for span in CODE_SPAN.finditer(outside):
        code = span["code"].strip()
        if code.startswith(PROGRAM) or MAKE.match(code):
            found.append(code)
    return found


def documented_commands() -> list[Documented]:
    seen: dict[str, Documented] = {}
    for page in pages():
        for command in shown_commands(without_examples(page.read_text(encoding="utf-8"))):
            seen.setdefault(command, Documented(command, page))
    return list(seen.values())


def subcommand(command: str) -> str:
    """The program's command a shell line runs (``rules update``, ``card``…), as the exit-code table names it."""
    words = shlex.split(command[command.index(PROGRAM) + len(PROGRAM) :].split("|")[0], comments=True)
    words = [word for word in words if not word.startswith("-")]
    if not words:
        return "run"
    return " ".join(words[:2]) if words[0] in TWO_WORDS and len(words) > 1 else words[0]


def exit_codes() -> dict[str, set[int]]:
    """The exit codes docs/terminal.md lists for each command: ``| `card`, `cycling` | 0 …; 1 …; 2 … |``."""
    text = (REPO / "docs" / "terminal.md").read_text(encoding="utf-8")
    section = text.split("## Exit codes", 1)[1].split("\n## ", 1)[0]
    table: dict[str, set[int]] = {}
    for row in re.finditer(r"^\| (?P<names>`[^|]+) \| (?P<codes>[^|]+) \|$", section, re.M):
        codes = {int(code) for code in re.findall(r"(?:^|;\s*)(\d+) ", row["codes"])}
        for name in re.findall(r"`([^`]+)`", row["names"]):
            table[name] = codes
    return table


def program_commands() -> set[str]:
    """The program's commands, from its own parser: ``rule``, ``rules update``, ``cards info``…"""
    import argparse

    from bot.cli import build_parser

    def commands_of(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
        found = {}
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                found.update(action.choices)
        return found

    names = set()
    for name, parser in commands_of(build_parser()).items():
        nested = commands_of(parser)
        names |= {f"{name} {child}" for child in nested} if name in TWO_WORDS and nested else {name}
    return names
