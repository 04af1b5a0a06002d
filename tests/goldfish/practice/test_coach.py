"""The coach, the review and the trend as pure core: no Discord."""

from __future__ import annotations

import pytest

from bot.goldfish import GameResult, trend
from bot.goldfish.decks import preset_decks
from bot.goldfish.decks.presets import bundled_cards
from bot.goldfish.engine import Action, Game
from bot.goldfish.engine.scenario import position
from bot.goldfish.practice.advice import hint_sentence, review_lines
from bot.goldfish.practice.coach import Figures, Outcome, advise, candidates, measure, merge, rank, rollout_seeds
from bot.goldfish.practice.review import ReportCache, deck_figures, player_game, review_here, review_settings
from bot.goldfish.practice.simulate import SimulationPool, policy_step, simulate_here
from tests.goldfish.cog_support import SLIDE_SIMPLE


@pytest.fixture
def slide() -> Game:
    game = Game.new(preset_decks()["slide"], seed=SLIDE_SIMPLE)
    game.keep()
    return game


def test_rollouts_are_reproducible_from_their_seed(slide):
    first, again = advise(slide, rollouts=8), advise(slide.clone(), rollouts=8)
    assert first == again and first.figures
    other_seeds = measure(slide, [first.best], rollout_seeds(first.seed + 1, 0, 8))[0]
    assert other_seeds.outcomes != first.figures_of(first.best).outcomes  # the seed matters


def test_the_coach_does_not_know_the_order_of_the_library(slide):
    peeked = slide.clone()
    peeked.zones.library.reverse()  # same cards, another order: the player can't tell the two apart
    assert advise(slide, rollouts=6).figures == advise(peeked, rollouts=6).figures


def test_a_hint_changes_nothing_in_the_game(slide):
    before = slide.to_dict()
    advise(slide, rollouts=4)
    assert slide.to_dict() == before


def test_candidates_are_one_move_per_card_name_with_the_policys_move_first(slide):
    moves = candidates(slide)
    names = [(m.kind, slide.iid_names.get(m.iid)) for m in moves]
    assert len(names) == len(set(names))
    assert moves[0] == Action("play", next(c.iid for c in slide.zones.hand if c.name == "Plains"))
    assert ("next", None) in names


def test_the_coach_departs_from_the_policy_only_when_measurably_better(slide):
    policy, other = Action("next"), Action("play", slide.zones.hand[0].iid)

    def figures(action, turns):
        return Figures(action, tuple(Outcome(t, True, True) for t in turns))

    close = rank(slide, [figures(policy, [10, 11] * 8), figures(other, [10, 10, 11, 11] * 4)], policy)
    assert close.best == policy and close.basis == "policy"
    clear = rank(slide, [figures(policy, [11, 12] * 8), figures(other, [9, 10] * 8)], policy)
    assert clear.best == other and clear.basis == "rollouts" and clear.gain == pytest.approx(2.0)
    assert "2.0 turns sooner" in hint_sentence(slide, clear)


def test_rollouts_in_the_process_pool_equal_the_ones_made_here(slide):
    moves = candidates(slide)
    seeds = rollout_seeds(11, 0, 6)
    pool = SimulationPool(workers=2)
    try:
        parts = [pool.executor.submit(measure, slide, moves, part).result() for part in (seeds[:3], seeds[3:])]
    finally:
        pool.close()
    assert merge(parts) == measure(slide, moves, seeds)


def test_player_game_counts_missed_land_drops_and_unused_mana(slide):
    slide.apply(Action("next"))  # turn 1: a Plains in hand, none played
    while slide.turn == 1:
        slide.apply(Action("next"))
    plains = next(c for c in slide.zones.hand if c.name == "Plains")
    slide.play_land(plains.iid)
    while slide.turn == 2:
        slide.apply(Action("next"))
    player = player_game(slide)
    assert player.result == "stopped" and player.turn == 3
    assert player.missed_drops == (1,)
    assert player.unused_mana == (0, 1)  # the Plains was left untapped on turn 2


def test_the_reviews_deck_figures_equal_a_simulate_run_on_the_same_deck_and_seed():
    game = Game.new(preset_decks()["two-colour"], seed=4)
    while game.phase != "over" and game.turn <= 20:
        policy_step(game)
    settings = review_settings(game, 150)
    report = simulate_here(game.deck(), settings)
    review = review_here(game, report, rollouts=2)
    assert review.deck == deck_figures(simulate_here(game.deck(), settings), review.player)
    assert review.player.result == "won" and review.player.kill_turn == game.turn
    # Where the player's win stands: the share of simulated games that won later, ties counting half.
    row = report.per_turn[game.turn - 1]
    assert review.deck.percentile == pytest.approx(1 - row.died_by + row.died / 2)
    median = next(r.turn for r in report.per_turn if r.died_by >= 0.5)
    assert review.deck.median_kill_turn == median
    sections = review_lines(game, review)
    assert sections["Your game"][0].startswith(f"Won on turn {game.turn}")
    assert "Moments" in sections


def test_the_report_cache_keeps_one_report_per_deck_and_settings():
    cache = ReportCache(size=1)
    slide, ramp = preset_decks()["slide"], preset_decks()["landcycling"]
    game = Game.new(slide, seed=1)
    settings = review_settings(game, 10)
    report = simulate_here(slide, settings)
    cache.put(slide, settings, report)
    assert cache.get(slide, settings) is report and cache.get(ramp, settings) is None
    cache.put(ramp, settings, report)
    assert cache.get(slide, settings) is None and len(cache) == 1


def test_trend_gives_the_median_kill_turn_per_deck_newest_deck_first():
    results = [
        GameResult("slide", "Astral Slide", "won", 9, 5),
        GameResult("ramp", "Ramp", "stopped", 4, 1),
        GameResult("slide", "Astral Slide", "won", 11, 7),
        GameResult("slide", "Astral Slide", "lost", 12, 9),
        GameResult("slide", "Astral Slide", "won", 8, 6),
    ]
    slide, ramp = trend(results)
    assert (slide.deck_name, slide.games, slide.wins, slide.median_kill_turn) == ("Astral Slide", 4, 3, 9)
    assert slide.kill_turns == (8, 11, 9)  # oldest first
    assert ramp.median_kill_turn is None and ramp.games == 1


def test_a_choice_of_several_cards_is_the_policys_and_says_it_is_not_played_out():
    hand = ["Street Wraith", "Plains", "Secluded Steppe", "Lightning Rift"] * 2 + ["Plains"]
    game = position(bundled_cards(), hand=hand, library=["Plains"] * 10, lands=["Plains"])
    game.apply(Action("next"))  # nine cards in hand: cleanup asks for two discards (514.1)
    assert game.decision().count == 2
    advice = advise(game)
    assert advice.basis == "unmeasured" and advice.best.kind == "discard" and len(advice.best.cards) == 2
    assert "not played out" in hint_sentence(game, advice)


def test_a_hint_says_the_move_the_lands_it_taps_and_why():
    game = position(bundled_cards(), hand=["Winged Shepherd"], library=["Plains"] * 12, lands=["Plains", "Mountain"])
    game.player.land_played = True
    advice = advise(game, rollouts=4)
    sentence = hint_sentence(game, advice)
    assert advice.best.kind == "cycle"
    assert sentence.startswith("Cycle Winged Shepherd (Cycling {W}), tapping Plains: your land drop is used")
    assert "Winged Shepherd is no use in hand on turn 1" in sentence
    assert "no kill by turn 20" in sentence  # a library of Plains never kills: the figures say so
