"""The rules package keeps its modules small: none grows past about 400 lines. (No import circle between its
modules, nor anywhere else in the bot: ``tests/test_imports.py``.)"""

from __future__ import annotations

from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "bot" / "rules"
MAX_LINES = 400


def modules() -> dict[str, Path]:
    return {
        path.relative_to(PACKAGE).with_suffix("").as_posix(): path
        for path in sorted(PACKAGE.rglob("*.py"))
        if path.stem != "__init__"
    }


@pytest.mark.parametrize("name", sorted(modules()))
def test_each_module_stays_small(name):
    lines = modules()[name].read_text(encoding="utf-8").count("\n")
    assert lines <= MAX_LINES, f"bot/rules/{name}.py has {lines} lines: split it by what it does"
