"""The bundled outlines: complete, dated, linked; made by scripts/make_judge_outline.py from a PDF or from
pdftohtml's HTML of one, with the bot's own parser."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from bot.judge.outline import load_outline, outline_path

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "make_judge_outline.py"


@pytest.fixture(scope="module")
def script():
    spec = importlib.util.spec_from_file_location("make_judge_outline", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("key", ["mtr", "ipg"])
def test_the_bundled_outline_passes_its_check_and_says_where_it_came_from(script, key, capsys):
    assert script.main([key, "--check"]) == 0
    data = json.loads(outline_path(key).read_text(encoding="utf-8"))
    assert "mtg-familiar" in data["source"]
    assert data["url"].startswith("https://media.wizards.com/")


def test_the_ipg_outline_carries_every_infractions_penalty():
    outline = load_outline("ipg")
    infractions = [s for s in outline.sections if "—" in s.title]
    assert len(infractions) == 23
    assert all(s.badge in {"No Penalty", "Warning", "Game Loss", "Match Loss", "Disqualification"} for s in infractions)


def test_pdftohtml_pieces_on_one_height_make_one_line(script):
    html = (
        '<div id="page1-div"><p style="position:absolute;top:100px;left:90px;white-space:nowrap">3.8</p>'
        '<p style="position:absolute;top:101px;left:120px;white-space:nowrap">&#160;Game Markers</p>'
        '<p style="position:absolute;top:120px;left:90px;white-space:nowrap">Small items</p></div>'
    )
    assert script.pdftohtml_pages(html) == ["3.8\u00a0Game Markers\nSmall items"]


def test_writing_an_outline_from_a_pdf_gives_the_bundled_sections(script, pdfs, tmp_path, monkeypatch):
    copy = tmp_path / "ipg.pdf"
    copy.write_bytes(pdfs["ipg"])
    monkeypatch.setattr(script, "outline_path", lambda key: tmp_path / f"{key}-outline.json")

    assert script.main(["ipg", str(copy), "--url", "https://media.wizards.com/x.pdf", "--source", "a test"]) == 0

    written = json.loads((tmp_path / "ipg-outline.json").read_text(encoding="utf-8"))
    bundled = json.loads(outline_path("ipg").read_text(encoding="utf-8"))
    assert written["sections"] == bundled["sections"] and written["effective"] == bundled["effective"]
