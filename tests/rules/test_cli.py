"""``cyclebot rule`` (``python -m bot rule``) and ``cyclebot rules update`` from the terminal."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli import main
from bot.rules.editions.sources import kept_editions
from tests.data import CR_DIR
from tests.rules.conftest import keep_edition
from tests.support.waits import CEILING

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
    assert out.startswith("702.29 Cycling\n") and out.count("Cycling\n") == 1
    positions = [out.index(f"702.29{letter} ") for letter in "abcdef"]
    assert positions == sorted(positions)
    assert "bundled excerpt" in out


def test_rule_with_rules_file_prints_704_5_in_full(capsys):
    assert main(["rule", "--rules-file", str(CR_2026), "704.5"]) == 0
    out = capsys.readouterr().out
    assert "704.5z " in out and "704.5m " in out and "704.5l" not in out
    assert out.rstrip().endswith("Comprehensive Rules January 16, 2026")


def test_rule_uses_rules_file_from_the_environment(capsys, monkeypatch):
    monkeypatch.setenv("RULES_FILE", str(CR_2026))
    assert main(["rule", "state", "based", "actions"]) == 0
    assert capsys.readouterr().out.startswith("State-Based Actions · 704\n")


def test_rule_prefers_a_downloaded_copy_over_the_excerpt(capsys, data_dir):
    keep_edition(data_dir, CR_DIR / "MagicCompRules-2024-11-08.txt")
    assert main(["rule", "100.1"]) == 0
    assert "Comprehensive Rules November 8, 2024" in capsys.readouterr().out


def test_rule_that_matches_nothing_exits_1_with_a_message(capsys):
    assert main(["rule", "999.99"]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("No rule 999.99\n")


def test_missing_rules_file_exits_1_with_a_message(capsys, tmp_path):
    assert main(["rule", "--rules-file", str(tmp_path / "nope.txt"), "702.29"]) == 1
    assert "could not load the rules" in capsys.readouterr().err


def test_rules_update_without_a_network_exits_1_with_one_sentence_saying_what_to_do(capsys, data_dir):
    assert main(["rules", "update", "--url", "http://127.0.0.1:9/en/rules"]) == 1
    captured = capsys.readouterr()
    err = captured.err.strip()
    assert captured.out == "" and "\n" not in err
    assert err.startswith("error: rules not updated: could not download the rules: 127.0.0.1:9 cannot be reached")
    assert "check the connection or RULES_URL and try again" in err
    assert "urllib3" not in err and "Errno" not in err and "HTTPConnectionPool" not in err
    assert len(err) < 250
    assert kept_editions(data_dir).paths() == []


def test_rules_update_with_no_name_resolution_is_one_sentence_too(capsys, monkeypatch, data_dir):
    monkeypatch.setenv("RULES_URL", "https://rules.invalid/en/rules")  # .invalid never resolves
    assert main(["rules", "update"]) == 1
    err = capsys.readouterr().err.strip()
    assert err == (
        "error: rules not updated: could not download the rules: rules.invalid cannot be reached (no network "
        "connection, or a wrong address); check the connection or RULES_URL and try again"
    )


def test_rules_update_uses_rules_url_and_exits_0(capsys, monkeypatch, data_dir, server):
    base, routes, _requested = server
    routes["/cr.txt"] = (200, "text/plain", CR_2026.read_bytes())
    monkeypatch.setenv("RULES_URL", f"{base}/cr.txt")
    assert main(["rules", "update"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Stored the Comprehensive Rules effective January 16, 2026 (3,260 rules,")
    assert out.rstrip().endswith("comprehensive-rules-2026-01-16.txt")
    assert kept_editions(data_dir).paths()[-1].read_bytes() == CR_2026.read_bytes()


def python_m_bot(data_dir, *args: str) -> subprocess.CompletedProcess:
    """``python -m bot ARGS`` in a fresh process, without a token, reading ``data_dir``."""
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=CEILING,
        env={"PATH": "", "BOT_DATA_DIR": str(data_dir), "PYTHONPATH": str(REPO)},
    )


def test_python_dash_m_bot_rule_runs_without_a_token(data_dir):
    result = python_m_bot(data_dir, "rule", "basic", "landcycling")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("Typecycling · 702.29")
    assert "“Basic Landcycling” is listed under “Typecycling”." in result.stdout


CR_2024 = CR_DIR / "MagicCompRules-2024-11-08.txt"


@pytest.mark.parametrize("query", [["702.29", "c"], ["§704.5b"], ["rule", "704.5k?"], ["702,29"], ["702.29e)"]])
def test_rule_numbers_as_people_type_them_from_the_terminal(capsys, query):
    assert main(["rule", *query]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first in (
        "702.29c Cycling",
        "704.5b State-Based Actions",
        "704.5k State-Based Actions",
        "702.29 Cycling",
        "702.29e Cycling",
    )


def test_a_range_prints_every_rule_of_it_704_5a_c(capsys):
    assert main(["rule", "--rules-file", str(CR_2026), "704.5a–c"]) == 0
    out = capsys.readouterr().out
    assert [line.split()[0] for line in out.splitlines() if line.startswith("704.5")] == ["704.5a", "704.5b", "704.5c"]


def test_a_rule_the_excerpt_lacks_is_named_with_its_title_and_a_link_613_1(capsys):
    assert main(["rule", "613.1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("613.1 Interaction of Continuous Effects\n")
    assert "https://yawgatog.com/resources/magic-rules/#R6131" in out
    assert out.count("The full rules are not loaded here.") == 1 and "rules update" not in out


def test_a_non_question_exits_1_saying_nothing_answers(capsys):
    assert main(["rule", "--rules-file", str(CR_2026), "how", "do", "I", "sleeve", "my", "deck"]) == 1
    assert capsys.readouterr().err.startswith("No rule answers “how do I sleeve my deck”")


def test_rule_json_prints_one_object_with_the_confidence_rules_cards_and_edition(capsys):
    assert main(["rule", "--rules-file", str(CR_2026), "--json", "704.5j"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data == {
        "query": "704.5j",
        "confidence": "sure",
        "kind": "rule",
        "title": "704.5j State-Based Actions",
        "rules": [{"number": "704.5j", "title": "State-Based Actions"}],
        "cards": [],
        "edition": "2026-01-16",
        "source": "full",
    }


def test_rule_json_for_a_question_and_a_miss(capsys):
    assert main(["rule", "--rules-file", str(CR_2026), "--json", "how", "does", "trample", "work"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["confidence"] == "sure" and data["rules"][0] == {"number": "702.19", "title": "Trample"}
    assert main(["rule", "--json", "lol"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["confidence"] == "none" and data["rules"] == [] and data["source"] == "excerpt"


def test_python_dash_m_bot_rule_json_from_the_bundled_excerpt(data_dir):
    result = python_m_bot(data_dir, "rule", "--json", "first", "strike")
    assert result.returncode == 0, result.stderr
    assert len(result.stdout.strip().splitlines()) == 1
    data = json.loads(result.stdout)
    assert data["rules"][0] == {"number": "702.7", "title": "First Strike"}
    assert data["source"] == "excerpt" and data["edition"] == "2026-01-16"


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
    result = python_m_bot(data_dir, "rules", "diff", str(CR_2024), str(CR_2026), "--number", "100.4")
    assert result.returncode == 0, result.stderr
    before, now = result.stdout.split("Now (effective January 16, 2026):")
    assert "Rule 100.4 was reworded." in before and "Tournament Rules" not in before
    assert "Tournament Rules" in now
