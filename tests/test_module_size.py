"""Modules stay small: none under bot/ or cogs/ grows past 400 lines (a file that does two jobs is two files). No
import circle between them either: ``tests/test_imports.py``."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MAX_LINES = 400


def modules() -> dict[str, Path]:
    return {
        path.relative_to(ROOT).as_posix(): path
        for top in ("bot", "cogs")
        for path in sorted((ROOT / top).rglob("*.py"))
    }


def test_the_check_reads_every_module():
    assert len(modules()) > 200 and "bot/client.py" in modules()


@pytest.mark.parametrize("name", sorted(modules()))
def test_each_module_stays_small(name):
    lines = modules()[name].read_text(encoding="utf-8").count("\n")
    assert lines <= MAX_LINES, f"{name} has {lines} lines: split it by what it does"
