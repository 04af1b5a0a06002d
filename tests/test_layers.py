"""The core knows nothing of Discord: a module under these paths that imports discord fails here."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.support.source import parse

ROOT = Path(__file__).resolve().parent.parent
CORE = [
    "bot/rules",
    "bot/cards",
    "bot/goldfish",
    "bot/scryfall",
    "bot/cycling.py",
    "bot/storage",
    "bot/config.py",
]
# The documents every answer is read from: the generic machinery and the judges' documents on it.
CORE += ["bot/documents", "bot/judge"]
CORE += ["bot/text.py", "bot/limits.py", "bot/errors.py", "bot/carddb", "bot/matching.py", "bot/symbols.py"]
CORE += [
    "bot/admission.py",
    "bot/lanes.py",
    "bot/download.py",
    "bot/imaging.py",
    "bot/lograte.py",
    "bot/memory.py",
    "bot/images.py",
]


def core_modules() -> list[Path]:
    files: list[Path] = []
    for entry in CORE:
        path = ROOT / entry
        files.extend(sorted(path.rglob("*.py")) if path.is_dir() else [path])
    return [file for file in files if file.exists()]


def imported_roots(source: str) -> set[str]:
    roots: set[str] = set()
    for node in ast.walk(parse(source)):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
    return roots


def test_the_core_has_modules_to_check():
    assert len(core_modules()) > 20


@pytest.mark.parametrize("path", core_modules(), ids=lambda path: str(path.relative_to(ROOT)))
def test_core_module_does_not_import_discord_or_the_cogs(path: Path):
    roots = imported_roots(path.read_text(encoding="utf-8"))
    assert "discord" not in roots
    assert "cogs" not in roots


def test_the_check_sees_imports_inside_functions():
    assert "discord" in imported_roots("def f():\n    import discord.ui\n")
    assert "discord" in imported_roots("def f():\n    from discord import ui\n")
