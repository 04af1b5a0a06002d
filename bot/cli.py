"""``python -m bot``: run the bot, or use its features offline from the terminal."""

from __future__ import annotations

import argparse
import asyncio
import importlib
import logging
import sys

from bot import BOT_NAME, __version__
from bot.config import Config, setup_logging
from bot.errors import ConfigError

log = logging.getLogger(__name__)

# Each module has ``register(subparsers)``; its sub-commands need no Discord token.
FEATURE_COMMANDS: tuple[str, ...] = ("bot.cards.cli",)

EXIT_CONFIG = 2


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m bot",
        description=f"{BOT_NAME} {__version__}: a Discord bot for Magic: The Gathering players.",
        epilog="With no sub-command the bot starts (the same as 'run').",
    )
    parser.add_argument("--version", action="version", version=f"{BOT_NAME} {__version__}")
    subparsers = parser.add_subparsers(title="sub-commands", metavar="COMMAND")
    run = subparsers.add_parser("run", help="connect to Discord and serve (needs DISCORD_TOKEN)")
    run.add_argument("--force-sync", action="store_true", help="sync the slash commands even if they did not change")
    run.set_defaults(handler=run_bot)
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
    try:
        return handler(args)
    except ConfigError as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_CONFIG
    except KeyboardInterrupt:
        return 130


def run_bot(args: argparse.Namespace) -> int:
    import discord

    from bot.client import CycleBot

    config = Config.from_env()
    token = config.require_token()
    setup_logging(config)
    bot = CycleBot(config)
    bot.force_sync = args.force_sync

    async def runner() -> None:
        async with bot:
            await bot.start(token)

    try:
        asyncio.run(runner())
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
