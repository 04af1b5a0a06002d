"""The ways in through discord.py (simcord): the form a long list is pasted into (and its expiry after a restart), a
file attached to the command and read from Discord's CDN (here on 127.0.0.1), and a link to Archidekt or TappedOut
(fakes on 127.0.0.1), read in the player's fair share."""

from __future__ import annotations

from bot.client import CycleBot
from bot.serving import DECK_SITES
from tests.goldfish.decks.cog_support import GAVI, WRAITHS, text_of
from tests.goldfish.decks.test_files import DEK
from tests.support.hostile_host import Body

# 100 cards on 100 lines, as Arena exports a Commander deck.
HUNDRED = (
    "Commander\n1 Gavi, Nest Warden\n\nDeck\n"
    + "\n".join(
        f"1 {name}"
        for name in [
            "Street Wraith",
            "Lightning Rift",
            "Renewed Faith",
            "Secluded Steppe",
            "Forgotten Cave",
            "Generous Ent",
            "Krosan Tusker",
            "Eternal Dragon",
            "Decree of Justice",
            "Winged Shepherd",
        ]
    )
    + "\n89 Plains"
)


async def test_save_with_no_list_opens_the_form_first_and_a_pasted_list_is_saved(simcord_env, channel, alice):
    shown = await alice.slash(channel, "deck save", name="Gavi paste")

    form = shown.modal
    assert form is not None and shown.response is None  # the form is the first answer: nothing deferred before it
    field = form["components"][0]["components"][0]
    assert field["style"] == 2 and field["max_length"] == 4000 and field["custom_id"] == "decklist"
    submitted = await alice.submit_modal(shown, {"decklist": HUNDRED})
    assert text_of(submitted).startswith("Saved **Gavi paste**: 99 main · 1 commander.")
    assert (await simcord_env.bot.get_cog("Decks").store.load(alice.id, "gavi paste")).count() == 99


async def test_a_form_submitted_after_a_restart_is_told_it_expired(simcord_env, channel, alice, bot_config):
    shown = await alice.slash(channel, "deck save", name="Too late")
    await simcord_env.restart_bot(CycleBot(bot_config))

    submitted = await alice.submit_modal(shown, {"decklist": WRAITHS})

    assert text_of(submitted) == "This form expired; run `/deck save` again."
    assert await simcord_env.bot.get_cog("Decks").store.summaries(alice.id) == []


async def test_files_are_read_from_the_cdn_in_their_formats_and_encodings(simcord_env, channel, alice, cdn):
    cdn.serve(simcord_env)
    dek = await alice.slash(channel, "deck save", name="From MTGO", file=("wraiths.dek", DEK.encode("utf-8")))
    assert text_of(dek).startswith("Saved **From MTGO**: 60 main · 3 sideboard.")

    exported = 'Count,Name,Board\n1,"Gavi, Nest Warden",commander\n4,Street Wraith,main\n56,Plains,main\n'
    csv = await alice.slash(channel, "deck save", name="From CSV", file=("deck.csv", exported.encode("utf-16")))
    assert text_of(csv).startswith("Saved **From CSV**: 60 main · 1 commander.")

    game = await alice.slash(channel, "goldfish start", file=("my list.txt", GAVI.encode("utf-8-sig")), seed=3)
    said = game.response.content.splitlines()
    assert said[0] == "Deck ready: my list (60 cards)."
    assert said[1] == "Commander: Gavi, Nest Warden, in the command zone: not modelled, the game plays the library."
    assert len(cdn.requested) == 3 and all(path.startswith("/attachments/") for path in cdn.requested)


async def test_a_file_too_large_or_not_text_is_refused_in_one_line(simcord_env, channel, alice, cdn):
    cdn.serve(simcord_env)
    huge = await alice.slash(channel, "deck save", name="Huge", file=("huge.txt", b"4 Swamp\n" * 40_000))
    assert text_of(huge) == "That file is 312 KB: a deck file has at most 256 KB."
    assert cdn.requested == []  # refused by its size, before any download

    picture = await alice.slash(channel, "deck save", name="Picture", file=("deck.txt", b"\x89PNG\r\n\x1a\n\x00\x00"))
    assert "binary data" in text_of(picture)
    other = await alice.slash(channel, "deck save", name="Other", file=("deck.pdf", b"%PDF-1.7"))
    assert ".txt, .dek, .csv and .dec" in text_of(other)
    assert await simcord_env.bot.get_cog("Decks").store.summaries(alice.id) == []
    assert not simcord_env.errors


async def test_links_are_read_from_the_sites_settings_in_the_players_share(
    simcord_env, channel, alice, archidekt, tappedout
):
    archidekt.add_deck(
        7,
        "Gavi",
        [(1, "Gavi, Nest Warden", "Commander"), (4, "Street Wraith", "Creature")]
        + [(56, "Plains", "Land"), (2, "Flame Jet", "Sideboard"), (1, "Bloated Toad", "Maybeboard")],
    )
    tappedout.add_deck("wraiths", "4x Street Wraith\n56x Swamp\n")

    linked = await alice.slash(channel, "deck save", name="Linked", link="https://archidekt.com/decks/7/gavi")
    assert text_of(linked).startswith("Saved **Linked**: 60 main · 2 sideboard · 1 commander.")
    simulated = await alice.slash(
        channel, "goldfish simulate", link="https://tappedout.net/mtg-decks/wraiths/", games=20, turns=3
    )
    assert simulated.response.embeds[0].title == "Odds of Custom deck"

    archidekt.fail("/api/decks/8/", Body(b'{"detail":"Not found."}', "application/json", 404))
    missing = await alice.slash(channel, "deck save", name="Private", link="https://archidekt.com/decks/8/")
    assert text_of(missing).startswith("Archidekt shows no public deck at that link")

    # Three reads a player a minute (a 404 is a read too): the fourth is refused without a request.
    asked = len(archidekt.requested)
    again = await alice.slash(channel, "deck save", name="Again", link="https://archidekt.com/decks/7/")
    assert text_of(again).startswith(f"You've read {DECK_SITES.rate} decks from sites in the last minute")
    assert len(archidekt.requested) == asked
