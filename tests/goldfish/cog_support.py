"""Shared pieces of the goldfish tests: the sample cards as the engine keeps them, read the stored game, find
controls on a game message."""

from __future__ import annotations

import json

from simcord.components import walk_components

from bot.goldfish import GameKey
from bot.goldfish.decks import CollectionNames, preset_decks
from bot.goldfish.decks.decklist import trim_card
from bot.goldfish.decks.presets import bundled_cards
from bot.goldfish.engine import Game
from tests.data import SCRYFALL_CARDS

# Seeds checked against the engine's shuffle (the engine is deterministic for a seed):
# slide 12: keep 7 with Plains and Secluded Steppe ({W}) → play Plains, cycle the Steppe on turn 1.
# slide 11: mulligan, bottom Akroma's Vengeance, Plains, cycle Winged Shepherd ({W}); turn 2 a Mountain
#           pays for Eternal Dragon's Plainscycling {2}.
# landcycling 2: keep, play a Forest, Generous Ent's Forestcycling {1} is affordable at once.
SLIDE_SIMPLE = 12
SLIDE_FULL = 11
LANDCYCLING_ENT = 2


def sample_cards(*extras: dict) -> dict[str, dict]:
    """The sample Scryfall cards by name, trimmed as a game keeps them, with ``extras`` (made-up cards) added."""
    found = {}
    with SCRYFALL_CARDS.open(encoding="utf-8") as handle:
        for line in handle:
            card = json.loads(line)
            found[card["name"]] = trim_card(card)
    for extra in extras:
        found[extra["name"]] = extra
    return found


async def stored(env, channel, player=None):
    """The stored record of ``player``'s game in the channel (a member, or 0 for the shared game); without
    ``player``, of the channel's only game. None when there is none."""
    store = env.bot.get_cog("Goldfish").store
    if player is not None:
        return await store.load(GameKey(channel.id, getattr(player, "id", player)))
    games = await store.in_channel(channel.id)
    assert len(games) <= 1, f"{len(games)} games in the channel: say whose"
    return games[0] if games else None


async def game_of(env, channel, player=None) -> Game:
    record = await stored(env, channel, player)
    assert record is not None, "no game stored for this channel"
    return Game.from_dict(record.state, preset_decks())


def table(channel):
    """The channel's newest public game message (the table the commands edit)."""
    games = [
        m
        for m in channel.history()
        if not m.flags.ephemeral and m.embeds and "/goldfish log" in (m.embeds[0].footer.text or "")
    ]
    assert games, "no game message in the channel"
    return games[-1]


def updated(result, did: str | None = None) -> str:
    """A slash command that acted answered privately: first what it did and where the game is now ("Played Plains ·
    turn 1, main phase, land drop used"), then a link to the table it updated. Returns the first line."""
    assert result.ephemeral
    first, link = result.response.content.split("\n")
    assert " · " in first and "/channels/" in link, result.response.content
    if did is not None:
        assert first.startswith(did), first
    return first


def controls(message) -> list[dict]:
    return [c for c in walk_components(message.components) if c.get("custom_id")]


def control(message, prefix: str) -> dict:
    found = [c for c in controls(message) if c["custom_id"].startswith(prefix)]
    assert len(found) == 1, f"expected one control {prefix}…, got {[c['custom_id'] for c in controls(message)]}"
    return found[0]


def option_value(message, prefix: str, label: str) -> tuple[str, str]:
    """(custom_id, value) of the first option labelled ``label`` in the select whose id starts with ``prefix``."""
    select = control(message, prefix)
    for option in select["options"]:
        if option["label"] == label:
            return select["custom_id"], option["value"]
    raise AssertionError(f"no option {label!r} in {[o['label'] for o in select['options']]}")


async def choose(actor, message, prefix: str, label: str):
    custom_id, value = option_value(message, prefix, label)
    return await actor.select(message, [value], custom_id=custom_id)


def fields(message) -> dict[str, str]:
    return {field.name: field.value for field in message.embeds[0].fields}


def hand_field(message) -> str:
    return next(value for name, value in fields(message).items() if name.startswith("Hand ("))


def fake_collection(env=None):
    """A stand-in for Scryfall's collection lookup, answering from the bundled card data; given a test's ``env``,
    it is the only names source of the bot's deck resolver."""
    cards = bundled_cards()
    calls: list[list[dict]] = []

    async def fetch(identifiers: list[dict]):
        calls.append(identifiers)
        found, missing = [], []
        for identifier in identifiers:
            card = cards.get(identifier.get("name", ""))
            (found if card else missing).append(card or identifier)
        return found, missing

    fetch.calls = calls
    if env is not None:
        env.bot.get_cog("Decks").names = [CollectionNames(fetch)]
    return fetch
