"""Simulated games on the real engine: reproducible from the seed, sane figures, a process pool, caps."""

from __future__ import annotations

import asyncio
import os
import signal

import pytest

from bot.goldfish.decks import preset_decks
from bot.goldfish.decks.presets import bundled_cards
from bot.goldfish.engine import Action, Deck, IllegalAction
from bot.goldfish.engine.game import Game
from bot.goldfish.practice import policy, simulate
from bot.goldfish.practice.simulate import (
    MAX_GAMES,
    MAX_TURNS,
    Settings,
    SimulationPool,
    game_seed,
    play_game,
    simulate_here,
)
from tests.support.waits import CEILING, clock


def small(seed: int = 1, games: int = 60, turns: int = 8, on_the_play: bool = True) -> Settings:
    return Settings(games=games, turns=turns, on_the_play=on_the_play, seed=seed)


@pytest.fixture(scope="module")
def pool():
    pool = SimulationPool()
    yield pool
    pool.close()


def test_the_same_seed_gives_the_same_report_and_another_seed_differs():
    deck = preset_decks()["slide"]
    first = simulate_here(deck, small(seed=5))
    again = simulate_here(deck, small(seed=5))
    other = simulate_here(deck, small(seed=6))
    assert first == again
    assert first.per_turn != other.per_turn


def test_game_seeds_are_derived_from_the_base_seed_and_the_game_number():
    seeds = [game_seed(5, i) for i in range(100)]
    assert len(set(seeds)) == 100
    assert seeds == [game_seed(5, i) for i in range(100)]
    assert game_seed(6, 0) != game_seed(5, 0)
    assert all(0 <= s < 2**31 - 1 for s in seeds)  # each game can be dealt again with /goldfish start


def test_a_simulated_game_replays_from_its_seed_and_its_action_log():
    deck = preset_decks()["two-colour"]
    game, snaps = play_game(deck, game_seed(3, 0), 8, True)
    replayed = Game.replay(deck, game.seed, True, game.actions)
    assert replayed.to_dict() == game.to_dict()
    assert [s.turn for s in snaps][: game.turn] == list(range(1, min(game.turn, 8) + 1))


@pytest.mark.parametrize("key", sorted(preset_decks()))
def test_the_figures_are_sane_for_every_preset_deck(key):
    report = simulate_here(preset_decks()[key], small(seed=2, games=80, turns=10))
    rows = report.per_turn
    assert report.games == 80 and report.errors == 0
    assert [r.turn for r in rows] == list(range(1, 11))
    for earlier, later in zip(rows, rows[1:], strict=False):
        assert later.all_land_drops <= earlier.all_land_drops  # a missed land drop stays missed
        assert later.mean_cycled >= earlier.mean_cycled  # cycled so far only grows
        assert later.died_by >= earlier.died_by
    for row in rows:
        assert 0 <= row.all_land_drops <= 1 and 0 <= row.payoff <= 1 and 0 <= row.died <= 1
    assert rows[0].all_land_drops > 0.9  # a kept hand has a land for turn 1
    assert rows[-1].mean_cycled > 3  # these are cycling decks
    assert report.survived + rows[-1].died_by + report.lost == pytest.approx(1)


def test_the_payoff_decks_kill_the_goldfish_and_the_ramp_deck_gets_its_payoffs_out():
    two = simulate_here(preset_decks()["two-colour"], small(seed=4, games=80, turns=10))
    assert two.per_turn[-1].died_by > 0.5  # Drake Haven's Drakes attack
    assert two.per_turn[-1].payoff > 0.9
    assert two.per_turn[0].payoff == 0  # nothing costs one mana: no payoff on turn 1


def test_on_the_draw_sees_a_card_more_and_makes_land_drops_at_least_as_often():
    deck = preset_decks()["slide"]
    play = simulate_here(deck, small(seed=8, games=200, turns=6))
    draw = simulate_here(deck, small(seed=8, games=200, turns=6, on_the_play=False))
    assert draw.per_turn[-1].all_land_drops >= play.per_turn[-1].all_land_drops
    assert play.settings.on_the_play and not draw.settings.on_the_play


def test_the_process_pool_plays_the_games_in_worker_processes_with_the_same_figures(pool):
    deck = preset_decks()["slide"]
    settings = small(seed=9, games=120, turns=6)
    pooled = pool.run(deck, settings)
    assert pool.chunks_run >= 2
    assert pooled.processes and os.getpid() not in pooled.processes
    here = simulate_here(deck, settings)
    assert pooled.per_turn == here.per_turn and pooled.survived == here.survived
    assert os.getpid() in here.processes


async def test_the_pool_runs_off_the_event_loop(pool):
    deck = preset_decks()["two-colour"]
    report = await pool.simulate(deck, small(seed=1, games=50, turns=5))
    assert report.games == 50 and os.getpid() not in report.processes
    assert pool.pending == 0


@pytest.mark.parametrize(
    ("settings", "reason"),
    [
        (Settings(games=MAX_GAMES + 1), "games must be from 1 to 5,000; you asked for 5,001"),
        (Settings(games=0), "games must be from 1 to 5,000"),
        (Settings(turns=MAX_TURNS + 1), "turns must be from 1 to 20"),
        (Settings(turns=-3), "turns must be from 1 to 20"),
        (Settings(games=True), "whole number"),
        (Settings(games="10"), "whole number"),
        (Settings(seed=-1), "seed must be a whole number"),
    ],
)
def test_caps_and_nonsense_are_refused_before_any_game_is_played(pool, settings, reason):
    deck = preset_decks()["slide"]
    before = pool.chunks_run
    with pytest.raises(IllegalAction, match=reason):
        pool.run(deck, settings)
    with pytest.raises(IllegalAction, match=reason):
        simulate_here(deck, settings)
    assert pool.chunks_run == before


def test_a_busy_pool_refuses_a_new_simulation_clearly():
    busy = SimulationPool(max_pending=1)
    busy.pending = 1
    with pytest.raises(IllegalAction, match="already running"):
        busy.run(preset_decks()["slide"], small())
    busy.close()


def test_an_empty_deck_is_refused():
    with pytest.raises(IllegalAction, match="empty"):
        simulate_here(Deck("nothing", {}, []), small())


def test_a_ten_card_deck_loses_by_drawing_from_an_empty_library_704_5b():
    cards = bundled_cards()
    deck = Deck("ten plains", {"Plains": cards["Plains"]}, [(10, "Plains")])
    report = simulate_here(deck, small(games=20, turns=8))
    assert report.lost == 1 and report.survived == 0
    assert report.per_turn[-1].died_by == 0
    assert "you lost 100.0%" in report.summary()


def test_a_turn_past_the_action_cap_counts_the_game_as_an_error_instead_of_hanging(monkeypatch):
    monkeypatch.setattr(simulate, "MAX_ACTIONS_PER_TURN", 2)
    report = simulate_here(preset_decks()["two-colour"], small(games=10, turns=6))
    assert report.errors == 10 and report.games == 0
    assert "more than 2 actions in one turn" in report.error_samples[0]
    assert "could not be played to the end" in report.summary()


def test_a_game_where_the_engine_refuses_every_proposal_is_an_error_with_the_reasons(monkeypatch):
    monkeypatch.setattr(policy, "proposals", lambda game: iter([Action("play", 10**6), Action("cast", 10**6)]))
    report = simulate_here(preset_decks()["slide"], small(games=3, turns=3))
    assert report.errors == 3 and report.games == 0
    sample = report.error_samples[0]
    assert "turn 0, mulligan: the engine refused every proposal" in sample
    assert "play: Keep a hand (or mulligan) first." in sample


def test_a_refused_proposal_moves_on_to_the_next_one(monkeypatch):
    deck = preset_decks()["slide"]
    plain = simulate_here(deck, small(seed=3, games=30, turns=6))
    real = policy.proposals

    def with_a_bad_first_idea(game):
        yield Action("cast", 10**6)  # not in the hand: refused, so the policy's own choice follows
        yield from real(game)

    monkeypatch.setattr(policy, "proposals", with_a_bad_first_idea)
    assert simulate_here(deck, small(seed=3, games=30, turns=6)) == plain


def test_the_keep_rule_mulligans_a_hand_without_two_lands():
    deck = preset_decks()["slide"]
    for seed in range(200):
        game = Game.new(deck, seed=seed)
        lands = sum(game.is_land(c.name) for c in game.zones.hand)
        first = next(policy.proposals(game))
        assert first.kind == ("keep" if 2 <= lands <= 5 else "mulligan")


def test_after_two_mulligans_the_policy_keeps_and_bottoms_two_cards():
    deck = preset_decks()["slide"]
    game = Game.new(deck, seed=1)
    game.mulligan()
    game.mulligan()
    keep = next(policy.proposals(game))
    assert keep.kind == "keep" and len(keep.bottom) == 2
    game.apply(keep)
    assert len(game.zones.hand) == 5 and game.phase == "main"


def test_the_table_and_summary_read_well():
    report = simulate_here(preset_decks()["slide"], small(seed=1, games=20, turns=3))
    table = report.table().splitlines()
    assert table[0].split() == ["T", "Lands", "Payoff", "Cycled", "Died", "By"]
    assert len(table) == 4 and max(len(line) for line in table) <= 36  # a phone's code block
    assert "20 games of 3 turns on the play, seed 1" in report.summary()


def test_the_terminal_commands_simulate_and_odds(capsys):
    from bot.cli import build_parser

    args = build_parser().parse_args(["goldfish", "simulate", "--deck", "two-colour", "--games", "30", "--turns", "4"])
    assert args.handler(args) == 0
    out = capsys.readouterr().out
    assert "30 games of 4 turns on the play, seed 1" in out and " T  Lands Payoff" in out
    args = build_parser().parse_args(["goldfish", "odds", "4", "--turns", "2"])
    assert args.handler(args) == 0
    assert "39.95%" in capsys.readouterr().out
    args = build_parser().parse_args(["goldfish", "simulate", "--games", "5001"])
    assert args.handler(args) == 2
    assert "from 1 to 5,000" in capsys.readouterr().err
    args = build_parser().parse_args(["goldfish", "--deck", "landcycling"])
    assert args.handler.__name__ == "run" and args.deck == "landcycling"  # a game, as before


async def test_a_worker_that_dies_is_reported_and_the_next_simulation_gets_new_workers():
    deck = preset_decks()["landcycling"]
    fresh = SimulationPool()
    try:
        first = await fresh.simulate(deck, small(games=50, turns=3))
        for pid in first.processes:
            os.kill(pid, signal.SIGKILL)
        with pytest.raises(IllegalAction, match="stopped unexpectedly"):
            noticed_by = clock() + CEILING
            while clock() < noticed_by:  # until the pool notices its dead workers
                await fresh.simulate(deck, small(games=50, turns=3))
                await asyncio.sleep(0.1)
        again = await fresh.simulate(deck, small(games=50, turns=3))
        assert again.games == 50 and not (again.processes & first.processes)
        assert fresh.pending == 0
    finally:
        fresh.close()


def test_at_a_stop_without_a_rule_the_policy_cycles_then_takes_the_engines_legal_actions_then_next():
    game = Game.new(preset_decks()["two-colour"], seed=3)
    game.keep()
    game.phase = "end_step"  # a stop with no rule of its own in the policy
    offered = [Action("next", ability=1)]
    game.legal_actions = lambda: offered
    proposed = list(policy.proposals(game))
    assert proposed[-2:] == [offered[0], Action("next")]
    assert all(action.kind == "cycle" for action in proposed[:-2])


def test_at_cleanup_the_policy_discards_down_to_seven_and_the_engine_accepts_it_514_1():
    game = Game.new(preset_decks()["slide"], seed=5)
    game.keep()
    for _ in range(40):  # draw without playing until the hand is over seven at cleanup
        if game.phase == "cleanup":
            break
        game.apply(Action("next"))
    assert game.phase == "cleanup"
    over = len(game.zones.hand) - 7
    (discard,) = list(policy.proposals(game))
    assert discard.kind == "discard" and len(discard.cards) == over
    game.apply(discard)
    assert game.phase != "cleanup"
    assert {c.iid for c in game.zones.graveyard} >= set(discard.cards)
    assert not {c.iid for c in game.zones.hand} & set(discard.cards)
