"""``cyclebot mtr``, ``cyclebot ipg`` and ``cyclebot judge-docs update`` from the terminal."""

from __future__ import annotations

import json

import pytest

from bot.cli import main
from tests.judge.conftest import IPG_DATE, MTR_DATE
from tests.support.fake_judge_docs import FakeJudgeDocs
from tests.support.judge_pdfs import file_name


@pytest.fixture(autouse=True)
def clean_env(monkeypatch, data_dir):
    monkeypatch.delenv("JUDGE_DOCS_URL", raising=False)
    monkeypatch.setenv("BOT_DATA_DIR", str(data_dir))
    monkeypatch.setenv("NO_PROXY", "127.0.0.1")


def test_ipg_lec_json_names_the_infraction_the_version_and_that_it_comes_from_the_outline(capsys):
    assert main(["ipg", "lec", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["confidence"] == "sure" and data["document"] == "ipg" and data["source"] == "outline"
    assert data["rules"] == [{"number": "2.2", "title": "Game Play Error — Looking at Extra Cards"}]
    assert data["edition"] == "2024-09-23"


def test_a_miss_exits_1_and_says_so_on_stderr(capsys):
    assert main(["mtr", "zzqx", "blorf"]) == 1
    assert capsys.readouterr().err.startswith("Nothing in the MTR matches that")


def test_judge_docs_update_keeps_both_documents_then_mtr_answers_from_the_text(capsys, pdfs):
    with FakeJudgeDocs() as fake:
        paths = []
        for key, day in (("mtr", MTR_DATE), ("ipg", IPG_DATE)):
            paths.append(f"/ContentResources/WPN/{file_name(key, day)}")
            fake.serve_pdf(paths[-1], pdfs[key])
        fake.serve_page(*paths)
        assert main(["judge-docs", "update", "--url", fake.page_url]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("Stored the MTR effective November 10, 2025 (103 sections) from http://127.0.0.1")
    assert out[1].startswith("Stored the IPG effective September 23, 2024 (34 sections) from http://127.0.0.1")

    assert main(["mtr", "3.8"]) == 0
    shown = capsys.readouterr().out
    assert "Small items (e.g., glass beads) may be used as markers" in shown
    assert "not loaded" not in shown


def test_judge_docs_update_says_in_one_line_why_a_document_was_not_updated(capsys):
    with FakeJudgeDocs() as fake:
        fake.serve_page()
        assert main(["judge-docs", "update", "--url", fake.page_url]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err == [
        f"error: no MTR PDF is linked from {fake.page_url}; set JUDGE_DOCS_URL to Wizards' page",
        f"error: no IPG PDF is linked from {fake.page_url}; set JUDGE_DOCS_URL to Wizards' page",
    ]
