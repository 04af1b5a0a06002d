"""The coach: every legal move played out by seeded rollouts with the stated policy, measured and ranked.

A rollout copies the game (:meth:`Game.clone`), shuffles the copy's library with the rollout's own
seed (the player doesn't know the order of their library, so neither does the coach), applies the
candidate move through :meth:`Game.apply`, then lets :mod:`bot.goldfish.practice.policy` play on until the
goldfish dies, the player loses, or turn ``horizon`` ends. Rollout ``i`` uses the same seed for every
candidate (common random numbers), so two moves are compared on the same future draws and the
difference between them is measured far more precisely than either alone.

A candidate's figures are the turn of the kill in each rollout (``horizon + 1`` when there was none)
and whether the next two land drops were made. The coach recommends the move with the earliest mean
kill turn, but departs from the policy's own move only when it is measurably better: by at least
``MARGIN`` turns on average and by more than twice the standard error of the paired difference.

A hint measures its rollouts in worker processes (:func:`advise_in_pool`), never on the event loop of the bot.
This module decides; :mod:`bot.goldfish.practice.advice` says it in sentences. Nothing here knows Discord.
"""

from __future__ import annotations

import asyncio
import logging
import math
import random
from collections.abc import Callable, Sequence
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass

from bot.goldfish.engine import Action, Game, IllegalAction
from bot.goldfish.practice import policy
from bot.goldfish.practice.simulate import MAX_TURNS, PolicyError, SimulationPool, game_seed, play_on

log = logging.getLogger(__name__)

ROLLOUTS = 32  # per candidate, for a hint with up to ROLLOUT_BUDGET // ROLLOUTS candidates
ROLLOUT_BUDGET = 240  # rollouts in all: more candidates (many search targets) get fewer each
MIN_ROLLOUTS = 8
HORIZON = MAX_TURNS
LAND_LOOKAHEAD = 2  # "the next two land drops"
MARGIN = 0.2  # turns: a smaller gain over the policy's move is not worth departing from it
MAX_CANDIDATES = 24  # distinct moves measured; the rest (rare: many search targets) keep the engine's order


@dataclass(frozen=True)
class Outcome:
    """One rollout: the kill turn (``horizon + 1`` when none) and whether the next land drops were made."""

    kill_turn: int
    killed: bool
    land_drops: bool


@dataclass(frozen=True)
class Figures:
    """A candidate move's rollouts, in seed order."""

    action: Action
    outcomes: tuple[Outcome, ...]

    @property
    def rollouts(self) -> int:
        return len(self.outcomes)

    @property
    def mean_kill_turn(self) -> float:
        return sum(o.kill_turn for o in self.outcomes) / len(self.outcomes) if self.outcomes else math.inf

    @property
    def kill_share(self) -> float:
        return sum(o.killed for o in self.outcomes) / len(self.outcomes) if self.outcomes else 0.0

    @property
    def land_share(self) -> float:
        return sum(o.land_drops for o in self.outcomes) / len(self.outcomes) if self.outcomes else 0.0


@dataclass(frozen=True)
class Advice:
    """What the coach recommends at one decision, and the figures behind it.

    ``basis``: ``"rollouts"`` (the best measured move is clearly better than the policy's),
    ``"policy"`` (no move measured clearly better, so the policy's), ``"only"`` (one legal move),
    ``"unmeasured"`` (a choice of several cards: the policy's, not played out), ``"timeout"`` (the rollouts
    did not finish in time: the policy's move, unmeasured).
    ``figures`` are best first; ``gain`` is how many turns sooner the recommended move kills than the
    policy's, on average over the same rollouts.
    """

    decision: str
    best: Action
    policy_move: Action
    basis: str
    figures: tuple[Figures, ...] = ()
    gain: float = 0.0
    seed: int = 0

    def figures_of(self, action: Action) -> Figures | None:
        return next((f for f in self.figures if f.action == action), None)


# ------------------------------------------------------------------ the candidates


def _name(game: Game, iid: int | None) -> str | None:
    return None if iid is None else game.iid_names.get(iid, f"#{iid}")


def signature(game: Game, action: Action) -> tuple:
    """What makes two moves different for the game's future: card names, not which copy."""
    return (
        action.kind,
        _name(game, action.iid),
        action.ability,
        _name(game, action.find),
        action.find_nothing,
        action.x,
        _name(game, action.sacrifice),
        action.pay,
        tuple(sorted(_name(game, i) for i in action.bottom)),
        tuple(sorted(_name(game, i) for i in action.cards)),
    )


def policy_move(game: Game) -> Action:
    """The policy's move now: its first proposal the engine accepts (tried on a copy)."""
    for action in policy.proposals(game):
        try:
            game.clone().apply(action)
        except IllegalAction:
            continue
        return action
    raise IllegalAction("There is no move to make now.")


def _one_card_choices(game: Game) -> list[Action]:
    """A choice of one card (discard one, or put one on the bottom): one move per card name."""
    decision = game.decision()
    if decision.count != 1:
        return []
    kind = "discard" if decision.kind == "discard" else "keep"
    field = "cards" if kind == "discard" else "bottom"
    return [Action(kind, **{field: (iid,)}) for iid in decision.choices]


def candidates(game: Game, also: Sequence[Action] = ()) -> list[Action]:
    """The distinct legal moves now (one per card name), the policy's first, then ``also``, then the engine's."""
    if game.phase == "over":
        return []
    found: dict[tuple, Action] = {}
    moves = [policy_move(game), *also, *game.legal_actions(), *_one_card_choices(game)]
    for action in moves:
        key = signature(game, action)
        if key not in found and len(found) < MAX_CANDIDATES + len(also) + 1:
            found[key] = action
    return list(found.values())


# ------------------------------------------------------------------ rollouts


def _first_land_turn(game: Game) -> int:
    """The turn of the player's next land drop."""
    if game.phase == "mulligan":
        return 1
    if game.player.land_played or game.phase in ("cleanup", "end_step"):
        return game.turn + 1
    return game.turn


def rollout(game: Game, action: Action, seed: int, horizon: int = HORIZON) -> Outcome:
    """Play ``action`` then the policy on a copy of the game whose library is shuffled by ``seed``.

    Raises :class:`IllegalAction` when the engine refuses ``action`` itself.
    """
    twin = game.clone()
    library = twin.zones.library
    library.sort(key=lambda card: card.iid)  # the hidden order plays no part: the same cards, the same shuffle
    random.Random(seed).shuffle(library)
    twin.rng = random.Random(seed + 1)
    first = _first_land_turn(game)
    last = first + LAND_LOOKAHEAD - 1
    needed = game.stats["lands_played"] + LAND_LOOKAHEAD
    lands_by_last: list[int] = []

    def seen(g: Game) -> None:
        if g.turn <= last:
            lands_by_last[:] = [g.stats["lands_played"]]

    twin.apply(action)
    seen(twin)
    try:
        play_on(twin, horizon, seen)
    except PolicyError:
        return Outcome(horizon + 1, False, False)
    killed = twin.phase == "over" and twin.opponent.life <= 0 and twin.turn <= horizon
    lost = twin.phase == "over" and not killed
    dropped = (killed and twin.turn <= last) or (not lost and bool(lands_by_last) and lands_by_last[0] >= needed)
    return Outcome(twin.turn if killed else horizon + 1, killed, dropped)


def rollout_seeds(base: int, start: int, stop: int) -> list[int]:
    return [game_seed(base, index) for index in range(start, stop)]


def measure(game: Game, actions: Sequence[Action], seeds: Sequence[int], horizon: int = HORIZON) -> list[Figures]:
    """Each action's rollouts over ``seeds`` (run in a worker process); an action the engine refuses gets none."""
    figures = []
    for action in actions:
        try:
            outcomes = tuple(rollout(game, action, seed, horizon) for seed in seeds)
        except IllegalAction:
            outcomes = ()
        figures.append(Figures(action, outcomes))
    return figures


def merge(parts: Sequence[Sequence[Figures]]) -> list[Figures]:
    """Figures measured in chunks of seeds (given in seed order), joined per action."""
    if not parts:
        return []
    return [
        Figures(first.action, tuple(o for part in parts for o in part[i].outcomes)) for i, first in enumerate(parts[0])
    ]


def rollouts_for(candidates: int, rollouts: int = ROLLOUTS) -> int:
    """Rollouts per candidate: ``rollouts``, fewer when that many candidates would pass the budget."""
    return max(MIN_ROLLOUTS, min(rollouts, ROLLOUT_BUDGET // max(candidates, 1)))


def hint_seed(game: Game) -> int:
    """The base seed of a position's rollouts: the same position (game seed, moves made) gets the same hint."""
    return game_seed(game.seed, len(game.actions))


def paired_gain(better: Figures, worse: Figures) -> tuple[float, float]:
    """Mean and standard error of how many turns sooner ``better`` kills than ``worse``, rollout by rollout."""
    diffs = [w.kill_turn - b.kill_turn for b, w in zip(better.outcomes, worse.outcomes, strict=True)]
    n = len(diffs)
    mean = sum(diffs) / n
    if n < 2:
        return mean, math.inf
    variance = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean, math.sqrt(variance / n)


def rank(game: Game, measured: Sequence[Figures], policy_action: Action, seed: int = 0) -> Advice:
    """The advice from measured candidates (the policy's move among them)."""
    decision = game.decision().kind
    usable = [f for f in measured if f.outcomes]
    if len(usable) <= 1:
        return Advice(decision, policy_action, policy_action, "only", tuple(usable), 0.0, seed)
    order = {id(f): i for i, f in enumerate(usable)}
    usable.sort(key=lambda f: (f.mean_kill_turn, -f.land_share, f.action != policy_action, order[id(f)]))
    best = usable[0]
    mine = next((f for f in usable if f.action == policy_action), None)
    if mine is None or best is mine:
        return Advice(
            decision, best.action, policy_action, "policy" if best is mine else "rollouts", tuple(usable), 0.0, seed
        )
    gain, error = paired_gain(best, mine)
    if gain >= MARGIN and gain > 2 * error:
        return Advice(decision, best.action, policy_action, "rollouts", tuple(usable), gain, seed)
    usable.remove(mine)
    return Advice(decision, policy_action, policy_action, "policy", (mine, *usable), 0.0, seed)


def without_rollouts(game: Game, moves: Sequence[Action]) -> Advice | None:
    """The advice when there is nothing to measure: one legal move (``"only"``), or a choice of several cards,
    whose combinations are not played out (``"unmeasured"``: the policy's choice)."""
    if len(moves) != 1:
        return None
    decision = game.decision()
    basis = "unmeasured" if decision.count > 1 else "only"
    return Advice(decision.kind, moves[0], moves[0], basis, (), 0.0, hint_seed(game))


def timed_out(game: Game) -> Advice:
    """The policy's move, unmeasured: the rollouts did not finish in time."""
    move = policy_move(game)
    return Advice(game.decision().kind, move, move, "timeout", (), 0.0, hint_seed(game))


def advise(
    game: Game,
    *,
    rollouts: int = ROLLOUTS,
    horizon: int = HORIZON,
    also: Sequence[Action] = (),
    measure_fn: Callable[[Game, list[Action], list[int], int], list[Figures]] = measure,
) -> Advice:
    """The coach's advice now, measured in this process (terminal, tests, benchmarks, the pool's reference)."""
    if game.phase == "over":
        raise IllegalAction("The game is over: there is no move to recommend.")
    moves = candidates(game, also)
    base = hint_seed(game)
    unmeasured = without_rollouts(game, moves)
    if unmeasured is not None:
        return unmeasured
    measured = measure_fn(game, moves, rollout_seeds(base, 0, rollouts_for(len(moves), rollouts)), horizon)
    return rank(game, measured, moves[0], base)


def _parts(items: list, parts: int) -> list[list]:
    size = -(-len(items) // parts) if items else 0
    return [items[i : i + size] for i in range(0, len(items), size)] if size else []


async def advise_in_pool(
    game: Game, pool_of: Callable[[], SimulationPool], deadline: float, *, busy: bool = False
) -> Advice:
    """The coach's advice (as :func:`advise` gives it) with its rollouts split over the workers of the pool that
    ``pool_of()`` gives (asked for only when there is something to measure). With nothing to measure, at once; the
    policy's move, unmeasured, when ``busy`` (too many hints measured already), past ``deadline`` seconds, or when a
    worker died (the pool starts again on its next use)."""
    moves = candidates(game)
    base = hint_seed(game)
    unmeasured = without_rollouts(game, moves)
    if unmeasured is not None:
        return unmeasured
    if busy:
        log.info("Goldfish hints are busy; answered with the policy's move")
        return timed_out(game)
    pool = pool_of()
    seeds = rollout_seeds(base, 0, rollouts_for(len(moves)))
    try:
        calls = [pool.call(measure, game, moves, part, HORIZON) for part in _parts(seeds, pool.workers)]
        parts = await asyncio.wait_for(asyncio.gather(*calls), deadline)
    except TimeoutError:
        log.info("A goldfish hint ran out of time; answered with the policy's move")
        return timed_out(game)
    except BrokenProcessPool:
        log.exception("A worker process died measuring a goldfish hint")
        pool.close()
        return timed_out(game)
    return rank(game, merge(parts), moves[0], base)
