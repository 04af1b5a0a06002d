"""The review of a finished goldfish game: the player's game beside the same deck in simulation, and the moments
where the coach's rollouts would have gained most.

The player's figures come from replaying the game from its seed and action log: the turn of the win (or
where it stopped), cards cycled, the land drops missed (turns that ended with a land in hand and none
played) and the mana left unused at the end of each turn (untapped mana sources when the turn passed,
after the opponent's end step). The deck's figures are a :mod:`bot.goldfish.practice.simulate` report of
``REVIEW_GAMES`` games with ``REVIEW_SEED`` (the same as ``/goldfish simulate`` with those options):
the median turn of the win and the player's percentile. The moments replay the game once more and ask
the coach, at every decision with a choice, how the player's move compares with the best measured one.

The bot measures a review in a pool of worker processes (:func:`review_in_pool`), by a deadline: a review says
what was measured by then. This module decides; :mod:`bot.goldfish.practice.advice` says it in sentences.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
from collections.abc import Sequence
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass

from bot.goldfish.engine import Action, Deck, Game, IllegalAction
from bot.goldfish.practice import coach
from bot.goldfish.practice.simulate import (
    MAX_TURNS,
    Report,
    Settings,
    SimulationPool,
    Tally,
    play_chunk,
    simulate_here,
)

log = logging.getLogger(__name__)

REVIEW_GAMES = 1000
REVIEW_SEED = 1
REVIEW_ROLLOUTS = 12  # per candidate at each decision: a review measures dozens of decisions
MOMENTS = 3
REVIEW_POINTS = 60  # decisions played out, from the first: a long game's review takes no longer than this many
REVIEW_PIECE = 4  # decisions measured per call in a pool: its worker is never held long by one call
REVIEW_CHUNK = 50  # simulated games per call: at the deadline, the games played so far are what the review says
CACHED_DECKS = 64


@dataclass(frozen=True)
class PlayerGame:
    """How the player's game went. ``result``: ``"won"``, ``"lost"`` or ``"stopped"`` (ended by hand)."""

    deck_name: str
    result: str
    turn: int
    cards_cycled: int
    mulligans: int
    missed_drops: tuple[int, ...]
    unused_mana: tuple[int, ...]  # per finished turn, from turn 1
    replayed: bool = True

    @property
    def kill_turn(self) -> int | None:
        return self.turn if self.result == "won" else None


def result_of(game: Game) -> str:
    if game.phase == "over":
        return "won" if game.opponent.life <= 0 else "lost"
    return "stopped"


def player_game(game: Game) -> PlayerGame:
    """The player's figures, replayed from the game's seed and action log."""
    base = dict(
        deck_name=game.deck_name,
        result=result_of(game),
        turn=game.turn,
        cards_cycled=game.stats.get("cards_cycled", 0),
        mulligans=game.player.mulligans,
    )
    if not game.replayable:
        return PlayerGame(**base, missed_drops=(), unused_mana=(), replayed=False)
    replay = Game.new(game.deck(), seed=game.seed, on_the_play=game.on_the_play)
    missed, unused = [], []
    for action in game.actions:
        turn, land_played = replay.turn, replay.player.land_played
        land_in_hand = any(replay.is_land(c.name) for c in replay.zones.hand)
        sources = len(replay.mana_sources())
        replay.apply(action)
        if replay.turn > turn >= 1:
            unused.append(sources)
            if not land_played and land_in_hand:
                missed.append(turn)
    return PlayerGame(**base, missed_drops=tuple(missed), unused_mana=tuple(unused))


# ------------------------------------------------------------------ the deck in simulation


def review_settings(game: Game, games: int = REVIEW_GAMES) -> Settings:
    """The simulation a game is compared with: ``/goldfish simulate games:1000 turns:20 seed:1`` on its side."""
    return Settings(games=games, turns=MAX_TURNS, on_the_play=game.on_the_play, seed=REVIEW_SEED)


@dataclass(frozen=True)
class DeckFigures:
    """The deck in simulation, and where the player's game stands among those games (shares 0–1)."""

    games: int
    seed: int
    turns: int
    median_kill_turn: int | None  # None: the deck killed in fewer than half the games by ``turns``
    killed_by_then: float  # share of simulated games that had killed by the player's last turn
    percentile: float | None  # share of simulated games the player's kill was faster than (ties count half)


def deck_figures(report: Report, player: PlayerGame) -> DeckFigures:
    rows = report.per_turn
    median = next((row.turn for row in rows if row.died_by >= 0.5), None)
    last = min(max(player.turn, 1), len(rows))
    killed_by_then = rows[last - 1].died_by if rows else 0.0
    percentile = None
    if player.kill_turn is not None and player.kill_turn <= len(rows):
        row = rows[player.kill_turn - 1]
        percentile = (1 - row.died_by) + row.died / 2
    elif player.kill_turn is not None:
        percentile = 0.0
    return DeckFigures(report.games, report.settings.seed, report.settings.turns, median, killed_by_then, percentile)


def deck_key(deck: Deck, settings: Settings) -> tuple:
    """What a deck's simulation figures depend on: its cards and counts, and the settings."""
    return (tuple(sorted((name, count) for count, name in deck.entries)), settings)


class ReportCache:
    """Simulation reports per deck and settings (least recently used out): one simulation serves every review
    of the same deck."""

    def __init__(self, size: int = CACHED_DECKS) -> None:
        self.size = size
        self._reports: OrderedDict[tuple, Report] = OrderedDict()

    def get(self, deck: Deck, settings: Settings) -> Report | None:
        key = deck_key(deck, settings)
        report = self._reports.get(key)
        if report is not None:
            self._reports.move_to_end(key)
        return report

    def put(self, deck: Deck, settings: Settings, report: Report) -> None:
        key = deck_key(deck, settings)
        self._reports[key] = report
        self._reports.move_to_end(key)
        while len(self._reports) > self.size:
            self._reports.popitem(last=False)

    def __len__(self) -> int:
        return len(self._reports)


# ------------------------------------------------------------------ the moments


@dataclass(frozen=True)
class Moment:
    """A decision where the coach's best measured move beat the player's: ``gain`` turns sooner on average."""

    index: int  # the action's position in the game's action log
    turn: int
    decision: str
    played: Action
    better: Action
    gain: float
    played_mean: float
    better_mean: float
    rollouts: int


def decision_points(game: Game, limit: int = REVIEW_POINTS) -> list[int]:
    """The first ``limit`` positions in the action log where the player chose among several moves (replayed)."""
    if not game.replayable:
        return []
    replay = Game.new(game.deck(), seed=game.seed, on_the_play=game.on_the_play)
    points = []
    for index, action in enumerate(game.actions):
        legal = replay.legal_actions()
        if len(legal) > 1 or replay.decision().count:
            points.append(index)
            if len(points) >= limit:
                break
        replay.apply(action)
    return points


def moments_at(game: Game, indices: Sequence[int], rollouts: int = REVIEW_ROLLOUTS) -> list[Moment]:
    """The moments among the decisions at ``indices`` (run in a worker process): the game is replayed once."""
    wanted = set(indices)
    replay = Game.new(game.deck(), seed=game.seed, on_the_play=game.on_the_play)
    found = []
    for index, played in enumerate(game.actions):
        if index in wanted:
            moment = _moment(replay, index, played, rollouts)
            if moment is not None:
                found.append(moment)
        replay.apply(played)
        if index >= max(wanted, default=-1):
            break
    return found


def _moment(game: Game, index: int, played: Action, rollouts: int) -> Moment | None:
    try:
        moves = coach.candidates(game, also=(played,))
    except IllegalAction:
        return None
    if len(moves) < 2:
        return None
    measured = coach.measure(game, moves, coach.rollout_seeds(coach.hint_seed(game), 0, rollouts))
    key = coach.signature(game, played)
    mine = next((f for f in measured if coach.signature(game, f.action) == key and f.outcomes), None)
    usable = [f for f in measured if f.outcomes]
    if mine is None or len(usable) < 2:
        return None
    best = min(usable, key=lambda f: (f.mean_kill_turn, -f.land_share))
    if coach.signature(game, best.action) == key:
        return None
    gain, error = coach.paired_gain(best, mine)
    if gain < coach.MARGIN or gain <= 2 * error:
        return None
    return Moment(
        index,
        game.turn,
        game.decision().kind,
        played,
        best.action,
        gain,
        mine.mean_kill_turn,
        best.mean_kill_turn,
        rollouts,
    )


def top_moments(found: Sequence[Moment], count: int = MOMENTS) -> list[Moment]:
    """The moments that would have gained most, in the order they happened."""
    chosen = sorted(found, key=lambda m: (-m.gain, m.index))[:count]
    return sorted(chosen, key=lambda m: m.index)


# ------------------------------------------------------------------ the review


@dataclass(frozen=True)
class Review:
    """A finished game's review; ``deck`` and ``moments`` are None until they are measured."""

    player: PlayerGame
    deck: DeckFigures | None = None
    moments: tuple[Moment, ...] | None = None


def review_here(game: Game, report: Report | None = None, rollouts: int = REVIEW_ROLLOUTS) -> Review:
    """The whole review in this process (terminal and tests): simulates the deck when no report is given."""
    player = player_game(game)
    if report is None:
        report = simulate_here(game.deck(), review_settings(game))
    found = moments_at(game, decision_points(game), rollouts)
    return Review(player, deck_figures(report, player), tuple(top_moments(found)))


async def review_in_pool(
    game: Game, pool: SimulationPool, reports: ReportCache, *, games: int = REVIEW_GAMES, deadline: float
) -> Review:
    """The whole review measured in ``pool`` before ``deadline`` (a ``time.perf_counter()`` time): the deck's
    simulation of ``games`` games (``reports`` keeps one per deck), then the moments a few decisions per call. What
    the deadline or the pool left unmeasured is None."""
    player = player_game(game)
    report = await _deck_report(game, pool, reports, games, deadline)
    moments = await _moments(game, pool, deadline)
    return Review(player, deck_figures(report, player) if report is not None else None, moments)


async def _deck_report(
    game: Game, pool: SimulationPool, reports: ReportCache, games: int, deadline: float
) -> Report | None:
    """The deck's simulation, in pieces of ``REVIEW_CHUNK`` games: by the deadline, whatever pieces were played
    (a partial report says how many games it holds, and is not kept); None when not one piece was."""
    settings = review_settings(game, games)
    deck = game.deck()
    report = reports.get(deck, settings)
    if report is not None or time.perf_counter() >= deadline:
        return report
    loop = asyncio.get_running_loop()
    pieces = [(start, min(start + REVIEW_CHUNK, games)) for start in range(0, games, REVIEW_CHUNK)]
    try:
        futures = [loop.run_in_executor(pool.executor, play_chunk, deck, settings, a, b) for a, b in pieces]
    except RuntimeError:  # the pool is shutting down
        return None
    done, pending = await asyncio.wait(futures, timeout=max(0.0, deadline - time.perf_counter()))
    for future in pending:
        future.cancel()  # not started yet: never run; started: its worker finishes it for nobody
    tallies = [f.result() for f in done if not f.cancelled() and f.exception() is None]
    broken = [f.exception() for f in done if not f.cancelled() and f.exception() is not None]
    if broken:
        log.warning("A goldfish review's simulation failed (%s)", type(broken[0]).__name__)
        if any(isinstance(error, BrokenProcessPool) for error in broken):
            pool.close()  # the next use starts a new pool
    if not tallies:
        return None
    total = Tally(settings.turns)
    for tally in tallies:
        total.merge(tally)
    report = Report.from_tally(deck.name, settings, total)
    if len(tallies) == len(pieces):
        reports.put(deck, settings, report)
    else:
        log.info("A goldfish review ran out of time after %d of %d simulated games", total.games, games)
    return report


async def _moments(game: Game, pool: SimulationPool, deadline: float) -> tuple[Moment, ...] | None:
    """The review's moments, a few decisions per call; None when the deadline came before any could be said."""
    points = decision_points(game)
    found: list[Moment] = []
    loop = asyncio.get_running_loop()
    for start in range(0, len(points), REVIEW_PIECE):
        left = deadline - time.perf_counter()
        if left <= 0:
            log.info("A goldfish review ran out of time after %d of %d decisions", start, len(points))
            return tuple(top_moments(found)) if found else None
        piece = loop.run_in_executor(pool.executor, moments_at, game, points[start : start + REVIEW_PIECE])
        done, _ = await asyncio.wait([piece], timeout=left)
        if not done:  # a piece still measuring at the deadline is left to finish for nobody
            piece.cancel()
            log.info("A goldfish review ran out of time after %d of %d decisions", start, len(points))
            return tuple(top_moments(found)) if found else None
        try:
            found.extend(piece.result())
        except BrokenProcessPool:
            log.exception("A worker process died measuring a goldfish review")
            pool.close()  # the next use starts a new pool
            return None
    return tuple(top_moments(found))
