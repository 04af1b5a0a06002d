"""Saved games across formats: a save of every earlier format (each written by the code of its time) still loads
and plays on, and is saved again in the current format, which keeps the game's parts and who took each action
(CR-free: this is the bot's own storage)."""

from __future__ import annotations

import json

import pytest

from bot.goldfish.decks import preset_decks
from bot.goldfish.engine import Game, IllegalAction
from bot.goldfish.engine.save import FORMAT
from bot.goldfish.practice.simulate import policy_step
from tests.data import GOLDFISH_SAVE_CURRENT, GOLDFISH_SAVES


def old_save(number: int) -> dict:
    return json.loads(GOLDFISH_SAVES[number].read_text(encoding="utf-8"))


def load(state: dict) -> Game:
    return Game.from_dict(state, preset_decks())


@pytest.mark.parametrize("number", sorted(GOLDFISH_SAVES))
def test_a_save_of_every_earlier_format_loads_plays_on_and_is_saved_in_the_current_one(number):
    state = old_save(number)
    assert state["format"] == number < FORMAT == 5

    game = load(state)
    assert game.turn == 4 and game.phase == "main" and game.deck_key == "slide"
    library, hand = len(game.zones.library), len(game.zones.hand)
    assert library + hand + len(game.zones.graveyard) + len(game.zones.battlefield) == 60
    assert game.player.life == state["life"] and game.opponent.life == state["opponent_life"]

    game.apply(game.legal_actions()[0], actor=42)
    saved = json.loads(json.dumps(game.to_dict()))
    assert saved["format"] == FORMAT and {"zones", "player", "opponent"} <= set(saved)
    again = load(saved)
    assert again == game and again.to_dict() == saved


def test_a_save_of_the_current_format_loads_and_is_written_back_the_same():
    state = json.loads(GOLDFISH_SAVE_CURRENT.read_text(encoding="utf-8"))
    assert state["format"] == FORMAT

    game = load(state)
    assert game.turn == 4 and game.phase == "main" and game.deck_key == "slide"
    assert game.player.life == state["player"]["life"] and len(game.zones.hand) == len(state["zones"]["hand"])
    assert json.loads(json.dumps(game.to_dict())) == state


def test_a_format_1_save_keeps_its_log_as_text():
    game = load(old_save(1))
    assert game.events and all(event.kind == "log" for event in game.events)
    assert game.log == old_save(1)["log"]


@pytest.mark.parametrize("number", [1, 2])
def test_format_1_and_2_logs_came_from_an_older_engine_so_they_cannot_be_replayed_for_undo(number):
    game = load(old_save(number))
    assert game.zones.hand.iids() == tuple(old_save(number)["hand"])
    with pytest.raises(IllegalAction, match="older version"):
        game.undone()


def test_a_format_3_save_loads_as_the_game_its_actions_replay():
    state = old_save(3)
    assert all(len(event) == 3 for event in state["events"])

    game = load(state)

    replayed = Game.replay(game.deck(), game.seed, game.on_the_play, game.actions)
    # The same game; only the wording of some events has changed since it was saved ("Kept 7 card(s)").
    assert {**game.to_dict(), "events": None} == {**replayed.to_dict(), "events": None}
    assert [(e.kind, e.rule) for e in game.events] == [(e.kind, e.rule) for e in replayed.events]
    assert game.actors == [None] * len(game.actions) and all(event.actor is None for event in game.events)
    assert game.turn == 4 and game.replayable


def test_a_format_4_save_keeps_who_acted_and_is_exactly_the_game_its_actions_replay():
    game = load(old_save(4))
    assert set(game.actors) == {111, 222} and {e.actor for e in game.events[2:]} == {111, 222}
    replayed = Game.replay(game.deck(), game.seed, game.on_the_play, game.actions, game.actors)
    assert replayed == game and replayed.to_dict() == game.to_dict()
    assert game.undone().actions == game.actions[:-1]


def test_an_old_save_plays_on_and_is_saved_in_the_current_format_with_who_acted():
    game = load(old_save(3))
    before = len(game.actions)

    game.apply(game.legal_actions()[0], actor=42)
    state = json.loads(json.dumps(game.to_dict()))

    assert state["format"] == FORMAT
    assert state["actions"][-1]["by"] == 42 and all("by" not in a for a in state["actions"][:before])
    assert state["events"][-1][3] == 42 and all(len(e) == 3 for e in state["events"][: len(old_save(3)["events"])])
    again = load(state)
    assert again == game and again.actors[-1] == 42 and again.events[-1].actor == 42


def test_undo_keeps_who_took_the_actions_it_replays():
    game = load(old_save(3))
    for actor in (7, 8, 7):
        game.apply(game.legal_actions()[0], actor=actor)

    undone = game.undone()

    assert undone.actors[-2:] == [7, 8]
    assert [e for e in undone.events if e.actor is not None] == [e for e in game.events if e.actor in (7, 8)][
        : len([e for e in undone.events if e.actor is not None])
    ]


def test_games_played_without_naming_players_save_as_before():
    game = load(old_save(3))
    policy_step(game)
    state = game.to_dict()
    assert all("by" not in action for action in state["actions"])
    assert all(len(event) == 3 for event in state["events"])
