"""Cards beyond the cycling sample, as players meet them through discord.py: real Scryfall objects of every layout
(tests/data/scryfall/layouts.jsonl: split, adventure, double-faced, tokens, emblems…) beside the sample, with the
mana symbols made and uploaded as the application's emoji."""

from __future__ import annotations

import re

import pytest

from tests.support.fake_bulk import ruling
from tests.support.layout_cards import fake_scryfall_with_layouts, imported_config

EMOJI = re.compile(r"<:\w+:\d+>")
BRACES = re.compile(r"\{[^{}\s]{1,12}\}")
LONGEST = (
    "Our Market Research Shows That Players Like Really Long Card Names So We Made this Card to Have the Absolute "
    "Longest Card Name Ever Elemental"
)
QUOTED = '"Ach! Hans, Run!"'


@pytest.fixture
def fake_scryfall(tmp_path):
    with fake_scryfall_with_layouts(tmp_path) as fake:
        yield fake


@pytest.fixture
def bot_config(data_dir, fake_scryfall):
    bulk = fake_scryfall.bulk
    giant = next(card for card in bulk.cards if card["name"].startswith("Beanstalk Giant"))
    # Scryfall's rulings quote symbols and stars as cards print them.
    bulk.rulings.append(
        ruling(giant["oracle_id"], "2023-08-04", "(Constructed ruling.) Its */* counts lands; {T}: Add {G} taps one.")
    )
    # The longest card name (141 characters, Unhinged): no public fixture holds its object, so it is played with a
    # real Un-card's object renamed.
    longest = dict(next(card for card in bulk.cards if card["name"] == "Ordinary Pony"), name=LONGEST)
    longest.update(id="0b7a43e1-0000-4000-8000-000000000141", oracle_id="0b7a43e1-0000-4000-8000-000000000142")
    bulk.cards.append(longest)
    # Unhinged's "Ach! Hans, Run!" has quotes in its name: played with a real Un-card's object renamed too.
    quoted = dict(next(card for card in bulk.cards if card["name"] == "Monkey-"), name=QUOTED)
    quoted.update(id="0b7a43e1-0000-4000-8000-000000000143", oracle_id="0b7a43e1-0000-4000-8000-000000000144")
    bulk.cards.append(quoted)
    return imported_config(data_dir, fake_scryfall, inline_cards=True)


@pytest.fixture
async def emoji(simcord_env):
    """The bot once its symbols are made and uploaded (what its start does in the background)."""
    await simcord_env.bot.prepare_symbols()
    assert simcord_env.bot.mana
    return {e.name: e.id for e in simcord_env.backend.application_emojis.values()}


def bot_replies(channel) -> list:
    return sorted((m for m in channel.history() if m.author.bot), key=lambda m: m.id)


async def test_stars_in_power_and_toughness_are_shown_not_read_as_italics(emoji, channel, alice):
    embed = (await alice.slash(channel, "card", name="Beanstalk Giant")).response.embeds[0]

    lines = embed.description.split("\n")
    assert r"\*/\*" in lines  # "*/*" unescaped is Discord's italics: it would show as a slanted "/"
    assert not re.search(r"(?<!\\)\*/", embed.description)
    assert f"**Beanstalk Giant** <:mana_6:{emoji['mana_6']}><:mana_G:{emoji['mana_G']}>" in lines


async def test_rulings_show_symbols_as_emoji_and_scryfalls_stars_as_stars(emoji, channel, alice):
    shown = await alice.slash(channel, "card", name="Beanstalk Giant")
    rulings = await alice.click(shown.response.message, label="Rulings")

    page = rulings.response.embeds[0].description
    assert rf"Its \*/\* counts lands; <:tap:{emoji['tap']}>: Add <:mana_G:{emoji['mana_G']}> taps one." in page


async def test_a_cost_too_long_for_the_title_as_emoji_leaves_it_for_the_faces_not_as_braces(emoji, channel, alice):
    # Name and both faces' costs as emoji would pass the title's 256 characters: each face below shows its cost.
    embed = (await alice.slash(channel, "card", name="Esika")).response.embeds[0]

    assert embed.title == "Esika, God of the Tree // The Prismatic Bridge"
    assert not BRACES.search(embed.description)
    g, w = f"<:mana_G:{emoji['mana_G']}>", f"<:mana_W:{emoji['mana_W']}>"
    assert f"**Esika, God of the Tree** <:mana_1:{emoji['mana_1']}>{g}{g}" in embed.description
    assert f"**The Prismatic Bridge** {w}" in embed.description


async def test_without_emoji_the_title_keeps_its_cost_as_text(channel, alice):
    embed = (await alice.slash(channel, "card", name="Esika")).response.embeds[0]
    assert embed.title == "Esika, God of the Tree // The Prismatic Bridge {1}{G}{G} // {W}{U}{B}{R}{G}"


async def test_symbols_a_player_typed_are_echoed_as_text_not_drawn_as_emoji(emoji, channel, alice):
    found = (await alice.slash(channel, "cycling", query="o:{R}")).response.embeds[0]

    assert not EMOJI.search(found.title)
    assert found.title.replace("\u2060", "") == "Cycling cards: any cycling · o:{R}"
    assert EMOJI.search(found.description)  # the cards' own costs are symbols


async def test_a_token_or_emblem_named_in_full_is_that_object_not_some_other_card(channel, alice, bob):
    monarch = await alice.slash(channel, "card", name="The Monarch")
    assert monarch.response.embeds[0].title == "The Monarch"
    assert not monarch.ephemeral  # the answer helps the table

    ring = (await bob.slash(channel, "card", name="The Ring")).response.embeds[0]  # a double-faced token's face
    assert ring.title == "The Ring // The Ring Tempts You"

    sent = await alice.send(channel, "[[The Monarch]]")
    reply = bot_replies(channel)[-1]
    assert reply.reference.message_id == sent.id
    assert [embed.title for embed in reply.embeds] == ["The Monarch"]


async def test_search_lines_of_double_faced_cards_end_with_the_front_cost_not_a_dangling_slash(emoji, channel, alice):
    found = (await alice.slash(channel, "search", query="t:siege")).response.embeds[0]

    lines = found.description.split("\n")
    assert len(lines) == 3 and all(line.startswith("Invasion of ") for line in lines)
    assert not any("// —" in line or line.endswith("//") for line in lines)
    x = f"<:mana_X:{emoji['mana_X']}>"
    assert f"Invasion of Ikoria // Zilortha, Apex of Ikoria {x}" in found.description


async def test_references_past_the_fifth_are_named_in_the_reply_not_dropped_in_silence(channel, alice):
    names = ["Street Wraith", "Ash Barrens", "Hexdrinker", "Life // Death", "+2 Mace", "Bow of Nylea", "Godsend"]
    await alice.send(channel, " ".join(f"[[{name}]]" for name in names))

    (reply,) = bot_replies(channel)
    assert len(reply.embeds) == 5
    assert reply.content == "I look up 5 cards a message; not looked up: Bow of Nylea, Godsend"


async def test_many_references_past_the_fifth_are_counted_not_listed_at_length(channel, alice):
    names = [f"Card {n}" for n in range(5)] + [f"Extra {n}" for n in range(20)]
    await alice.send(channel, " ".join(f"[[{name}]]" for name in names))

    (reply,) = bot_replies(channel)
    assert reply.content.endswith("not looked up: Extra 0, Extra 1, Extra 2, Extra 3, Extra 4…")


async def test_a_name_longer_than_a_choice_may_send_is_offered_and_found(simcord_env, channel, alice):
    await simcord_env.bot.card_source.matcher()
    choices = await alice.autocomplete(channel, "card", "name", "our market research")

    assert len(LONGEST) == 141 and choices and choices[0]["value"] == LONGEST[:100]
    assert choices[0]["name"].startswith("Our Market Research Shows")
    shown = await alice.slash(channel, "card", name=choices[0]["value"])
    assert shown.response.embeds[0].title.startswith(LONGEST)


async def test_a_name_spelt_as_printed_with_ae_finds_the_oracle_name(simcord_env, channel, alice):
    # Future Sight printed "Vedalken Æthermage"; Oracle (and Scryfall) spell it "Vedalken Aethermage".
    await simcord_env.bot.card_source.matcher()
    choices = await alice.autocomplete(channel, "card", "name", "Æthermage")
    assert choices and choices[0]["value"] == "Vedalken Aethermage"

    shown = await alice.slash(channel, "card", name="Vedalken Æthermage")
    assert shown.response.embeds[0].title.startswith("Vedalken Aethermage ")
    found = await simcord_env.bot.card_data.collection(["Vedalken Æthermage"])  # a decklist line as printed
    assert found["Vedalken Æthermage"].name == "Vedalken Aethermage"


async def test_a_search_note_quoting_typed_symbols_keeps_them_as_text(emoji, channel, alice):
    found = (await alice.slash(channel, "search", query="t:elf foo:{G}")).response.embeds[0]

    note = {field.name: field.value for field in found.fields}["Note"]
    assert "foo:{G}" in note.replace("\u2060", "") and not EMOJI.search(note)
    assert EMOJI.search(found.description)  # the elves' costs are symbols


async def test_a_name_with_quotes_is_offered_as_a_search_that_finds_it(simcord_env, channel, alice):
    await simcord_env.bot.card_source.matcher()
    choices = await alice.autocomplete(channel, "search", "query", "ach hans run")

    offered = [choice["value"] for choice in choices if choice["value"].startswith("!")]
    assert offered[0] == r'!"\"Ach! Hans, Run!\""'
    found = (await alice.slash(channel, "search", query=offered[0])).response.embeds[0]
    assert found.title == "Search: 1 card" and found.description.startswith(QUOTED)


async def test_a_rebalanced_name_typed_with_its_prefix_is_offered_as_the_lookup_finds_it(simcord_env, channel, alice):
    await simcord_env.bot.card_source.matcher()
    choices = await alice.autocomplete(channel, "card", "name", "A-Cauldron")

    assert choices[0] == {"name": "A-Cauldron Familiar (digital only)", "value": "A-Cauldron Familiar"}
    shown = await alice.slash(channel, "card", name="A-Cauldron")
    assert shown.response.embeds[0].title.startswith("A-Cauldron Familiar ")
    # Without the prefix, the rebalanced card stays out of the way.
    assert "A-Cauldron Familiar" not in [c["value"] for c in await alice.autocomplete(channel, "card", "name", "caul")]


async def test_search_offers_no_rebalanced_name_its_search_would_not_find(simcord_env, channel, alice):
    await simcord_env.bot.card_source.matcher()
    choices = await alice.autocomplete(channel, "search", "query", "A-Cauldron")

    assert [c["value"] for c in choices if c["value"].startswith("!")] == []  # without include:extras, no result
    assert choices[0]["value"] == "A-Cauldron"  # the search as typed is still offered


async def test_autocomplete_offers_the_token_named_in_full_that_the_lookup_shows(simcord_env, channel, alice):
    await simcord_env.bot.card_source.matcher()

    for typed, shown in [("the monarch", "The Monarch"), ("The Ring", "The Ring // The Ring Tempts You")]:
        choices = await alice.autocomplete(channel, "card", "name", typed)
        assert choices[0] == {"name": shown, "value": shown}, choices[:3]
    # A real card typed in full is offered first as ever, and a part of a token's name offers no token.
    assert (await alice.autocomplete(channel, "card", "name", "Krosan Tusker"))[0]["value"] == "Krosan Tusker"
    assert "The Monarch" not in [c["value"] for c in await alice.autocomplete(channel, "card", "name", "monarch")]
