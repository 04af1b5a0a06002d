"""The card fixture of the rules question set: a real card object for every card a question names, in today's Oracle
templating, each naming its source, and imported by the bot's own card import (scripts/make_question_cards.py)."""

from __future__ import annotations

import json
import re
import uuid
from pathlib import Path

import pytest

from bot.carddb import CardStore
from bot.carddb.importer import REQUIRED
from bot.carddb.update import update_from_scryfall
from scripts import make_question_cards as script
from tests.data import DATA, QUESTION_CARD_NAMES, QUESTION_CARDS, load_question_cards
from tests.support.fake_bulk import FakeBulk, default_rulings

CARDS = load_question_cards()
NAMES = json.loads(QUESTION_CARD_NAMES.read_text(encoding="utf-8"))
QUESTION_NAMES = script.question_names()
SOURCES_MD = (DATA / "SOURCES.md").read_text(encoding="utf-8")
PARTS_OF = {name: card for card in CARDS for name in script.card_names(card)}  # a card and each face → the card


def parts(card: dict) -> list[dict]:
    """What carries the card's rules text: its faces, or the card itself."""
    return card.get("card_faces") or [card]


def texts(card: dict) -> list[str]:
    return [part["oracle_text"] for part in parts(card)]


def fixture_card(name: str) -> dict:
    """The fixture's card for a name of the question set (its own, a face's, or an alias's)."""
    alias = NAMES["aliases"].get(name)
    return PARTS_OF[alias["card"] if alias else name]


def test_every_card_the_question_set_names_is_in_the_fixture_or_unresolved_with_a_reason():
    assert len(QUESTION_NAMES) >= 361
    unresolved = NAMES["unresolved"]
    missing = [name for name in QUESTION_NAMES if name not in unresolved and name not in PARTS_OF]
    missing = [name for name in missing if NAMES["aliases"].get(name, {}).get("card") not in PARTS_OF]
    assert missing == []
    assert all(reason.strip() for reason in unresolved.values())


def test_an_alias_maps_a_name_no_card_has_to_a_card_the_fixture_holds_and_says_why():
    for name, alias in NAMES["aliases"].items():
        assert name in QUESTION_NAMES  # no stale entry
        assert name not in PARTS_OF  # a card's own name needs no alias
        assert alias["card"] in PARTS_OF and alias["reason"].strip()
    assert set(NAMES["unresolved"]) <= set(QUESTION_NAMES)
    assert fixture_card("Reckless Anchorage")["name"] == "Restless Anchorage"


def test_the_fixture_holds_one_object_a_card_and_no_more_than_the_question_set_needs():
    names = [card["name"] for card in CARDS]
    assert names == sorted(set(names))
    needed = {fixture_card(name)["name"] for name in QUESTION_NAMES if name not in NAMES["unresolved"]}
    assert set(names) == needed
    assert len({card["id"] for card in CARDS}) == len({card["oracle_id"] for card in CARDS}) == len(CARDS)


def test_the_fixture_is_small():
    assert QUESTION_CARDS.stat().st_size < 1_000_000


def test_every_object_has_the_fields_the_importer_reads():
    for card in CARDS:
        assert set(card) <= {*script.FIELDS, "_source"}, card["name"]
        assert card["object"] == "card" and all(card.get(key) for key in REQUIRED), card["name"]
        uuid.UUID(card["id"]), uuid.UUID(card["oracle_id"])
        assert card["lang"] == "en" and isinstance(card["cmc"], float)
        assert isinstance(card["legalities"], dict) and isinstance(card["games"], list)
        assert isinstance(card["digital"], bool)
        for key in ("color_identity", "keywords"):
            assert isinstance(card[key], list) and all(isinstance(item, str) for item in card[key]), card["name"]
        assert set(card["color_identity"]) <= set("WUBRG")
        assert " // ".join(part["type_line"] for part in parts(card)) == card["type_line"]
        if "card_faces" in card:
            assert len(card["card_faces"]) >= 2 and "oracle_text" not in card
            assert " // ".join(face["name"] for face in card["card_faces"]) == card["name"]
            assert all(face["object"] == "card_face" for face in card["card_faces"])
        else:
            assert isinstance(card["colors"], list) and isinstance(card["mana_cost"], str)
        for index, part in enumerate(parts(card)):
            assert isinstance(part["oracle_text"], str), part["name"]
            if re.search(r"\bCreature\b", part["type_line"]):
                assert part.get("power") is not None and part.get("toughness") is not None, part["name"]
            if re.search(r"\bPlaneswalker\b", part["type_line"]) and index == 0:  # a back face keeps its counters
                assert part.get("loyalty") is not None, part["name"]


def test_every_multi_face_card_keeps_each_face_s_own_text():
    faces = {face["name"]: face for card in CARDS for face in card.get("card_faces", ())}
    assert faces["Call"]["oracle_text"].startswith("Create four 1/1 white Bird creature tokens")
    assert faces["Jace, Telepath Unbound"]["loyalty"] == "5"
    assert faces["Bubble Up"]["type_line"] == "Sorcery — Adventure"
    assert all(face["oracle_text"] for face in faces.values())


def test_the_oracle_text_is_in_today_s_templating():
    for card in CARDS:
        for text in texts(card):
            assert "enters the battlefield" not in text, card["name"]
            assert "converted mana cost" not in text.lower(), card["name"]
            assert not re.search(r"^\[[+−]?(\d+|X)\]:", text, re.MULTILINE), card["name"]  # loyalty as Scryfall
    mulldrifter = PARTS_OF["Mulldrifter"]["oracle_text"]
    assert "When this creature enters, draw two cards." in mulldrifter
    assert "mana value" in PARTS_OF["Abrupt Decay"]["oracle_text"]


def test_a_face_kept_from_an_older_object_says_it_was_reworded():
    reworded = [card for card in CARDS if card["_source"].get("reworded")]
    for card in reworded:
        assert card["_source"].get("faces_from_object") or "oracle" not in card["_source"]
        assert all(rule in {rule for _p, _r, rule in script.REWORDINGS} for rule in card["_source"]["reworded"])
    applied: list[str] = []
    older = "When Ravager enters the battlefield, destroy target artifact with converted mana cost 2 or less."
    assert script.reword(older, applied) == "When Ravager enters, destroy target artifact with mana value 2 or less."
    assert applied == ["enters the battlefield → enters", "converted mana cost → mana value"]
    assert PARTS_OF["Beck // Call"]["_source"]["faces_from_object"] == ["Call"]


def test_every_object_names_its_source_and_the_source_s_terms_are_written_down():
    for card in CARDS:
        source = card["_source"]
        if source["object"] is None:
            assert source["made_here"] and source["oracle"], card["name"]
            assert uuid.UUID(card["id"]).version == 5  # made here: never taken for one of Scryfall's
        elif "fixture" in source["object"]:
            assert (Path(script.REPO) / source["object"]["fixture"]).exists()
        else:
            assert re.fullmatch(r"[0-9a-f]{40}", source["object"]["commit"]) and source["object"]["path"]
            assert f"**{source['object']['repo']}**" in SOURCES_MD, source["object"]["repo"]
            assert uuid.UUID(card["id"]).version == 4  # Scryfall's ids
        if source.get("oracle"):
            assert source["oracle"]["package"] in SOURCES_MD
        for face_source in source.get("faces", {}).values():
            assert f"**{face_source['repo']}**" in SOURCES_MD
    assert "question-cards.jsonl.gz" in SOURCES_MD


def test_the_committed_fixture_passes_the_script_s_check(capsys):
    assert script.main(["--check"]) == 0
    assert "every card of the question set" in capsys.readouterr().out


def test_the_script_s_check_finds_what_is_wrong_with_a_fixture():
    bad = json.loads(json.dumps(CARDS))
    mulldrifter = next(card for card in bad if card["name"] == "Mulldrifter")
    mulldrifter["oracle_text"] = "When Mulldrifter enters the battlefield, draw two cards."
    mulldrifter["type_line"] = "Creature â€” Elemental"
    del next(card for card in bad if card["name"] == "Counterspell")["legalities"]
    next(card for card in bad if card["name"] == "Murder")["_source"] = {}
    bad = [card for card in bad if card["name"] != "Thragtusk"]
    assert sorted(script.problems(bad, NAMES)) == [
        "Counterspell: no legalities",
        "Mulldrifter: Oracle text in old templating",
        "Mulldrifter: text decoded with the wrong encoding",
        "Murder: no source named",
        "Thragtusk: not in the fixture, nor an alias of a card in it, nor unresolved",
    ]


@pytest.mark.parametrize(
    ("literal", "value"),
    [
        ("module.exports = [ { name: 'Beck // Call', cmc: 8, digital: false, x: undefined } ];",
         [{"name": "Beck // Call", "cmc": 8, "digital": False, "x": None}]),
        ("module.exports = [ { oracle_text:\n 'When it dies, ' +\n 'draw.', flavor: `\"Don't,\" she said.` } ]",
         [{"oracle_text": "When it dies, draw.", "flavor": "\"Don't,\" she said."}]),
        (r"module.exports = [ { '1v1': 'legal', t: 'it\'s \u2014 here\n' } ]",
         [{"1v1": "legal", "t": "it's — here\n"}]),
    ],
)  # fmt: skip
def test_the_2019_files_javascript_literals_are_read_as_data(literal, value):
    assert script.js_literal(literal) == value


def test_a_javascript_literal_with_code_in_it_is_refused():
    with pytest.raises(ValueError):
        script.js_literal("module.exports = [ { name: require('fs').readFileSync('/etc/passwd') } ]")


def test_the_fixture_imports_into_the_card_database_and_every_name_is_found(tmp_path):
    """Served as Scryfall serves its bulk file and imported as the bot imports it; then every name of the question
    set is looked up as /card looks a name up."""
    cards_path = tmp_path / "cards.jsonl"
    cards_path.write_text("".join(json.dumps(card, ensure_ascii=False) + "\n" for card in CARDS), encoding="utf-8")
    db_path = tmp_path / "cards.sqlite3"
    with FakeBulk(cards_path) as fake:
        fake.cards = [card for card in fake.cards if "_source" in card]  # the fixture alone, not the fake's own
        fake.rulings = default_rulings(fake.cards)
        outcome = update_from_scryfall(db_path, fake.base_url)
    assert outcome.result is not None and (outcome.result.count, outcome.result.skipped) == (len(CARDS), 0)
    store = CardStore(db_path)
    try:
        for name in QUESTION_NAMES:
            if name in NAMES["unresolved"]:
                continue
            wanted = fixture_card(name)["name"]
            looked_up = NAMES["aliases"][name]["card"] if name in NAMES["aliases"] else name
            match = store.named(looked_up)
            assert match is not None and match.card is not None, name
            assert (match.card.name, match.how) == (wanted, "exact" if looked_up == wanted else "face"), name
            assert match.card.id == fixture_card(name)["id"]
    finally:
        store.close()
