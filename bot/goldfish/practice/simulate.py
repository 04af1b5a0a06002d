"""A deck's odds measured on the real engine: N seeded games played by the stated policy.

Each game is dealt by :meth:`Game.new` with a seed derived from the base seed and the game's
number, and played through ``Game.apply`` only, by :mod:`bot.goldfish.practice.policy`. The games run in
a process pool, in chunks; each chunk returns a :class:`Tally` of integer counts, so the merged
report is the same whatever the chunking and the order the chunks finish in.

Per turn the report gives the share of games that made every land drop so far, the share with a
payoff on the battlefield and the mean number of cards cycled so far; and the turn the goldfish
died (the opponent reached 0 life), or the share of games where it survived the horizon.
A game that ended keeps its last state for the turns after. A game the policy could not play
to the end (the engine refused every proposal, or a turn took more than ``MAX_ACTIONS_PER_TURN``
actions) is counted as an error with its reason, not in the figures.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import multiprocessing
import os
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field

from bot.goldfish.engine import Action, Deck, Game, IllegalAction
from bot.goldfish.practice import policy
from bot.runtime import end_pool, start_worker
from bot.text import plural

log = logging.getLogger(__name__)

MAX_GAMES = 5000
MAX_TURNS = 20
DEFAULT_GAMES = 1000
DEFAULT_TURNS = 10
MAX_ACTIONS_PER_TURN = 200
WORKERS = 2
MIN_CHUNK = 25
CHUNKS_PER_WORKER = 4
ERROR_SAMPLES = 3
SEED_LIMIT = 2**31 - 1  # derived seeds fit /goldfish start's seed option, so any game can be dealt again


@dataclass(frozen=True)
class Settings:
    """What to simulate; ``check`` refuses nonsense and anything past the caps."""

    games: int = DEFAULT_GAMES
    turns: int = DEFAULT_TURNS
    on_the_play: bool = True
    seed: int = 1

    def check(self) -> Settings:
        for name, value, cap in (("games", self.games, MAX_GAMES), ("turns", self.turns, MAX_TURNS)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise IllegalAction(f"The number of {name} must be a whole number.")
            if not 1 <= value <= cap:
                raise IllegalAction(f"The number of {name} must be from 1 to {cap:,}; you asked for {value:,}.")
        if isinstance(self.seed, bool) or not isinstance(self.seed, int) or not 0 <= self.seed <= SEED_LIMIT:
            raise IllegalAction(f"The seed must be a whole number from 0 to {SEED_LIMIT:,}.")
        return self


def game_seed(base: int, index: int) -> int:
    """The seed of game ``index`` of a simulation seeded ``base``: stable across runs, machines and chunkings."""
    digest = hashlib.blake2b(f"{base}:{index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") % SEED_LIMIT


# ------------------------------------------------------------------ counting


@dataclass
class Tally:
    """Integer counts over some games; ``merge`` adds another tally (order-independent)."""

    turns: int
    games: int = 0
    land_drops: list[int] = field(default_factory=list)
    payoff: list[int] = field(default_factory=list)
    cycled: list[int] = field(default_factory=list)
    deaths: list[int] = field(default_factory=list)
    lost: int = 0
    mulligans: int = 0
    errors: int = 0
    error_samples: list[str] = field(default_factory=list)
    processes: set[int] = field(default_factory=set)
    cpu_seconds: float = 0.0

    def __post_init__(self) -> None:
        for name in ("land_drops", "payoff", "cycled", "deaths"):
            if not getattr(self, name):
                setattr(self, name, [0] * self.turns)

    def merge(self, other: Tally) -> Tally:
        self.games += other.games
        for name in ("land_drops", "payoff", "cycled", "deaths"):
            mine = getattr(self, name)
            for index, value in enumerate(getattr(other, name)):
                mine[index] += value
        self.lost += other.lost
        self.mulligans += other.mulligans
        self.errors += other.errors
        self.processes |= other.processes
        self.cpu_seconds += other.cpu_seconds
        for sample in other.error_samples:
            if len(self.error_samples) < ERROR_SAMPLES and sample not in self.error_samples:
                self.error_samples.append(sample)
        return self


@dataclass(frozen=True)
class Snapshot:
    """What a game looked like at the end of one turn (the last state seen while it was that turn)."""

    turn: int
    lands_played: int
    payoff: bool
    cycled: int


class PolicyError(Exception):
    """The policy could not go on with a game; the game counts as an error."""


def _snapshot(game: Game) -> Snapshot:
    payoff = any(not p.token and policy.is_payoff(p.name) for p in game.zones.battlefield)
    return Snapshot(game.turn, game.stats["lands_played"], payoff, game.stats["cards_cycled"])


def policy_step(game: Game) -> Action:
    """Apply the policy's first proposal the engine accepts, and return it."""
    refusals = []
    for action in policy.proposals(game):
        try:
            game.apply(action)
            return action
        except IllegalAction as refusal:
            refusals.append(f"{action.kind}: {refusal}")
    raise PolicyError(f"turn {game.turn}, {game.phase}: the engine refused every proposal ({'; '.join(refusals)})")


def play_game(deck: Deck, seed: int, turns: int, on_the_play: bool) -> tuple[Game, list[Snapshot]]:
    """One game by the policy until the goldfish dies, the player loses, or turn ``turns`` ends.

    Returns the game and one snapshot per turn 1..``turns`` (the last state carried forward once
    the game is over). Raises :class:`PolicyError` when the policy can't go on.
    """
    game = Game.new(deck, seed=seed, on_the_play=on_the_play)
    snaps: dict[int, Snapshot] = {}

    def seen(game: Game) -> None:
        if 1 <= game.turn <= turns:
            snaps[game.turn] = _snapshot(game)

    play_on(game, turns, seen)
    filled, last = [], None
    for t in range(1, turns + 1):
        last = snaps.get(t, last)
        filled.append(last or Snapshot(t, 0, False, 0))
    return game, filled


def play_on(game: Game, turns: int, seen: Callable[[Game], None] | None = None) -> None:
    """Play ``game`` on by the policy until it is over or turn ``turns`` ends; ``seen`` is called after each
    action. Raises :class:`PolicyError` when the policy can't go on."""
    actions_this_turn, turn = 0, game.turn
    while game.phase != "over" and game.turn <= turns:
        policy_step(game)
        if game.turn != turn:
            actions_this_turn, turn = 0, game.turn
        actions_this_turn += 1
        if actions_this_turn > MAX_ACTIONS_PER_TURN:
            raise PolicyError(f"turn {game.turn}: more than {MAX_ACTIONS_PER_TURN} actions in one turn")
        if seen is not None:
            seen(game)


def play_chunk(deck: Deck, settings: Settings, start: int, stop: int) -> Tally:
    """Games ``start``..``stop - 1`` of a simulation, counted (run in a worker process)."""
    started = time.process_time()
    tally = Tally(settings.turns, processes={os.getpid()})
    for index in range(start, stop):
        seed = game_seed(settings.seed, index)
        try:
            game, snaps = play_game(deck, seed, settings.turns, settings.on_the_play)
        except PolicyError as error:
            tally.errors += 1
            if len(tally.error_samples) < ERROR_SAMPLES:
                tally.error_samples.append(f"game {index + 1} (seed {seed}): {error}")
            continue
        tally.games += 1
        tally.mulligans += game.player.mulligans
        for t, snap in enumerate(snaps):
            tally.land_drops[t] += snap.lands_played >= snap.turn
            tally.payoff[t] += snap.payoff
            tally.cycled[t] += snap.cycled
        if game.phase == "over" and game.opponent.life <= 0 and game.turn <= settings.turns:
            tally.deaths[game.turn - 1] += 1
        elif game.phase == "over" and game.turn <= settings.turns:
            tally.lost += 1
    tally.cpu_seconds = time.process_time() - started
    return tally


# ------------------------------------------------------------------ the report


@dataclass(frozen=True)
class TurnFigures:
    turn: int
    all_land_drops: float
    payoff: float
    mean_cycled: float
    died: float
    died_by: float


@dataclass(frozen=True)
class Report:
    """A simulation's figures: shares are 0–1 of the games played to the end (errors excluded)."""

    deck_name: str
    settings: Settings
    games: int
    errors: int
    error_samples: tuple[str, ...]
    lost: float
    mean_mulligans: float
    survived: float
    per_turn: tuple[TurnFigures, ...]
    processes: frozenset[int] = field(default=frozenset(), compare=False)
    cpu_seconds: float = field(default=0.0, compare=False)
    policy: str = policy.POLICY_TEXT

    @classmethod
    def from_tally(cls, deck_name: str, settings: Settings, tally: Tally) -> Report:
        n = tally.games

        def share(count: int) -> float:
            return count / n if n else 0.0

        rows, died_by = [], 0
        for t in range(settings.turns):
            died_by += tally.deaths[t]
            rows.append(
                TurnFigures(
                    turn=t + 1,
                    all_land_drops=share(tally.land_drops[t]),
                    payoff=share(tally.payoff[t]),
                    mean_cycled=share(tally.cycled[t]),
                    died=share(tally.deaths[t]),
                    died_by=share(died_by),
                )
            )
        return cls(
            deck_name=deck_name,
            settings=settings,
            games=n,
            errors=tally.errors,
            error_samples=tuple(tally.error_samples),
            lost=share(tally.lost),
            mean_mulligans=share(tally.mulligans),
            survived=share(n - died_by - tally.lost),
            per_turn=tuple(rows),
            processes=frozenset(tally.processes),
            cpu_seconds=tally.cpu_seconds,
        )

    def table(self) -> str:
        """The per-turn figures as a fixed-width table (for a code block or a terminal), at most 36 columns wide so
        a phone shows it whole: turn, made every land drop, payoff out, mean cycled, died that turn, died by then."""
        lines = [f"{'T':>2} {'Lands':>6} {'Payoff':>6} {'Cycled':>6} {'Died':>4} {'By':>6}"]
        for row in self.per_turn:
            lines.append(
                f"{row.turn:>2} {row.all_land_drops:>6.1%} {row.payoff:>6.1%} {row.mean_cycled:>6.2f} "
                f"{row.died:>4.0%} {row.died_by:>6.1%}"
            )
        return "\n".join(lines)

    def summary(self) -> str:
        side = "on the play" if self.settings.on_the_play else "on the draw"
        text = (
            f"{plural(self.games, 'game')} of {plural(self.settings.turns, 'turn')} {side}, seed {self.settings.seed}: "
            f"the goldfish survived {plural(self.settings.turns, 'turn')} in {self.survived:.1%}; "
            f"mean mulligans {self.mean_mulligans:.2f}"
        )
        if self.lost:
            text += f"; you lost {self.lost:.1%} (an empty library or no life left)"
        if self.errors:
            text += f"; {plural(self.errors, 'game')} could not be played to the end and are left out"
        return text + "."


# ------------------------------------------------------------------ running


def chunks(games: int, workers: int = WORKERS) -> list[tuple[int, int]]:
    """``(start, stop)`` ranges of game numbers: a few per worker so a slow chunk doesn't hold the others."""
    size = max(MIN_CHUNK, -(-games // (workers * CHUNKS_PER_WORKER)))
    return [(start, min(start + size, games)) for start in range(0, games, size)]


def simulate_here(deck: Deck, settings: Settings) -> Report:
    """The whole simulation in this process (tests, and the pool's own reference)."""
    settings.check()
    tally = play_chunk(deck, settings, 0, settings.games)
    return Report.from_tally(deck.name, settings, tally)


def _context() -> multiprocessing.context.BaseContext:
    # Workers are fresh interpreters: a running bot has threads (the database, the gateway), and a
    # forked copy of it could inherit a lock held by one of them. They start once per pool.
    return multiprocessing.get_context("spawn")


class SimulationPool:
    """A process pool for simulations, started on first use and shut down by ``close``.

    ``pending`` counts simulations accepted and not finished; past ``max_pending`` a new one is
    refused rather than queued behind the others for minutes. ``nice``: how much lower than the bot's the
    workers' scheduling priority is (background work, such as reviews, that must yield the CPU to the rest).
    """

    def __init__(self, workers: int = WORKERS, *, max_pending: int = 4, nice: int = 0) -> None:
        self.workers = workers
        self.max_pending = max_pending
        self.nice = nice
        self.pending = 0
        self.chunks_run = 0
        self._executor: ProcessPoolExecutor | None = None

    @property
    def executor(self) -> Executor:
        if self._executor is None:
            self._executor = ProcessPoolExecutor(
                max_workers=self.workers,
                mp_context=_context(),
                initializer=start_worker,
                initargs=(self.nice, os.getpid()),
            )
            log.info("Started a simulation pool of %s worker processes", self.workers)
        return self._executor

    def _accept(self, settings: Settings) -> list[tuple[int, int]]:
        settings.check()
        if self.pending >= self.max_pending:
            raise IllegalAction(
                f"{plural(self.pending, 'simulation')} are already running; try again when they have finished."
            )
        return chunks(settings.games, self.workers)

    async def simulate(self, deck: Deck, settings: Settings) -> Report:
        """Run a simulation in the pool without blocking the event loop."""
        ranges = self._accept(settings)
        self.pending += 1
        try:
            loop = asyncio.get_running_loop()
            futures = [
                loop.run_in_executor(self.executor, play_chunk, deck, settings, start, stop) for start, stop in ranges
            ]
            tallies = await asyncio.gather(*futures)
        except BrokenProcessPool:
            # A worker died (killed, out of memory): the next simulation gets a new pool.
            log.exception("A simulation worker process died")
            self.close()
            raise IllegalAction("The simulation stopped unexpectedly; please try again.") from None
        finally:
            self.pending -= 1
        return self._report(deck, settings, tallies)

    def run(self, deck: Deck, settings: Settings) -> Report:
        """Run a simulation in the pool and wait for it (terminal and benchmarks)."""
        ranges = self._accept(settings)
        futures = [self.executor.submit(play_chunk, deck, settings, start, stop) for start, stop in ranges]
        return self._report(deck, settings, [future.result() for future in futures])

    async def call(self, function: Callable, *args) -> object:
        """Any other picklable work (drawing the chart) in the pool."""
        return await asyncio.get_running_loop().run_in_executor(self.executor, function, *args)

    def _report(self, deck: Deck, settings: Settings, tallies: Sequence[Tally]) -> Report:
        self.chunks_run += len(tallies)
        total = Tally(settings.turns)
        for tally in tallies:
            total.merge(tally)
        return Report.from_tally(deck.name, settings, total)

    def close(self) -> None:
        """Stop the workers at once (the games they are playing are dropped, those not started cancelled), so that
        a stopping bot never waits for them; a later simulation starts new ones."""
        executor, self._executor = self._executor, None
        if executor is not None:
            end_pool(executor)
