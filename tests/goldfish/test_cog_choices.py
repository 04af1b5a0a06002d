"""Choices the table offers: declining Drake Haven's {1} in cleanup, paying Phyrexian mana with life, echo."""

from __future__ import annotations

from bot.goldfish.decks.presets import bundled_cards
from bot.goldfish.engine.scenario import position
from tests.goldfish.cog_support import SLIDE_SIMPLE, choose, control, controls, game_of, updated
from tests.goldfish.engine.test_turns import ALBINO_TROLL, PHYREXIAN


async def lay_out(simcord_env, channel, alice, extra=(), **zones):
    """Start a game, then replace its state with a laid-out position (custom cards allowed); returns the table."""
    await alice.slash(channel, "goldfish start", deck="slide", seed=SLIDE_SIMPLE)
    store = simcord_env.bot.get_cog("Goldfish").store
    record = (await store.in_channel(channel.id))[0]
    cards = {**bundled_cards(), **{card["name"]: card for card in extra}}
    await store.save(record.key, position(cards, **zones).to_dict(), record.version)
    return (await alice.slash(channel, "goldfish status")).response


def labels(message) -> set[str]:
    return {c.get("label") or c.get("placeholder") for c in controls(message)}


async def reach(simcord_env, channel, alice, message, phase: str):
    """Press on (Next turn / My turn) until the game reaches ``phase``."""
    for _ in range(4):
        game = await game_of(simcord_env, channel)
        if game.phase == phase:
            return game
        await alice.click(message, label="My turn" if game.phase == "end_step" else "Next turn")
    raise AssertionError(f"the game never reached {phase}: it is in {game.phase}")


async def reach_cleanup(simcord_env, channel, alice, message):
    game = await reach(simcord_env, channel, alice, message, "cleanup")
    assert len(game.zones.hand) == 9


async def test_514_1_the_cleanup_discard_can_decline_drake_havens_optional_payment(simcord_env, channel, alice):
    hand = ["Plains"] * 5 + ["Akroma's Vengeance"] * 4
    message = await lay_out(
        simcord_env, channel, alice, hand=hand, library=["Plains"] * 6, lands=["Island"], permanents=["Drake Haven"]
    )
    await reach_cleanup(simcord_env, channel, alice, message)
    assert "not paying {1}" in control(message, "gf:discard0:")["placeholder"]
    assert "paying {1} for Drake Haven" in control(message, "gf:discard:")["placeholder"]

    select = control(message, "gf:discard0:")
    values = [o["value"] for o in select["options"] if o["label"] == "Akroma's Vengeance"][:2]
    await alice.select(message, values, custom_id=select["custom_id"])

    game = await game_of(simcord_env, channel)
    assert [c.name for c in game.zones.graveyard].count("Akroma's Vengeance") == 2 and game.turn == 2
    assert not [p for p in game.zones.battlefield if p.token]  # no Drake: the {1} was declined
    assert not simcord_env.errors


async def test_514_1_the_cleanup_discard_pays_drake_havens_optional_1_when_chosen(simcord_env, channel, alice):
    hand = ["Plains"] * 5 + ["Akroma's Vengeance"] * 4
    message = await lay_out(
        simcord_env, channel, alice, hand=hand, library=["Plains"] * 6, lands=["Island"], permanents=["Drake Haven"]
    )
    await reach_cleanup(simcord_env, channel, alice, message)

    select = control(message, "gf:discard:")
    values = [o["value"] for o in select["options"] if o["label"] == "Akroma's Vengeance"][:2]
    await alice.select(message, values, custom_id=select["custom_id"])

    game = await game_of(simcord_env, channel)
    assert [c.name for c in game.zones.graveyard].count("Akroma's Vengeance") == 2 and game.turn == 2
    assert [p.name for p in game.zones.battlefield if p.token] == ["Drake token"]  # one {1}, one Drake


async def test_107_4f_the_player_chooses_to_pay_phyrexian_mana_with_life(simcord_env, channel, alice):
    name = PHYREXIAN["name"]
    message = await lay_out(
        simcord_env, channel, alice, extra=[PHYREXIAN], hand=[name], library=["Plains"] * 6, lands=["Plains"] * 3
    )
    await choose(alice, message, "gf:cast:", f"Cast {name}")
    assert "Pay {W/P} with…" in labels(message)

    await choose(alice, message, "gf:dl:", "Pay 2 life instead (107.4f)")
    await alice.click(message, label="Cast")

    game = await game_of(simcord_env, channel)
    assert name in [p.name for p in game.zones.battlefield]
    assert game.player.life == 18 and sum(p.tapped for p in game.zones.battlefield) == 2
    assert not simcord_env.errors


async def test_107_4f_the_player_chooses_to_pay_phyrexian_mana_with_mana(simcord_env, channel, alice):
    name = PHYREXIAN["name"]
    message = await lay_out(
        simcord_env, channel, alice, extra=[PHYREXIAN], hand=[name], library=["Plains"] * 6, lands=["Plains"] * 3
    )
    await choose(alice, message, "gf:cast:", f"Cast {name}")
    await choose(alice, message, "gf:dl:", "Pay {W/P} with mana")
    await alice.click(message, label="Cast")

    game = await game_of(simcord_env, channel)
    assert name in [p.name for p in game.zones.battlefield]
    assert game.player.life == 20 and sum(p.tapped for p in game.zones.battlefield) == 3


async def troll_in_upkeep(simcord_env, channel, alice):
    """Albino Troll cast on turn 1; the game at turn 2's upkeep, its echo to settle. The table and the game."""
    message = await lay_out(
        simcord_env,
        channel,
        alice,
        extra=[ALBINO_TROLL],
        hand=[ALBINO_TROLL["name"]],
        library=["Forest"] * 6,
        lands=["Forest"] * 2,
    )
    await choose(alice, message, "gf:cast:", f"Cast {ALBINO_TROLL['name']}")
    return message, await reach(simcord_env, channel, alice, message, "upkeep")


async def test_702_30a_echo_is_paid_from_the_table_in_the_next_upkeep(simcord_env, channel, alice):
    name = ALBINO_TROLL["name"]
    message, game = await troll_in_upkeep(simcord_env, channel, alice)
    assert game.turn == 2 and game.echo_pending()
    assert {"Pay echo {1}{G} (Albino Troll)", "Sacrifice Albino Troll"} <= labels(message)

    await alice.click(message, label="Pay echo {1}{G} (Albino Troll)")

    game = await game_of(simcord_env, channel)
    assert not game.echo_pending() and name in [p.name for p in game.zones.battlefield]
    assert not simcord_env.errors


async def test_702_30a_declining_echo_with_the_slash_command_sacrifices_the_permanent(simcord_env, channel, alice):
    name = ALBINO_TROLL["name"]
    message, _ = await troll_in_upkeep(simcord_env, channel, alice)

    result = await alice.slash(channel, "goldfish echo", pay=False)

    updated(result, "Sacrificed Albino Troll rather than pay its echo · turn 2, main phase")
    game = await game_of(simcord_env, channel)
    assert name not in [p.name for p in game.zones.battlefield] and name in [c.name for c in game.zones.graveyard]
    assert not game.echo_pending() and "Sacrifice Albino Troll" not in labels(message)
