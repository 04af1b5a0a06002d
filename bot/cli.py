"""``cyclebot``: run the bot, or use its features offline from the terminal (no Discord token needed)."""

from __future__ import annotations

import argparse
import asyncio
import importlib
import logging
import signal
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from bot import BOT_NAME, __version__
from bot.config import Config, setup_logging
from bot.errors import ConfigError
from bot.runtime import end_children
from bot.storage import StorageError, backup, data_dir_lock, restore

if TYPE_CHECKING:
    from bot.client import CycleBot

log = logging.getLogger(__name__)

# Each module has ``register(subparsers)``; its sub-commands need no Discord token.
FEATURE_COMMANDS: tuple[str, ...] = (
    "bot.rules.cli",
    "bot.judge.cli",
    "bot.cards.cli",
    "bot.carddb.cli",
    "bot.goldfish.cli",
)

EXIT_CONFIG = 2


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="cyclebot",
        description=f"{BOT_NAME} {__version__}: a Discord bot for Magic: The Gathering players.",
        epilog="With no sub-command the bot starts (the same as 'run').",
    )
    parser.add_argument("--version", action="version", version=f"{BOT_NAME} {__version__}")
    subparsers = parser.add_subparsers(title="sub-commands", metavar="COMMAND")
    parser.set_defaults(cards_in=stored_question_cards)  # how `rule` finds the cards a question names
    run = subparsers.add_parser("run", help="connect to Discord and serve (needs DISCORD_TOKEN)")
    run.add_argument("--force-sync", action="store_true", help="sync the slash commands even if they did not change")
    run.set_defaults(handler=run_bot)
    health = subparsers.add_parser("health", help="exit 0 if a running bot is connected (for container health checks)")
    health.set_defaults(handler=check_health)
    backup_cmd = subparsers.add_parser(
        "backup", help="copy the database to FILE (safe while the bot runs)", description=backup_database.__doc__
    )
    backup_cmd.add_argument("file", type=Path, metavar="FILE")
    backup_cmd.set_defaults(handler=backup_database)
    restore_cmd = subparsers.add_parser(
        "restore",
        help="replace the database with a backup FILE (stop the bot first)",
        description=restore_database.__doc__,
    )
    restore_cmd.add_argument("file", type=Path, metavar="FILE")
    restore_cmd.set_defaults(handler=restore_database)
    db_cmd = subparsers.add_parser("db", help="move the bot's data between databases")
    db_commands = db_cmd.add_subparsers(title="db commands", metavar="ACTION", required=True)
    copy_cmd = db_commands.add_parser(
        "copy",
        help="copy the SQLite database into an empty PostgreSQL database (stop the bot first)",
        description=copy_database.__doc__,
    )
    copy_cmd.add_argument("--to", required=True, metavar="URL", help="postgresql://user:password@host:port/database")
    copy_cmd.add_argument(
        "--from", dest="source", type=Path, metavar="FILE", help="the SQLite file (default: BOT_DATA_DIR/bot.sqlite3)"
    )
    copy_cmd.set_defaults(handler=copy_database)
    for module_name in FEATURE_COMMANDS:
        importlib.import_module(module_name).register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    handler = getattr(args, "handler", None)
    if handler is None:
        args.force_sync = False
        handler = run_bot
    if handler is not run_bot:
        # Terminal sub-commands print their own answers; the log only speaks up for errors.
        logging.basicConfig(level=logging.ERROR, format="%(levelname)s %(name)s: %(message)s")
    try:
        return handler(args)
    except (ConfigError, StorageError) as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_CONFIG
    except KeyboardInterrupt:
        return 130


def stored_question_cards(data_dir: Path, wanted: bool):
    """The card data's finder for a rules question in a terminal (imported only when a question needs it), with the
    printed names of the languages ``CARD_LANGUAGES`` chooses."""
    from bot.cards import stored_question_cards as opened

    return opened(data_dir, wanted, Config.from_env().card_languages if wanted else ())


def use_discord_endpoints(config: Config) -> None:
    """Point discord.py at DISCORD_API_BASE / DISCORD_GATEWAY_URL when set (advanced: a proxy or a test fake)."""
    import discord.gateway
    import discord.http
    import yarl

    if config.discord_api_base:
        # Interaction callbacks and webhook follow-ups use the same Route class.
        discord.http.Route.BASE = config.discord_api_base
    if config.discord_gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(config.discord_gateway_url)


# How long a stop waits for the main task to take its cancellation before cancelling it again.
CANCEL_AGAIN_SECONDS = 0.5


@dataclass
class Stopping:
    """Why the bot is stopping, once a signal has asked it to."""

    terminated: asyncio.Event = field(default_factory=asyncio.Event)  # SIGTERM: docker stop, systemd
    interrupted: asyncio.Event = field(default_factory=asyncio.Event)  # SIGINT: Ctrl-C


def stop_on_signals(bot: CycleBot) -> Stopping:
    """SIGTERM stops the bot once the interactions in flight are answered; Ctrl-C stops it at once, and a second
    Ctrl-C ends the process without waiting. Both cancel the main task, so the bot closes from it.

    A bot closed from another task sends close code 4000 and Discord keeps the session; this way it sends 1000.
    A cancellation can be lost when it lands just as the awaited operation finishes (``asyncio.wait_for`` before
    Python 3.12), so it is repeated until the bot has begun to close; never after, so the close runs whole.
    """
    stopping = Stopping()
    main = asyncio.current_task()
    work: set[asyncio.Task] = set()  # a reference, so a task cannot be garbage-collected half-way

    async def cancel_main() -> None:
        while not main.done() and not bot.is_closed():
            main.cancel()
            await asyncio.wait({main}, timeout=CANCEL_AGAIN_SECONDS)

    async def drain_then_stop() -> None:
        try:
            await bot.drain()
        except Exception:
            log.exception("Could not finish the interactions in flight")
        finally:
            await cancel_main()

    def on_sigterm() -> None:
        if not (stopping.terminated.is_set() or stopping.interrupted.is_set()):
            stopping.terminated.set()
            work.add(asyncio.ensure_future(drain_then_stop()))

    def on_sigint() -> None:
        if stopping.interrupted.is_set():
            raise KeyboardInterrupt  # out of the event loop: the process ends now
        stopping.interrupted.set()
        work.add(asyncio.ensure_future(cancel_main()))

    loop = asyncio.get_running_loop()
    for number, handler in ((signal.SIGTERM, on_sigterm), (signal.SIGINT, on_sigint)):
        try:
            loop.add_signal_handler(number, handler)
        except NotImplementedError:  # Windows event loops have no signal handlers
            pass
    return stopping


def run_bot(args: argparse.Namespace) -> int:
    import discord

    from bot.client import CycleBot

    # The bot never joins voice: don't warn at start-up about voice libraries it doesn't need.
    discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False

    config = Config.from_env()
    token = config.require_token()
    setup_logging(config)
    use_discord_endpoints(config)
    bot = CycleBot(config)
    bot.force_sync = args.force_sync

    async def runner() -> None:
        stopping = stop_on_signals(bot)
        try:
            async with bot:
                await bot.start(token)
        except asyncio.CancelledError:
            if stopping.interrupted.is_set():
                raise KeyboardInterrupt from None  # exit code 130, as for any program stopped with Ctrl-C
            if not stopping.terminated.is_set():
                raise

    try:
        with data_dir_lock(config.data_dir, purpose="start"):
            try:
                asyncio.run(runner())
            finally:
                # The last net: a worker pool started while the bot was stopping (its cog already closed) would
                # outlive it otherwise.
                end_children()
    except discord.LoginFailure:
        print(
            "error: Discord rejected DISCORD_TOKEN. Copy the token again from the Developer Portal "
            "(Bot → Reset Token) and check there are no stray quotes or spaces.",
            file=sys.stderr,
        )
        return EXIT_CONFIG
    except discord.PrivilegedIntentsRequired:
        print(
            "error: INLINE_CARDS=1 needs the Message Content intent: enable it in the Developer Portal "
            "(Bot → Privileged Gateway Intents) or unset INLINE_CARDS.",
            file=sys.stderr,
        )
        return EXIT_CONFIG
    return 0


HEALTHY_WITHIN_SECONDS = 120


def describe_shards(record: str) -> str:
    """The shards a heartbeat names and their latency, as one line's end ("" for a heartbeat without them)."""
    import json

    try:
        data = json.loads(record)
        shards = [(int(shard["id"]), shard["latency"]) for shard in data["shards"]]
        count = data["shard_count"]
    except (ValueError, TypeError, KeyError):
        return ""
    latencies = ", ".join(
        f"{shard_id}: {latency * 1000:.0f} ms" if isinstance(latency, int | float) else f"{shard_id}: not measured"
        for shard_id, latency in shards
    )
    label = "shard" if len(shards) == 1 else "shards"
    return f"; {label} {', '.join(str(shard_id) for shard_id, _ in shards)} of {count} (latency {latencies})"


def check_health(args: argparse.Namespace) -> int:
    """The bot writes ``BOT_DATA_DIR/heartbeat`` every 30 s while all its shards are connected to Discord."""
    import time

    config = Config.from_env()
    path = config.data_dir / "heartbeat"
    try:
        age = time.time() - path.stat().st_mtime
        shards = describe_shards(path.read_text(encoding="utf-8", errors="replace"))
    except FileNotFoundError:
        print("unhealthy: the bot has not connected yet (no heartbeat file)")
        return 1
    if age > HEALTHY_WITHIN_SECONDS:
        print(f"unhealthy: last heartbeat {age:.0f} s ago{shards}")
        return 1
    print(f"healthy: last heartbeat {age:.0f} s ago{shards}")
    return 0


def backup_database(args: argparse.Namespace) -> int:
    """Copy the bot's database (BOT_DATA_DIR/bot.sqlite3) to FILE as one self-contained SQLite file. It uses
    SQLite's online backup, so the copy is consistent even while the bot is running and writing."""
    config = Config.from_env()
    version = backup(config.database_path, args.file)
    print(f"Backed up {config.database_path} (schema version {version}) to {args.file}")
    return 0


def restore_database(args: argparse.Namespace) -> int:
    """Replace the bot's database with the backup FILE. The bot must be stopped. FILE is checked first (a
    Cyclebot database of a schema this version knows); the current database is kept as bot.sqlite3.before-restore."""
    config = Config.from_env()
    version = restore(args.file, config.database_path)
    print(f"Restored {config.database_path} from {args.file} (schema version {version}); start the bot again.")
    return 0


def copy_database(args: argparse.Namespace) -> int:
    """Copy every game, statistic and setting of the bot's SQLite database into the PostgreSQL database at URL,
    which must be empty (a new database from createdb; the copy creates the tables). The bot must be stopped.
    The copy is one transaction, checked row count by row count: it all arrives, or nothing does."""
    from bot.config import DATABASE_SCHEMES, redact_database_url
    from bot.storage import copy_to_postgres

    if not args.to.startswith(DATABASE_SCHEMES):
        raise ConfigError(f"--to must be a postgresql:// URL (got {args.to.split('://', 1)[0]!r})")
    config = Config.from_env()
    source = args.source or config.database_path
    with data_dir_lock(source.parent, purpose="copy"):
        report = asyncio.run(copy_to_postgres(source, args.to))
    counts = ", ".join(f"{count} {name}" for name, count in report.rows.items())
    print(f"Copied {source} into {redact_database_url(args.to)} (schema version {report.schema_version}): {counts}.")
    print("Set DATABASE_URL to that URL and start the bot; the SQLite file is left as it was.")
    return 0
