"""Replies that say what happened, through discord.py (simcord): a slash-command move answers with what it did and
where the game now is, a refusal on a shared table says what is used up, costs and counts read once and right."""

from __future__ import annotations

from bot.goldfish.decks.presets import bundled_cards
from bot.goldfish.engine import Action
from bot.goldfish.engine.scenario import position
from tests.goldfish.cog_support import SLIDE_SIMPLE, fields, game_of, hand_field, option_value, stored, updated


async def kept(channel, alice, **options):
    message = (await alice.slash(channel, "goldfish start", deck="slide", seed=SLIDE_SIMPLE, **options)).response
    await alice.click(message, label="Keep")
    return message


async def test_a_slash_move_says_what_it_did_and_where_the_game_is(simcord_env, channel, alice):
    await kept(channel, alice)

    played = await alice.slash(channel, "goldfish play", card="Plains")
    assert updated(played) == "Played Plains · turn 1, main phase, land drop used"

    cycled = await alice.slash(channel, "goldfish cycle", card="Secluded Steppe")
    assert updated(cycled) == "Cycled Secluded Steppe · turn 1, main phase, land drop used"
    assert len(cycled.response.content) < 200  # a line and a link: all of it on a phone's first screen


async def test_next_that_stops_in_the_opponents_end_step_says_so(simcord_env, channel, alice):
    await kept(channel, alice)
    await alice.slash(channel, "goldfish play", card="Plains")

    moved = await alice.slash(channel, "goldfish next")

    assert updated(moved) == "Moved on · turn 1, the opponent's end step: cycle now, or My turn goes on"
    assert (await game_of(simcord_env, channel)).phase == "end_step"
    again = await alice.slash(channel, "goldfish next")
    assert updated(again).startswith("Moved on · turn 2, main phase")


async def test_undo_by_slash_command_says_what_it_took_back(simcord_env, channel, alice):
    await kept(channel, alice)
    await alice.slash(channel, "goldfish play", card="Plains")

    undone = await alice.slash(channel, "goldfish undo")

    assert updated(undone) == "Undid playing Plains · turn 1, main phase, land drop available"


async def laid_out_shared(simcord_env, channel, alice, **zones):
    """A shared game in a laid-out position; returns its freshly posted table."""
    await alice.slash(channel, "goldfish start", deck="slide", seed=SLIDE_SIMPLE, shared=True)
    store = simcord_env.bot.get_cog("Goldfish").store
    record = (await store.in_channel(channel.id))[0]
    await store.save(record.key, position(bundled_cards(), **zones).to_dict(), record.version)
    return (await alice.slash(channel, "goldfish status")).response


async def played_first(simcord_env, channel, actor, action: Action) -> None:
    """``actor``'s move saved a moment before another player's click on the same table reaches the bot (the table's
    edit not yet shown to them): simcord plays one interaction at a time, so the first goes to the service."""
    record = await stored(simcord_env, channel)
    await simcord_env.bot.get_cog("Goldfish").service.act(record.key, actor.id, action)


async def test_a_second_click_on_a_played_land_says_the_land_drop_is_used_up(simcord_env, channel, alice, bob):
    table = await laid_out_shared(simcord_env, channel, alice, hand=["Plains", "Plains", "Secluded Steppe"])
    custom_id, value = option_value(table, "gf:land:", "Plains")

    # Both choose the same Plains at once: alice's is saved first, and bob's screen still shows the table before it.
    await played_first(simcord_env, channel, alice, Action("play", int(value)))
    late = await bob.select(table, [value], custom_id=custom_id)

    assert late.ephemeral
    said = late.response.content
    assert said.startswith(f"This turn's land drop is used up: <@{alice.id}> just played Plains.")
    assert "no longer in the hand" not in said and "gone" not in said
    game = await game_of(simcord_env, channel)
    assert [c.name for c in game.zones.hand].count("Plains") == 1


async def test_a_second_click_on_a_cycled_card_points_at_the_other_copy(simcord_env, channel, alice, bob):
    table = await laid_out_shared(
        simcord_env, channel, alice, hand=["Secluded Steppe"] * 2, lands=["Plains"] * 2, library=["Plains"] * 9
    )
    custom_id, value = option_value(table, "gf:cycle:", "Cycle Secluded Steppe")

    iid, ability = (int(part) for part in value.split(":"))
    await played_first(simcord_env, channel, alice, Action("cycle", iid, ability))
    late = await bob.select(table, [value], custom_id=custom_id)

    assert late.response.content.startswith(f"<@{alice.id}> just cycled that Secluded Steppe; another copy is in")
    assert (await game_of(simcord_env, channel)).stats["cards_cycled"] == 1


async def test_a_sacrifice_cost_reads_once(simcord_env, channel, alice):
    table = await laid_out_shared(simcord_env, channel, alice, hand=["Edge of Autumn"], lands=["Forest"])

    [line] = hand_field(table).splitlines()

    assert line.startswith("• **Edge of Autumn** — Cycling—Sacrifice a land;")
    assert line.lower().count("sacrifice a land") == 1 and "→" not in line


async def test_counts_agree_with_their_nouns_in_the_statistics(simcord_env, channel, alice):
    await kept(channel, alice)

    shown = await alice.slash(channel, "goldfish stats show")

    assert fields(shown.response)["Longest game"] == "1 turn"
