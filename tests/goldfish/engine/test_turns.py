"""Goldfish engine: the whole turn, payments the player decides, every card castable (each test names its rule)."""

from __future__ import annotations

import json

import pytest

from bot.goldfish.decks import preset_decks
from bot.goldfish.engine import Action, Deck, Game, IllegalAction
from bot.goldfish.engine.scenario import position
from tests.data import GOLDFISH_SAVES
from tests.goldfish.cog_support import sample_cards

ALBINO_TROLL = {
    "name": "Albino Troll",
    "mana_cost": "{1}{G}",
    "type_line": "Creature — Troll",
    "oracle_text": "Echo {1}{G} (At the beginning of your upkeep, if this came under your control since the "
    "beginning of your last upkeep, sacrifice it unless you pay its echo cost.)\n{1}{G}: Regenerate Albino Troll.",
    "power": "3",
    "toughness": "3",
    "layout": "normal",
}
EMERIA = {
    "name": "Emeria's Call // Emeria, Shattered Skyclave",
    "layout": "modal_dfc",
    "type_line": "Sorcery // Land",
    "card_faces": [
        {
            "name": "Emeria's Call",
            "mana_cost": "{4}{W}{W}{W}",
            "type_line": "Sorcery",
            "oracle_text": "Create two 4/4 white Angel Warrior creature tokens with flying.",
        },
        {
            "name": "Emeria, Shattered Skyclave",
            "mana_cost": "",
            "type_line": "Land",
            "oracle_text": "As Emeria, Shattered Skyclave enters, you may pay 3 life. If you don't, it enters "
            "tapped.\n{T}: Add {W}.",
        },
    ],
}
PATHWAY = {
    "name": "Brightclimb Pathway // Grimclimb Pathway",
    "layout": "modal_dfc",
    "type_line": "Land // Land",
    "card_faces": [
        {"name": "Brightclimb Pathway", "mana_cost": "", "type_line": "Land", "oracle_text": "{T}: Add {W}."},
        {"name": "Grimclimb Pathway", "mana_cost": "", "type_line": "Land", "oracle_text": "{T}: Add {B}."},
    ],
}
HYBRID = {
    "name": "Spectral Procession",
    "mana_cost": "{2/W}{2/W}{2/W}",
    "type_line": "Sorcery",
    "oracle_text": "Create three 1/1 white Spirit creature tokens with flying.",
    "layout": "normal",
}
PHYREXIAN = {
    "name": "Porcelain Legionnaire",
    "mana_cost": "{2}{W/P}",
    "type_line": "Artifact Creature — Phyrexian Soldier",
    "oracle_text": "First strike",
    "power": "3",
    "toughness": "1",
    "layout": "normal",
}


@pytest.fixture(scope="module")
def cards() -> dict[str, dict]:
    return sample_cards(ALBINO_TROLL, EMERIA, PATHWAY, HYBRID, PHYREXIAN)


def iid(game: Game, name: str, zone: str = "hand") -> int:
    return next(c.iid for c in getattr(game.zones, zone) if c.name == name)


def land(game: Game, name: str) -> int:
    return next(p.iid for p in game.zones.battlefield if p.name == name)


def test_auto_tap_keeps_barren_moor_cyclable_after_cycling_fetid_pools():
    game = Game.new(preset_decks()["two-colour"], seed=1, on_the_play=True)
    game.mulligan()
    game.keep([26])
    game.play_land(35)
    game.next_turn()
    game.play_land(56)
    game.cycle(5)
    game.next_turn()
    game.play_land(51)
    assert {p.name for p in game.zones.battlefield} == {"Lonely Sandbar", "Swamp", "Island"}
    events = game.cycle(iid(game, "Fetid Pools"))
    assert "tapped Lonely Sandbar, Island" in events[0].text
    moor = next(o for o in game.cycle_options() if o.name == "Barren Moor")
    assert moor.affordable
    game.cycle(moor.iid)


def test_601_2g_the_player_chooses_the_lands_to_tap(cards):
    game = position(
        cards, hand=["Fetid Pools", "Barren Moor"], library=["Plains"] * 3, lands=["Swamp", "Island", "Island"]
    )
    swamp, island = land(game, "Swamp"), land(game, "Island")
    game.apply(Action("cycle", iid(game, "Fetid Pools"), tap=(swamp, island)))
    assert sorted(p.name for p in game.zones.battlefield if p.tapped) == ["Island", "Swamp"]
    assert not next(o for o in game.cycle_options() if o.name == "Barren Moor").affordable


def test_601_2g_chosen_lands_that_cant_pay_are_refused_and_nothing_changes(cards):
    game = position(cards, hand=["Secluded Steppe"], library=["Plains"] * 3, lands=["Swamp", "Plains"])
    with pytest.raises(IllegalAction, match="can't pay exactly"):
        game.apply(Action("cycle", iid(game, "Secluded Steppe"), tap=(land(game, "Swamp"),)))
    assert len(game.zones.hand) == 1 and not any(p.tapped for p in game.zones.battlefield)


def test_514_1_cleanup_discards_down_to_seven_with_the_players_choice(cards):
    game = position(cards, hand=["Plains"] * 6 + ["Street Wraith"] * 3, library=["Plains"] * 5)
    game.apply(Action("next"))
    assert game.phase == "cleanup"
    decision = game.decision()
    assert decision.kind == "discard" and decision.count == 2
    with pytest.raises(IllegalAction, match="514.1"):
        game.apply(Action("next"))
    wraiths = [c.iid for c in game.zones.hand if c.name == "Street Wraith"][:2]
    events = game.discard_down(wraiths)
    assert len(game.zones.hand) == 7 and [c.name for c in game.zones.graveyard] == ["Street Wraith", "Street Wraith"]
    assert any(e.rule == "514.2" for e in events)


def test_702_29d_cleanup_discards_trigger_the_cycle_or_discard_payoffs(cards):
    game = position(
        cards,
        hand=["Plains"] * 8,
        library=["Plains"] * 5,
        lands=["Island", "Island"],
        permanents=["Drake Haven", "Archfiend of Ifnir", "Zenith Seeker"],
    )
    game.apply(Action("next"))
    events = game.discard_down([game.zones.hand[0].iid])
    resolved = [e.text for e in events if e.kind == "trigger" and e.text.startswith("Resolving")]
    assert len(resolved) == 3  # Drake Haven, Archfiend of Ifnir, Zenith Seeker: "cycle or discard"
    assert sum(1 for p in game.zones.battlefield if p.token) == 1


def test_702_29d_a_discard_does_not_trigger_cycle_only_payoffs(cards):
    game = position(
        cards, hand=["Plains"] * 8, library=["Plains"] * 5, lands=["Mountain"], permanents=["Lightning Rift"]
    )
    game.apply(Action("next"))
    game.discard_down([game.zones.hand[0].iid])
    assert game.opponent.life == 20 and not any(p.tapped for p in game.zones.battlefield)


def test_513_1_the_game_stops_at_the_opponents_end_step_so_you_can_cycle(cards):
    game = position(cards, hand=["Secluded Steppe"], library=["Plains"] * 5, lands=["Plains"])
    game.apply(Action("next"))
    assert game.phase == "end_step" and game.turn == 1
    assert game.decision().kind == "end_step"
    with pytest.raises(IllegalAction, match="main phase"):
        game.apply(Action("play", iid(game, "Secluded Steppe")))
    game.cycle(iid(game, "Secluded Steppe"))
    game.apply(Action("next"))
    assert game.phase == "main" and game.turn == 2
    assert not any(p.tapped for p in game.zones.battlefield)


def test_702_30a_echo_is_paid_or_the_permanent_sacrificed_before_anything_else(cards):
    game = position(
        cards, hand=["Albino Troll", "Secluded Steppe"], library=["Plains"] * 5, lands=["Forest", "Forest", "Plains"]
    )
    game.cast(iid(game, "Albino Troll"))
    game.apply(Action("next"))
    game.apply(Action("next"))  # the opponent's end step (the Steppe is still cyclable) → your upkeep
    assert game.phase == "upkeep" and game.decision().kind == "echo"
    with pytest.raises(IllegalAction, match="702.30a"):
        game.cycle(iid(game, "Secluded Steppe"))
    with pytest.raises(IllegalAction, match="702.30a"):
        game.apply(Action("next"))
    game.apply(Action("echo", land(game, "Albino Troll"), pay=True))
    assert game.phase == "main" and sum(p.tapped for p in game.zones.battlefield) == 2
    game.next_turn()
    assert game.phase == "main" and game.turn == 3  # echo is paid once


def test_702_30a_not_paying_echo_sacrifices_the_permanent(cards):
    game = position(cards, hand=["Albino Troll"], library=["Plains"] * 5, lands=["Forest", "Forest"])
    game.cast(iid(game, "Albino Troll"))
    game.next_turn()
    game.apply(Action("echo", land(game, "Albino Troll"), pay=False))
    assert "Albino Troll" in [c.name for c in game.zones.graveyard] and game.phase == "main"


def test_503_1_eternal_dragons_upkeep_ability_is_offered_in_the_upkeep(cards):
    game = position(cards, graveyard=["Eternal Dragon"], library=["Plains"] * 5, lands=["Plains"] * 5)
    game.apply(Action("next"))
    assert game.phase == "upkeep"
    dragon = iid(game, "Eternal Dragon", "graveyard")
    assert Action("activate", dragon) in game.legal_actions()
    game.apply(Action("activate", dragon))
    assert "Eternal Dragon" in [c.name for c in game.zones.hand]


def test_601_2_any_card_can_be_cast_and_creatures_attack(cards):
    game = position(cards, hand=["Krosan Tusker"], library=["Plains"] * 5, lands=["Forest"] * 7)
    events = game.cast(iid(game, "Krosan Tusker"))
    assert "enters the battlefield" in events[0].text
    game.next_turn()
    game.next_turn()
    assert game.opponent.life == 14


def test_608_2_an_unmodelled_sorcery_goes_to_the_graveyard_and_says_so(cards):
    game = position(cards, hand=["Edge of Autumn"], library=["Plains"] * 5, lands=["Forest", "Forest"])
    assert not game.cast_options()[0].modelled
    events = game.cast(iid(game, "Edge of Autumn"))
    assert [c.name for c in game.zones.graveyard] == ["Edge of Autumn"]
    assert any("cast; its effect is not modelled" in e.text for e in events)


def test_107_3_decree_of_justice_cast_with_x_makes_angels(cards):
    game = position(cards, hand=["Decree of Justice"], library=["Plains"] * 5, lands=["Plains"] * 6)
    game.cast(iid(game, "Decree of Justice"), x=1)
    assert sum(1 for p in game.zones.battlefield if p.token and p.power == 4) == 1


def test_712_12_a_modal_double_faced_card_is_played_as_its_land_face(cards):
    game = position(cards, hand=[EMERIA["name"], PATHWAY["name"]], library=["Plains"] * 5)
    assert game.is_land(EMERIA["name"])
    game.play_land(iid(game, EMERIA["name"]), face=1)
    assert game.permanent_name(game.zones.battlefield[0]) == "Emeria, Shattered Skyclave"
    game.next_turn()
    game.play_land(iid(game, PATHWAY["name"]), face=1)
    assert game.colours_of(game.zones.battlefield[1]) == frozenset("B")


def test_712_8a_searches_read_the_front_face_only(cards):
    game = position(cards, hand=["Krosan Tusker"], library=[EMERIA["name"], "Forest"], lands=["Forest"] * 3)
    names = [c.name for c in game.search_candidates(iid(game, "Krosan Tusker"))]
    assert names == ["Forest"]  # Emeria's back face is a land, but in the library it is a sorcery


def test_107_4e_two_generic_hybrid_takes_two_lands_of_any_colour_or_one_white(cards):
    game = position(cards, hand=[HYBRID["name"]], library=["Plains"] * 5, lands=["Mountain"] * 4 + ["Plains"])
    assert game.cast_options()[0].affordable  # {W} + {2} + {2}
    game.cast(iid(game, HYBRID["name"]))
    assert sum(p.tapped for p in game.zones.battlefield) == 5
    short = position(cards, hand=[HYBRID["name"]], library=["Plains"] * 5, lands=["Mountain"] * 3)
    assert not short.cast_options()[0].affordable  # one Mountain is not {2/W}


def test_107_4f_phyrexian_mana_is_paid_with_two_life(cards):
    game = position(cards, hand=[PHYREXIAN["name"]], library=["Plains"] * 5, lands=["Mountain"] * 2)
    events = game.cast(iid(game, PHYREXIAN["name"]))
    assert game.player.life == 18 and "107.4f" in events[0].text


def test_103_5_a_deck_under_seven_cards_draws_short_and_loses_on_keeping(cards):
    deck = Deck("short", {"Plains": cards["Plains"]}, [(5, "Plains")])
    game = Game.new(deck, seed=3)
    assert len(game.zones.hand) == 5 and any(e.rule == "121.4" for e in game.events)
    game.keep()
    assert game.phase == "over" and "704.5b" in game.result


def test_103_5_mulligans_past_the_hand_size_bottom_the_whole_hand_and_are_capped(cards):
    deck = Deck("plains", {"Plains": cards["Plains"]}, [(20, "Plains")])
    game = Game.new(deck, seed=3)
    for _ in range(7):
        game.mulligan()
    with pytest.raises(IllegalAction, match="103.5"):
        game.mulligan()
    assert game.decision().count == 7
    game.keep([c.iid for c in game.zones.hand])
    assert game.zones.hand == [] and game.phase == "main"  # on the play: no first draw


def test_undo_rebuilds_the_game_without_its_last_action():
    game = Game.new(preset_decks()["slide"], seed=12)
    game.keep()
    before = game.to_dict()
    game.play_land(game.playable_lands()[0].iid)
    assert game.undone().to_dict() == before


def test_103_5_a_mulligan_is_not_undone_a_keep_after_it_is():
    game = Game.new(preset_decks()["slide"], seed=11)
    game.mulligan()
    with pytest.raises(IllegalAction, match="can't be undone"):
        game.undone()
    game.keep([game.zones.hand[0].iid])
    assert game.undone().phase == "mulligan" and game.undone().player.mulligans == 1


def test_the_decision_lists_legal_actions_that_apply():
    game = Game.new(preset_decks()["slide"], seed=5)
    seen = set()
    for _ in range(200):
        decision = game.decision()
        seen.add(decision.kind)
        if decision.kind == "over":
            break
        if decision.kind == "discard":
            game.apply(Action("discard", cards=decision.choices[: decision.count]))
        elif decision.kind == "bottom":
            game.apply(Action("keep", bottom=decision.choices[: decision.count]))
        else:
            non_next = [a for a in decision.actions if a.kind != "next"]
            game.apply(non_next[0] if non_next and game.turn % 2 else decision.actions[-1])
    assert game.turn > 5 and {"mulligan", "main"} <= seen


def test_a_format_2_save_still_loads_but_its_log_cannot_be_replayed_for_undo():
    old = json.loads(GOLDFISH_SAVES[2].read_text(encoding="utf-8"))
    loaded = Game.from_dict(old, preset_decks())
    assert loaded.zones.hand.iids() == tuple(old["hand"]) and loaded.phase == "main"
    with pytest.raises(IllegalAction, match="older version"):
        loaded.undone()
    game = Game.new(preset_decks()["slide"], seed=12)
    game.keep()
    assert Game.from_dict(game.to_dict(), preset_decks()).undone().phase == "mulligan"
