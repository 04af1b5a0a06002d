"""``python -m bot``: configuration errors are one clear line and exit code 2; health; help."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.cli import main

ROOT = Path(__file__).resolve().parents[2]


def run_module(*args: str, env: dict[str, str] | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "BOT_", "RULES_", "SCRYFALL_"))}
    base["PYTHONPATH"] = str(ROOT)
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        env={**base, **(env or {})},
        cwd=cwd or ROOT,
        capture_output=True,
        text=True,
        timeout=60,
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
