"""The coach's evaluation: seeded duels between the coach's move and the policy's at one decision of a game.

A duel deals a preset deck with a seed, lets the policy play up to the first main-phase decision with a choice
on a turn from 1 to 5 (the seed picks it), then plays the position twice on: once from the policy's move, once
from the coach's, both by the policy afterwards and both on the game's real library and random generator (the
coach itself never saw their order). The turn of the kill in each line is compared. A benchmark runs duels on
a tuning set of seeds (what the coach's margin and rollout count were chosen on) and a frozen test set.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.goldfish.decks import preset_decks
from bot.goldfish.engine import Game, IllegalAction
from bot.goldfish.practice.coach import HORIZON, advise, candidates
from bot.goldfish.practice.simulate import PolicyError, game_seed, play_on, policy_step

DECKS = ("slide", "landcycling", "two-colour")
DECISION_TURNS = 5


@dataclass(frozen=True)
class Duel:
    seed: int
    deck: str
    turn: int
    policy_kill: int  # HORIZON + 1: no kill
    coach_kill: int
    departed: bool  # the coach chose another move than the policy's


def _kill(game: Game) -> int:
    return game.turn if game.phase == "over" and game.opponent.life <= 0 and game.turn <= HORIZON else HORIZON + 1


def _line(game: Game, first) -> int:
    line = game.clone()
    try:
        line.apply(first)
        play_on(line, HORIZON)
    except (PolicyError, IllegalAction):
        return HORIZON + 1
    return _kill(line)


def duel(index: int, base: int, rollouts: int) -> Duel | None:
    """Duel number ``index`` of the set seeded ``base``; None when the game never reaches a choice."""
    seed = game_seed(base, index)
    deck_key = DECKS[index % len(DECKS)]
    turn = 1 + seed % DECISION_TURNS
    game = Game.new(preset_decks()[deck_key], seed=seed)
    try:
        while game.phase != "over" and game.turn <= HORIZON:
            if game.turn >= turn and game.phase == "main" and len(candidates(game)) > 1:
                break
            policy_step(game)
    except PolicyError:
        return None
    if game.phase != "main":
        return None
    advice = advise(game, rollouts=rollouts)
    policy_kill = _line(game, advice.policy_move)
    coach_kill = policy_kill if advice.best == advice.policy_move else _line(game, advice.best)
    return Duel(seed, deck_key, game.turn, policy_kill, coach_kill, advice.best != advice.policy_move)


def duels(indices: Sequence[int], base: int, rollouts: int) -> list[Duel]:
    """Several duels (run in a worker process)."""
    return [d for d in (duel(i, base, rollouts) for i in indices) if d is not None]
