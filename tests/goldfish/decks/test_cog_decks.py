"""/deck save, list, show and delete through discord.py (simcord): private to each player, in a server, the bot's DM
and a group chat; names unique regardless of case, asked before replacing, 25 decks a player."""

from __future__ import annotations

import pytest

from bot.goldfish.decks import MAX_DECKS
from bot.text import escape
from tests.goldfish.decks.cog_support import WRAITHS, private, text_of
from tests.support.installs import add_to_my_apps, group_chat, slash

NAME = "Wraiths <@&1> **fast**"


def no_pings(env) -> bool:
    """Every message the bot sent with text says it pings nobody."""
    sent = [r.json.get("data", r.json) or {} for r in env.http_requests if isinstance(r.json, dict)]
    return all(body.get("allowed_mentions") == {"parse": []} for body in sent if body.get("content"))


async def test_a_saved_deck_is_listed_shown_and_deleted_by_its_player_alone(simcord_env, channel, alice, bob):
    saved = await alice.slash(channel, "deck save", name=NAME, decklist=WRAITHS.replace("\n", "; "))
    said = text_of(saved).splitlines()
    assert said[0] == f"Saved **{escape(NAME)}**: 60 main · 5 sideboard."
    assert said[1] == "3 cards' effects are not modelled: Sweltering Suns, Spark Spray, Akroma's Vengeance."
    assert [m for m in channel.history() if not m.flags.ephemeral] == []  # nothing in the channel

    listed = text_of(await alice.slash(channel, "deck list"))
    assert listed == f"Your decks (1 of 25):\n• **{escape(NAME)}** — 60 main · 5 sideboard"

    shown = private(await alice.slash(channel, "deck show", name="wraiths <@&1> **FAST**"))
    page = shown.embeds[0]
    assert page.description.splitlines()[0] == "60 main · 5 sideboard"
    assert "**Creatures (4)**" in page.description and "4 Street Wraith {3}{B}{B}" in page.description
    assert all(len(embed.description.splitlines()) <= 20 for embed in shown.embeds)  # a phone's page

    # Bob sees nothing of it, can't use it, can't delete it.
    assert text_of(await bob.slash(channel, "deck list")).startswith("You have no saved decks")
    assert "You have no saved deck called" in text_of(await bob.slash(channel, "deck show", name=NAME))
    assert "You have no saved deck called" in text_of(await bob.slash(channel, "deck delete", name=NAME))
    assert "no preset has that name" in text_of(await bob.slash(channel, "goldfish start", deck=NAME))
    assert await bob.autocomplete(channel, "deck show", "name", "") == []

    deleted = text_of(await alice.slash(channel, "deck delete", name=NAME.upper()))
    assert deleted == f"Deleted your deck **{escape(NAME)}**."
    assert text_of(await alice.slash(channel, "deck list")).startswith("You have no saved decks")
    assert no_pings(simcord_env)
    assert not simcord_env.errors


async def test_a_name_already_used_asks_before_replacing(simcord_env, channel, alice):
    await alice.slash(channel, "deck save", name="Wraiths", decklist="4 Street Wraith, 56 Swamp")

    asked = await alice.slash(channel, "deck save", name="WRAITHS", decklist="4 Street Wraith, 36 Swamp")
    question = private(asked)
    assert question.content == (
        "You already have a deck called **Wraiths** (60 main). Replace it with this one (40 main)?"
    )
    kept = await alice.click(question, label="Keep the saved one")
    assert kept.response.content == "Kept your saved **WRAITHS**; nothing changed."
    assert "60 main" in text_of(await alice.slash(channel, "deck list"))

    asked = await alice.slash(channel, "deck save", name="wraiths", decklist="4 Street Wraith, 36 Swamp")
    replaced = await alice.click(private(asked), label="Replace it")
    assert replaced.response.content.startswith("Replaced **wraiths**: 40 main.")
    assert text_of(await alice.slash(channel, "deck list")).endswith("• **wraiths** — 40 main")


async def test_the_26th_deck_is_refused_in_one_line_before_any_list_is_read(simcord_env, channel, alice):
    decks = simcord_env.bot.get_cog("Decks")
    from tests.goldfish.decks.test_saved import deck

    for n in range(MAX_DECKS):
        await decks.store.save(alice.id, deck(f"Deck {n}"))

    refused = await alice.slash(channel, "deck save", name="One more", decklist="4 Zqxvwk")
    assert text_of(refused) == (
        f"You have {MAX_DECKS} saved decks, the most a player keeps: delete one with `/deck delete` first."
    )
    form = await alice.slash(channel, "deck save", name="One more")
    assert form.modal is None and "25 saved decks" in text_of(form)  # no form to fill in for nothing

    offered = [c["value"] for c in await alice.autocomplete(channel, "goldfish start", "deck", "")]
    assert len(offered) == 25 and offered[-3:] == ["preset:landcycling", "preset:slide", "preset:two-colour"]

    cleared = text_of(await alice.slash(channel, "deck delete", all=True))
    assert cleared == f"Deleted your {MAX_DECKS} saved decks."


@pytest.mark.parametrize(
    ("options", "said"),
    [
        ({"name": "x" * 100, "decklist": "4 Zqxvwk, 56 Swamp"}, "no card has that name"),
        ({"name": "preset:slide", "decklist": "60 Swamp"}, "can't start with `preset:`"),
        ({"name": "Two ways", "decklist": "60 Swamp", "link": "https://archidekt.com/decks/1/"}, "not several"),
        ({"name": "Huge", "decklist": "251 Swamp"}, "251 cards in its main deck"),
        ({"name": "Elsewhere", "link": "https://decks.example/1"}, "other sites"),
        ({"name": "Mox", "link": "https://moxfield.com/decks/abc"}, "Moxfield doesn't let programs read"),
    ],
)
async def test_bad_input_gets_one_private_line_and_nothing_saved(simcord_env, channel, alice, options, said):
    answer = text_of(await alice.slash(channel, "deck save", **options))
    assert said in answer
    assert await simcord_env.bot.get_cog("Decks").store.summaries(alice.id) == []
    assert not simcord_env.errors


async def test_decks_are_saved_in_the_bots_dm_and_in_a_group_chat_and_used_where_the_player_plays(simcord_env):
    schema = next(c for c in simcord_env.bot.command_payload(None) if c["name"] == "deck")
    assert sorted(schema["contexts"]) == [0, 1, 2] and sorted(schema["integration_types"]) == [0, 1]
    alice, bob = simcord_env.create_user("alice"), simcord_env.create_user("bob")
    add_to_my_apps(simcord_env, alice)
    chat = group_chat(simcord_env, alice, bob)

    in_dm = await alice.slash("deck save", name="From my DM", decklist="4 Street Wraith, 36 Swamp")
    in_chat = await slash(alice, chat, "deck save", name="From the chat", decklist="4 Street Wraith, 26 Swamp")

    assert text_of(in_dm).startswith("Saved **From my DM**") and text_of(in_chat).startswith("Saved **From the chat**")
    listed = text_of(await slash(alice, chat, "deck list"))
    assert "**From my DM** — 40 main" in listed and "**From the chat** — 30 main" in listed
    game = await alice.slash("goldfish start", deck="From the chat", seed=1)
    assert game.response.content.startswith("Deck ready: From the chat (30 cards).")
    simulated = await slash(alice, chat, "goldfish simulate", deck="From my DM", games=20, turns=3)
    assert simulated.response.embeds[0].title == "Odds of From my DM"
