from __future__ import annotations

import asyncio
import contextlib
import shutil
from pathlib import Path

import pytest

# Imported here, before any bot loads its extensions: requests-cache keeps the tracebacks of its
# optional imports, which would otherwise pin the first bot (and its database thread) in memory.
import bot.scryfall  # noqa: F401
from bot.carddb.service import FILE_NAME
from bot.client import CycleBot
from bot.config import Config
from tests.support.waits import SLACK


@pytest.fixture
def bot_config(data_dir, fake_scryfall) -> Config:
    return Config(data_dir=data_dir, scryfall_api_url=fake_scryfall.base_url, inline_cards=True)


@pytest.fixture
async def simcord_bot(bot_config):
    bot = CycleBot(bot_config)
    yield bot
    # simcord never closes the bot: closing unloads the cogs (closing the Scryfall client) and the database.
    await bot.close()


def quicken(client) -> None:
    """Test-sized retries and backoff, so a failing Scryfall is noticed at once; the timeout a busy machine's slack
    (the tests of a hanging Scryfall set their own)."""
    client.timeout = SLACK
    client.retries = 1
    client.backoff = 0.01
    client.pause_seconds = 2.0


@pytest.fixture
def cards(simcord_env):
    """The Cards cog of the running bot, its Scryfall client made test-quick."""
    cog = simcord_env.bot.get_cog("Cards")
    quicken(cog.client)
    return cog


@pytest.fixture
def local_cards(simcord_env, fake_scryfall):
    """The Cards cog of a bot whose local card data is loaded, with the fake Scryfall's request log cleared."""
    cog = simcord_env.bot.get_cog("Cards")
    assert simcord_env.bot.card_data.loaded
    quicken(cog.client)
    fake_scryfall.reset()
    return cog


async def wait_until(condition, ceiling: float = 60.0) -> None:
    """Let the bot run until ``condition()`` holds; a generous ceiling, so a busy machine only makes it slower."""
    async with asyncio.timeout(ceiling):
        while not condition():  # noqa: ASYNC110 - the bot's state has no event to wait on
            await asyncio.sleep(0.01)


def start_slash(env, actor, channel, command: str, /, **options):
    """Deliver a slash command like ``actor.slash`` but return at once, without waiting for the bot.

    simcord runs one operation at a time; this lets a test (or the benchmark) have several
    interactions in flight, e.g. /about answered while /card waits on a hanging Scryfall.
    """
    from simcord.actors import _resolve_visible_command
    from simcord.enums import AppCommandType, InteractionType
    from simcord.interactions import base_payload, build_options, nest_options, walk_to_subcommand
    from simcord.results import InteractionResult

    parts = command.split()  # "goldfish start": the group, then the subcommand
    root = _resolve_visible_command(actor, channel.id, parts[0], AppCommandType.CHAT_INPUT)
    leaf, nesting = walk_to_subcommand(root, parts[1:])
    leaf_options, _resolved = build_options(actor, command, leaf, options, channel_id=channel.id)
    data = {"id": root["id"], "name": root["name"], "type": root.get("type", AppCommandType.CHAT_INPUT)}
    data["options"] = nest_options(root, nesting, leaf_options)
    guild = getattr(actor, "guild", None)  # a user (not a member) asks in their DM with the bot
    record, payload = base_payload(
        env.backend,
        type=InteractionType.APPLICATION_COMMAND,
        channel_id=channel.id,
        guild_id=guild.id if guild is not None else None,
        user_id=actor.id,
        data=data,
    )
    env.backend.emit("INTERACTION_CREATE", payload)
    return InteractionResult(env, record)


def start_autocomplete(env, actor, channel, command: str, option: str, typed: str):
    """Deliver an autocomplete request (``typed`` in ``option`` of ``command``) without waiting for the bot."""
    from simcord.actors import _resolve_visible_command
    from simcord.enums import AppCommandType, InteractionType
    from simcord.interactions import base_payload
    from simcord.results import InteractionResult

    root = _resolve_visible_command(actor, channel.id, command, AppCommandType.CHAT_INPUT)
    data = {"id": root["id"], "name": root["name"], "type": AppCommandType.CHAT_INPUT}
    data["options"] = [{"name": option, "type": 3, "value": typed, "focused": True}]
    guild = getattr(actor, "guild", None)
    record, payload = base_payload(
        env.backend,
        type=InteractionType.APPLICATION_COMMAND_AUTOCOMPLETE,
        channel_id=channel.id,
        guild_id=guild.id if guild is not None else None,
        user_id=actor.id,
        data=data,
    )
    env.backend.emit("INTERACTION_CREATE", payload)
    return InteractionResult(env, record)


@pytest.fixture(scope="session")
def bulk_copy(tmp_path_factory) -> Path:
    """The fake Scryfall's bulk data imported once per session, the way the bot imports it."""
    from bot.carddb.update import update_from_scryfall
    from tests.data import SCRYFALL_CARDS
    from tests.support.fake_scryfall import FakeScryfall

    path = tmp_path_factory.mktemp("carddb") / FILE_NAME
    with FakeScryfall(SCRYFALL_CARDS) as fake:
        update_from_scryfall(path, fake.base_url)
    return path


@pytest.fixture
def loaded_config(data_dir, fake_scryfall, bulk_copy) -> Config:
    """A bot configuration whose data directory already holds a good local copy of the cards."""
    shutil.copyfile(bulk_copy, data_dir / FILE_NAME)
    return Config(data_dir=data_dir, scryfall_api_url=fake_scryfall.base_url, inline_cards=True)


@pytest.fixture(scope="session")
def drawn_symbols(tmp_path_factory) -> Path:
    """Where the first test that makes the symbols leaves its pictures for the others (drawing them takes seconds)."""
    return tmp_path_factory.mktemp("symbols") / "kept"


@pytest.fixture
async def emoji(simcord_env, drawn_symbols):
    """The bot once its symbols are made from the fake Scryfall's symbology and uploaded (what its start does; the
    pictures drawn once a session, as a later start finds them kept)."""
    from bot.hosts.symbols import DIRECTORY

    kept = simcord_env.bot.config.data_dir / DIRECTORY
    if drawn_symbols.is_dir():
        shutil.copytree(drawn_symbols, kept, dirs_exist_ok=True)
    await simcord_env.bot.prepare_symbols()
    assert simcord_env.bot.mana
    if not drawn_symbols.is_dir():
        shutil.copytree(kept, drawn_symbols)
    return simcord_env.bot


def only_refusals(env) -> bool:
    """Whether every error the bot's handlers raised was a refusal (answered to the user before the command ran:
    input it could decide at once, a cooldown, a share taken), and no other."""
    return all(type(error).__name__ in ("Refused", "CommandOnCooldown") for error in env.errors)


def private(result):
    """The answer only the asker sees: told at once (a syntax error), or after a public "thinking…" that turned out
    to be a miss, when the public message is gone and the private follow-up is the answer."""
    if result.response is not None:
        assert result.ephemeral, "a miss is the asker's alone"
        return result.response
    answer = result.followups[-1]
    assert answer.ephemeral
    return answer


@contextlib.contextmanager
def speaking(locale: str):
    """Interactions sent inside the block carry Discord's ``locale`` (the asker's client language: "de", "es-419",
    "zh-TW"…) instead of simcord's en-US."""
    import simcord.interactions as interactions

    real = interactions.base_payload

    def with_locale(*args, **kwargs):
        record, payload = real(*args, **kwargs)
        payload["locale"] = locale
        return record, payload

    interactions.base_payload = with_locale
    try:
        yield
    finally:
        interactions.base_payload = real
