"""Every terminal command the README and docs/ show works as printed.

Each runs as written, by a shell, in a fresh process, in a temporary copy of the clone (see
tests/docs/terminal.py: card data imported from tests/data, Scryfall and the rules page faked on 127.0.0.1).
It must answer, or end with an exit code docs/terminal.md lists for it and one line saying why, never a
traceback. The commands of generated examples were run by the example generator; the others run here.
"""

from __future__ import annotations

import re
import subprocess
import tomllib
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.docs.commands import (
    PROGRAM,
    Documented,
    documented_commands,
    exit_codes,
    program_commands,
    subcommand,
    without_examples,
)
from tests.docs.markers import REPO, pages
from tests.docs.terminal import Run, Services
from tests.support.waits import CEILING

DOCUMENTED = documented_commands()
PROGRAM_COMMANDS = [d for d in DOCUMENTED if PROGRAM in d.command]
MAKE_TARGETS = sorted({d.command.split()[1] for d in DOCUMENTED if d.command.startswith("make ")})

# Commands that cannot answer in a test, each with what it must do instead.
FAILS_HERE = {
    "health": (1, "no bot is running in the test, so there is no heartbeat"),
    "db copy": (2, "the documented URL's host (db) does not exist here; the same copy into a real server is below"),
}
# Make targets that are not run (each is checked to exist), and why.
NOT_RUN = {
    "run": "starts the bot, which needs a token (and a .env in the clone may hold a real one)",
    "test": "runs this test suite",
    "check": "runs part of this test suite",
    "install": "replaces the environment these tests run in",
    "lock": "resolves the dependencies again against the package registry",
    "bench": "runs the benchmarks, minutes of work",
    "docs": "writes site/ into the clone; tests/docs/test_site.py builds the same site into a temporary folder",
    "docs-examples": "rewrites the pages; tests/docs/test_examples.py runs the same generator in memory",
}
POSTGRES_URL = re.compile(r"postgresql://\S+")


@pytest.fixture(scope="module")
def services(tmp_path_factory):
    with Services(tmp_path_factory.mktemp("commands")) as services:
        yield services


def check_ending(command: str, run: Run) -> None:
    """Answered, or ended with a documented exit code and one line saying why; never a traceback."""
    shown = run.output + (run.stderr or "")
    assert "Traceback" not in shown, f"{command!r} printed a traceback:\n{shown}"
    name = subcommand(command)
    if run.returncode == 0:
        assert run.output.strip(), f"{command!r} exited 0 and printed nothing"
        return
    documented = exit_codes().get(name)
    assert documented is not None, f"docs/terminal.md lists no exit codes for {name!r}"
    assert run.returncode in documented, f"{command!r} exited {run.returncode}; documented: {sorted(documented)}"
    said = [line for line in (run.output if name == "health" else run.stderr or run.output).splitlines() if line]
    if name == "rule":  # a miss is still an answer: the closest rules, on stderr
        assert said, f"{command!r} exited {run.returncode} and said nothing"
    else:
        assert len(said) == 1, f"{command!r} exited {run.returncode} with {len(said)} lines instead of one:\n{shown}"


@pytest.mark.parametrize("documented", PROGRAM_COMMANDS, ids=lambda d: d.command)
def test_each_command_shown_runs_as_printed(documented: Documented, services):
    run = services.run(documented.command, services.sandbox(), apart=True)
    check_ending(documented.command, run)
    expected = FAILS_HERE.get(subcommand(documented.command))
    if expected is None:
        assert run.returncode == 0, f"{documented.command!r} ({documented.where}) failed:\n{run.stderr}"
    else:
        assert run.returncode == expected[0], expected[1]


def test_each_example_command_answered_or_failed_as_documented(generated, services):
    ran = 0
    for example, runs in generated.runs.items():
        for run in runs:
            if run.returncode:  # the generator kept the streams together: see which one said it
                folder = services.sandbox(example.setting)
                run = services.run(run.command, folder, setting=example.setting, apart=True)
            check_ending(run.command, run)
            ran += 1
    assert ran >= 15


def test_the_database_copy_shown_copies_into_a_real_server(services, postgres_url):
    (copy,) = [d.command for d in PROGRAM_COMMANDS if subcommand(d.command) == "db copy"]
    command = POSTGRES_URL.sub(postgres_url, copy)
    run = services.run(command, services.sandbox(), apart=True)
    assert run.returncode == 0, run.stderr
    assert "Set DATABASE_URL to that URL" in run.output


def test_every_terminal_command_is_shown_and_has_its_exit_codes_listed(generated):
    """Every command of the program appears on some page, so the tests above run every one."""
    shown = {subcommand(d.command) for d in PROGRAM_COMMANDS}
    shown |= {subcommand(run.command) for runs in generated.runs.values() for run in runs if PROGRAM in run.command}
    commands = program_commands()
    missing = commands - shown - {"run"}  # run starts the bot: `make run` is its documented form
    assert not missing, f"terminal commands no page shows: {sorted(missing)}"
    unlisted = commands - set(exit_codes())
    assert not unlisted, f"docs/terminal.md lists no exit codes for: {sorted(unlisted)}"


def makefile_targets() -> tuple[dict[str, bool], set[str]]:
    """The targets the Makefile declares (each with whether it does anything: prerequisites or a recipe), and
    those it declares .PHONY."""
    lines = (REPO / "Makefile").read_text(encoding="utf-8").splitlines()
    targets: dict[str, bool] = {}
    phony: set[str] = set()
    for number, line in enumerate(lines):
        rule = re.match(r"^([^\s:#=][^:#=]*):(?!=)(.*)$", line)
        if not rule:
            continue
        names = rule[1].split()
        if ".PHONY" in names:
            phony |= set(rule[2].split())
            continue
        recipe = number + 1 < len(lines) and lines[number + 1].startswith("\t")
        for name in names:
            targets[name] = targets.get(name, False) or recipe or bool(rule[2].split("#")[0].strip())
    return targets, phony


@pytest.mark.parametrize("target", MAKE_TARGETS)
def test_each_make_target_shown_exists_and_the_safe_ones_run(target):
    targets, phony = makefile_targets()
    assert target in targets, f"make {target} is shown but the Makefile has no such target"
    assert targets[target], f"make {target} has neither prerequisites nor a recipe"
    if (REPO / target).exists():
        assert target in phony, f"make {target} does nothing while {target}/ exists: declare it .PHONY"
    dry = subprocess.run(["make", "-n", target], cwd=REPO, capture_output=True, text=True, timeout=CEILING)
    assert dry.returncode == 0, dry.stderr
    if target in NOT_RUN:
        pytest.skip(f"make {target} is only checked to exist: it {NOT_RUN[target]}")
    done = subprocess.run(["make", target], cwd=REPO, capture_output=True, text=True, timeout=2 * CEILING)
    assert done.returncode == 0, done.stdout + done.stderr


def runtime_modules() -> dict[str, str]:
    """Each runtime dependency's module, from the installed distributions: {"PIL": "pillow", "discord": …}."""
    from importlib.metadata import packages_distributions

    from tests.docs.test_site import canonical

    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    wanted = {canonical(re.match(r"[A-Za-z0-9][A-Za-z0-9._-]*", spec)[0]) for spec in project["dependencies"]}
    provided: dict[str, list[str]] = {}
    for module, distributions in packages_distributions().items():
        for distribution in distributions:
            if canonical(distribution) in wanted and not module.startswith("_") and "." not in module:
                provided.setdefault(canonical(distribution), []).append(module)
    assert set(provided) == wanted, f"not installed: {wanted - set(provided)}"
    # The module named like its distribution (matplotlib, not mpl_toolkits), else its only one (PIL).
    return {
        min(modules, key=lambda module: (canonical(module) != distribution, module)): distribution
        for distribution, modules in provided.items()
    }


# A documented command that needs the module; the rest are imported by every command.
NEEDED_BY = {
    "discord": ".venv/bin/cyclebot run",
    "asyncpg": ".venv/bin/cyclebot db copy --to postgresql://cyclebot:secret@db:5432/cyclebot",
    "matplotlib": ".venv/bin/cyclebot goldfish simulate --games 20 --chart chart.png",
    "requests_cache": ".venv/bin/cyclebot card sanctum plow",
    "resvg_py": ".venv/bin/cyclebot symbols",
    "defusedxml": ".venv/bin/cyclebot symbols",
    "pypdf": ".venv/bin/cyclebot judge-docs update",
    "tqdm": "CARD_LANGUAGES=de .venv/bin/cyclebot cards update --languages",
}


def test_a_missing_dependency_is_one_sentence_naming_it(services, tmp_path):
    """Each runtime dependency in turn made unimportable, as in a Python where it is not installed."""

    def without(module: str) -> Run:
        stubs = tmp_path / module
        (stubs / module).mkdir(parents=True)
        (stubs / module / "__init__.py").write_text(
            f"raise ModuleNotFoundError({f'No module named {module!r}'!r}, name={module!r})\n", encoding="utf-8"
        )
        command = NEEDED_BY.get(module, ".venv/bin/cyclebot rule 704.5")
        return services.run(command, services.sandbox(), apart=True, env={"PYTHONPATH": str(stubs)})

    # orjson saves goldfish games: only the connected bot loads it (with its cogs), so no command can run without it.
    modules = sorted(set(runtime_modules()) - {"orjson"})
    with ThreadPoolExecutor(2) as pool:
        runs = dict(zip(modules, pool.map(without, modules), strict=True))
    for module, run in runs.items():
        assert "Traceback" not in run.stderr, f"{module} missing:\n{run.stderr}"
        assert run.returncode == 2, f"{run.command!r} without {module}: exit {run.returncode}\n{run.stderr}"
        (line,) = run.stderr.splitlines()
        assert line.startswith(f"error: this Python lacks {module!r}"), line


def test_the_readme_shows_the_two_quick_start_commands():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    quick_start = readme.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    first_block = quick_start.split("```sh\n", 1)[1].split("```", 1)[0]
    assert [line.split()[:2] for line in first_block.splitlines()] == [["make", "run"], ["make", "test"]]


def test_no_page_tells_a_reader_to_run_python_dash_m_bot():
    """Outside a virtual environment ``python -m bot`` fails; the pages show the program (.venv/bin/cyclebot)."""
    for page in pages():
        assert "python -m bot" not in without_examples(page.read_text(encoding="utf-8")), page.name
