"""The MTR and IPG question set: well formed, every cited section real, and the word answers no worse than their
recorded level on its frozen test part (benchmarks/bench_judge_docs.py reports the figures)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from bot.judge.outline import load_outline
from bot.judge.service import JudgeDocs

QUESTIONS = Path(__file__).resolve().parent / "questions.json"
BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


@pytest.fixture(scope="module")
def questions() -> list[dict]:
    return json.loads(QUESTIONS.read_text(encoding="utf-8"))["questions"]


def test_the_set_is_well_formed_and_every_cited_section_exists(questions):
    outlines = {key: load_outline(key) for key in ("mtr", "ipg")}
    assert len({q["id"] for q in questions}) == len(questions)
    assert {q["part"] for q in questions} == {"tuning", "test"}
    for question in questions:
        assert question["source"].startswith(("http://", "https://")), question["id"]
        assert all(outlines[question["document"]].get(number) for number in question["cited"]), question["id"]


def test_words_on_the_bundled_outlines_keep_their_recorded_hit_rates_on_the_test_part(bot_config):
    sys.path.insert(0, str(BENCHMARKS))
    from bench_judge_docs import RECORDED, hits

    service = JudgeDocs.load(bot_config)  # nothing downloaded: the outlines answer
    first, three, size = hits(service, "test")
    assert size == 20
    assert first >= RECORDED["outline"][0] and three >= RECORDED["outline"][1]
