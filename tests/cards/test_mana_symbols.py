"""Mana symbols as the application's emoji, through discord.py: made once from Scryfall's symbology (its real SVGs,
from the fake Scryfall), uploaded once by name, reused after a restart, and the text form when anything fails."""

from __future__ import annotations

import io
import json
import logging
import re

import discord
import pytest
from PIL import Image
from simcord.components import walk_components

from bot.hosts.symbols import DIRECTORY, SymbolText, emoji_name, load
from tests.goldfish.cog_support import SLIDE_SIMPLE
from tests.support import simcord_discord

EMOJI = re.compile(r"<:(\w+):(\d+)>")


@pytest.fixture
def bot_config(loaded_config):
    return loaded_config


@pytest.fixture
async def ready(simcord_env):
    """The bot once its symbols are made and uploaded: what its start does in the background with MANA_EMOJI on
    (tests/wire/test_mana_emoji.py starts a bot so), run here in the test, so that simcord's settling of each
    step never waits on 75 downloads and drawings."""
    assert simcord_env.bot.card_data.loaded and simcord_env.bot._symbols is None
    await simcord_env.bot.prepare_symbols()
    return simcord_env.bot


def application_emoji(simcord_env) -> dict[str, int]:
    return {emoji.name: emoji.id for emoji in simcord_env.backend.application_emojis.values()}


async def test_every_symbol_is_rendered_and_uploaded_once_with_a_name_a_screen_reader_says_well(
    ready, simcord_env, fake_scryfall, data_dir
):
    uploaded = application_emoji(simcord_env)
    assert len(uploaded) == 75 and {"mana_G", "mana_2", "mana_WU", "mana_GP", "mana_2W", "tap"} <= set(uploaded)
    for name, emoji_id in uploaded.items():
        assert 2 <= len(name) <= 32 and re.fullmatch(r"\w+", name)
        image = Image.open(io.BytesIO(simcord_discord.application_emoji_images[emoji_id]))
        assert image.format == "PNG" and image.size == (128, 128)
    kept = load(data_dir)
    assert len(kept) == 75 and (data_dir / DIRECTORY / "mana_G.png").is_file()
    assert [r.path for r in fake_scryfall.requests_to("/symbology")] == ["/symbology"]
    assert len([r for r in fake_scryfall.requests if r.path.startswith("/card-symbols/")]) == 75


async def test_a_card_shows_its_cost_and_text_as_emoji_and_the_footer_keeps_text(ready, channel, alice, simcord_env):
    ids = application_emoji(simcord_env)
    result = await alice.slash(channel, "card", name="Street Wraith")

    embed = result.response.embeds[0]
    assert embed.title == f"Street Wraith <:mana_3:{ids['mana_3']}><:mana_B:{ids['mana_B']}><:mana_B:{ids['mana_B']}>"
    assert "{" not in embed.title
    tusker = (await alice.slash(channel, "card", name="Krosan Tusker")).response.embeds[0]
    assert f"<:mana_G:{ids['mana_G']}>" in tusker.description  # in the rules text too
    assert "<:" not in (tusker.footer.text or "")


async def test_search_results_and_the_goldfish_table_show_symbols(ready, channel, alice, simcord_env):
    ids = application_emoji(simcord_env)
    found = await alice.slash(channel, "search", query="!fling")
    assert f"<:mana_R:{ids['mana_R']}>" in found.response.embeds[0].description

    started = await alice.slash(channel, "goldfish start", deck="slide", seed=1)
    kept = await alice.click(started.response.message, label="Keep")
    table = kept.response.embeds[0] if kept.response.embeds else started.response.embeds[0]
    shown = "\n".join(field.value for field in table.fields)
    assert EMOJI.search(shown) and all(name in ids for name, _ in EMOJI.findall(shown)), shown
    # Select options and buttons can't show custom emoji in their labels: they keep the text form.
    labels = [
        text
        for component in walk_components(started.response.components)
        for text in [component.get("label", ""), *(o["label"] for o in component.get("options", []))]
    ]
    assert labels and not any("<:" in label for label in labels)


async def test_a_restart_reuses_the_pictures_and_the_emoji(ready, simcord_env, fake_scryfall, monkeypatch):
    bot = ready
    before = application_emoji(simcord_env)
    fake_scryfall.reset()
    created = []
    original = discord.Client.create_application_emoji

    async def counting(self, **kwargs):
        created.append(kwargs["name"])
        return await original(self, **kwargs)

    monkeypatch.setattr(discord.Client, "create_application_emoji", counting)
    bot.mana = SymbolText()

    await bot.prepare_symbols()  # what the next start does

    assert created == [] and application_emoji(simcord_env) == before
    assert fake_scryfall.api_requests() == []  # the PNGs in the data folder are used as they are
    assert bot.mana.one("{G}") == f"<:mana_G:{before['mana_G']}>"


async def test_a_name_taken_meanwhile_by_another_shard_is_listed_again_and_used(ready, simcord_env, monkeypatch):
    bot = ready
    backend = simcord_env.backend
    theirs = next(e for e in backend.application_emojis.values() if e.name == "mana_G")
    for emoji_id in [i for i, e in backend.application_emojis.items() if e.name != "mana_G"]:
        del backend.application_emojis[emoji_id]
    listed = []
    original = discord.Client.fetch_application_emojis

    async def first_list_misses_it(self):
        emojis = await original(self)
        listed.append(len(emojis))
        return [e for e in emojis if e.name != "mana_G"] if len(listed) == 1 else emojis

    monkeypatch.setattr(discord.Client, "fetch_application_emojis", first_list_misses_it)

    await bot.prepare_symbols()

    assert len(listed) == 2  # listed again after Discord said the name was taken
    assert bot.mana.one("{G}") == f"<:mana_G:{theirs.id}>"
    assert len([e for e in backend.application_emojis.values() if e.name == "mana_G"]) == 1


async def test_when_discord_refuses_the_emoji_the_text_form_is_used_and_said_once(
    ready, simcord_env, channel, alice, monkeypatch, caplog
):
    bot = ready
    simcord_env.backend.application_emojis.clear()
    bot.mana = SymbolText()

    async def refused(self, **kwargs):
        raise discord.Forbidden(type("R", (), {"status": 403, "reason": "Forbidden"})(), "Missing Access")

    monkeypatch.setattr(discord.Client, "create_application_emoji", refused)
    with caplog.at_level(logging.WARNING, logger="bot.client"):
        await bot.prepare_symbols()

    assert [r.getMessage() for r in caplog.records if "stay as text" in r.getMessage()] == [
        "Mana symbols stay as text ({2}{G}): Discord refused the application emoji (403)"
    ]
    result = await alice.slash(channel, "card", name="Street Wraith")
    assert result.response.embeds[0].title == "Street Wraith {3}{B}{B}"


def test_emoji_names_are_unique_and_valid_for_every_symbol():
    from tests.data import SYMBOLOGY

    symbols = [item["symbol"] for item in json.loads(SYMBOLOGY.read_text())["data"]]
    names = [emoji_name(symbol) for symbol in symbols]
    assert len(set(names)) == len(names) == 75
    assert all(re.fullmatch(r"\w{2,32}", name) for name in names)
    assert emoji_name("{W/U}") == "mana_WU" and emoji_name("{½}") == "mana_half" and emoji_name("{T}") == "tap"


async def test_the_goldfish_log_shows_the_symbols_the_table_shows(ready, channel, alice, simcord_env):
    ids = application_emoji(simcord_env)
    started = await alice.slash(channel, "goldfish start", deck="slide", seed=SLIDE_SIMPLE)
    await alice.click(started.response, label="Keep")
    await alice.slash(channel, "goldfish play", card="Plains")
    await alice.slash(channel, "goldfish cycle", card="Secluded Steppe")

    log = (await alice.slash(channel, "goldfish log")).response.embeds[0].description
    assert f"Paid <:mana_W:{ids['mana_W']}>: tapped Plains" in log
    assert "{W}" not in log
