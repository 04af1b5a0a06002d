"""/goldfish through the real discord.py stack (simcord): a whole game, restarts, double clicks, statistics."""

from __future__ import annotations

import json
import re

from bot.client import CycleBot
from bot.goldfish import GameKey
from tests.goldfish.cog_support import (
    LANDCYCLING_ENT,
    SLIDE_FULL,
    SLIDE_SIMPLE,
    choose,
    control,
    controls,
    fields,
    game_of,
    hand_field,
    stored,
    table,
    updated,
)


async def test_start_posts_a_public_game_message_with_keep_and_mulligan(simcord_env, channel, alice):
    result = await alice.slash(channel, "goldfish start", deck="slide", seed=SLIDE_SIMPLE)

    assert not result.ephemeral
    message = result.response
    embed = message.embeds[0]
    assert "Astral Slide" in embed.title
    assert "Mulligan" in embed.description and "103.5" in embed.description
    assert fields(message)["Life"] == "You **20** · Opponent **20**"
    assert "Library 53 · Graveyard 0" in fields(message)["Zones"]
    assert "Secluded Steppe** — Cycling {W}" in hand_field(message)
    assert {c["label"] for c in controls(message)} == {"Keep", "Mulligan"}
    assert f"Seed {SLIDE_SIMPLE}" in embed.footer.text
    record = await stored(simcord_env, channel)
    assert record.owner_id == alice.id and record.version == 1 and not record.shared


async def test_whole_game_mulligan_keep_land_cycle_typecycle_next_status_log_end(simcord_env, channel, alice):
    start = await alice.slash(channel, "goldfish start", deck="slide", seed=SLIDE_FULL)
    message = start.response

    mulligan = await alice.click(message, label="Mulligan")
    assert "1 mulligan so far" in mulligan.response.embeds[0].description
    assert (await game_of(simcord_env, channel)).player.mulligans == 1

    # Keeping after a mulligan asks which card goes to the bottom (London mulligan).
    keep = await alice.click(message, label="Keep (bottom 1)")
    assert "bottom" in control(keep.response, "gf:bottom:")["placeholder"]
    kept = await choose(alice, message, "gf:bottom:", "Akroma's Vengeance")
    game = await game_of(simcord_env, channel)
    assert game.phase == "main" and game.turn == 1 and len(game.zones.hand) == 6
    assert game.zones.library[-1].name == "Akroma's Vengeance"
    assert "**Turn 1**" in kept.response.embeds[0].description

    played = await choose(alice, message, "gf:land:", "Plains")
    assert "1 land · {W} available" in fields(played.response)["Mana"]
    assert "Played Plains" in fields(played.response)["What happened"]

    before = await game_of(simcord_env, channel)
    cycled = await choose(alice, message, "gf:cycle:", "Cycle Winged Shepherd")
    after = await game_of(simcord_env, channel)
    assert len(after.zones.graveyard) == len(before.zones.graveyard) + 1
    assert len(after.zones.hand) == len(before.zones.hand)  # discarded one, drew one
    assert len(after.zones.library) == len(before.zones.library) - 1
    assert "Winged Shepherd" in [c.name for c in after.zones.graveyard]
    happened = fields(cycled.response)["What happened"]
    assert "Cycled Winged Shepherd" in happened and "(702.29a)" in happened
    assert f"Graveyard {len(after.zones.graveyard)}" in fields(cycled.response)["Zones"]

    turn2 = await alice.click(message, label="Next turn")
    assert "**Turn 2**" in turn2.response.embeds[0].description
    await choose(alice, message, "gf:land:", "Mountain")

    # Typecycling: choosing Eternal Dragon shows what its search can find; nothing happens yet.
    version = (await stored(simcord_env, channel)).version
    asked = await choose(alice, message, "gf:cycle:", "Cycle Eternal Dragon")
    assert "Plainscycling {2}" in asked.response.embeds[0].description
    find = control(asked.response, "gf:find:")
    assert [o["label"] for o in find["options"]] == ["Plains", "Find nothing"]
    assert (await stored(simcord_env, channel)).version == version
    plains_in_hand = sum(c.name == "Plains" for c in (await game_of(simcord_env, channel)).zones.hand)

    found = await choose(alice, message, "gf:find:", "Plains")
    game = await game_of(simcord_env, channel)
    assert sum(c.name == "Plains" for c in game.zones.hand) == plains_in_hand + 1
    assert "Eternal Dragon" in [c.name for c in game.zones.graveyard]
    assert game.stats["typecycling_searches"] == 1 and game.stats["cards_cycled"] == 2
    assert "Plains and put it into your hand" in fields(found.response)["What happened"]

    status = await alice.slash(channel, "goldfish status")
    assert not status.ephemeral and "**Turn 2**" in status.response.embeds[0].description

    log = await alice.slash(channel, "goldfish log")
    assert log.ephemeral
    assert "Cycled Winged Shepherd" in log.response.embeds[0].description

    hand = await alice.slash(channel, "goldfish hand")
    assert hand.ephemeral and "Plains" in hand.response.embeds[0].description

    end = await alice.slash(channel, "goldfish end")
    assert not end.ephemeral and "after 2 turns" in end.response.content
    assert await stored(simcord_env, channel) is None
    # The ended game's messages lose their controls; a command still gets the clear answer.
    assert controls(message) == [] and controls(status.response) == []
    gone = await alice.slash(channel, "goldfish next")
    assert gone.ephemeral and "no goldfish game" in gone.response.content
    assert not simcord_env.errors


async def test_typecycling_can_find_nothing(simcord_env, channel, alice):
    message = (await alice.slash(channel, "goldfish start", deck="landcycling", seed=LANDCYCLING_ENT)).response
    await alice.click(message, label="Keep")
    await choose(alice, message, "gf:land:", "Forest")
    before = await game_of(simcord_env, channel)

    await choose(alice, message, "gf:cycle:", "Cycle Generous Ent")
    result = await choose(alice, message, "gf:find:", "Find nothing")

    after = await game_of(simcord_env, channel)
    assert len(after.zones.hand) == len(before.zones.hand) - 1
    assert len(after.zones.library) == len(before.zones.library)
    assert "Generous Ent" in [c.name for c in after.zones.graveyard]
    assert "found nothing" in fields(result.response)["What happened"]


async def test_the_back_button_leaves_the_search_without_cycling(simcord_env, channel, alice):
    message = (await alice.slash(channel, "goldfish start", deck="landcycling", seed=LANDCYCLING_ENT)).response
    await alice.click(message, label="Keep")
    await choose(alice, message, "gf:land:", "Forest")
    version = (await stored(simcord_env, channel)).version

    await choose(alice, message, "gf:cycle:", "Cycle Generous Ent")
    back = await alice.click(message, label="Back")

    assert (await stored(simcord_env, channel)).version == version
    assert control(back.response, "gf:cycle:")


async def test_slash_cycle_with_autocomplete_and_find(simcord_env, channel, alice):
    await alice.slash(channel, "goldfish start", deck="landcycling", seed=LANDCYCLING_ENT)
    await alice.slash(channel, "goldfish keep")
    await alice.slash(channel, "goldfish play", card="Forest")

    choices = await alice.autocomplete(channel, "goldfish cycle", "card", "ent")
    ent = next(c for c in choices if c["name"].startswith("Generous Ent"))
    # Card options forgive typos and word order the way /card does.
    assert (await alice.autocomplete(channel, "goldfish cycle", "card", "generus"))[0]["value"] == ent["value"]
    assert (await alice.autocomplete(channel, "goldfish cycle", "card", "ent generous"))[0]["value"] == ent["value"]
    finds = await alice.autocomplete(channel, "goldfish cycle", "find", "", card=ent["value"])
    assert finds[-1]["name"] == "Find nothing"
    forest = next(c for c in finds if c["name"] == "Forest")
    assert (await alice.autocomplete(channel, "goldfish cycle", "find", "forst", card=ent["value"]))[0] == forest

    result = await alice.slash(channel, "goldfish cycle", card=ent["value"], find=forest["value"])

    updated(result)
    game = await game_of(simcord_env, channel)
    assert game.stats["typecycling_searches"] == 1
    assert "Forest and put it into your hand" in fields(table(channel))["What happened"]


async def test_slash_cycle_by_typed_name_without_find_asks_what_to_find(simcord_env, channel, alice):
    message = (await alice.slash(channel, "goldfish start", deck="landcycling", seed=LANDCYCLING_ENT)).response
    await alice.slash(channel, "goldfish keep")
    await alice.slash(channel, "goldfish play", card="forest")

    result = await alice.slash(channel, "goldfish cycle", card="generous ent")

    assert result.ephemeral
    first = result.response.content.splitlines()[0]
    assert first.startswith("**Generous Ent**'s Forestcycling {1} searches your library for a Forest card")
    assert "`find:`" in first
    assert table(channel).id == message.id and control(message, "gf:find:")
    assert (await game_of(simcord_env, channel)).stats["cards_cycled"] == 0


async def test_buttons_keep_working_after_a_restart(simcord_env, channel, alice, bot_config):
    message = (await alice.slash(channel, "goldfish start", deck="slide", seed=SLIDE_SIMPLE)).response
    await alice.click(message, label="Keep")

    await simcord_env.restart_bot(CycleBot(bot_config))

    played = await choose(alice, message, "gf:land:", "Plains")
    assert "Played Plains" in fields(played.response)["What happened"]
    result = await alice.click(message, label="Next turn")
    assert not result.ephemeral
    # Secluded Steppe can still be cycled with the open Plains: the game stops at the opponent's end step.
    assert (await game_of(simcord_env, channel)).phase == "end_step"
    await alice.click(message, label="My turn")
    assert (await game_of(simcord_env, channel)).turn == 2
    assert not simcord_env.errors


async def test_a_click_on_an_old_copy_of_the_table_is_answered_with_the_latest_one(simcord_env, channel, alice):
    first = (await alice.slash(channel, "goldfish start", deck="slide", seed=SLIDE_SIMPLE)).response
    await alice.click(first, label="Keep")
    await choose(alice, first, "gf:land:", "Plains")
    # /goldfish status posts the table again: the first message is now an old copy offering the same card.
    second = (await alice.slash(channel, "goldfish status")).response
    assert table(channel).id == second.id
    version = (await stored(simcord_env, channel)).version

    late = await choose(alice, first, "gf:cycle:", "Cycle Secluded Steppe")

    assert late.ephemeral and "old copy of the table" in late.response.content
    assert f"/{second.id}" in late.response.content  # a jump link to the latest table
    assert (await stored(simcord_env, channel)).version == version
    await choose(alice, second, "gf:cycle:", "Cycle Secluded Steppe")
    game = await game_of(simcord_env, channel)
    assert game.stats["cards_cycled"] == 1
    assert [c.name for c in game.zones.graveyard] == ["Secluded Steppe"]
    assert (await stored(simcord_env, channel)).version == version + 1


async def test_a_stale_next_turn_button_does_not_advance_twice(simcord_env, channel, alice):
    first = (await alice.slash(channel, "goldfish start", deck="slide", seed=SLIDE_SIMPLE)).response
    await alice.click(first, label="Keep")
    second = (await alice.slash(channel, "goldfish status")).response

    await alice.click(second, label="Next turn")
    late = await alice.click(first, label="Next turn")

    assert late.ephemeral and "old copy of the table" in late.response.content
    assert (await game_of(simcord_env, channel)).turn == 2


async def test_concurrent_actions_on_one_channel_are_serialised(simcord_env, channel, alice):
    import asyncio

    from bot.goldfish.engine import Action, IllegalAction

    message = (await alice.slash(channel, "goldfish start", deck="slide", seed=SLIDE_SIMPLE)).response
    await alice.click(message, label="Keep")
    cog = simcord_env.bot.get_cog("Goldfish")
    version = (await stored(simcord_env, channel)).version

    results = await asyncio.gather(
        *(cog.service.act(GameKey(channel.id, alice.id), alice.id, Action("next"), version) for _ in range(5)),
        return_exceptions=True,
    )

    assert sum(not isinstance(r, BaseException) for r in results) == 1
    assert all(isinstance(r, IllegalAction) for r in results if isinstance(r, BaseException))
    assert (await game_of(simcord_env, channel)).turn == 2


async def test_statistics_count_as_you_play_and_forget_deletes_only_them(simcord_env, channel, alice):
    message = (await alice.slash(channel, "goldfish start", deck="slide", seed=SLIDE_SIMPLE)).response
    await alice.click(message, label="Keep")
    await choose(alice, message, "gf:land:", "Plains")
    await choose(alice, message, "gf:cycle:", "Cycle Secluded Steppe")
    await alice.click(message, label="Next turn")

    shown = await alice.slash(channel, "goldfish stats show")
    assert shown.ephemeral
    numbers = fields(shown.response)
    assert numbers["Games started"] == "1"
    assert numbers["Cards cycled"] == "1"
    assert numbers["Turns played"] == "2"  # turn 1 began on keeping, then turn 2
    assert numbers["Longest game"] == "2 turns"
    # When, in each reader's own time zone ("a minute ago"), not an ISO string.
    assert re.fullmatch(r"Updated <t:\d{10}:R>", shown.response.embeds[0].description)
    assert "T" not in (shown.response.embeds[0].footer.text or "").split("/goldfish")[0]

    forgotten = await alice.slash(channel, "goldfish stats forget")
    assert forgotten.ephemeral and "Deleted your goldfish statistics" in forgotten.response.content
    assert await simcord_env.bot.get_cog("Goldfish").store.get_stats(alice.id) is None
    assert await stored(simcord_env, channel) is not None  # the game itself is untouched

    again = await alice.slash(channel, "goldfish stats show")
    assert "No statistics yet" in again.response.embeds[0].description
    nothing = await alice.slash(channel, "goldfish stats forget")
    assert "nothing to delete" in nothing.response.content


async def test_statistics_survive_a_restart(simcord_env, channel, alice, bot_config):
    message = (await alice.slash(channel, "goldfish start", deck="slide", seed=SLIDE_SIMPLE)).response
    await alice.click(message, label="Keep")

    await simcord_env.restart_bot(CycleBot(bot_config))

    shown = await alice.slash(channel, "goldfish stats show")
    assert fields(shown.response)["Games started"] == "1"


async def test_one_game_per_channel_independent_channels(simcord_env, guild, channel, alice):
    other = guild.create_text_channel("other")
    await alice.slash(channel, "goldfish start", deck="slide", seed=SLIDE_SIMPLE)
    await alice.slash(other, "goldfish start", deck="landcycling", seed=LANDCYCLING_ENT)

    await alice.slash(other, "goldfish keep")

    assert (await game_of(simcord_env, channel)).phase == "mulligan"
    assert (await game_of(simcord_env, other)).phase == "main"


async def test_cast_a_payoff_permanent_with_autocomplete(simcord_env, channel, alice):
    message = (await alice.slash(channel, "goldfish start", deck="slide", seed=15)).response
    await alice.click(message, label="Keep")
    game = await game_of(simcord_env, channel)
    await choose(alice, message, "gf:land:", game.playable_lands()[0].name)
    await alice.click(message, label="Next turn")
    game = await game_of(simcord_env, channel)
    await choose(alice, message, "gf:land:", game.playable_lands()[0].name)

    choices = await alice.autocomplete(channel, "goldfish cast", "card", "rift")
    assert choices and choices[0]["name"].startswith("Lightning Rift — {1}{R}")
    result = await alice.slash(channel, "goldfish cast", card=choices[0]["value"])

    updated(result)
    assert table(channel).id == message.id  # edited in place, not posted again
    assert "Lightning Rift" in fields(message)["Battlefield"]
    assert "Lightning Rift" in [p.name for p in (await game_of(simcord_env, channel)).zones.battlefield]


async def test_a_write_from_elsewhere_in_between_is_not_overwritten(simcord_env, channel, alice):
    message = (await alice.slash(channel, "goldfish start", deck="slide", seed=SLIDE_SIMPLE)).response
    await alice.click(message, label="Keep")
    store = simcord_env.bot.get_cog("Goldfish").store
    save = store.save

    async def another_process_wrote_first(key, state, expected_version, **kwargs):
        await save(key, dict(json.loads(state), elsewhere=True), expected_version)  # the text the bot wrote
        return await save(key, state, expected_version, **kwargs)

    store.save = another_process_wrote_first
    try:
        result = await alice.click(message, label="Next turn")
    finally:
        store.save = save

    assert result.ephemeral and "try again" in result.response.content
    record = await stored(simcord_env, channel)
    assert record.state.get("elsewhere") is True and record.version == 3
    assert (await store.get_stats(alice.id)).turns == 1  # only the keep's turn 1: the lost write added nothing


async def test_statistics_title_shows_a_markdown_display_name_as_typed(simcord_env, guild, channel):
    carol = guild.add_member(simcord_env.create_user("carol", global_name="__carol__ *{G}*"))
    shown = await carol.slash(channel, "goldfish stats show")
    assert shown.response.embeds[0].title.replace("\u2060", "") == r"Goldfish statistics · \_\_carol\_\_ \*{G}\*"


async def test_a_search_told_to_find_a_card_it_cannot_says_what_it_can_find(simcord_env, channel, alice):
    await alice.slash(channel, "goldfish start", deck="landcycling", seed=LANDCYCLING_ENT)
    await alice.slash(channel, "goldfish keep")
    await alice.slash(channel, "goldfish play", card="Forest")

    refused = await alice.slash(channel, "goldfish cycle", card="Generous Ent", find="Black Lotus")

    said = refused.response.content
    assert refused.ephemeral and said.startswith("The search can't find a card called “Black Lotus”. It can find: ")
    assert "Forest" in said and "in your hand" not in said  # forestcycling searches the library, not the hand
