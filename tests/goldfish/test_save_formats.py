"""Saved games across formats: a save written before actions named their actor still loads and plays on, and the
current format keeps who took each action (CR-free: this is the bot's own storage)."""

from __future__ import annotations

import json

from bot.goldfish import Game
from bot.goldfish.save import FORMAT
from bot.goldfish.simulate import policy_step
from tests.data import GOLDFISH_SAVE_V3


def old_save() -> dict:
    return json.loads(GOLDFISH_SAVE_V3.read_text(encoding="utf-8"))


def test_a_format_3_save_loads_as_the_game_its_actions_replay():
    state = old_save()
    assert state["format"] == 3 and all(len(event) == 3 for event in state["events"])

    game = Game.from_dict(state)

    replayed = Game.replay(game.deck(), game.seed, game.on_the_play, game.actions)
    # The same game; only the wording of some events has changed since it was saved ("Kept 7 card(s)").
    assert {**game.to_dict(), "events": None} == {**replayed.to_dict(), "events": None}
    assert [(e.kind, e.rule) for e in game.events] == [(e.kind, e.rule) for e in replayed.events]
    assert game.actors == [None] * len(game.actions) and all(event.actor is None for event in game.events)
    assert game.turn == 4 and game.replayable


def test_an_old_save_plays_on_and_is_saved_in_the_current_format_with_who_acted():
    game = Game.from_dict(old_save())
    before = len(game.actions)

    game.apply(game.legal_actions()[0], actor=42)
    state = json.loads(json.dumps(game.to_dict()))

    assert state["format"] == FORMAT == 4
    assert state["actions"][-1]["by"] == 42 and all("by" not in a for a in state["actions"][:before])
    assert state["events"][-1][3] == 42 and all(len(e) == 3 for e in state["events"][: len(old_save()["events"])])
    again = Game.from_dict(state)
    assert again == game and again.actors[-1] == 42 and again.events[-1].actor == 42


def test_undo_keeps_who_took_the_actions_it_replays():
    game = Game.from_dict(old_save())
    for actor in (7, 8, 7):
        game.apply(game.legal_actions()[0], actor=actor)

    undone = game.undone()

    assert undone.actors[-2:] == [7, 8]
    assert [e for e in undone.events if e.actor is not None] == [e for e in game.events if e.actor in (7, 8)][
        : len([e for e in undone.events if e.actor is not None])
    ]


def test_games_played_without_naming_players_save_as_before():
    game = Game.from_dict(old_save())
    policy_step(game)
    state = game.to_dict()
    assert all("by" not in action for action in state["actions"])
    assert all(len(event) == 3 for event in state["events"])
