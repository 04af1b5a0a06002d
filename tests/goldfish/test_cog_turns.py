"""/goldfish through discord.py (simcord): the end-step stop, undo, cleanup, casting a creature, choices."""

from __future__ import annotations

from bot.goldfish.decks.presets import bundled_cards
from bot.goldfish.engine.scenario import position
from tests.goldfish.cog_support import SLIDE_SIMPLE, choose, control, controls, fields, game_of, updated


def labels(message) -> set[str]:
    return {c.get("label") or c.get("placeholder") for c in controls(message)}


async def lay_out(simcord_env, channel, alice, **zones):
    """Start a game, then replace its state with a laid-out position; returns a fresh game message."""
    await alice.slash(channel, "goldfish start", deck="slide", seed=SLIDE_SIMPLE)
    store = simcord_env.bot.get_cog("Goldfish").store
    record = (await store.in_channel(channel.id))[0]
    game = position(bundled_cards(), **zones)
    await store.save(record.key, game.to_dict(), record.version)
    return (await alice.slash(channel, "goldfish status")).response


async def test_a_game_with_an_end_step_cycle_undo_and_a_cleanup_discard(simcord_env, channel, alice):
    message = (await alice.slash(channel, "goldfish start", deck="slide", seed=SLIDE_SIMPLE)).response
    await alice.click(message, label="Keep")
    await choose(alice, message, "gf:land:", "Plains")

    await alice.click(message, label="Next turn")
    game = await game_of(simcord_env, channel)
    assert game.phase == "end_step" and game.turn == 1
    assert "end step" in message.embeds[0].description
    assert {"My turn", "Undo", "Graveyard", "Library"} <= labels(message)

    await choose(alice, message, "gf:cycle:", "Cycle Secluded Steppe")
    assert (await game_of(simcord_env, channel)).stats["cards_cycled"] == 1
    assert "Cycled Secluded Steppe" in fields(message)["What happened"]

    await alice.click(message, label="Undo")
    undone = await game_of(simcord_env, channel)
    assert undone.stats["cards_cycled"] == 0 and "Secluded Steppe" in [c.name for c in undone.zones.hand]
    assert "Undid cycling Secluded Steppe" in fields(message)["What happened"]  # what was undone, in words
    shown = await alice.slash(channel, "goldfish stats show")  # the undone cycle no longer counts
    assert fields(shown.response)["Cards cycled"] == "0"

    await alice.click(message, label="My turn")
    assert (await game_of(simcord_env, channel)).turn == 2
    for _ in range(6):  # play no land: the hand grows to eight
        game = await game_of(simcord_env, channel)
        if game.phase == "cleanup":
            break
        await alice.click(message, label="My turn" if game.phase == "end_step" else "Next turn")
    assert game.phase == "cleanup" and "514.1" in message.embeds[0].description
    discard = control(message, "gf:discard:")
    assert discard["min_values"] == discard["max_values"] == 1
    await choose(alice, message, "gf:discard:", "Akroma's Vengeance")
    after = await game_of(simcord_env, channel)
    assert len(after.zones.hand) <= 8 and "Akroma's Vengeance" in [c.name for c in after.zones.graveyard]
    assert not simcord_env.errors


async def test_a_cast_creature_attacks_the_goldfish_next_turn(simcord_env, channel, alice):
    message = await lay_out(
        simcord_env, channel, alice, hand=["Zenith Seeker"], library=["Island"] * 6, lands=["Island"] * 4
    )
    await choose(alice, message, "gf:cast:", "Cast Zenith Seeker")
    assert "Zenith Seeker" in fields(message)["Battlefield"]
    await alice.click(message, label="Next turn")  # summoning sick: no attack this turn
    assert (await game_of(simcord_env, channel)).opponent.life == 20
    await alice.click(message, label="Next turn")
    game = await game_of(simcord_env, channel)
    assert game.opponent.life == 18 and "Attacked with Zenith Seeker" in fields(message)["What happened"]


async def decree_with_drake_haven(simcord_env, channel, alice):
    """Decree of Justice in hand, five Plains and Drake Haven on the battlefield: X and a "you may pay" to choose."""
    return await lay_out(
        simcord_env,
        channel,
        alice,
        hand=["Decree of Justice"],
        library=["Plains"] * 6,
        lands=["Plains"] * 5,
        permanents=["Drake Haven"],
    )


async def test_decree_of_justice_x_and_drake_havens_optional_payment_are_chosen(simcord_env, channel, alice):
    message = await decree_with_drake_haven(simcord_env, channel, alice)
    await choose(alice, message, "gf:cycle:", "Cycle Decree of Justice")
    assert "choose, then press" in message.embeds[0].description
    await choose(alice, message, "gf:dx:", "X = 1")
    await choose(alice, message, "gf:dp:", "Don't pay")
    await alice.click(message, label="Cycle")
    game = await game_of(simcord_env, channel)
    tokens = [p.name for p in game.zones.battlefield if p.token]
    assert tokens == ["Soldier token"]  # X = 1 Soldier; no Drake: the {1} was declined
    assert sum(p.tapped for p in game.zones.battlefield) == 4  # {2}{W} and X = 1


async def test_edge_of_autumn_asks_which_land_and_warns_before_the_last(simcord_env, channel, alice):
    message = await lay_out(
        simcord_env, channel, alice, hand=["Edge of Autumn"], library=["Forest"] * 6, lands=["Forest"]
    )
    await choose(alice, message, "gf:cycle:", "Cycle Edge of Autumn")
    assert "last land" in message.embeds[0].description
    await choose(alice, message, "gf:ds:", "Forest")
    await alice.click(message, label="Cycle")
    assert (await game_of(simcord_env, channel)).zones.battlefield == []


async def test_the_player_picks_the_lands_for_the_next_payment(simcord_env, channel, alice):
    message = await lay_out(
        simcord_env,
        channel,
        alice,
        hand=["Fetid Pools", "Barren Moor"],
        library=["Island"] * 6,
        lands=["Swamp", "Island", "Island"],
    )
    select = control(message, "gf:tap:")
    swamp = next(o["value"] for o in select["options"] if o["label"] == "Swamp")
    island = next(o["value"] for o in select["options"] if o["label"] == "Island")
    await alice.select(message, [swamp, island], custom_id=select["custom_id"])
    assert "The next payment taps: Swamp, Island" in message.embeds[0].description
    await choose(alice, message, "gf:cycle:", "Cycle Fetid Pools")
    game = await game_of(simcord_env, channel)
    assert sorted(game.permanent_name(p) for p in game.zones.battlefield if p.tapped) == ["Island", "Swamp"]


async def test_zone_views_and_a_finished_game_offers_a_new_game_and_a_replay(simcord_env, channel, alice):
    message = await lay_out(simcord_env, channel, alice, hand=["Street Wraith"], library=[], graveyard=["Plains"])
    grave = await alice.click(message, label="Graveyard")
    assert grave.ephemeral and "1. Plains" in grave.response.embeds[0].description
    library = await alice.click(message, label="Library")
    assert library.ephemeral and "Library (0 cards" in library.response.embeds[0].title

    await choose(alice, message, "gf:cycle:", "Cycle Street Wraith")  # draws from an empty library: 704.5b
    assert (await game_of(simcord_env, channel)).phase == "over"
    assert {"New game", "Replay this seed"} <= labels(message)
    await alice.click(message, label="Replay this seed")
    game = await game_of(simcord_env, channel)
    assert game.phase == "mulligan" and game.seed == 7 and {"Keep", "Mulligan"} <= labels(message)
    assert not simcord_env.errors


async def test_slash_commands_take_the_lands_x_and_payment_and_undo(simcord_env, channel, alice):
    await decree_with_drake_haven(simcord_env, channel, alice)
    result = await alice.slash(channel, "goldfish cycle", card="Decree of Justice", x=1, pay=False)
    updated(result)
    game = await game_of(simcord_env, channel)
    assert [p.name for p in game.zones.battlefield if p.token] == ["Soldier token"]
    refused = await alice.slash(channel, "goldfish undo")
    assert refused.ephemeral and "can't be undone" in refused.response.content  # a laid-out position


async def test_a_second_land_is_refused_with_rule_305_2(simcord_env, channel, alice):
    await lay_out(simcord_env, channel, alice, hand=["Plains", "Plains"], library=["Plains"] * 6)
    await alice.slash(channel, "goldfish play", card="Plains")
    refused = await alice.slash(channel, "goldfish play", card="Plains")
    assert refused.ephemeral and "305.2" in refused.response.content
    assert "There is no" not in refused.response.content
