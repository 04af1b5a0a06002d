"""The documentation site builds with ``mkdocs build --strict``, fetches nothing, and its reference pages keep up
with the code: every dependency on the dependencies page, every setting on the configuration page."""

from __future__ import annotations

import ast
import importlib.util
import os
import re
import subprocess
import sys
import tomllib

import pytest
import yaml

from tests.docs.markers import REPO

DOCS = REPO / "docs"
SETTING = re.compile(r"^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$")
MARKDOWN_LINK = re.compile(r"\]\((?P<target>[^)\s]+)\)")


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def declared_dependencies() -> set[str]:
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    specs = list(project["project"]["dependencies"])
    for extra in project["project"].get("optional-dependencies", {}).values():
        specs += extra
    for group in project.get("dependency-groups", {}).values():
        specs += [spec for spec in group if isinstance(spec, str)]  # {include-group = …} names no package
    return {canonical(re.match(r"[A-Za-z0-9][A-Za-z0-9._-]*", spec)[0]) for spec in specs}


def first_cells(page: str) -> set[str]:
    """The package names a page's tables start their rows with."""
    rows = re.findall(r"^\| ([^|]+?) \|", page, re.M)
    return {canonical(cell) for cell in rows if cell not in ("package", "---")}


def test_the_site_builds_strictly(tmp_path):
    if importlib.util.find_spec("mkdocs") is None or importlib.util.find_spec("material") is None:
        pytest.skip("MkDocs and its Material theme are not installed (the docs dependency group)")
    environment = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}  # the theme's banner about MkDocs 2
    built = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(REPO / "mkdocs.yml"), "-d", str(tmp_path)],
        cwd=REPO,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert built.returncode == 0, built.stdout + built.stderr
    assert "WARNING" not in built.stderr, built.stderr
    pages = {path.relative_to(tmp_path).as_posix() for path in tmp_path.rglob("index.html")}
    assert {"index.html", "dependencies/index.html", "terminal/index.html"} <= pages


def test_the_site_uses_no_plugin_that_fetches_anything():
    config = yaml.safe_load((REPO / "mkdocs.yml").read_text(encoding="utf-8"))
    plugins = {next(iter(p)) if isinstance(p, dict) else p for p in config.get("plugins", [])}
    assert plugins <= {"search"}, f"plugins that may reach the network: {plugins - {'search'}}"
    assert config["theme"]["font"] is False, "the theme would load Google Fonts when a page is read"


def test_every_page_is_in_the_navigation():
    config = yaml.safe_load((REPO / "mkdocs.yml").read_text(encoding="utf-8"))
    listed = set(re.findall(r"[\w/-]+\.md", str(config["nav"])))
    assert listed == {path.relative_to(DOCS).as_posix() for path in DOCS.rglob("*.md")}


def test_every_dependency_is_on_the_dependencies_page_and_no_other():
    named = first_cells((DOCS / "dependencies.md").read_text(encoding="utf-8"))
    declared = declared_dependencies()
    assert declared - named == set(), f"say on docs/dependencies.md why these are there: {declared - named}"
    assert named - declared == set(), f"docs/dependencies.md names packages pyproject.toml lacks: {named - declared}"


def settings_read(tree: ast.AST) -> set[str]:
    """The environment variables a module reads: ``environ.get("X")``, ``_flag(environ, "X")``, ``"X" in environ``,
    ``os.getenv("X")``."""

    def is_environ(node: ast.AST) -> bool:
        return (isinstance(node, ast.Name) and node.id == "environ") or (
            isinstance(node, ast.Attribute) and node.attr == "environ"
        )

    def names(nodes) -> set[str]:
        strings = (n.value for n in nodes if isinstance(n, ast.Constant) and isinstance(n.value, str))
        return {value for value in strings if SETTING.match(value)}

    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            if any(is_environ(arg) for arg in node.args) or (
                isinstance(func, ast.Attribute) and (is_environ(func.value) or func.attr == "getenv")
            ):
                found |= names(node.args)
        elif isinstance(node, ast.Compare) and any(is_environ(c) for c in node.comparators):
            found |= names([node.left])
        elif isinstance(node, ast.Subscript) and is_environ(node.value):
            found |= names([node.slice])
    return found


def test_every_setting_the_bot_reads_is_on_the_configuration_page():
    page = (DOCS / "configuration.md").read_text(encoding="utf-8")
    read = set()
    for path in (REPO / "bot").rglob("*.py"):
        read |= settings_read(ast.parse(path.read_text(encoding="utf-8")))
    assert {"DISCORD_TOKEN", "BOT_DATA_DIR", "DATABASE_URL", "SHARD_IDS"} <= read
    missing = {name for name in read if f"`{name}`" not in page}
    assert not missing, f"settings docs/configuration.md does not name: {sorted(missing)}"


def test_the_readme_is_a_short_front_page_whose_links_all_lead_somewhere():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 200
    for target in MARKDOWN_LINK.findall(readme):
        if target.startswith(("http://", "https://")):
            continue
        path, _, anchor = target.partition("#")
        assert (REPO / path).is_file(), f"README links to {target}, which does not exist"


def test_the_players_pages_say_what_sure_means_in_a_players_words():
    """Model-evaluation terms ("cross-fitted", "90 % interval", "hit@1", "held-out") belong on the development
    page; the rules page says what a sure answer means to someone at the table."""
    evaluation = re.compile(r"cross-fitt|held-out|hit@\d|% interval|logistic|in-sample", re.IGNORECASE)
    for page in sorted(DOCS.glob("*.md")):
        if page.name in ("development.md", "dependencies.md"):
            continue
        found = evaluation.findall(page.read_text(encoding="utf-8"))
        assert found == [], f"{page.name}: {found}"
    rules = (DOCS / "rules.md").read_text(encoding="utf-8")
    assert "What *sure* means for you" in rules
    assert "## How good the rules answers are" in (DOCS / "development.md").read_text(encoding="utf-8")
