"""``cyclebot`` and ``python -m bot``: configuration errors are one clear line and exit code 2; health; help."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.cli import main
from bot.storage import Database, data_dir_lock
from tests.support.waits import CEILING

ROOT = Path(__file__).resolve().parents[2]


def clean_env(env: dict[str, str] | None = None) -> dict[str, str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "BOT_", "RULES_", "SCRYFALL_"))}
    base["PYTHONPATH"] = str(ROOT)
    return {**base, **(env or {})}


def run_module(*args: str, env: dict[str, str] | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        env=clean_env(env),
        cwd=cwd or ROOT,
        capture_output=True,
        text=True,
        timeout=CEILING,
    )


def test_help_lists_the_subcommands():
    result = run_module("--help")
    assert result.returncode == 0
    assert "run" in result.stdout and "health" in result.stdout


def test_missing_token_is_one_clear_line_and_exit_code_2(tmp_path):
    result = run_module(cwd=tmp_path)  # no .env there
    assert result.returncode == 2
    assert result.stderr.strip().count("\n") == 0
    assert "DISCORD_TOKEN is not set" in result.stderr
    assert "Traceback" not in result.stderr


def test_invalid_setting_is_reported_without_a_traceback(tmp_path):
    result = run_module(env={"DISCORD_TOKEN": "x", "DISCORD_GUILD_ID": "my server"}, cwd=tmp_path)
    assert result.returncode == 2
    assert "DISCORD_GUILD_ID must be a number" in result.stderr
    assert "Traceback" not in result.stderr


def test_dotenv_file_is_read(tmp_path):
    (tmp_path / ".env").write_text("DISCORD_GUILD_ID=not-a-number\n")
    result = run_module(cwd=tmp_path)
    assert result.returncode == 2
    assert "DISCORD_GUILD_ID" in result.stderr


def test_health_is_unhealthy_without_a_heartbeat_and_healthy_with_a_fresh_one(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("BOT_DATA_DIR", str(tmp_path))
    assert main(["health"]) == 1
    heartbeat = tmp_path / "heartbeat"
    heartbeat.write_text("0")
    assert main(["health"]) == 0
    stale = time.time() - 600
    os.utime(heartbeat, (stale, stale))
    assert main(["health"]) == 1
    assert "unhealthy" in capsys.readouterr().out


@pytest.mark.parametrize("argv", [["--version"]])
def test_version(argv, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 0
    assert "Cyclebot" in capsys.readouterr().out


# -- data directory failures, backup and restore from the terminal ------------------------------------------


# Root writes through any permission bits: then the file system's refusal (EACCES) is injected where the bot
# first writes to its data directory, and everything after it is the real start-up.
AS_ROOT_DENY_WRITES = """
import errno, os, pathlib, sys
data = os.environ["BOT_DATA_DIR"]
real_open = pathlib.Path.open
def refusing_open(self, mode="r", *args, **kwargs):
    if str(self).startswith(data) and any(flag in mode for flag in "wax+"):
        raise PermissionError(errno.EACCES, "Permission denied", str(self))
    return real_open(self, mode, *args, **kwargs)
pathlib.Path.open = refusing_open
from bot.cli import main
sys.exit(main())
"""


def test_a_read_only_data_directory_is_one_line_naming_it_and_exit_code_2(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    data.chmod(0o555)
    command = ["-c", AS_ROOT_DENY_WRITES] if os.geteuid() == 0 else ["-m", "bot"]
    try:
        result = subprocess.run(
            [sys.executable, *command],
            env=clean_env({"DISCORD_TOKEN": "x", "BOT_DATA_DIR": str(data)}),
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=CEILING,
        )
    finally:
        data.chmod(0o755)
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    [line] = result.stderr.splitlines()
    assert line.startswith("error: cannot write the database") and str(data) in line
    assert "writable" in line


def test_backup_and_restore_from_the_terminal_and_restore_refuses_while_the_bot_runs(tmp_path):
    data = tmp_path / "data"
    env = {"BOT_DATA_DIR": str(data)}
    with sqlite3.connect(tmp_path / "garbage.sqlite3") as junk:
        junk.execute("CREATE TABLE recipes (name TEXT)")

    missing = run_module("backup", str(tmp_path / "copy.sqlite3"), env=env, cwd=tmp_path)
    assert missing.returncode == 2 and "there is no database" in missing.stderr

    asyncio.run(seed(data / "bot.sqlite3"))
    made = run_module("backup", str(tmp_path / "copy.sqlite3"), env=env, cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    assert "Backed up" in made.stdout

    refused = run_module("restore", str(tmp_path / "garbage.sqlite3"), env=env, cwd=tmp_path)
    assert refused.returncode == 2 and "not a Cyclebot database" in refused.stderr
    assert "Traceback" not in refused.stderr

    with data_dir_lock(data, purpose="start"):  # what a running bot holds
        busy = run_module("restore", str(tmp_path / "copy.sqlite3"), env=env, cwd=tmp_path)
        also = run_module("backup", str(tmp_path / "copy2.sqlite3"), env=env, cwd=tmp_path)
    assert busy.returncode == 2 and "another Cyclebot is using" in busy.stderr
    assert also.returncode == 0, "a backup works while the bot runs"

    restored = run_module("restore", str(tmp_path / "copy.sqlite3"), env=env, cwd=tmp_path)
    assert restored.returncode == 0, restored.stderr
    with sqlite3.connect(data / "bot.sqlite3") as db:
        assert db.execute("SELECT value FROM meta WHERE key = 'seeded'").fetchone() == ("yes",)


async def seed(path: Path) -> None:
    db = await Database.open(path)
    await db.set_meta("seeded", "yes")
    await db.close()


def test_the_console_script_is_the_bots_entry_point():
    script = Path(sys.executable).with_name("cyclebot")
    assert script.is_file(), "the cyclebot console script is installed beside the interpreter"
    result = subprocess.run(
        [str(script), "rule", "704.5"], env=clean_env(), cwd=ROOT, capture_output=True, text=True, timeout=CEILING
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("704.5 State-Based Actions\n")


def test_a_python_without_the_dependencies_gets_one_sentence_not_a_traceback(tmp_path):
    # -S: no site-packages, as when the bot is started with a Python outside its virtual environment.
    script = f"import sys; sys.path.insert(0, {str(ROOT)!r}); from bot.__main__ import main; sys.exit(main())"
    result = subprocess.run(
        [sys.executable, "-S", "-c", script, "rule", "704.5"],
        env=clean_env(),
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=CEILING,
    )
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    (line,) = result.stderr.splitlines()
    assert line.startswith("error: this Python lacks '") and line.endswith("then use .venv/bin/cyclebot.")


def test_a_reader_that_goes_away_stops_the_command_quietly():
    script = Path(sys.executable).with_name("cyclebot")
    reader = subprocess.Popen(
        [str(script), "rule", "704"], env=clean_env(), cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    reader.stdout.close()  # gone before the answer is printed, like `| head` that has read enough
    _, err = reader.communicate(timeout=CEILING)
    assert "Traceback" not in err.decode()
    assert reader.returncode == 141
