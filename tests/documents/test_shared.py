"""What the Comprehensive Rules and the judges' documents share from bot.documents: one retry schedule for their
updates, one reading of the dates they are effective from, one word normalisation for names and terms, and a
phrasings loader that reads whichever folder a document names."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from bot.documents import effective_date, load_phrasings, normal, parse_long_date, retry_delay
from bot.rules.editions.editions import effective_date as edition_date
from bot.rules.ranking.index import edition_of
from bot.rules.text import load_document
from tests.data import CR_2024, CR_2026


def test_a_failed_update_is_retried_after_twice_the_wait_each_time_up_to_the_most():
    assert [retry_delay(n, 60.0, 6 * 3600.0) for n in (1, 2, 3, 4)] == [60.0, 120.0, 240.0, 480.0]
    assert retry_delay(9, 60.0, 6 * 3600.0) == 15360.0 and retry_delay(10, 60.0, 6 * 3600.0) == 6 * 3600.0
    assert retry_delay(10_000, 0.05, 3.0) == 3.0  # no overflow however long the host stays down


def test_names_and_terms_match_whatever_their_case_punctuation_and_dashes():
    assert normal("Game Play Error — GRV") == "game play error grv"
    assert normal("State-Based Actions") == normal("state based actions") == "state based actions"
    assert normal("L@EC") == "l ec"
    assert normal("player's") == "players"


def test_each_document_reads_the_phrasings_of_its_own_folder(tmp_path: Path):
    rules, judges = tmp_path / "rules", tmp_path / "judges"
    rules.mkdir()
    judges.mkdir()
    (rules / "5.toml").write_text('["505.6b"]\nwords = ["land drop"]\n', encoding="utf-8")
    (judges / "ipg.toml").write_text('["2.5"]\nwords = ["looking at extra cards", "lec"]\n', encoding="utf-8")

    assert set(load_phrasings(rules)) == {"505.6b"}
    found = load_phrasings(judges)
    assert set(found) == {"2.5"} and found["2.5"].words == ("looking at extra cards", "lec")


def test_the_rules_and_the_judges_documents_read_their_dates_alike():
    assert parse_long_date("November 8, 2024") == date(2024, 11, 8)
    assert parse_long_date("Nov 8 2024") is None and parse_long_date("") is None
    assert effective_date("MAGIC TOURNAMENT RULES Effective November 10, 2025") == date(2025, 11, 10)
    for path, day in ((CR_2024, date(2024, 11, 8)), (CR_2026, date(2026, 1, 16))):
        rules = load_document(path)
        assert edition_date(rules) == day and edition_of(rules).date == day.isoformat()
