"""The import graph of ``bot/`` and ``cogs/``, read from the source: no module imports another that imports it back,
directly or round about, and a module outside a package imports only the package's ``__init__`` (its public API).

Every import counts: one made only for type checking, one inside a function, a relative one (resolved as Python
resolves it). ``from package import submodule`` is an import of the submodule, not of the package's ``__init__``;
``import a.b.c`` is an import of ``a.b.c``.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from tests.support.source import parse

ROOT = Path(__file__).resolve().parent.parent
TOP = ("bot", "cogs")

# The rooms of the goldfish package, and the rooms each may use: the engine uses none of the others.
GOLDFISH_ROOMS = {
    "bot.goldfish.engine": set(),
    "bot.goldfish.decks": {"bot.goldfish.engine"},
    "bot.goldfish.table": {"bot.goldfish.engine"},
    "bot.goldfish.practice": {"bot.goldfish.engine", "bot.goldfish.decks"},
}

# The rooms of the rules package, each using only the rooms below it; the package's own front (its ``__init__``,
# ``service``, ``cli``) uses them all.
RULES_ROOMS = {
    "bot.rules.text": set(),
    "bot.rules.words": set(),
    "bot.rules.ranking": {"bot.rules.text", "bot.rules.words"},
    "bot.rules.editions": {"bot.rules.text", "bot.rules.words", "bot.rules.ranking"},
    "bot.rules.asking": {"bot.rules.text", "bot.rules.words", "bot.rules.ranking", "bot.rules.editions"},
}


def module_files(root: Path = ROOT, top: tuple[str, ...] = TOP) -> dict[str, Path]:
    """Every module by its dotted name; a package by its own name (its ``__init__``)."""
    found: dict[str, Path] = {}
    for name in top:
        for path in sorted((root / name).rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join(parts)] = path
    return found


def is_package(path: Path) -> bool:
    return path.name == "__init__.py"


def imports_of(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The modules of ``modules`` that ``name`` (read from ``path``) imports, wherever the import stands."""
    # A relative import starts from the module's package: the package itself for an ``__init__``.
    package = name.split(".") if is_package(path) else name.split(".")[:-1]
    found: set[str] = set()
    for node in ast.walk(parse(path)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                found.add(_deepest(alias.name, modules))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - (node.level - 1)] if node.level > 1 else package
                source = ".".join([*base, *([node.module] if node.module else [])])
            else:
                source = node.module or ""
            for alias in node.names:
                submodule = f"{source}.{alias.name}"
                found.add(submodule if submodule in modules else _deepest(source, modules))
    found.discard("")
    return found - {name}


def _deepest(dotted: str, modules: dict[str, Path]) -> str:
    """The longest prefix of ``dotted`` that is a module of ours ("" for none: the standard library, a dependency)."""
    parts = dotted.split(".")
    for end in range(len(parts), 0, -1):
        candidate = ".".join(parts[:end])
        if candidate in modules:
            return candidate
    return ""


def import_graph(root: Path = ROOT, top: tuple[str, ...] = TOP) -> dict[str, set[str]]:
    modules = module_files(root, top)
    return {name: imports_of(name, path, modules) for name, path in modules.items()}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every group of modules that import one another, directly or round about (Tarjan's strongly connected
    components, iterative so that a deep graph needs no deep recursion)."""
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(graph):
        if start in order:
            continue
        work = [(start, iter(sorted(graph.get(start, ()))))]
        order[start] = low[start] = len(order)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, edges = work[-1]
            advanced = False
            for other in edges:
                if other not in order:
                    order[other] = low[other] = len(order)
                    stack.append(other)
                    on_stack.add(other)
                    work.append((other, iter(sorted(graph.get(other, ())))))
                    advanced = True
                    break
                if other in on_stack:
                    low[node] = min(low[node], order[other])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
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
    return sorted(found)


def private_reaches(graph: dict[str, set[str]], modules: dict[str, Path]) -> list[str]:
    """Imports of a module inside a package from outside that package (``bot`` and ``cogs`` themselves are no
    packages in this sense: their top-level modules are for everyone). A package's ``__init__`` is its public API."""
    found: list[str] = []
    for importer, targets in sorted(graph.items()):
        for target in sorted(targets):
            if is_package(modules[target]):
                continue
            owner = target.rsplit(".", 1)[0]
            if owner in TOP or importer == owner or importer.startswith(owner + "."):
                continue
            found.append(f"{importer} imports {target}: import it from {owner}")
    return found


# The checks on made-up trees: what counts as an import.


def _tree(tmp_path: Path, files: dict[str, str]) -> dict[str, set[str]]:
    for relative, text in files.items():
        path = tmp_path / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return import_graph(tmp_path, ("app",))


def test_type_only_and_function_level_imports_count(tmp_path):
    graph = _tree(
        tmp_path,
        {
            "app/__init__.py": "",
            "app/a.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from app.b import B\n",
            "app/b.py": "def f():\n    import app.a\n",
        },
    )
    assert graph["app.a"] == {"app.b"} and graph["app.b"] == {"app.a"}
    assert circles(graph) == [["app.a", "app.b"]]


def test_from_a_package_import_a_submodule_is_an_import_of_the_submodule(tmp_path):
    graph = _tree(
        tmp_path,
        {
            "app/__init__.py": "",
            "app/pkg/__init__.py": "from app.pkg.core import Thing\n",
            "app/pkg/core.py": "from app import other\n",
            "app/other.py": "from app.pkg import core\nfrom app.pkg import Thing\nimport os.path\n",
        },
    )
    assert graph["app.other"] == {"app.pkg.core", "app.pkg"}
    assert graph["app.pkg.core"] == {"app.other"}
    assert circles(graph) == [["app.other", "app.pkg", "app.pkg.core"]]


def test_relative_imports_resolve_as_python_resolves_them(tmp_path):
    graph = _tree(
        tmp_path,
        {
            "app/__init__.py": "",
            "app/top.py": "",
            "app/pkg/__init__.py": "from . import inner\nfrom .inner import x\n",
            "app/pkg/inner.py": "from .. import top\nfrom ..pkg import sibling\nfrom . import sibling as again\n",
            "app/pkg/sibling.py": "from ..top import y\n",
        },
    )
    assert graph["app.pkg"] == {"app.pkg.inner"}
    assert graph["app.pkg.inner"] == {"app.top", "app.pkg.sibling"}
    assert graph["app.pkg.sibling"] == {"app.top"}
    assert circles(graph) == []


def test_a_longer_circle_is_found_and_a_chain_is_not():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []
    assert circles({"a": {"a"}}) == [["a"]]


def test_a_module_reached_from_outside_its_package_is_named(tmp_path):
    _tree(
        tmp_path,
        {
            "app/__init__.py": "",
            "app/util.py": "",
            "app/pkg/__init__.py": "from app.pkg.core import Thing\n",
            "app/pkg/core.py": "from app.pkg.sub import deep\nfrom app import util\n",
            "app/pkg/sub/__init__.py": "",
            "app/pkg/sub/deep.py": "from app.pkg import core\n",
            "app/user.py": "from app.pkg import Thing\nfrom app.pkg.core import Thing as T\n"
            "from app.pkg.sub import deep\n",
        },
    )
    modules = module_files(tmp_path, ("app",))
    graph = import_graph(tmp_path, ("app",))
    assert private_reaches(graph, modules) == [
        "app.pkg.core imports app.pkg.sub.deep: import it from app.pkg.sub",
        "app.user imports app.pkg.core: import it from app.pkg",
        "app.user imports app.pkg.sub.deep: import it from app.pkg.sub",
    ]


# The checks on this codebase.

GRAPH = import_graph()
MODULES = module_files()


def test_the_graph_is_really_read():
    assert len(GRAPH) > 100
    assert "bot.goldfish.engine" in GRAPH["bot.goldfish.practice.coach"]
    assert "cogs._ui" in GRAPH["cogs.goldfish._cog"]


def test_no_module_in_bot_or_cogs_imports_another_that_imports_it_back():
    assert circles(GRAPH) == []


def test_other_packages_import_only_a_packages_public_api():
    assert private_reaches(GRAPH, MODULES) == []


def rooms_used_beyond(room: str, allowed: set[str], package: str) -> set[str]:
    """The modules of ``package`` that ``room`` imports outside itself and the rooms it may use."""
    allowed = {room, *allowed}
    used = set()
    for importer, targets in GRAPH.items():
        if importer == room or importer.startswith(room + "."):
            used |= {
                t
                for t in targets
                if (t == package or t.startswith(package + "."))
                and not any(t == a or t.startswith(a + ".") for a in allowed)
            }
    return used


@pytest.mark.parametrize("room", sorted(GOLDFISH_ROOMS))
def test_each_goldfish_room_uses_only_the_rooms_below_it(room):
    used = rooms_used_beyond(room, GOLDFISH_ROOMS[room], "bot.goldfish")
    assert used == set(), f"{room} uses {sorted(used)}"


@pytest.mark.parametrize("room", sorted(RULES_ROOMS))
def test_each_rules_room_uses_only_the_rooms_below_it(room):
    used = rooms_used_beyond(room, RULES_ROOMS[room], "bot.rules")
    assert used == set(), f"{room} uses {sorted(used)}"


def test_every_rules_module_lives_in_a_room():
    front = {"bot.rules", "bot.rules.service", "bot.rules.cli"}
    loose = [
        name
        for name in MODULES
        if name.startswith("bot.rules.")
        and name not in front
        and not any(name.startswith(r + ".") or name == r for r in RULES_ROOMS)
    ]
    assert loose == []


def test_the_generic_documents_use_no_particular_document():
    """The machinery every document shares (bot.documents) is used by the rules and the judges' documents,
    never the reverse: a third document builds on it without touching the others."""
    used = {
        target
        for importer, targets in GRAPH.items()
        if importer == "bot.documents" or importer.startswith("bot.documents.")
        for target in targets
        if target.split(".")[:2] in (["bot", "rules"], ["bot", "judge"])
    }
    assert used == set()


def test_the_room_check_sees_a_room_reaching_up(monkeypatch):
    monkeypatch.setitem(GRAPH, "bot.rules.text.fake", {"bot.rules.ranking"})
    assert rooms_used_beyond("bot.rules.text", RULES_ROOMS["bot.rules.text"], "bot.rules") == {"bot.rules.ranking"}


# The rooms of bot/, floor by floor: a room uses only rooms on the floors below it (``bot`` itself, the package's
# face with its name and version, is for every floor). The entry points stand at the top.
BOT_FLOORS = [
    {"bot.errors", "bot.limits", "bot.cycling", "bot.runtime"},
    {"bot.text", "bot.config", "bot.serving"},
    {"bot.storage", "bot.scryfall", "bot.documents"},
    {"bot.hosts"},
    {"bot.carddb", "bot.judge"},
    {"bot.rules", "bot.goldfish"},
    {"bot.cards"},
    {"cogs"},
    {"bot.frame"},
    {"bot.client"},
    {"bot.cli"},
    {"bot.__main__"},
]
# At bot/'s top, besides the rooms: the entry points and the few modules that stand alone.
TOP_MODULES_AT_MOST = 10


def room_of(name: str) -> str:
    parts = name.split(".")
    return parts[0] if parts[0] == "cogs" else ".".join(parts[:2])


def floor_of(room: str) -> int:
    return next(index for index, rooms in enumerate(BOT_FLOORS) if room in rooms)


def test_every_room_of_bot_has_a_floor():
    rooms = {room_of(name) for name in MODULES} - {"bot", "bot.migrations"}
    assert sorted(room for room in rooms if not any(room in floor for floor in BOT_FLOORS)) == []


def uses_above(graph: dict[str, set[str]]) -> list[str]:
    found = []
    for importer, targets in sorted(graph.items()):
        if importer == "bot":
            continue
        for target in sorted(targets):
            if target == "bot" or room_of(target) == room_of(importer):
                continue
            if floor_of(room_of(target)) >= floor_of(room_of(importer)):
                found.append(f"{importer} uses {target}")
    return found


def test_each_room_of_bot_uses_only_the_floors_below_it():
    assert uses_above(GRAPH) == []


def test_the_floor_check_sees_a_room_reaching_up():
    graph = {"bot.text.lines": {"bot.carddb"}, "bot.carddb.store": {"bot.text"}, "bot.hosts.svg": {"bot.carddb"}}
    assert uses_above(graph) == ["bot.hosts.svg uses bot.carddb", "bot.text.lines uses bot.carddb"]


def test_few_modules_stand_at_the_top_of_bot():
    top = sorted(path.stem for path in (ROOT / "bot").glob("*.py") if path.stem != "__init__")
    assert len(top) <= TOP_MODULES_AT_MOST, top


# Every package says in its docstring's first paragraph what it is for and what it may import: "May import `a`,
# `b`." (or "May import nothing else of the bot."), each name a room, a module, ``bot`` for the whole core or
# ``cogs._*`` for the cogs' shared modules. Data-only folders (the SQL migrations) aside.


def packages() -> list[str]:
    return sorted(
        name for name, path in MODULES.items() if is_package(path) and name != "bot" and "migrations" not in name
    )


def declared_imports(name: str) -> set[str] | None:
    """What a package's docstring says it may import (None when it says nothing)."""
    tree = parse(MODULES[name])
    doc = ast.get_docstring(tree) or ""
    first = doc.split("\n\n")[0].replace("\n", " ")
    said = re.search(r"May import (.*?)\.(?:\s|$)", first + " ")
    if not said:
        return None
    return set(re.findall(r"`([\w.*]+)`", said.group(1)))


def unit_of(package: str, target: str) -> str:
    """What ``package`` uses when it imports ``target``: the room just below where the two part ways (a sibling
    room inside the same package, or a room of bot/ from elsewhere)."""
    mine, theirs = package.split("."), target.split(".")
    shared = 0
    while shared < min(len(mine), len(theirs)) and mine[shared] == theirs[shared]:
        shared += 1
    return ".".join(theirs[: max(shared + 1, 2)])


def undeclared_imports(package: str, graph: dict[str, set[str]], declared: set[str]) -> set[str]:
    used = {
        unit_of(package, target)
        for importer, targets in graph.items()
        if importer == package or importer.startswith(package + ".")
        for target in targets
        if target != "bot" and not (target == package or target.startswith(package + "."))
    }

    def allowed(unit: str) -> bool:
        for name in declared:
            if name.endswith("*") and unit.startswith(name[:-1]):
                return True
            if unit == name or unit.startswith(name + "."):
                return True
        return False

    return {unit for unit in used if not allowed(unit)}


@pytest.mark.parametrize("package", packages())
def test_each_package_says_what_it_is_for_and_what_it_may_import(package):
    declared = declared_imports(package)
    assert declared is not None, f"{package}'s docstring does not say what it may import"
    assert undeclared_imports(package, GRAPH, declared) == set()


def test_the_declaration_check_sees_an_import_not_declared():
    graph = {"bot.rules.ranking.index": {"bot.rules.text", "bot.carddb.store", "bot.text"}}
    assert undeclared_imports("bot.rules.ranking", graph, {"bot.rules.text", "bot.text"}) == {"bot.carddb"}
    assert undeclared_imports("bot.rules.ranking", graph, {"bot"}) == set()
    graph = {"cogs.cards._cog": {"cogs._ui", "cogs.rules._render"}}
    assert undeclared_imports("cogs.cards", graph, {"cogs._*"}) == {"cogs.rules"}
