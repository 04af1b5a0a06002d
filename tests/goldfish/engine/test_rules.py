"""Goldfish engine rules, each test named after the Comprehensive Rules it checks."""

from __future__ import annotations

import dataclasses
import json

import pytest

from bot.goldfish.engine import Deck, Game, IllegalAction, Permanent, scripts
from bot.goldfish.engine.mana import plan_payment
from bot.goldfish.engine.scenario import position
from tests.goldfish.cog_support import sample_cards

X_CYCLER = {
    "name": "Test X Cycler",
    "mana_cost": "{3}{U}",
    "type_line": "Instant",
    "oracle_text": "Draw a card.\nCycling {X}{U} ({X}{U}, Discard this card: Draw a card.)",
    "layout": "normal",
}


@pytest.fixture(scope="module")
def cards() -> dict[str, dict]:
    return sample_cards(X_CYCLER)


@pytest.fixture
def build(cards):
    """A game in its main phase with exactly the given zones (lands and permanents untapped)."""

    def make(hand=(), library=(), lands=(), permanents=(), *, tapped=(), on_the_play=True, life=20) -> Game:
        return position(
            cards,
            hand=hand,
            library=library,
            lands=lands,
            permanents=permanents,
            tapped=tapped,
            on_the_play=on_the_play,
            life=life,
        )

    return make


def iid(game: Game, name: str, zone: str = "hand") -> int:
    return next(c.iid for c in getattr(game.zones, zone) if c.name == name)


def kinds(events) -> list[str]:
    return [e.kind for e in events]


# ----------------------------------------------------------------- 702.29a


def test_702_29a_cycling_pays_discards_then_draws(build):
    game = build(hand=["Spark Spray"], library=["Plains", "Island"], lands=["Mountain"])
    version = len(game.actions)
    events = game.cycle(iid(game, "Spark Spray"))
    assert [c.name for c in game.zones.graveyard] == ["Spark Spray"]
    assert [c.name for c in game.zones.hand] == ["Plains"]
    assert game.zones.battlefield[0].tapped
    assert events[1].kind == "cycle" and events[1].rule == "702.29a"
    assert events[-1].kind == "draw" and events[-1].rule == "121.1"
    assert game.stats["cards_cycled"] == 1 and len(game.actions) == version + 1


@pytest.mark.parametrize("zone", ["library", "graveyard", "battlefield"])
def test_702_29a_cycling_only_from_the_hand(build, zone):
    game = build(hand=["Plains"], library=["Spark Spray", "Island"], lands=["Mountain"])
    card = game.zones.library.pop(0)
    if zone == "library":
        game.zones.library.insert(0, card)
    elif zone == "graveyard":
        game.zones.graveyard.append(card)
    else:
        game.zones.battlefield.append(Permanent(card.iid, card.name))
    before = game.to_dict()
    with pytest.raises(IllegalAction, match=r"only while the card is in your hand \(702\.29a\)"):
        game.cycle(card.iid)
    assert game.to_dict() == before


# ----------------------------------------------------------------- 702.29c


def test_702_29c_when_you_cycle_trigger_resolves_from_graveyard_before_the_draw(build, monkeypatch):
    game = build(hand=["Renewed Faith"], library=["Plains", "Island"], lands=["Plains", "Plains"])
    seen = {}
    original = scripts.SCRIPTS["Renewed Faith"]

    def spy(g, ctx):
        seen["graveyard"] = [c.name for c in g.zones.graveyard]
        seen["hand"] = [c.name for c in g.zones.hand]
        return original.when_cycled(g, ctx)

    monkeypatch.setitem(scripts.SCRIPTS, "Renewed Faith", dataclasses.replace(original, when_cycled=spy))
    events = game.cycle(iid(game, "Renewed Faith"))
    assert seen == {"graveyard": ["Renewed Faith"], "hand": []}  # discarded already, not drawn yet
    order = kinds(events)
    assert order.index("life") < order.index("draw")
    assert game.player.life == 22 and [c.name for c in game.zones.hand] == ["Plains"]
    assert any(e.rule == "702.29c" for e in events)


def test_702_29c_krosan_tusker_searches_before_drawing(build):
    game = build(hand=["Krosan Tusker"], library=["Island", "Forest", "Swamp"], lands=["Forest"] * 3)
    events = game.cycle(iid(game, "Krosan Tusker"), find=iid(game, "Forest", "library"))
    order = kinds(events)
    assert order.index("search") < order.index("draw")
    assert sorted(c.name for c in game.zones.hand)[0] == "Forest" and len(game.zones.hand) == 2
    assert game.stats["cards_drawn"] == 1


# ----------------------------------------------------------------- 702.29d


def test_702_29d_cycle_or_discard_payoff_triggers_once_per_cycle(build):
    game = build(hand=["Spark Spray"], library=["Island"], lands=["Mountain", "Island"], permanents=["Drake Haven"])
    events = game.cycle(iid(game, "Spark Spray"))
    assert kinds(events).count("token") == 1
    assert [p.name for p in game.zones.battlefield if p.token] == ["Drake token"]
    assert game.stats["tokens"] == 1
    assert not game.is_land("Drake token") and game.is_land("Mountain")
    assert all(p.tapped for p in game.zones.battlefield if not p.token and p.name != "Drake Haven")


def test_702_29d_optional_payment_can_be_declined(build):
    game = build(hand=["Spark Spray"], library=["Island"], lands=["Mountain", "Island"], permanents=["Lightning Rift"])
    game.cycle(iid(game, "Spark Spray"), pay=False)
    assert game.opponent.life == 20 and game.available_mana() == "{U}"


def test_702_29d_lightning_rift_damages_the_opponent(build):
    game = build(
        hand=["Spark Spray"], library=["Island"], lands=["Mountain", "Mountain"], permanents=["Lightning Rift"]
    )
    game.cycle(iid(game, "Spark Spray"))
    assert game.opponent.life == 18 and game.stats["damage_dealt"] == 2


def test_702_29d_cycle_another_card_does_not_trigger_on_itself(build):
    game = build(
        hand=["Archfiend of Ifnir", "Spark Spray"],
        library=["Island", "Plains"],
        lands=["Mountain", "Mountain", "Mountain"],
        permanents=["Archfiend of Ifnir"],
    )
    # Another Archfiend in hand is another card: the one on the battlefield triggers.
    events = game.cycle(iid(game, "Archfiend of Ifnir"))
    assert sum(1 for e in events if e.kind == "trigger" and "Resolving Archfiend" in e.text) == 1
    # The object that is cycled is never "another card" for its own ability.
    spray = iid(game, "Spark Spray")
    archfiend = next(p for p in game.zones.battlefield if p.name == "Archfiend of Ifnir")
    game.zones.battlefield.remove(archfiend)
    game.zones.battlefield.append(Permanent(spray, "Archfiend of Ifnir"))
    events = game.cycle(spray)
    assert not any("Archfiend" in e.text for e in events)


# ----------------------------------------------------------------- 702.29e


def test_702_29e_typecycling_finds_a_card_of_the_type(build):
    game = build(hand=["Eternal Dragon"], library=["Island", "Plains", "Swamp"], lands=["Plains", "Plains"])
    candidates = game.search_candidates(iid(game, "Eternal Dragon"))
    assert [c.name for c in candidates] == ["Plains"]
    events = game.cycle(iid(game, "Eternal Dragon"), find=candidates[0].iid)
    assert [c.name for c in game.zones.hand] == ["Plains"]
    assert sorted(c.name for c in game.zones.library) == ["Island", "Swamp"]
    assert "shuffle" in kinds(events) and "draw" not in kinds(events)
    assert game.stats["typecycling_searches"] == 1


def test_702_29e_basic_landcycling_matches_supertype_and_type(build):
    game = build(hand=["Ash Barrens"], library=["Secluded Steppe", "Forest"], lands=["Plains"])
    assert [c.name for c in game.search_candidates(iid(game, "Ash Barrens"))] == ["Forest"]


def test_702_29e_typecycling_may_find_nothing_and_still_shuffles(build):
    library = ["Plains"] + [f"{n}" for n in ["Island", "Swamp", "Mountain", "Forest"] * 5]
    game = build(hand=["Eternal Dragon"], library=library, lands=["Plains", "Plains"])
    state_before = game.rng.getstate()
    events = game.cycle(iid(game, "Eternal Dragon"), find_nothing=True)
    assert game.zones.hand == []
    assert len(game.zones.library) == 21
    assert "found nothing (by choice)" in events[-2].text and events[-1].kind == "shuffle"
    assert game.rng.getstate() != state_before


def test_702_29e_several_typecycling_abilities_on_one_card(build):
    game = build(hand=["Pale Recluse"], library=["Forest", "Plains"], lands=["Forest", "Forest"])
    options = [o for o in game.cycle_options() if o.name == "Pale Recluse"]
    assert [(o.label, o.search) for o in options] == [("Forestcycling {2}", "Forest"), ("Plainscycling {2}", "Plains")]
    game.cycle(options[1].iid, 1)
    assert [c.name for c in game.zones.hand] == ["Plains"]


def test_702_29e_finding_a_card_of_the_wrong_type_is_refused(build):
    game = build(hand=["Eternal Dragon"], library=["Island", "Plains"], lands=["Plains", "Plains"])
    before = game.to_dict()
    with pytest.raises(IllegalAction, match="not a Plains card"):
        game.cycle(iid(game, "Eternal Dragon"), find=iid(game, "Island", "library"))
    assert game.to_dict() == before


# ----------------------------------------------------------------- 702.29f


def test_702_29f_fluctuator_reduces_a_landcycling_cost(build):
    game = build(hand=["Pale Recluse"], library=["Forest"], permanents=["Fluctuator"])
    option = game.cycle_options()[0]
    assert option.affordable, option.reason
    events = game.cycle(option.iid)
    assert "reduced by Fluctuator" in events[0].text
    assert [c.name for c in game.zones.hand] == ["Forest"]


def test_702_29f_fluctuator_reduces_generic_mana_only(build):
    game = build(hand=["Krosan Tusker"], library=["Forest"], lands=["Plains"], permanents=["Fluctuator"])
    option = game.cycle_options()[0]
    assert not option.affordable and "{G}" in option.reason


def test_702_29f_typecycling_triggers_cycling_payoffs(build):
    game = build(hand=["Eternal Dragon"], library=["Plains"], lands=["Plains"] * 3, permanents=["Lightning Rift"])
    events = game.cycle(iid(game, "Eternal Dragon"))
    assert game.opponent.life == 18
    assert any("702.29f" in e.text for e in events)


# ------------------------------------------------------------------ costs


def test_602_unaffordable_cycling_is_refused_and_nothing_changes(build):
    game = build(hand=["Solar Blast"], library=["Island"], lands=["Mountain", "Plains"])
    option = game.cycle_options()[0]
    assert not option.affordable and "{1}{R}{R}" in option.reason
    before = game.to_dict()
    with pytest.raises(IllegalAction, match="can't cycle Solar Blast"):
        game.cycle(option.iid)
    assert game.to_dict() == before


def test_119_4_cycling_by_paying_2_life(build):
    game = build(hand=["Street Wraith", "Street Wraith"], library=["Swamp", "Island"], life=3)
    game.cycle(game.zones.hand[0].iid)
    assert game.player.life == 1 and game.stats["life_paid"] == 2
    before = game.to_dict()
    with pytest.raises(IllegalAction, match="2 life and you have 1"):
        game.cycle(iid(game, "Street Wraith"))
    assert game.to_dict() == before


def test_702_29a_cycling_by_sacrificing_a_land(build):
    game = build(hand=["Edge of Autumn"], library=["Forest"], lands=["Forest", "Plains"], tapped=["Forest"])
    game.cycle(iid(game, "Edge of Autumn"))
    # The tapped land goes first: the untapped ones keep their mana.
    assert sorted(p.name for p in game.zones.battlefield) == ["Forest", "Plains"]
    assert all(not p.tapped for p in game.zones.battlefield)
    assert "Edge of Autumn" in [c.name for c in game.zones.graveyard]


def test_702_29a_sacrifice_needs_a_land(build):
    game = build(hand=["Edge of Autumn"], library=["Forest"])
    before = game.to_dict()
    with pytest.raises(IllegalAction, match="sacrifice a land"):
        game.cycle(iid(game, "Edge of Autumn"))
    assert game.to_dict() == before


def test_702_29a_chosen_land_is_sacrificed(build):
    game = build(hand=["Edge of Autumn"], library=["Forest"], lands=["Forest", "Plains"])
    plains = next(p.iid for p in game.zones.battlefield if p.name == "Plains")
    game.cycle(iid(game, "Edge of Autumn"), sacrifice=plains)
    assert [p.name for p in game.zones.battlefield] == ["Forest"]


def test_107_4e_hybrid_cost_paid_by_either_colour(build):
    game = build(hand=["Architects of Will"], library=["Island"], lands=["Swamp"])
    game.cycle(iid(game, "Architects of Will"))
    assert game.available_mana() == ""
    game = build(hand=["Architects of Will"], library=["Island"], lands=["Plains"])
    assert "can't make those colours" in game.cycle_options()[0].reason


def test_107_3_x_in_a_cycling_cost_is_chosen(build):
    game = build(hand=["Test X Cycler"], library=["Island"], lands=["Island", "Island", "Island"])
    game.cycle(iid(game, "Test X Cycler"), x=2)
    assert game.available_mana() == ""
    game = build(hand=["Test X Cycler"], library=["Island"], lands=["Island", "Island"])
    with pytest.raises(IllegalAction):
        game.cycle(iid(game, "Test X Cycler"), x=2)
    with pytest.raises(IllegalAction, match="negative"):
        game.cycle(iid(game, "Test X Cycler"), x=-1)


def test_107_3_decree_of_justice_pays_x_for_soldiers(build):
    game = build(hand=["Decree of Justice"], library=["Plains"], lands=["Plains"] * 5)
    game.cycle(iid(game, "Decree of Justice"), x=2)
    assert len([p for p in game.zones.battlefield if p.token]) == 2 and game.available_mana() == ""
    game = build(hand=["Decree of Justice"], library=["Plains"], lands=["Plains"] * 4)
    before = game.to_dict()
    with pytest.raises(IllegalAction):
        game.cycle(iid(game, "Decree of Justice"), x=2)
    assert game.to_dict() == before


def test_601_2f_new_perspectives_makes_cycling_free_with_seven_cards(build):
    hand = ["Solar Blast"] * 7
    game = build(hand=hand, library=["Island"] * 3, permanents=["New Perspectives"])
    assert all(o.affordable for o in game.cycle_options())
    game.cycle(game.zones.hand[0].iid)
    assert len(game.zones.hand) == 7  # discarded one, drew one
    game.zones.hand.pop()
    assert not any(o.affordable for o in game.cycle_options())


# -------------------------------------------------------------- drawing


def test_121_4_704_5b_drawing_from_an_empty_library_loses_at_the_next_check(build):
    game = build(hand=["Street Wraith"], library=[])
    events = game.cycle(iid(game, "Street Wraith"))
    assert kinds(events)[-2:] == ["draw", "loss"]
    assert events[-2].rule == "121.4" and events[-1].rule == "704.5b"
    assert game.phase == "over" and game.result == "lost: drew from an empty library (704.5b)"
    with pytest.raises(IllegalAction, match="game is over"):
        game.next_turn()


def test_121_4_the_loss_waits_until_every_draw_is_done(build):
    game = build(hand=["New Perspectives"], library=["Island"], lands=["Island"] * 6)
    events = game.cast(iid(game, "New Perspectives"))
    draws = [e for e in events if e.kind == "draw"]
    assert [e.rule for e in draws] == ["121.1", "121.4", "121.4"]
    assert kinds(events)[-1] == "loss" and kinds(events).count("loss") == 1
    assert [c.name for c in game.zones.hand] == ["Island"]


def test_121_4_draw_step_with_an_empty_library(build):
    game = build(hand=["Island"], library=[])
    events = game.next_turn()
    assert kinds(events)[-2:] == ["draw", "loss"] and game.phase == "over"


def test_121_5_a_search_is_not_a_draw(build):
    game = build(hand=["Eternal Dragon"], library=["Plains", "Island"], lands=["Plains", "Plains"])
    game.cycle(iid(game, "Eternal Dragon"))
    assert game.stats["cards_drawn"] == 0 and len(game.zones.hand) == 1


def test_103_8a_the_player_on_the_play_skips_the_first_draw(cards):
    deck = Deck("t", {"Plains": cards["Plains"]}, [(20, "Plains")])
    game = Game.new(deck, seed=3, on_the_play=True)
    events = game.keep()
    assert len(game.zones.hand) == 7 and any(e.rule == "103.8a" for e in events)
    game.next_turn()
    assert len(game.zones.hand) == 8
    game = Game.new(deck, seed=3, on_the_play=False)
    game.keep()
    assert len(game.zones.hand) == 8


def test_305_2_one_land_per_turn(build):
    game = build(hand=["Plains", "Island", "Secluded Steppe"], library=["Swamp"] * 3)
    assert len(game.playable_lands()) == 3
    game.play_land(iid(game, "Plains"))
    assert game.playable_lands() == []
    with pytest.raises(IllegalAction, match="305.2"):
        game.play_land(iid(game, "Island"))
    game.next_turn()
    game.play_land(iid(game, "Secluded Steppe"))
    assert next(p for p in game.zones.battlefield if p.name == "Secluded Steppe").tapped  # enters tapped


def test_502_3_next_turn_untaps_and_creatures_attack(build):
    game = build(hand=["Spark Spray"], library=["Island"] * 3, lands=["Island", "Mountain"], permanents=["Drake Haven"])
    game.cycle(iid(game, "Spark Spray"))
    game.next_turn()  # the Drake is summoning sick this turn
    assert game.opponent.life == 20 and game.available_mana() == "{U}{R}"
    game.next_turn()
    assert game.opponent.life == 18


# ----------------------------------------------------------------- mana


def test_106_flexible_payment_keeps_the_most_colours(build, cards):
    game = build(
        hand=["Akroma's Vengeance"], library=["Island"], lands=["Raugrin Triome", "Plains", "Mountain", "Swamp"]
    )
    game.cycle(iid(game, "Akroma's Vengeance"))  # {3}
    assert [p.name for p in game.zones.battlefield if not p.tapped] == ["Raugrin Triome"]
    w, r, u, wr, g = frozenset("W"), frozenset("R"), frozenset("U"), frozenset("WR"), frozenset("G")
    assert plan_payment(("W",), [(1, wr), (2, w), (3, r)]) == [2]
    assert plan_payment(("W", "1"), [(1, wr), (2, w), (3, r), (4, r)]) in ([2, 3], [2, 4])
    assert plan_payment(("U/B",), [(1, u), (2, g)]) == [1]
    assert plan_payment(("W", "W"), [(1, w), (2, r)]) is None


def test_305_6_lands_tap_for_their_colours(build):
    game = build(lands=["Scattered Groves", "Ash Barrens", "Raugrin Triome", "Secluded Steppe"])
    assert game.available_mana() == "{W/G}{C}{W/U/R}{W}"


# ------------------------------------------------------------ mulligan


def test_103_5_london_mulligan(cards):
    deck = Deck("t", {"Plains": cards["Plains"], "Island": cards["Island"]}, [(30, "Plains"), (30, "Island")])
    game = Game.new(deck, seed=11)
    game.mulligan()
    game.mulligan()
    assert len(game.zones.hand) == 7 and game.player.mulligans == 2
    before = game.to_dict()
    with pytest.raises(IllegalAction, match="exactly 2"):
        game.keep([game.zones.hand[0].iid])
    assert game.to_dict() == before
    bottom = [game.zones.hand[0].iid, game.zones.hand[1].iid]
    game.keep(bottom)
    assert len(game.zones.hand) == 5 and [c.iid for c in game.zones.library[-2:]] == bottom
    assert game.phase == "main"
    with pytest.raises(IllegalAction):
        game.mulligan()


def test_103_5_actions_before_keeping_are_refused(cards):
    deck = Deck("t", {"Street Wraith": cards["Street Wraith"]}, [(20, "Street Wraith")])
    game = Game.new(deck, seed=1)
    with pytest.raises(IllegalAction, match="Keep a hand"):
        game.cycle(game.zones.hand[0].iid)
    assert not any(o.affordable for o in game.cycle_options())


# --------------------------------------------------- persistence, replay


def play_randomly(game: Game, steps: int = 80) -> None:
    import random

    chooser = random.Random(game.seed)
    game.keep()
    for _ in range(steps):
        if game.phase != "main":
            return
        options = [o for o in game.cycle_options() if o.affordable]
        roll = chooser.random()
        if game.playable_lands() and roll < 0.3:
            game.play_land(chooser.choice(game.playable_lands()).iid)
        elif (casts := [o for o in game.cast_options() if o.affordable]) and roll < 0.4:
            game.cast(casts[0].iid)
        elif options and roll < 0.85:
            option = chooser.choice(options)
            kwargs = {}
            if option.search and chooser.random() < 0.3:
                kwargs["find_nothing"] = True
            elif option.search:
                found = game.search_candidates(option.iid, option.ability_index)
                if found:
                    kwargs["find"] = chooser.choice(found).iid
            game.cycle(option.iid, option.ability_index, pay=chooser.random() < 0.8, **kwargs)
        else:
            game.next_turn()


@pytest.mark.parametrize("key", ["slide", "landcycling", "two-colour"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_round_trip_and_replay_equal_the_live_game(key, seed):
    from bot.goldfish.decks import preset_decks

    deck = preset_decks()[key]
    game = Game.new(deck, seed=seed, on_the_play=seed % 2 == 1)
    play_randomly(game)
    data = game.to_dict()
    restored = Game.from_dict(json.loads(json.dumps(data)), preset_decks())
    assert restored == game and restored.to_dict() == data
    assert restored.rng.getstate() == game.rng.getstate()
    replayed = Game.replay(deck, seed, seed % 2 == 1, game.actions)
    assert replayed.to_dict() == data
    # The restored game goes on exactly like the live one.
    if game.phase == "main":
        assert restored.next_turn() == game.next_turn()
        assert restored.to_dict() == game.to_dict()


def test_round_trip_of_a_custom_deck_keeps_its_cards(build):
    game = build(hand=["Spark Spray"], library=["Island"], lands=["Mountain"])
    game.deck_key = None
    game.cycle(iid(game, "Spark Spray"))
    restored = Game.from_dict(json.loads(json.dumps(game.to_dict())), {})  # a custom deck saves its own cards
    assert restored.to_dict() == game.to_dict()


def test_same_seed_same_game():
    from bot.goldfish.decks import preset_decks

    deck = preset_decks()["slide"]
    assert Game.new(deck, seed=5).zones.hand == Game.new(deck, seed=5).zones.hand
    assert Game.new(deck, seed=5).zones.library != Game.new(deck, seed=6).zones.library


# ----------------------------------------------------------- unmodelled


def test_unmodelled_cycle_trigger_is_reported(build):
    game = build(hand=["Choking Tethers"], library=["Island"], lands=["Island", "Island"])
    assert game.unmodelled_text("Choking Tethers") == ["When you cycle Choking Tethers, you may tap target creature."]
    events = game.cycle(iid(game, "Choking Tethers"))
    assert any(e.kind == "unmodelled" and "Choking Tethers" in e.text for e in events)


def test_unmodelled_text_ignores_plain_cycling_lines(build):
    game = build(hand=["Spark Spray", "Pale Recluse"], library=["Island"])
    assert game.unmodelled_text("Spark Spray") == [] and game.unmodelled_text("Pale Recluse") == []
