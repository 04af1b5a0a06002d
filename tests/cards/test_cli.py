"""``python -m bot card`` and ``python -m bot cycling``: the same answers as plain text, no token needed."""

from __future__ import annotations

import shutil

import pytest

from bot.cli import main


@pytest.fixture(autouse=True)
def environment(monkeypatch, fake_scryfall, data_dir):
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.setenv("SCRYFALL_API_URL", fake_scryfall.base_url)
    monkeypatch.setenv("BOT_DATA_DIR", str(data_dir))


def test_card_prints_the_card_as_text(capsys):
    assert main(["card", "Street", "Wraith"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "Street Wraith {3}{B}{B}"
    assert "Cycling: Cycling—Pay 2 life" in out
    assert out[-1].startswith("https://scryfall.com/card/")


def test_card_with_a_set(capsys, fake_scryfall):
    assert main(["card", "Test Xcycler", "--set", "tst"]) == 0
    assert capsys.readouterr().out.startswith("Test Xcycler {3}{U}\n")
    assert fake_scryfall.requests_to("/cards/named")[0].query["set"] == "tst"


def test_card_not_found_exits_1_with_scryfalls_message(capsys):
    assert main(["card", "Street Wraithh"]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    first, *rest = captured.err.splitlines()
    assert first == "error: No card is called “Street Wraithh”. Scryfall says: No cards found matching “Street Wraithh”"
    assert all(line.startswith("Did you mean ") and "**" not in line for line in rest)  # a terminal: no markdown


def test_card_in_a_set_that_does_not_exist_says_so_as_discord_does(capsys):
    assert main(["card", "Street Wraith", "--set", "zzz"]) == 1
    assert capsys.readouterr().err.startswith("error: There is no set with the code ZZZ. Set codes are 2–6 letters")


def test_ambiguous_card_exits_1_and_names_the_candidates(capsys):
    assert main(["card", "gempalm"]) == 1
    err = capsys.readouterr().err
    assert "Too many cards match ambiguous name" in err and "Gempalm Incinerator" in err


def test_cycling_prints_a_header_and_one_line_per_card(capsys):
    assert main(["cycling", "--kind", "basic"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == '11 cards with basic landcycling (keyword:"basic landcycling")'
    assert "Ash Barrens — Basic landcycling {1}" in out
    assert len(out) == 12


def test_cycling_follows_scryfalls_pages_up_to_the_limit(capsys, fake_scryfall):
    assert main(["cycling", "--limit", "200"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("235 cards with any cycling")
    assert len(out) == 1 + 200 + 1
    assert out[-1] == "… showing 200 of 235; use --limit to see more"
    assert len(fake_scryfall.requests_to("/cards/search")) == 2


def test_cycling_with_extra_terms(capsys):
    assert main(["cycling", "c:r", "cmc<=2"]) == 0
    assert capsys.readouterr().out.startswith("8 cards with any cycling")


def test_cycling_malformed_query_exits_1_with_scryfalls_details(capsys):
    assert main(["cycling", "c:r)"]) == 1
    assert "unmatched closing parenthesis" in capsys.readouterr().err


def test_cycling_without_results_exits_1(capsys):
    assert main(["cycling", "--kind", "basic", "t:dragon"]) == 1
    assert "No cards with basic landcycling match that search." in capsys.readouterr().err


def test_scryfall_down_without_a_local_copy_exits_1_saying_how_to_get_one(capsys, fake_scryfall):
    fake_scryfall.fail_next(500, count=10)
    assert main(["card", "Street Wraith"]) == 1
    (line,) = capsys.readouterr().err.splitlines()
    assert line == "error: no local card data yet, and Scryfall can't be reached: run `cyclebot cards update`."


def test_overlong_query_is_refused_before_asking_scryfall(capsys, fake_scryfall):
    assert main(["cycling", "c:r " * 100]) == 1
    assert "under 200 characters" in capsys.readouterr().err
    assert not fake_scryfall.requests


def test_card_and_cycling_answer_from_the_stored_local_copy_without_asking_scryfall(
    capsys, fake_scryfall, data_dir, bulk_copy
):
    shutil.copyfile(bulk_copy, data_dir / "cards.sqlite3")
    fake_scryfall.refuse_api(503)

    assert main(["card", "Street", "Wraith"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "Street Wraith {3}{B}{B}"
    assert "(Scryfall bulk data of 2026-11-20)" in out
    assert main(["cycling", "--kind", "basic"]) == 0
    captured = capsys.readouterr()
    assert captured.out.splitlines()[0] == '11 cards with basic landcycling (keyword:"basic landcycling")'
    assert captured.err == "from Scryfall bulk data of 2026-11-20\n"
    assert fake_scryfall.api_requests() == []


@pytest.fixture
def local_copy(data_dir, bulk_copy):
    from bot.carddb.service import FILE_NAME

    shutil.copyfile(bulk_copy, data_dir / FILE_NAME)


def test_search_prints_the_count_and_a_page_from_the_local_copy(capsys, fake_scryfall, local_copy):
    assert main(["search", "t:creature", "t:instant"]) == 0
    captured = capsys.readouterr()
    assert captured.out.splitlines() == [
        "1 card · page 1/1",
        "Bonecrusher Giant // Stomp {2}{R} // {1}{R} — Creature — Giant // Instant — Adventure",
    ]
    assert "from the local copy" in captured.err
    assert fake_scryfall.api_requests() == []


def test_search_that_cannot_run_exits_1_with_the_reason(capsys, local_copy):
    assert main(["search", "(t:goblin"]) == 1
    assert capsys.readouterr().err == "error: A parenthesis is opened and never closed: add the closing ).\n"


def test_cycling_query_the_engine_cannot_read_exits_1_with_the_reason(capsys, local_copy):
    assert main(["cycling", "c:r)"]) == 1
    assert "closing parenthesis" in capsys.readouterr().err
