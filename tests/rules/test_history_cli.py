"""``cyclebot rules history NUMBER [--rules-dir DIR] [--edition DATE]`` from the terminal."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli import main
from bot.rules.editions.sources import kept_editions
from tests.data import CR_DIR
from tests.support.waits import CEILING

REPO = Path(__file__).resolve().parent.parent.parent


@pytest.fixture(autouse=True)
def clean_env(monkeypatch, data_dir):
    monkeypatch.delenv("RULES_FILE", raising=False)
    monkeypatch.setenv("BOT_DATA_DIR", str(data_dir))


def test_history_of_cycling_over_the_seven_editions(capsys):
    assert main(["rules", "history", "702.29", "--rules-dir", str(CR_DIR)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("History of 702.29 · Cycling\n\n")
    assert (
        "Numbers: 702.26 (2009-10-01) → 702.27 (2013-05-01) → 702.28 (2017-04-28, 2020-04-17) → "
        "702.29 (2022-11-18 to 2026-01-16)"
    ) in out
    # The terminal gets every text whole.
    assert "Any effect that looks for a card with cycling will find a card with typecycling.”" in out
    assert out.rstrip().endswith("Comprehensive Rules history: 7 editions, 2009-10-01 to 2026-01-16")


def test_history_reads_a_number_in_an_older_edition(capsys):
    assert main(["rules", "history", "702.26", "--edition", "2009", "--rules-dir", str(CR_DIR)]) == 0
    assert capsys.readouterr().out.startswith("History of 702.26 · Cycling")


def test_history_uses_the_editions_kept_in_the_data_folder_and_rules_file(capsys, data_dir, monkeypatch):
    kept = kept_editions(data_dir).folder
    kept.mkdir()
    os.symlink(CR_DIR / "MagicCompRules-2017-04-28.txt", kept / "comprehensive-rules-2017-04-28.txt")
    os.symlink(CR_DIR / "MagicCompRules-2022-11-18.txt", kept / "comprehensive-rules-2022-11-18.txt")
    monkeypatch.setenv("RULES_FILE", str(CR_DIR / "MagicCompRules-2024-11-08.txt"))

    assert main(["rules", "history", "509.2"]) == 0
    out = capsys.readouterr().out
    assert "Numbers: 509.4 (2017-04-28, 2022-11-18) → 509.2 (2024-11-08)" in out
    assert "history: 3 editions, 2017-04-28 to 2024-11-08" in out


def test_history_reads_a_data_folder_an_older_bot_kept_and_moves_its_copies_onto_the_shelf_once(capsys, data_dir):
    """Older bots kept the current and previous texts beside rules-editions/: they count, and are moved in."""
    kept = data_dir / "rules-editions"
    kept.mkdir()
    os.symlink(CR_DIR / "MagicCompRules-2017-04-28.txt", kept / "comprehensive-rules-2017-04-28.txt")
    os.symlink(CR_DIR / "MagicCompRules-2022-11-18.txt", data_dir / "comprehensive-rules.previous.txt")
    os.symlink(CR_DIR / "MagicCompRules-2024-11-08.txt", data_dir / "comprehensive-rules.txt")

    assert main(["rules", "history", "509.2"]) == 0
    out = capsys.readouterr().out
    assert "Numbers: 509.4 (2017-04-28, 2022-11-18) → 509.2 (2024-11-08)" in out
    assert "history: 3 editions, 2017-04-28 to 2024-11-08" in out
    assert sorted(path.name for path in data_dir.iterdir()) == ["rules-editions"]
    assert [path.name for path in kept_editions(data_dir).paths()] == [
        "comprehensive-rules-2017-04-28.txt",
        "comprehensive-rules-2022-11-18.txt",
        "comprehensive-rules-2024-11-08.txt",
    ]


@pytest.mark.parametrize("number", ["999.99", "702.999"])
def test_a_number_in_no_edition_exits_1_with_a_message(capsys, number):
    assert main(["rules", "history", number, "--rules-dir", str(CR_DIR)]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert f"rule {number} is not in any of the 7 editions known (2009-10-01 to 2026-01-16)" in captured.err


@pytest.mark.parametrize("text", ["cycling", "<@123> **bold**", "x" * 10000])
def test_not_a_number_exits_2_with_a_message(capsys, text):
    assert main(["rules", "history", text, "--rules-dir", str(CR_DIR)]) == 2
    err = capsys.readouterr().err
    assert "is not a rule number (such as 702.29, 509.2a or 702)" in err
    assert len(err) < 300  # a huge argument is not echoed whole


def test_a_bad_edition_exits_1(capsys):
    assert main(["rules", "history", "702.29", "--edition", "1990", "--rules-dir", str(CR_DIR)]) == 1
    assert "the oldest edition known is 2009-10-01" in capsys.readouterr().err


def test_a_missing_folder_exits_1(capsys, tmp_path):
    assert main(["rules", "history", "702.29", "--rules-dir", str(tmp_path / "nowhere")]) == 1
    assert "is not a folder" in capsys.readouterr().err


def test_a_folder_without_rules_exits_1_naming_what_it_left_out(capsys, tmp_path):
    (tmp_path / "notes.txt").write_text("shopping list")
    assert main(["rules", "history", "702.29", "--rules-dir", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert "no Comprehensive Rules edition to read in" in err and "notes.txt" in err


def test_no_edition_kept_yet_says_how_to_get_one(capsys):
    assert main(["rules", "history", "702.29"]) == 1
    assert "`cyclebot rules update`" in capsys.readouterr().err


def test_left_out_files_are_noted_on_stderr(capsys, tmp_path):
    os.symlink(CR_DIR / "MagicCompRules-2026-01-16.txt", tmp_path / "cr.txt")
    (tmp_path / "notes.txt").write_text("shopping list")
    assert main(["rules", "history", "702.29", "--rules-dir", str(tmp_path)]) == 0
    captured = capsys.readouterr()
    assert "note: left out notes.txt" in captured.err
    assert "Numbers: 702.29 (2026-01-16)" in captured.out


def test_python_dash_m_bot_rules_history_runs(data_dir):
    result = subprocess.run(
        [sys.executable, "-m", "bot", "rules", "history", "702.184", "--rules-dir", str(CR_DIR)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=CEILING,
        env={**os.environ, "BOT_DATA_DIR": str(data_dir)},
    )
    assert result.returncode == 0, result.stderr
    assert "2026-01-16 702.184 added, with 3 subrules (702.184a–702.184c)" in result.stdout
