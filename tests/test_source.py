"""The tests that read the bot's source as syntax trees (the import graph, the layers, the plural helper, the
settings) parse it with ``tests/support/source.py``, which no other thread's parse can break (gh-106905)."""

from __future__ import annotations

import ast
import gc
from pathlib import Path

from tests.support.source import parse

ROOT = Path(__file__).resolve().parent.parent


def test_a_parse_holds_when_another_parse_runs_in_the_middle_of_it():
    """A collection during the parse runs this callback where a finalizer would hand the GIL to a thread that
    formats a traceback (and so parses a line of code): on CPython 3.11.7, ``ast.parse`` of a module this size
    then raises SystemError."""
    largest = max((ROOT / "bot").rglob("*.py"), key=lambda path: path.stat().st_size)

    def parse_a_line_too(phase, info):
        ast.parse("card = draw(library)")

    gc.callbacks.append(parse_a_line_too)
    try:
        tree = parse(largest)
    finally:
        gc.callbacks.remove(parse_a_line_too)
    assert gc.isenabled()
    assert any(isinstance(node, ast.FunctionDef) for node in ast.walk(tree))
