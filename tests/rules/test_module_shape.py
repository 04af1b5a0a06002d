"""The rules package keeps its shape: no import circle between its modules (imports made only for type
checking or inside a function count too), and no module grows past about 400 lines."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "bot" / "rules"
MAX_LINES = 400


def modules() -> dict[str, Path]:
    return {path.stem: path for path in sorted(PACKAGE.glob("*.py")) if path.stem != "__init__"}


def imports_of(path: Path) -> set[str]:
    """The ``bot.rules`` modules ``path`` imports, wherever the import stands."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module.startswith("bot.rules."):
                found.add(node.module.split(".")[2])
            elif node.module == "bot.rules":
                found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(alias.name.split(".")[2] for alias in node.names if alias.name.startswith("bot.rules."))
    return found & set(modules())


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every group of modules that import one another, directly or round about (Tarjan's components)."""
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        order[node] = low[node] = len(order)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(graph.get(node, ())):
            if other not in order:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], order[other])
        if low[node] == order[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1 or node in graph.get(node, ()):
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in order:
            visit(node)
    return found


def test_the_check_sees_type_only_and_function_level_imports_and_finds_their_circle(tmp_path):
    typed = tmp_path / "typed.py"
    typed.write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from bot.rules.index import RulesIndex\n"
    )
    inner = tmp_path / "inner.py"
    inner.write_text("def f():\n    from bot.rules import cards\n")
    assert imports_of(typed) == {"index"} and imports_of(inner) == {"cards"}
    assert circles({"index": {"cards"}, "cards": {"index"}}) == [["cards", "index"]]
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_no_module_of_the_rules_package_imports_another_that_imports_it_back():
    graph = {name: imports_of(path) for name, path in modules().items()}
    assert graph["cards"] and "index" in graph["cards"]  # the graph is really read
    assert circles(graph) == []


@pytest.mark.parametrize("name", sorted(modules()))
def test_each_module_stays_small(name):
    lines = modules()[name].read_text(encoding="utf-8").count("\n")
    assert lines <= MAX_LINES, f"bot/rules/{name}.py has {lines} lines: split it by what it does"
