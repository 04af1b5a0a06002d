"""The words players use for each rule (core, no Discord): the files' shape, the field in the index, that no
entry was written from a frozen test question, and that every key follows its rule through an update."""

from __future__ import annotations

import logging

import pytest
from rapidfuzz import fuzz, process, utils
from rapidfuzz.distance import Levenshtein

from bot.documents import SURE
from bot.documents.phrasings import Phrasing, load_phrasings, read_file, sample
from bot.rules.asking.ask import lookup
from bot.rules.editions.phrasing_check import GONE, MOVED, follow, renumber
from bot.rules.ranking.index import RulesIndex
from bot.rules.ranking.search import PHRASINGS
from bot.rules.text.document import load_document
from scripts import check_phrasings
from tests.data import CR_2024, CR_2026
from tests.rules.evaluation import load_questions

# An entry this close to a frozen test question was written from it (or would score as if it were).
CLOSE_DISTANCE = 0.2  # normalised Levenshtein distance, at most
CLOSE_TOKENS = 90  # token sort ratio, at least


def write(folder, name, text):
    folder.mkdir(exist_ok=True)
    (folder / name).write_text(text, encoding="utf-8")
    return folder / name


def test_phrasing_files_are_read_and_merged_by_key(tmp_path):
    folder = tmp_path / "phrasings"
    write(folder, "5.toml", '["509.1a"]\nwords = ["chump block"]\nasks = ["can i block just to survive"]\n')
    write(folder, "7.toml", '["509.1a"]\nwords = ["chump block", "chump"]\n["702.19b"]\nasks = ["trample over"]\n')
    found = load_phrasings(folder)
    assert found["509.1a"] == Phrasing(
        "509.1a", ("chump block", "chump"), ("can i block just to survive",), ("5.toml", "7.toml")
    )
    assert found["702.19b"].asks == ("trample over",)


def test_a_broken_phrasing_file_is_left_out_with_one_log_line(tmp_path, caplog):
    folder = tmp_path / "phrasings"
    write(folder, "1.toml", '["100.1"]\nwords = ["magic"]\n')
    write(folder, "2.toml", '["101.1"\nwords = [')
    write(folder, "3.toml", '["102.1"]\nwords = "not a list"\n')
    with caplog.at_level(logging.WARNING, logger="bot.documents.phrasings"):
        found = load_phrasings(folder)
    assert list(found) == ["100.1"]
    assert [record.getMessage().split(":")[1].strip() for record in caplog.records] == ["2.toml", "3.toml"]


def test_a_missing_folder_means_no_phrasings(tmp_path):
    assert load_phrasings(tmp_path / "nowhere") == {}


def test_a_sample_is_a_seeded_share_of_whole_entries():
    found = {f"{n}.1": Phrasing(f"{n}.1", ("w",)) for n in range(100, 140)}
    quarter = sample(found, 0.25, seed=3)
    assert len(quarter) == 10 and quarter == sample(found, 0.25, seed=3) != sample(found, 0.25, seed=4)
    assert all(found[key] is value for key, value in quarter.items())


@pytest.fixture(scope="module")
def document():
    return load_document(CR_2026)


def test_a_players_word_the_rules_never_use_finds_the_rule_through_its_phrasing_509_1a(document):
    question = "can I chump block with my token"
    plain = RulesIndex(document, phrasings={}).searcher.rank(question)
    assert not plain.hits or plain.hits[0].key != "509.1a"
    phrased = RulesIndex(document, phrasings={"509.1a": Phrasing("509.1a", ("chump", "chump block"))})
    assert phrased.searcher.rank(question).hits[0].key == "509.1a"


def test_a_phrasing_of_a_rule_shown_with_its_subrules_is_placed_on_its_first_entry_702_19(document):
    index = RulesIndex(document, phrasings={"702.19": Phrasing("702.19", ("trampler",)), "999.99": Phrasing("999.99")})
    index.warm()
    entries = index.searcher.entries
    assert entries.placed == {"702.19": entries.rule_row["702.19a"]}
    assert entries.unplaced == ["999.99"]


def test_a_phrasing_naming_a_rule_the_edition_lacks_is_logged_once(document, caplog):
    index = RulesIndex(document, phrasings={"999.99": Phrasing("999.99", ("nothing",))})
    with caplog.at_level(logging.WARNING, logger="bot.rules.ranking.search"):
        index.warm()
        index.warm()
    assert [record.getMessage() for record in caplog.records] == [
        "1 phrasings name rules this edition lacks (999.99); scripts/check_phrasings.py follows them"
    ]


def test_no_phrasing_is_close_to_a_frozen_test_question():
    """Phrasings are written from the rules and players' words, never from a question the ranking is measured on:
    none is within a small edit distance of a frozen test question, nor the same words in another order."""
    questions, not_rules = load_questions(part="test")
    frozen = [question for question, _cited in questions] + not_rules
    entries = [(key, text) for key, phrasing in load_phrasings(PHRASINGS).items() for text in phrasing.texts]
    if not entries:
        pytest.skip("no phrasing data yet")
    texts = [text for _key, text in entries]
    distance = process.cdist(texts, frozen, scorer=Levenshtein.normalized_distance, processor=utils.default_process)
    tokens = process.cdist(texts, frozen, scorer=fuzz.token_sort_ratio, processor=utils.default_process)
    close = [
        f"[{key}] {text!r} is close to a frozen test question"
        for (key, text), near, same in zip(entries, distance, tokens, strict=True)
        if near.min() <= CLOSE_DISTANCE or same.max() >= CLOSE_TOKENS
    ]
    assert not close, "\n".join(close)


def test_every_bundled_phrasing_names_a_rule_of_the_2026_edition(capsys):
    assert check_phrasings.main([]) == 0, capsys.readouterr().out


OLD_PHRASINGS = """["500.4"]
words = ["mana empties"]
["500.5"]
words = ["skip a step"]
["603.2e"]
words = ["old trigger rule"]
["702.19b"]
words = ["trample over"]
"""


def test_an_update_moves_each_phrasing_with_its_rule_or_reports_it_500_4(tmp_path):
    """Written for the 2024 edition: 500.4 and 500.5 traded places in 2026, 603.2e was removed."""
    phrasings = read_file(write(tmp_path / "old", "5.toml", OLD_PHRASINGS))
    found = {finding.key: finding for finding in follow(phrasings, load_document(CR_2024), load_document(CR_2026))}
    assert (found["500.4"].status, found["500.4"].number) == (MOVED, "500.5")
    assert (found["500.5"].status, found["500.5"].number) == (MOVED, "500.4")
    assert found["603.2e"].status == GONE
    assert found["702.19b"].number == "702.19b"


def test_the_check_script_rewrites_moved_keys_and_fails_on_a_removed_rule(tmp_path, capsys):
    folder = tmp_path / "old"
    path = write(folder, "5.toml", OLD_PHRASINGS)
    code = check_phrasings.main(["--since", str(CR_2024), "--rules", str(CR_2026), "--folder", str(folder), "--write"])
    out = capsys.readouterr().out
    assert code == 1
    assert "603.2e was removed from the rules: its phrasing names nothing now (5.toml)" in out
    assert "500.4 moved to 500.5 (5.toml)" in out and "rewrote 5.toml" in out
    rewritten = read_file(path)
    assert rewritten["500.5"].words == ("mana empties",) and rewritten["500.4"].words == ("skip a step",)
    # Against the newer edition alone, 603.2e looks fine: another rule took its number. Only following the
    # edition a phrasing was written for tells.
    assert check_phrasings.main(["--rules", str(CR_2026), "--folder", str(folder)]) == 0


def test_keys_trading_places_keep_their_words():
    text = '["1.1"]\nwords = ["a"]\n["1.2"]\nwords = ["b"]\n'
    assert renumber(text, {"1.1": "1.2", "1.2": "1.1"}) == '["1.2"]\nwords = ["a"]\n["1.1"]\nwords = ["b"]\n'


def test_sure_answers_stay_sure_with_the_phrasings_702_19(document):
    assert lookup(RulesIndex(document), "how does trample work").confidence == SURE


def test_a_key_naming_no_rule_of_the_edition_is_reported(document):
    from bot.rules.editions.phrasing_check import UNKNOWN, check, problems

    found = check({"999.99": Phrasing("999.99", ("x",), (), ("9.toml",)), "702.19": Phrasing("702.19")}, document)
    assert [(f.key, f.status) for f in problems(found)] == [("999.99", UNKNOWN)]
    assert problems(found)[0].line() == "999.99 is no rule of the edition it was written for (9.toml)"
