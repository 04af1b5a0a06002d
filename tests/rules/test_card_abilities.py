"""Each named card read as a judge reads it (core, no Discord): what kind of ability each sentence of a real card is,
the rules each kind opens (bot/data/card-abilities.toml, checked against the rules), and what a question asks."""

from __future__ import annotations

import json

import pytest

from bot.rules.asking.abilities import asks_of, cited_rules, load, read_card, sentences
from scripts import check_phrasings
from tests.data import ABILITY_CARDS, CR_2026, load_question_cards

CARDS = {card["name"]: card for card in map(json.loads, ABILITY_CARDS.read_text(encoding="utf-8").splitlines())}

# Each real card and the kinds a judge reads on it (the card's own words, reminder text aside).
EXPECTED = {
    "Mulldrifter": {"enters trigger"},
    "Blood Artist": {"dies trigger"},
    "Fiend Hunter": {"enters trigger", "leaves trigger", "put onto the battlefield under a player's control"},
    "Young Pyromancer": {"cast trigger", "tokens"},
    "Hero of Bladehold": {"attack or block trigger", "tokens"},
    "Hypnotic Specter": {"damage trigger"},
    "Phyrexian Arena": {"beginning of a step trigger"},
    "Dandân": {"state trigger", "can't"},
    "Felidar Sovereign": {"beginning of a step trigger", "intervening if"},
    "Sneak Attack": {"activated ability", "delayed trigger", "ability change"},
    "Fireblade Artist": {"beginning of a step trigger", "reflexive trigger"},
    "Phantasmal Image": {"copy of a permanent", "becomes the target trigger", "type change"},
    "Liliana of the Veil": {"loyalty ability", "legendary"},
    "Llanowar Elves": {"mana ability", "tap ability"},
    "Prodigal Sorcerer": {"tap ability", "activated ability"},
    "Shivan Dragon": {"activated ability", "power and toughness change"},
    "Skyshroud Ranger": {"tap ability", "activation restriction"},
    "Platinum Emperion": {"can't"},
    "Vedalken Orrery": {"as though"},
    "Goblin Electromancer": {"cost change"},
    "Bone Splinters": {"additional cost"},
    "Force of Will": {"alternative cost", "countering"},
    "Tarmogoyf": {"characteristic-defining ability"},
    "Glorious Anthem": {"power and toughness change"},
    "Humility": {"ability change", "power and toughness set"},
    "Opalescence": {"type change", "power and toughness set"},
    "Darkest Hour": {"colour change"},
    "Shifting Sky": {"colour change", "enters with or as"},
    "Wild Mongrel": {"colour change", "power and toughness change"},
    "Act of Treason": {"control change", "ability change"},
    "Reanimate": {"put onto the battlefield under a player's control"},
    "Clone": {"copy of a permanent", "enters with or as"},
    "Twincast": {"copy of a spell or ability"},
    "Rest in Peace": {"enters trigger", "replacement effect"},
    "Stasis": {"skip", "beginning of a step trigger"},
    "Walking Ballista": {"enters with or as", "counters on a permanent", "activated ability"},
    "Pariah": {"damage redirected", "replacement effect"},
    "Fog": {"prevention effect"},
    "Counterspell": {"countering"},
    "Raise the Alarm": {"tokens"},
    "Banishing Light": {"enters trigger", "exile until"},
    "Gravedigger": {"enters trigger", "return from the graveyard"},
    "Command Tower": {"mana ability", "commander"},
    "Time Walk": {"extra turn"},
    "Krenko, Mob Boss": {"legendary", "tokens", "tap ability"},
}
# Kinds a card must not be read as: a counter put on a permanent is no countering (701.6), a trigger is no
# activated ability, an "enters" trigger no replacement effect.
NOT_EXPECTED = {
    "Walking Ballista": {"countering"},
    "Counterspell": {"counters on a permanent"},
    "Mulldrifter": {"activated ability", "enters with or as"},
    "Blood Artist": {"enters trigger"},
    "Glorious Anthem": {"power and toughness set"},
    "Rest in Peace": {"enters with or as"},
}


def kinds_of(card: dict) -> set[str]:
    return {reading.kind.name for reading in read_card(card["oracle_text"], card["type_line"], card["name"])}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_real_card_is_read_into_the_kinds_a_judge_reads_on_it(name):
    found = kinds_of(CARDS[name])
    assert EXPECTED[name] <= found, found
    assert not NOT_EXPECTED.get(name, set()) & found


def test_every_kind_of_the_data_file_is_read_on_a_real_card():
    kinds, _asks = load()
    assert {kind.name for kind in kinds} <= set().union(*EXPECTED.values())
    assert set(CARDS) == set(EXPECTED)


def test_every_rule_the_data_file_cites_is_a_rule_of_the_2026_edition(capsys):
    assert check_phrasings.main(["--rules", str(CR_2026)]) == 0
    assert "card-abilities.toml" in capsys.readouterr().out
    assert {"614.1a", "603.10a", "707.10", "613.1b", "122.1", "701.6a"} <= set(cited_rules())


def test_the_check_reports_a_cited_rule_the_edition_lacks(tmp_path, capsys):
    data = tmp_path / "abilities.toml"
    data.write_text(
        '[[kind]]\nname = "x"\ngroup = "g"\npattern = "x"\nrules = ["614.1a", "999.9z"]\n', encoding="utf-8"
    )
    assert check_phrasings.main(["--rules", str(CR_2026), "--abilities", str(data)]) == 1
    assert "999.9z" in capsys.readouterr().out


def test_a_card_is_read_sentence_by_sentence_in_today_s_templating_reminder_text_aside():
    lines = sentences("Flying (This creature can fly.)\nWhen this creature enters, draw a card. Then discard.", "X")
    assert lines == ["flying", "when ~ enters, draw a card.", "then discard."]
    assert sentences("Tarmogoyf's power is equal to 2.", "Tarmogoyf") == ["~'s power is equal to 2."]


def test_a_card_s_faces_are_all_read():
    fixture = {card["name"]: card for card in load_question_cards()}
    faced = [card for card in fixture.values() if card.get("card_faces")]
    assert faced
    for card in faced:
        text = "\n".join(face.get("oracle_text", "") for face in card["card_faces"])
        assert kinds_of({**card, "oracle_text": text}) >= {
            kind
            for face in card["card_faces"]
            for kind in kinds_of({**card, "oracle_text": face.get("oracle_text", "")})
        }


@pytest.mark.parametrize(
    ("question", "ask"),
    [
        ("does it still trigger if it dies in response", "triggers"),
        ("can I respond before it resolves", "timing and responding"),
        ("who controls the token when the effect ends", "who controls"),
        ("what happens to my clone when it leaves", "what happens to an object"),
        ("can I activate it twice", "allowed"),
        ("how much does it cost with two reducers", "amounts"),
        ("does it lose its abilities", "characteristics"),
        ("does it go to the graveyard or exile", "zones"),
        ("can my opponent counter it", "countering"),
    ],
)
def test_what_a_question_asks_is_read_from_its_words(question, ask):
    assert ask in {found.name for found in asks_of(question)}


def test_a_counter_on_a_creature_is_not_an_ask_about_countering():
    assert "countering" not in {found.name for found in asks_of("I put a +1/+1 counter on it")}
