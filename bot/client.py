"""The Bot subclass: it owns the database, the extensions and the command tree."""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import pkgutil
import time

import discord
from discord import app_commands
from discord.ext import commands, tasks

import cogs
from bot import __version__
from bot.carddb import CardData
from bot.config import Config
from bot.scryfall import ScryfallClient
from bot.storage import Database
from cogs._ui import NO_MENTIONS, report_error

log = logging.getLogger(__name__)


HEARTBEAT_SECONDS = 30


class CommandTree(app_commands.CommandTree):
    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        await report_error(interaction, error)


def discover_extensions() -> list[str]:
    """Every public module in ``cogs/``: one extension a feature."""
    return sorted(
        f"{cogs.__name__}.{module.name}"
        for module in pkgutil.iter_modules(cogs.__path__)
        if not module.name.startswith("_")
    )


class CycleBot(commands.Bot):
    db: Database
    scryfall: ScryfallClient
    card_data: CardData

    def __init__(self, config: Config, *, extensions: list[str] | None = None) -> None:
        intents = discord.Intents.default()
        intents.message_content = config.inline_cards
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            allowed_mentions=NO_MENTIONS,
            help_command=None,
            tree_cls=CommandTree,
            activity=discord.Game("/about · Magic rules and cycling"),
        )
        self.config = config
        self.version = __version__
        self.extension_names = discover_extensions() if extensions is None else extensions
        self.failed_extensions: dict[str, str] = {}
        self.force_sync = False

    async def setup_hook(self) -> None:
        self.config.data_dir.mkdir(parents=True, exist_ok=True)
        self.db = await Database.open(self.config.database_path)
        log.info("Database ready at schema version %s", await self.db.schema_version())
        # One rate-limited, cached Scryfall client for every feature: Scryfall counts requests per application.
        self.scryfall = ScryfallClient.from_config(self.config)
        # The local copy of Scryfall's cards: serves what it holds now, refreshes in the background.
        self.card_data = await CardData.open(self.config.data_dir, self.config.scryfall_api_url)
        if self.config.card_data_auto_update:
            self.card_data.start()
        for name in self.extension_names:
            try:
                await self.load_extension(name)
            except Exception as error:
                # One broken feature must not take the others down with it.
                self.failed_extensions[name] = f"{type(error).__name__}: {error}"
                log.exception("Could not load extension %s", name)
        await self.sync_commands()
        self.heartbeat.start()

    def command_payload(self, guild: discord.abc.Snowflake | None) -> list[dict]:
        return [command.to_dict(self.tree) for command in self.tree.get_commands(guild=guild)]

    async def sync_commands(self) -> bool:
        """Sync the command tree only if its schema changed since the last sync to that scope."""
        guild = discord.Object(self.config.guild_id) if self.config.guild_id else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        payload = self.command_payload(guild)
        digest = hashlib.sha256(json.dumps(payload, sort_keys=True, default=str).encode()).hexdigest()
        scope = f"guild:{guild.id}" if guild else "global"
        key = f"command_sync:{self.application_id}:{scope}"
        if not self.force_sync and await self.db.get_meta(key) == digest:
            log.info("Application commands unchanged since the last sync (%s); not syncing", scope)
            return False
        synced = await self.tree.sync(guild=guild)
        await self.db.set_meta(key, digest)
        log.info("Synced %d application commands (%s)", len(synced), scope)
        return True

    async def on_ready(self) -> None:
        log.info("Connected as %s (id %s) to %d servers", self.user, self.user and self.user.id, len(self.guilds))

    @property
    def heartbeat_path(self):
        return self.config.data_dir / "heartbeat"

    @tasks.loop(seconds=HEARTBEAT_SECONDS)
    async def heartbeat(self) -> None:
        """Touch a file while connected, so a container health check can tell a live bot from a stuck one."""
        if self.is_ready() and not self.is_closed() and self.latency < HEARTBEAT_SECONDS:
            await asyncio.to_thread(self.heartbeat_path.write_text, str(int(time.time())))

    @heartbeat.before_loop
    async def _wait_for_ready(self) -> None:
        await self.wait_until_ready()

    async def close(self) -> None:
        self.heartbeat.cancel()
        try:
            await super().close()
        finally:
            card_data = getattr(self, "card_data", None)
            if card_data is not None:
                await card_data.close()
            scryfall = getattr(self, "scryfall", None)
            if scryfall is not None:
                await scryfall.close()
            db = getattr(self, "db", None)
            if db is not None:
                await db.close()
