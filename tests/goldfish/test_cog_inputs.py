"""Hostile and mistaken input to /goldfish: unknown cards, long text, mentions, big and custom decklists."""

from __future__ import annotations

import pytest

from tests.goldfish.cog_support import SLIDE_SIMPLE, fake_collection, fields, game_of, stored, table, updated


def goldfish_schema(env) -> dict:
    return next(c for c in env.bot.command_payload(None) if c["name"] == "goldfish")


def option(schema: dict, path: str, name: str) -> dict:
    node = schema
    for part in path.split():
        node = next(o for o in node["options"] if o["name"] == part)
    return next(o for o in node["options"] if o["name"] == name)


def no_pings(env) -> bool:
    requests = [r for r in env.http_requests if r.json and ("callback" in r.path or "webhooks" in r.path)]
    return all(
        (r.json.get("data", r.json) or {}).get("allowed_mentions") == {"parse": []}
        for r in requests
        if isinstance(r.json, dict) and (r.json.get("data", r.json) or {}).get("content")
    )


@pytest.fixture
def cog(simcord_env):
    return simcord_env.bot.get_cog("Goldfish")


async def test_the_command_group_works_everywhere_the_app_does_with_length_limits(simcord_env):
    schema = goldfish_schema(simcord_env)
    # Games where the bot can post (a server that added it, its DM); elsewhere the table commands say so.
    assert sorted(schema["contexts"]) == [0, 1, 2] and sorted(schema["integration_types"]) == [0, 1]
    assert schema.get("dm_permission") is not False
    assert option(schema, "start", "decklist")["max_length"] == 6000
    assert option(schema, "start", "deck")["max_length"] == 100
    assert option(schema, "cycle", "card")["max_length"] == 100
    assert option(schema, "start", "seed")["min_value"] == 0
    names = {o["name"] for o in schema["options"]}
    assert {
        "start",
        "hand",
        "cycle",
        "play",
        "cast",
        "next",
        "mulligan",
        "keep",
        "status",
        "log",
        "end",
        "stats",
    } <= names
    assert {o["name"] for o in option(schema, "", "stats")["options"]} == {"show", "forget"}


async def test_actions_without_a_game_say_how_to_start_one(simcord_env, channel, alice):
    for command, options in (("goldfish next", {}), ("goldfish cycle", {"card": "Plains"}), ("goldfish status", {})):
        result = await alice.slash(channel, command, **options)
        assert result.ephemeral and "/goldfish start" in result.response.content
    assert not simcord_env.errors


async def test_an_unknown_card_name_lists_the_hand(simcord_env, channel, alice):
    await alice.slash(channel, "goldfish start", deck="slide", seed=SLIDE_SIMPLE)
    await alice.slash(channel, "goldfish keep")

    result = await alice.slash(channel, "goldfish cycle", card="Black Lotus")

    assert result.ephemeral
    assert "no card with cycling called “Black Lotus”" in result.response.content
    assert "Your hand: Solar Blast, Plains" in result.response.content
    assert (await stored(simcord_env, channel)).version == 2


async def test_a_land_that_is_not_in_hand_is_refused(simcord_env, channel, alice):
    await alice.slash(channel, "goldfish start", deck="slide", seed=SLIDE_SIMPLE)
    await alice.slash(channel, "goldfish keep")

    result = await alice.slash(channel, "goldfish play", card="Island")

    assert result.ephemeral and "no playable land called “Island”" in result.response.content


async def test_an_illegal_action_is_explained_and_changes_nothing(simcord_env, channel, alice):
    await alice.slash(channel, "goldfish start", deck="slide", seed=SLIDE_SIMPLE)
    await alice.slash(channel, "goldfish keep")

    result = await alice.slash(channel, "goldfish cycle", card="Sweltering Suns")

    assert result.ephemeral and "can't cycle Sweltering Suns" in result.response.content
    assert (await game_of(simcord_env, channel)).stats["cards_cycled"] == 0


async def test_an_unknown_preset_deck_lists_the_presets_and_never_pings(simcord_env, channel, alice):
    result = await alice.slash(channel, "goldfish start", deck="@everyone")

    assert result.ephemeral
    assert "slide" in result.response.content and "landcycling" in result.response.content
    assert not result.response.message.mention_everyone
    assert no_pings(simcord_env)
    assert await stored(simcord_env, channel) is None


async def test_deck_autocomplete_offers_the_presets(simcord_env, channel, alice):
    choices = await alice.autocomplete(channel, "goldfish start", "deck", "")
    assert [c["value"] for c in choices] == ["preset:landcycling", "preset:slide", "preset:two-colour"]
    # By its key or by its name, misspelt too.
    assert [c["value"] for c in await alice.autocomplete(channel, "goldfish start", "deck", "astral")][0] == (
        "preset:slide"
    )
    assert [c["value"] for c in await alice.autocomplete(channel, "goldfish start", "deck", "drake havne")][0] == (
        "preset:two-colour"
    )


async def test_deck_and_decklist_together_are_refused(simcord_env, channel, alice):
    result = await alice.slash(channel, "goldfish start", deck="slide", decklist="4 Plains")
    assert result.ephemeral and "not both" in result.response.content


async def test_a_decklist_over_250_cards_is_refused_with_the_reason(simcord_env, channel, alice, cog):
    names = fake_collection(simcord_env)

    result = await alice.slash(channel, "goldfish start", decklist="200 Plains; 51 Secluded Steppe")

    assert "251 cards in its main deck" in result.response.content and "at most 250" in result.response.content
    assert names.calls == []  # refused before any lookup
    assert await stored(simcord_env, channel) is None


async def test_a_6000_character_decklist_of_nonsense_gets_a_readable_refusal(simcord_env, channel, alice, cog):
    fake_collection(simcord_env)

    result = await alice.slash(channel, "goldfish start", decklist="x" * 6000)

    assert "Line 1 (" in result.response.content and "is not a card" in result.response.content
    assert len(result.response.content) < 2000
    assert not simcord_env.errors


async def test_custom_decklist_unknown_names_are_listed_without_pinging(simcord_env, channel, alice, cog):
    fake_collection(simcord_env)

    mention = await alice.slash(channel, "goldfish start", decklist="20 Plains; 4 @everyone; 36 Mountain")
    assert mention.ephemeral and mention.response.content.startswith("Line 2 (")
    assert "is not a card" in mention.response.content and not mention.response.message.mention_everyone

    result = await alice.slash(channel, "goldfish start", decklist="20 Plains; 4 Flame Jetz; 4 Zqxvwk; 36 Mountain")

    content = result.response.content
    assert content.startswith("I couldn't find 2 cards of that list")
    assert "• Zqxvwk: no card has that name" in content and "Plains" not in content
    assert no_pings(simcord_env)
    assert await stored(simcord_env, channel) is None


async def test_a_custom_decklist_starts_a_game(simcord_env, channel, alice, cog):
    names = fake_collection(simcord_env)
    decklist = "4 Secluded Steppe; 4 Winged Shepherd; 4 Eternal Dragon\n24 Plains; 4 Renewed Faith"

    result = await alice.slash(channel, "goldfish start", decklist=decklist, seed=3)

    # The first follow-up replaces the private "thinking…" answer; the game itself is public.
    ready, game_message = result.response, result.followups[-1]
    assert ready.ephemeral and "40 cards" in ready.content
    assert not game_message.ephemeral and "Custom deck" in game_message.embeds[0].title
    game = await game_of(simcord_env, channel)
    assert len(game.zones.library) + len(game.zones.hand) == 40
    assert names.calls and {"name": "Secluded Steppe"} in names.calls[0]
    kept = await alice.click(game_message, label="Keep")
    assert "**Turn 1**" in kept.response.embeds[0].description


async def test_keep_after_a_mulligan_by_names(simcord_env, channel, alice):
    await alice.slash(channel, "goldfish start", deck="slide", seed=SLIDE_SIMPLE)
    await alice.slash(channel, "goldfish mulligan")
    game = await game_of(simcord_env, channel)
    wrong = await alice.slash(channel, "goldfish keep", bottom=f"{game.zones.hand[0].name}, {game.zones.hand[1].name}")
    assert wrong.ephemeral and "exactly 1" in wrong.response.content

    kept = await alice.slash(channel, "goldfish keep", bottom=game.zones.hand[0].name.upper())

    after = await game_of(simcord_env, channel)
    assert after.phase == "main" and after.zones.library[-1].name == game.zones.hand[0].name
    updated(kept)
    happened = fields(table(channel))["What happened"]
    assert "Kept 6" in happened and f"put {game.zones.hand[0].name} on the bottom" in happened
