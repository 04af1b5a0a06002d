"""The recorded games play out as they were recorded: the same inputs give, line for line, what the terminal
printed and what Discord showed (see :mod:`tests.goldfish.recorded_games`).

``GOLDFISH_RECORD=1`` records them again instead (only for a change meant to change what players see).
"""

from __future__ import annotations

import os

import pytest

from tests.goldfish import recorded_games

RECORD = os.environ.get("GOLDFISH_RECORD") == "1"
PARTS = 3


def recorded(front: str) -> list[dict]:
    return [game for game in recorded_games.load() if game["front"] == front]


def first_difference(game: dict, outputs: list[list[str]]) -> str:
    """Where the replay first differs from the recording, for the failure message."""
    # The terminal prints before the first input too: its outputs run one ahead of its inputs.
    ahead = len(game["outputs"]) - len(game["inputs"])
    for index, (want, got) in enumerate(zip(game["outputs"], outputs, strict=False)):
        if want != got:
            same = min(len(want), len(got))
            line = next((n for n, (w, g) in enumerate(zip(want, got, strict=False)) if w != g), same)
            typed = game["inputs"][index - ahead] if index >= ahead else "(before the first input)"
            return (
                f"{game['id']}, after {typed}: line {line}\n"
                f"recorded: {want[line] if line < len(want) else '(nothing)'}\n"
                f"now:      {got[line] if line < len(got) else '(nothing)'}"
            )
    return f"{game['id']}: {len(game['outputs'])} outputs recorded, {len(outputs)} now"


@pytest.mark.skipif(RECORD, reason="recording")
def test_the_recording_holds_at_least_fifty_games_of_every_kind():
    games = recorded_games.load()
    assert len(games) >= 50
    assert {g["front"] for g in games} == {"terminal", "discord"}
    assert {g["deck"] for g in games} == {g["deck"] for g in recorded_games.specs()}
    assert {g["draw"] for g in games} == {True, False} and {g["shared"] for g in games} == {True, False}
    typed = " ".join(line for g in games if g["front"] == "terminal" for line in g["inputs"])
    for command in ("mulligan", "keep", "cycle", "find", "cast", "play", "undo", "next", "quit"):
        assert command in typed, command
    said = "\n".join(line for g in games for output in g["outputs"] for line in output)
    for event in ("Mulligan 1", "Cycled", "searched for a", "Cast ", "Undid the last action", "ended by"):
        assert event in said, event


@pytest.mark.skipif(RECORD, reason="recording")
@pytest.mark.parametrize("part", range(PARTS))
def test_terminal_games_print_what_they_printed_when_recorded(part):
    games = recorded("terminal")[part::PARTS]
    assert games
    for game in games:
        outputs = recorded_games.replay_terminal(game, game["inputs"])
        assert outputs == game["outputs"], first_difference(game, outputs)


@pytest.mark.skipif(RECORD, reason="recording")
@pytest.mark.parametrize("part", range(PARTS))
async def test_discord_games_show_what_they_showed_when_recorded(simcord_env, part):
    games = recorded("discord")[part::PARTS]
    assert games
    for number, game in enumerate(games):
        outputs = await recorded_games.replay_discord(simcord_env, game, game["inputs"], number)
        assert outputs == game["outputs"], first_difference(game, outputs)


@pytest.mark.skipif(not RECORD, reason="set GOLDFISH_RECORD=1 to record the games again")
async def test_record_the_games(simcord_env):
    games = []
    for number, spec in enumerate(recorded_games.specs()):
        if spec["front"] == "terminal":
            inputs = recorded_games.terminal_inputs(spec)
            outputs = recorded_games.replay_terminal(spec, inputs)
        else:
            inputs, outputs = await recorded_games.discord_inputs(simcord_env, spec, number)
        games.append({**spec, "inputs": inputs, "outputs": outputs})
    recorded_games.save(games)
