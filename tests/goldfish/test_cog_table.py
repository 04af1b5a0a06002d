"""One table a game: slash commands edit it in place, old copies are answered, ended games lose their controls."""

from __future__ import annotations

import re

from bot.client import CycleBot
from bot.goldfish.decks.presets import bundled_cards
from bot.goldfish.engine.scenario import position
from tests.goldfish.cog_support import LANDCYCLING_ENT, SLIDE_SIMPLE, choose, controls, game_of, stored, table, updated

RULE = re.compile(r"\b\d{3}\.\d+[a-z]?\b")  # a rule number, as "(103.5)" or "(London mulligan, 103.5)" cite it


def labels(message) -> set[str]:
    return {c.get("label") or c.get("placeholder") for c in controls(message)}


def public_games(channel) -> list:
    return [
        m
        for m in channel.history()
        if not m.flags.ephemeral and m.embeds and "/goldfish log" in (m.embeds[0].footer.text or "")
    ]


async def test_slash_commands_edit_the_one_table_in_place_and_answer_privately(simcord_env, channel, alice):
    message = (await alice.slash(channel, "goldfish start", deck="slide", seed=SLIDE_SIMPLE)).response

    kept = await alice.slash(channel, "goldfish keep")
    updated(kept)
    assert f"/{message.id}" in kept.response.content  # the note links to the table
    turned = await alice.slash(channel, "goldfish next")
    updated(turned)

    assert [m.id for m in public_games(channel)] == [message.id]
    assert "**Turn 2**" in message.embeds[0].description
    assert "Next turn" in labels(message)
    assert (await game_of(simcord_env, channel)).turn == 2
    assert not simcord_env.errors


async def test_a_refused_slash_command_leaves_the_table_as_it_was(simcord_env, channel, alice):
    message = (await alice.slash(channel, "goldfish start", deck="slide", seed=SLIDE_SIMPLE)).response
    before = message.embeds[0].description

    refused = await alice.slash(channel, "goldfish play", card="Plains")

    assert refused.ephemeral and "keep your hand first" in refused.response.content
    assert message.embeds[0].description == before and len(public_games(channel)) == 1


async def test_a_deleted_table_is_posted_again_once_and_then_edited(simcord_env, channel, alice):
    message = (await alice.slash(channel, "goldfish start", deck="slide", seed=SLIDE_SIMPLE)).response
    await simcord_env.bot.http.delete_message(channel.id, message.id)

    kept = await alice.slash(channel, "goldfish keep")

    again = table(channel)
    assert not kept.ephemeral and kept.response.id == again.id  # the answer is the table, posted again
    assert again.id != message.id and "**Turn 1**" in again.embeds[0].description
    turned = await alice.slash(channel, "goldfish next")
    updated(turned)
    assert [m.id for m in public_games(channel)] == [again.id]
    assert "**Turn 2**" in table(channel).embeds[0].description


async def test_the_table_is_remembered_with_the_game_across_a_restart(simcord_env, channel, alice, bot_config):
    message = (await alice.slash(channel, "goldfish start", deck="slide", seed=SLIDE_SIMPLE)).response
    await alice.click(message, label="Keep")
    assert (await stored(simcord_env, channel)).state["tables"] == [message.id]

    await simcord_env.restart_bot(CycleBot(bot_config))
    turned = await alice.slash(channel, "goldfish next")

    updated(turned)
    assert [m.id for m in public_games(channel)] == [message.id]
    assert "**Turn 2**" in message.embeds[0].description


async def test_when_the_game_is_over_older_copies_lose_their_controls_but_the_table_offers_a_new_game(
    simcord_env, channel, alice
):
    first = (await alice.slash(channel, "goldfish start", deck="slide", seed=SLIDE_SIMPLE)).response
    store = simcord_env.bot.get_cog("Goldfish").store
    record = (await store.in_channel(channel.id))[0]
    game = position(bundled_cards(), hand=["Street Wraith"], library=[], graveyard=["Plains"])
    await store.save(record.key, game.to_dict(), record.version)
    latest = (await alice.slash(channel, "goldfish status")).response
    assert labels(first)  # an old copy, still with its controls while the game goes on

    await choose(alice, latest, "gf:cycle:", "Cycle Street Wraith")  # draws from an empty library: 704.5b

    assert (await game_of(simcord_env, channel)).phase == "over"
    assert controls(first) == []
    assert {"New game", "Replay this seed"} <= labels(latest) and "Next turn" not in labels(latest)

    # Posted again once over, then replayed from the newest copy: the finished game's other copy goes quiet.
    newest = (await alice.slash(channel, "goldfish status")).response
    await alice.click(newest, label="Replay this seed")
    assert (await game_of(simcord_env, channel)).phase == "mulligan"
    assert controls(latest) == [] and "Keep" in labels(newest)
    assert not simcord_env.errors


async def test_replacing_the_game_removes_the_old_tables_controls(simcord_env, channel, alice):
    old = (await alice.slash(channel, "goldfish start", deck="slide", seed=SLIDE_SIMPLE)).response
    asked = await alice.slash(channel, "goldfish start", deck="landcycling", seed=LANDCYCLING_ENT)

    confirmed = await alice.click(asked.response, label="Replace the game")

    assert controls(old) == []
    new = confirmed.followups[-1]
    assert table(channel).id == new.id and "Keep" in labels(new)
    kept = await alice.slash(channel, "goldfish keep")
    updated(kept)
    assert f"/{new.id}" in kept.response.content


async def test_a_table_cites_its_rules_one_way(simcord_env, channel, alice):
    message = (await alice.slash(channel, "goldfish start", deck="slide", seed=SLIDE_SIMPLE)).response
    shown = [message.embeds[0].to_dict()]  # choosing a hand: the status and "What happened" both cite 103.5
    await alice.click(message, label="Keep")
    await choose(alice, message, "gf:land:", "Plains")
    await alice.click(message, label="Next turn")
    shown.append(message.embeds[0].to_dict())

    text = "\n".join(str(embed) for embed in shown)
    cited = [(text[max(0, found.start() - 4) : found.start()], found[0]) for found in RULE.finditer(text)]
    assert [number for _, number in cited].count("103.5") >= 2 and len(cited) >= 4
    # One style: the bare number in brackets, "(103.5)", never "CR 103.5" beside it.
    assert all(before.endswith(("(", ", ")) and "CR" not in before for before, _ in cited), cited
