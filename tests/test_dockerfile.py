"""The Dockerfile can't be built here (no base images can be pulled), so read it for the obvious mistakes, and
build the package as its build stage does, from only the files it copies, to run the bot from that alone."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.support.waits import CEILING

ROOT = Path(__file__).resolve().parents[1]
UV = Path(sys.executable).with_name("uv")


def parse(text: str) -> list[tuple[str, str]]:
    parsed = []
    for line in text.replace("\\\n", " ").splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            keyword, _, rest = line.partition(" ")
            parsed.append((keyword.upper(), rest.strip()))
    return parsed


@pytest.fixture(scope="module")
def stages() -> list[list[tuple[str, str]]]:
    """The Dockerfile's stages, each a list of (instruction, arguments), FROM first."""
    found: list[list[tuple[str, str]]] = []
    for keyword, rest in parse((ROOT / "Dockerfile").read_text()):
        if keyword == "FROM":
            found.append([])
        assert found, "an instruction before the first FROM"
        found[-1].append((keyword, rest))
    return found


@pytest.fixture(scope="module")
def final(stages) -> list[tuple[str, str]]:
    return stages[-1]


def values(instructions, keyword):
    return [rest for key, rest in instructions if key == keyword]


def test_two_stages_on_the_same_slim_python(stages):
    assert len(stages) == 2
    bases = [values(stage, "FROM")[0].split()[0] for stage in stages]
    assert all(re.fullmatch(r"python:3\.1[1-9]-slim(-\w+)?", base) for base in bases)
    # The virtual environment's interpreter is a link to the base's: both stages must have the same Python.
    assert bases[0] == bases[1]


def test_the_locked_dependencies_are_a_layer_built_before_the_code_is_copied(stages):
    build = stages[0]
    steps = [(key, rest) for key, rest in build if key in {"COPY", "RUN"}]
    lock_copy = next(i for i, (key, rest) in enumerate(steps) if key == "COPY" and "uv.lock" in rest)
    dependencies = next(i for i, (key, rest) in enumerate(steps) if key == "RUN" and "--no-install-project" in rest)
    code = next(i for i, (key, rest) in enumerate(steps) if key == "COPY" and rest.startswith("bot "))
    assert lock_copy < dependencies < code
    # Only the files the lock needs come before the dependency layer, so a code change leaves it cached.
    assert set(steps[lock_copy][1].split()[:-1]) == {"pyproject.toml", "uv.lock"}
    for key, rest in steps:
        if key == "RUN" and "uv sync" in rest:
            assert "--frozen" in rest and "--no-dev" in rest, rest


def test_every_package_directory_is_installed(stages):
    copied = " ".join(values(stages[0], "COPY"))
    for package in ("bot", "cogs"):
        assert f"{package} ./{package}" in copied
    last_sync = [rest for key, rest in stages[0] if key == "RUN" and "uv sync" in rest][-1]
    # Installed into the environment, not linked to a source folder the final stage does not have.
    assert "--no-editable" in last_sync


def test_the_final_stage_holds_the_environment_and_no_build_tools(final):
    copies = values(final, "COPY")
    assert copies == ["--from=build /app/.venv /app/.venv"]
    assert not any("uv" in rest.split() or "pip install" in rest for rest in values(final, "RUN"))
    assert any("PATH=/app/.venv/bin:$PATH" in env for env in values(final, "ENV"))


def test_runs_as_a_non_root_user(final):
    users = values(final, "USER")
    assert users, "no USER instruction: the container would run as root"
    assert users[-1] not in {"root", "0", "0:0"}
    keywords = [key for key, _ in final]
    assert keywords.index("USER") > max(i for i, key in enumerate(keywords) if key in {"RUN", "COPY"})


def test_data_directory_is_a_volume_and_the_bot_uses_it(final):
    volumes = [json.loads(v) if v.startswith("[") else v.split() for v in values(final, "VOLUME")]
    assert ["/data"] in volumes
    assert any("BOT_DATA_DIR=/data" in env for env in values(final, "ENV"))


def test_entry_point_is_the_console_script(final):
    (command,) = values(final, "CMD")
    assert json.loads(command) == ["cyclebot", "run"]
    assert not values(final, "ENTRYPOINT")


def test_health_check_uses_the_bots_own_probe(final):
    (health,) = values(final, "HEALTHCHECK")
    assert health.endswith('CMD ["cyclebot", "health"]')


def test_no_secret_is_baked_into_the_image(stages):
    for stage in stages:
        for key, rest in stage:
            if key in {"ENV", "ARG"}:
                assert "TOKEN" not in rest.upper()
    ignored = (ROOT / ".dockerignore").read_text().split()
    assert ".env" in ignored and "data" in ignored


def test_the_build_context_leaves_out_what_the_image_does_not_need():
    ignored = set((ROOT / ".dockerignore").read_text().split())
    assert {".git", ".venv", "tests", "benchmarks", "docs"} <= ignored
    # What the build copies must not be ignored.
    assert not {"bot", "cogs", "pyproject.toml", "uv.lock", "README.md", "LICENSE"} & ignored


@pytest.fixture(scope="module")
def installed(stages, tmp_path_factory) -> Path:
    """The package as the image installs it: a wheel built from only what the build stage copies, unpacked."""
    source = tmp_path_factory.mktemp("context")
    for key, rest in stages[0]:
        if key == "COPY" and not rest.startswith("--from"):
            for name in rest.split()[:-1]:
                path = ROOT / name
                if path.is_dir():
                    shutil.copytree(path, source / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
                else:
                    shutil.copy2(path, source / name)
    wheels = tmp_path_factory.mktemp("wheels")
    built = subprocess.run(
        [str(UV), "build", "--wheel", "--quiet", "--out-dir", str(wheels), str(source)],
        capture_output=True,
        text=True,
        timeout=2 * CEILING,
    )
    assert built.returncode == 0, built.stderr
    (wheel,) = wheels.glob("cyclebot-*.whl")
    unpacked = tmp_path_factory.mktemp("site")
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(unpacked)
    return unpacked


def test_the_installed_package_holds_every_file_of_the_source(installed):
    for package in ("bot", "cogs"):
        files = {path.relative_to(ROOT) for path in (ROOT / package).rglob("*") if path.is_file()}
        files = {path for path in files if "__pycache__" not in path.parts}
        missing = sorted(str(path) for path in files if not (installed / path).is_file())
        assert missing == []  # a data file the package reads but the wheel leaves out breaks only the image


@pytest.mark.parametrize("command", [["rule", "702.29"], ["rule", "--json", "sba"], ["goldfish", "odds", "4"]])
def test_the_installed_package_answers_with_no_clone_beside_it(installed, tmp_path, command):
    env = {"PATH": os.environ.get("PATH", ""), "PYTHONPATH": str(installed), "BOT_DATA_DIR": str(tmp_path / "data")}
    where = subprocess.run(
        [sys.executable, "-c", "import bot; print(bot.__file__)"], capture_output=True, text=True, cwd=tmp_path, env=env
    )
    assert where.stdout.startswith(str(installed)), where.stdout + where.stderr
    result = subprocess.run(
        [sys.executable, "-m", "bot", *command], capture_output=True, text=True, cwd=tmp_path, env=env, timeout=CEILING
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() and not result.stderr.strip()
