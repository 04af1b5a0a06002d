from __future__ import annotations

from pathlib import Path

import pytest

from bot.client import CycleBot
from bot.config import Config
from bot.frame import health as health_module
from bot.storage import Database
from bot.storage.postgres import PostgresDatabase
from tests.data import SCRYFALL_CARDS
from tests.support import installs, simcord_discord, waits

simcord_discord.install()
installs.install()


# Markers from what a test uses, for `make check`: the core alone, in under a minute.
DISCORD_FIXTURES = {"simcord_env", "fake_discord", "spawn_bot", "start_bot"}
POSTGRES_FIXTURES = {"postgres_server", "postgres_url", "own_server"}
# Modules whose tests start processes (terminal commands, process pools) or download and import card data
# each time: seconds a test, so `make check` leaves them to `make test`.
SLOW_MODULES = {
    "tests/carddb/test_cli.py",
    "tests/carddb/test_refresh.py",
    "tests/carddb/test_rulings.py",
    "tests/carddb/test_service.py",
    "tests/cards/test_cli.py",
    "tests/goldfish/test_cli.py",
    "tests/goldfish/practice/test_coach.py",
    "tests/goldfish/practice/test_simulate.py",
    "tests/judge/test_cli.py",
    "tests/judge/test_updater.py",
    "tests/rules/test_history_cli.py",
}
ROOT = Path(__file__).resolve().parent.parent
# How long simcord waits, in real time, for the bot to finish what an event started: the suite's ceiling
# (tests/support/waits.py), not simcord's 5 s, which work in a thread (reading seven rules editions, a review in
# the worker processes) can pass on a busy 2-core machine. Whether a reply came in Discord's three seconds is
# asserted by what the bot sent (a deferral, an answer), and speed by the benchmarks.
SETTLE_SECONDS = waits.CEILING
DAY = 24 * 3600.0


def pytest_configure(config):
    config.addinivalue_line("markers", "discord: drives the real discord.py stack (simcord or the wire fake)")
    config.addinivalue_line("markers", "postgres: needs a PostgreSQL server")
    config.addinivalue_line("markers", "bot_timers: the bot's heartbeat and checkpoint keep their own periods")
    config.addinivalue_line("markers", "wire: real sockets and processes against the fake Discord")
    config.addinivalue_line("markers", "slow: starts processes or imports card data in every test")


def pytest_collection_modifyitems(config, items):
    for item in items:
        used = set(getattr(item, "fixturenames", ()))
        if used & DISCORD_FIXTURES:
            item.add_marker(pytest.mark.discord)
        if "simcord_env" in used and item.get_closest_marker("simcord") is None:
            item.add_marker(pytest.mark.simcord(settle_timeout=SETTLE_SECONDS))
        if item.get_closest_marker("timeout") is None and config.getoption("timeout") is None:
            # pytest-timeout's limit for the whole test (unless --timeout says otherwise), past every ceiling the
            # test may wait out in turn: only a hang reaches it, and a wait that runs out first says what for.
            item.add_marker(pytest.mark.timeout(waits.TEST_LIMIT))
        callspec = getattr(item, "callspec", None)
        if used & POSTGRES_FIXTURES or (callspec is not None and callspec.params.get("db") == "postgresql"):
            item.add_marker(pytest.mark.postgres)
        if "wire" in item.path.parts:
            item.add_marker(pytest.mark.wire)
        if item.path.relative_to(ROOT).as_posix() in SLOW_MODULES:
            item.add_marker(pytest.mark.slow)


@pytest.fixture(autouse=True)
def no_pause_between_symbol_downloads(monkeypatch):
    """The fake Scryfall needs no politeness: 75 SVGs without 50 ms between them (the code and the wire tests'
    bot processes keep the pause)."""
    import bot.hosts.symbols

    monkeypatch.setattr(bot.hosts.symbols, "SVG_PAUSE", 0)


@pytest.fixture(autouse=True)
def one_rendering_per_message():
    """Every message the bot sends or edits through simcord, in every test, shows card symbols one way: all as
    emoji or all as text (tests/support/simcord_discord.py looks at each)."""
    simcord_discord.rendering_faults.clear()
    yield
    faults = list(simcord_discord.rendering_faults)
    simcord_discord.rendering_faults.clear()
    assert not faults, "A message mixed two renderings of card symbols:\n" + "\n".join(faults)


@pytest.fixture(autouse=True)
async def close_databases(monkeypatch):
    """Close every database a test opened, restarted bots' included.

    simcord detaches a bot without closing it, and an open aiosqlite connection keeps a
    non-daemon thread alive that can stop the interpreter from exiting.
    """
    opened: list[Database | PostgresDatabase] = []
    for kind in (Database, PostgresDatabase):
        original = kind.open.__func__

        async def open_and_remember(cls, *args, _original=original, **kwargs):
            db = await _original(cls, *args, **kwargs)
            opened.append(db)
            return db

        monkeypatch.setattr(kind, "open", classmethod(open_and_remember))
    yield
    for db in opened:
        await db.close()


@pytest.fixture(scope="session")
def postgres_server():
    """One throwaway PostgreSQL server for the whole session (see tests/support/postgres.py)."""
    from tests.support.postgres import PostgresServer, PostgresUnavailable

    try:
        server = PostgresServer().start()
    except PostgresUnavailable as error:
        pytest.fail(str(error), pytrace=False)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def postgres_url(postgres_server) -> str:
    """The URL of a new, empty database on the session's server: each test gets its own."""
    return postgres_server.create_database()


@pytest.fixture(params=["sqlite", "postgresql"])
async def db(request, tmp_path):
    """A migrated database of each dialect: SQLite in a temporary file, PostgreSQL in a fresh database."""
    if request.param == "sqlite":
        database = await Database.open(tmp_path / "bot.sqlite3")
    else:
        database = await PostgresDatabase.open(request.getfixturevalue("postgres_url"))
    try:
        yield database
    finally:
        await database.close()


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    path = tmp_path / "data"
    path.mkdir()
    return path


@pytest.fixture
def bot_config(data_dir: Path) -> Config:
    """Offline config: an unroutable Scryfall, so a test that forgets its fake fails loudly."""
    return Config(token=None, data_dir=data_dir, scryfall_api_url="http://127.0.0.1:9")


@pytest.fixture(autouse=True)
def bot_timers_past_every_settle(request, monkeypatch):
    """The heartbeat file is written once a bot is ready, then every 30 s, and the database is checkpointed every
    5 minutes: timers that simcord, waiting up to a test's settle timeout (minutes, for the coach's reviews) for
    the bot to go idle, would wait out, again and again. In tests they come a day later, but for a test of those
    timers (marked ``bot_timers``)."""
    if request.node.get_closest_marker("bot_timers") is not None:
        yield
        return
    monkeypatch.setattr(health_module, "CHECKPOINT_SECONDS", DAY)
    heartbeat = CycleBot.heartbeat  # the class's loop: each bot copies its period
    seconds = heartbeat.seconds
    heartbeat.change_interval(seconds=DAY)
    yield
    heartbeat.change_interval(seconds=seconds)


@pytest.fixture
async def simcord_bot(bot_config: Config):
    bot = CycleBot(bot_config)
    yield bot
    # simcord detaches the bot without closing it: closing unloads the cogs (and their clients).
    await bot.close()


@pytest.fixture
def guild(simcord_env):
    return simcord_env.create_guild("Magic night")


@pytest.fixture
def channel(guild):
    return guild.create_text_channel("cycling")


@pytest.fixture
def alice(simcord_env, guild):
    return guild.add_member(simcord_env.create_user("alice"))


@pytest.fixture
def bob(simcord_env, guild):
    return guild.add_member(simcord_env.create_user("bob"))


@pytest.fixture
def fake_scryfall():
    """A fake Scryfall API on 127.0.0.1 serving the sample cards (see tests/support/fake_scryfall.py)."""
    from tests.support.fake_scryfall import FakeScryfall

    with FakeScryfall(SCRYFALL_CARDS) as fake:
        yield fake
