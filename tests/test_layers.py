"""The core knows nothing of Discord: a module under bot/ outside the frame that imports discord fails here."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.support.source import parse

ROOT = Path(__file__).resolve().parent.parent
# The frame: what starts the bot on Discord (the client, the command line that runs it) and the room beside the
# client (``bot/frame/``). Everything else under bot/ is the core.
FRAME = ["bot/client.py", "bot/cli.py", "bot/__main__.py", "bot/frame"]


def core_modules() -> list[Path]:
    frame = [ROOT / entry for entry in FRAME]
    return [
        path
        for path in sorted((ROOT / "bot").rglob("*.py"))
        if not any(path == place or place in path.parents for place in frame)
    ]


def imported_roots(source: str) -> set[str]:
    roots: set[str] = set()
    for node in ast.walk(parse(source)):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
    return roots


def test_the_core_has_modules_to_check():
    assert len(core_modules()) > 150
    assert all((ROOT / entry).exists() for entry in FRAME)


@pytest.mark.parametrize("path", core_modules(), ids=lambda path: str(path.relative_to(ROOT)))
def test_core_module_does_not_import_discord_or_the_cogs(path: Path):
    roots = imported_roots(path.read_text(encoding="utf-8"))
    assert "discord" not in roots
    assert "cogs" not in roots


def test_the_check_sees_imports_inside_functions():
    assert "discord" in imported_roots("def f():\n    import discord.ui\n")
    assert "discord" in imported_roots("def f():\n    from discord import ui\n")
