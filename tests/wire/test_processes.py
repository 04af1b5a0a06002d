"""Two ``python -m bot`` processes, shards 0 and 1 of 2, sharing one real PostgreSQL server: games in guilds on
both shards, one player's statistics across them, a process killed mid-game and started again, one command
sync, and one Scryfall budget under a burst of card lookups from both."""

from __future__ import annotations

import asyncio
import inspect
import json
import re
import signal
from pathlib import Path

import asyncpg
import pytest

from bot.scryfall.calls import Calls
from bot.storage.starts import START_INTERVAL
from tests.data import SCRYFALL_CARDS
from tests.support.fake_discord import LOADING, FakeDiscord
from tests.support.waits import SLACK
from tests.wire.test_shards import shard_guilds

SLIDE_SIMPLE = 12  # slide, seed 12: keep 7 with Plains and Secluded Steppe; play the Plains, cycle the Steppe
LOOKUPS_EACH = 6
# The spacing of Scryfall's search requests the processes keep between them (2 a second, and a margin).
SEARCH_SPACING = inspect.signature(Calls).parameters["search_interval"].default
# Session starts as the fake Discord sees them: the turns' spacing less the suite's slack, never so little that two
# starts at once would pass.
TURNS_SEEN = max(START_INTERVAL - SLACK, 0.5)


def components(message: dict) -> list[dict]:
    return [item for row in message["components"] for item in row.get("components", [])]


def button(message: dict, label: str) -> str:
    [found] = [c["custom_id"] for c in components(message) if c["type"] == 2 and c.get("label") == label]
    return found


def option(message: dict, prefix: str, label: str) -> tuple[str, str]:
    """(custom_id, value) of the option ``label`` in the select menu whose id starts with ``prefix``."""
    [select] = [c for c in components(message) if c["type"] == 3 and c["custom_id"].startswith(prefix)]
    [value] = [o["value"] for o in select["options"] if o["label"] == label]
    return select["custom_id"], value


def fields(message: dict) -> dict[str, str]:
    return {field["name"]: field["value"] for field in message["embeds"][0]["fields"]}


async def command(fake: FakeDiscord, guild_id: str, name: str, *options: dict) -> dict:
    """Run a slash command in the guild's channel; the message that answers it, once it is no longer loading."""
    interaction = await fake.send_interaction(fake.command_interaction(name, guild_id=guild_id, options=list(options)))
    if (await fake.callback(interaction))["type"] == 5:
        await fake.followup(interaction)
    message = fake.messages[fake.original[interaction["token"]]]
    assert not message["flags"] & LOADING
    return message


async def press(fake: FakeDiscord, message: dict, custom_id: str, values: list[str] | None = None) -> dict:
    """Click a button or choose in a select menu of ``message``; the message as the bot left it."""
    click = await fake.send_interaction(fake.component_interaction(message, custom_id, values=values))
    answer = await fake.callback(click)
    if answer["type"] == 6:  # deferred: the bot edits the message afterwards
        original = f"/webhooks/{fake.app_id}/{click['token']}/messages/@original"
        await fake.wait_for(lambda r: r.method == "PATCH" and r.path == original)
    else:
        assert answer["type"] == 7, answer
    return fake.messages[message["id"]]


def goldfish(sub: str, *options: dict) -> dict:
    return {"type": 1, "name": sub, "options": list(options)}


async def start_and_play_a_land(fake: FakeDiscord, guild_id: str) -> dict:
    deck = {"name": "deck", "type": 3, "value": "slide"}
    seed = {"name": "seed", "type": 4, "value": SLIDE_SIMPLE}
    game = await command(fake, guild_id, "goldfish", goldfish("start", deck, seed))
    game = await press(fake, game, button(game, "Keep"))
    custom_id, plains = option(game, "gf:land:", "Plains")
    return await press(fake, game, custom_id, [plains])


async def cycle_the_steppe(fake: FakeDiscord, game: dict) -> dict:
    custom_id, steppe = option(game, "gf:cycle:", "Cycle Secluded Steppe")
    return await press(fake, game, custom_id, [steppe])


def card_names(count: int) -> list[str]:
    names = []
    with SCRYFALL_CARDS.open() as lines:
        for line in lines:
            name = json.loads(line)["name"]
            if "//" not in name and name not in names:
                names.append(name)
            if len(names) == count:
                return names
    raise AssertionError("not enough sample cards")


async def look_up(fake: FakeDiscord, guild_id: str, name: str, user: str = "alice") -> dict:
    options = [{"name": "name", "type": 3, "value": name}]
    interaction = await fake.send_interaction(
        fake.command_interaction("card", user=user, guild_id=guild_id, options=options)
    )
    answer = await fake.callback(interaction)
    if answer["type"] == 5:  # Scryfall took over a second: deferred, then followed up
        return await fake.followup(interaction)
    assert answer["type"] == 4, answer
    return answer["data"]


async def search_budget(url: str) -> tuple[float, float]:
    """The database's clock now, and the earliest time (on that clock) the next search request may leave."""
    conn = await asyncpg.connect(url)
    try:
        row = await conn.fetchrow(
            "SELECT extract(epoch FROM clock_timestamp())::float8 AS now, next_at FROM scryfall_budget "
            "WHERE klass = 'search'"
        )
    finally:
        await conn.close()
    return row["now"], row["next_at"]


@pytest.fixture
def shared_settings(postgres_url: str, fake_scryfall) -> dict[str, str]:
    """What both processes share: the shard count, the database and Scryfall; no downloads of their own."""
    return {
        "SHARD_COUNT": "2",
        "DATABASE_URL": postgres_url,
        "SCRYFALL_API_URL": fake_scryfall.base_url,
        "CARD_DATA_AUTO_UPDATE": "0",
        "RULES_AUTO_UPDATE": "0",
    }


async def test_two_processes_on_two_shards_share_games_statistics_one_sync_and_one_scryfall_budget(
    spawn_bot, fake_discord: FakeDiscord, fake_scryfall, shared_settings, postgres_url: str, tmp_path: Path
):
    guilds = shard_guilds(fake_discord)
    # The processes take turns 5.5 s apart on the database's clock (tests/storage/test_starts.py checks the
    # turns); the fakes see when each IDENTIFY and each request reached them, which a busy machine may make
    # seconds late for one and not the next. They refuse what comes too soon by that measure, with the suite's
    # slack: two processes that did not take turns start at once, and are still refused.
    fake_discord.identify_interval = TURNS_SEEN
    fake_scryfall.enforce_limits = False  # 2 searches a second: checked on the database's clock below

    async def spawn(shard: int):
        return await spawn_bot(SHARD_IDS=str(shard), BOT_DATA_DIR=str(tmp_path / f"shard{shard}"), **shared_settings)

    processes = {0: await spawn(0), 1: await spawn(1)}
    await fake_discord.wait_until_connected(0, 1)
    await fake_discord.wait_for(lambda r: r.method == "PUT" and r.path.endswith("/commands"))

    # A game in each shard's guild, each answered by the process holding that shard.
    games = {shard: await start_and_play_a_land(fake_discord, guilds[shard]) for shard in (0, 1)}
    games[0] = await cycle_the_steppe(fake_discord, games[0])
    assert "Secluded Steppe" in json.dumps(games[0]["embeds"])

    # Shard 1's process dies mid-game without a word, then starts again: the game goes on where it was.
    old_session = fake_discord.sessions[1]
    processes[1].process.send_signal(signal.SIGKILL)
    assert await processes[1].wait() == -signal.SIGKILL
    processes[1] = await spawn(1)
    await fake_discord.wait_for_new_session(1, old_session)
    games[1] = await cycle_the_steppe(fake_discord, games[1])
    assert "Secluded Steppe" in json.dumps(games[1]["embeds"])

    # alice's statistics, asked through either process, count both games.
    for shard in (0, 1):
        stats = fields(await command(fake_discord, guilds[shard], "goldfish", goldfish("stats", goldfish("show"))))
        assert (stats["Games started"], stats["Cards cycled"]) == ("2", "2"), stats

    # A burst of card lookups through both processes at once: together they stay within Scryfall's limits. Two
    # players ask, each within their share of lookups at once in each process.
    names = card_names(2 * LOOKUPS_EACH)
    before, _ = await search_budget(postgres_url)
    answers = await asyncio.gather(
        *(look_up(fake_discord, guilds[i % 2], name, ("alice", "bob")[i // 2 % 2]) for i, name in enumerate(names)),
    )
    titles = [answer["embeds"][0]["title"] for answer in answers]
    cost = re.compile(r"( (<:\w+:\d+>|\{[^{}]+\})+)$")  # the mana cost: the bot's emoji, or text until they are up
    assert [cost.sub("", title) for title in titles] == names, "each card's embed, its mana cost after its name"
    # Both processes uploaded the mana symbols as they started together: each emoji exists once.
    uploaded = [emoji["name"] for emoji in fake_discord.application_emojis.values()]
    assert len(uploaded) == len(set(uploaded))
    named = fake_scryfall.requests_to("/cards/named")
    assert len(named) >= len(names)
    assert fake_scryfall.violations == []
    # One budget: each lookup took the next search slot of the one row both processes share, spaced on the
    # database's clock, so however late a request reached the fake, the burst's slots span one spacing a lookup.
    # Each process spacing its own requests alone would have moved the shared row by half that, or not at all.
    _, next_search = await search_budget(postgres_url)
    assert next_search >= before + len(names) * SEARCH_SPACING - 1e-6, (before, next_search)

    assert len(fake_discord.command_syncs()) == 1, "only shard 0's process synced, and only once"
    assert sorted(fake_discord.identified_shards) == [(0, 2), (1, 2), (1, 2)]
    # The two processes started at once, and shard 1 again later: they took turns, none was refused.
    assert fake_discord.refused_identifies == []
    starts = [at for at, _shard in fake_discord.identify_times]
    assert all(later - earlier >= TURNS_SEEN for earlier, later in zip(starts, starts[1:], strict=False)), starts
    assert fake_discord.unexpected == []
    for process in (processes[0], processes[1]):
        assert "Traceback" not in process.stderr, process.stderr
