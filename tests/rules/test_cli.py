"""``python -m bot rule`` and ``python -m bot rules update`` from the terminal."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli import main
from bot.rules.sources import downloaded_path
from tests.data import CR_DIR

REPO = Path(__file__).resolve().parent.parent.parent
CR_2026 = CR_DIR / "MagicCompRules-2026-01-16.txt"


@pytest.fixture(autouse=True)
def clean_env(monkeypatch, data_dir):
    monkeypatch.delenv("RULES_FILE", raising=False)
    monkeypatch.delenv("RULES_URL", raising=False)
    monkeypatch.setenv("BOT_DATA_DIR", str(data_dir))


def test_rule_702_29_prints_the_bundled_excerpt(capsys):
    assert main(["rule", "702.29"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("702.29. Cycling\n")
    positions = [out.index(f"702.29{letter} ") for letter in "abcdef"]
    assert positions == sorted(positions)
    assert "bundled excerpt" in out


def test_rule_with_rules_file_prints_704_5_in_full(capsys):
    assert main(["rule", "--rules-file", str(CR_2026), "704.5"]) == 0
    out = capsys.readouterr().out
    assert "704.5z " in out and "704.5m " in out and "704.5l" not in out
    assert out.rstrip().endswith("effective as of January 16, 2026")


def test_rule_uses_rules_file_from_the_environment(capsys, monkeypatch):
    monkeypatch.setenv("RULES_FILE", str(CR_2026))
    assert main(["rule", "state", "based", "actions"]) == 0
    assert capsys.readouterr().out.startswith("Glossary: State-Based Actions")


def test_rule_prefers_a_downloaded_copy_over_the_excerpt(capsys, data_dir):
    downloaded_path(data_dir).write_bytes((CR_DIR / "MagicCompRules-2024-11-08.txt").read_bytes())
    assert main(["rule", "100.1"]) == 0
    assert "effective as of November 8, 2024" in capsys.readouterr().out


def test_rule_that_matches_nothing_exits_1_with_a_message(capsys):
    assert main(["rule", "999.99"]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "No such rule: “999.99”" in captured.err


def test_missing_rules_file_exits_1_with_a_message(capsys, tmp_path):
    assert main(["rule", "--rules-file", str(tmp_path / "nope.txt"), "702.29"]) == 1
    assert "could not load the rules" in capsys.readouterr().err


def test_rules_update_failure_exits_non_zero_and_says_why(capsys, data_dir):
    assert main(["rules", "update", "--url", "http://127.0.0.1:9/en/rules"]) == 1
    assert "rules not updated" in capsys.readouterr().err
    assert not downloaded_path(data_dir).exists()


def test_rules_update_uses_rules_url_and_exits_0(capsys, monkeypatch, data_dir):
    # A stand-in session answers for RULES_URL (the loopback-server tests are in test_updater.py).
    import requests

    class FileSession(requests.Session):
        def get(self, url, **kwargs):
            response = requests.Response()
            response.status_code = 200
            response._content = CR_2026.read_bytes()
            response.url = url
            response.headers["Content-Type"] = "text/plain"
            return response

    monkeypatch.setattr("bot.rules.updater.requests.Session", FileSession)
    monkeypatch.setenv("RULES_URL", "https://rules.example/cr.txt")
    assert main(["rules", "update"]) == 0
    assert "effective January 16, 2026" in capsys.readouterr().out
    assert downloaded_path(data_dir).read_bytes() == CR_2026.read_bytes()


def test_python_dash_m_bot_rule_runs_without_a_token(data_dir):
    result = subprocess.run(
        [sys.executable, "-m", "bot", "rule", "basic", "landcycling"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
        env={"PATH": "", "BOT_DATA_DIR": str(data_dir), "PYTHONPATH": str(REPO)},
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("Glossary: Typecycling")


CR_2024 = CR_DIR / "MagicCompRules-2024-11-08.txt"


@pytest.mark.parametrize("query", [["702.29", "c"], ["§704.5b"], ["rule", "704.5k?"], ["702,29"], ["702.29e)"]])
def test_rule_numbers_as_people_type_them_from_the_terminal(capsys, query):
    assert main(["rule", *query]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first in (
        "Rule 702.29c · Cycling",
        "Rule 704.5b · State-Based Actions",
        "Rule 704.5k · State-Based Actions",
        "702.29. Cycling",
        "Rule 702.29e · Cycling",
    )


def test_a_range_prints_every_rule_of_it_704_5a_c(capsys):
    assert main(["rule", "--rules-file", str(CR_2026), "704.5a–c"]) == 0
    out = capsys.readouterr().out
    assert [line.split()[0] for line in out.splitlines() if line.startswith("704.5")] == ["704.5a", "704.5b", "704.5c"]


def test_a_rule_the_excerpt_lacks_says_how_to_load_the_full_rules_613_1(capsys):
    assert main(["rule", "613.1"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("Rule 613.1 is not in the bundled excerpt")
    assert "python -m bot rules update" in err and "https://yawgatog.com/resources/magic-rules/#R6131" in err


def test_a_non_question_exits_1_with_no_confident_match(capsys):
    assert main(["rule", "--rules-file", str(CR_2026), "how", "do", "I", "sleeve", "my", "deck"]) == 1
    assert capsys.readouterr().err.startswith("No confident match for “how do I sleeve my deck”")


def test_rules_diff_lists_added_removed_and_reworded_rules_2024_to_2026(capsys):
    assert main(["rules", "diff", str(CR_2024), str(CR_2026)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Rules changes: effective November 8, 2024 → effective January 16, 2026")
    lists = {line.split(" (")[0]: line.split(": ", 1)[1].split(", ") for line in out.splitlines() if " (" in line}
    assert "122.9" in lists["Added"]
    assert "603.2i" in lists["Removed"]
    assert "100.4" in lists["Reworded"]
    assert not any("702.29a" in numbers for numbers in lists.values())


@pytest.mark.parametrize(
    ("number", "first"), [("702.29a", "Rule 702.29a is unchanged."), ("122.9", "Rule 122.9 was added.")]
)
def test_rules_diff_for_one_rule(capsys, number, first):
    assert main(["rules", "diff", str(CR_2024), str(CR_2026), "--number", number]) == 0
    assert capsys.readouterr().out.splitlines()[2] == first


def test_python_dash_m_bot_rules_diff_prints_the_old_and_new_text_of_100_4(data_dir):
    result = subprocess.run(
        [sys.executable, "-m", "bot", "rules", "diff", str(CR_2024), str(CR_2026), "--number", "100.4"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
        env={"PATH": "", "BOT_DATA_DIR": str(data_dir), "PYTHONPATH": str(REPO)},
    )
    assert result.returncode == 0, result.stderr
    before, now = result.stdout.split("Now (effective January 16, 2026):")
    assert "Rule 100.4 was reworded." in before and "Tournament Rules" not in before
    assert "Tournament Rules" in now
