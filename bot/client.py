"""The Bot subclass: it owns the database, the extensions and the command tree."""

from __future__ import annotations

import asyncio
import functools
import logging
import pkgutil

import discord
from discord import app_commands
from discord.ext import commands

import cogs
from bot import __version__
from bot.carddb import CardData
from bot.cards import CardSource
from bot.config import Config
from bot.frame import EVERYWHERE, Health, InFlight, command_payload, mana_emoji, sync_if_changed
from bot.hosts import (
    IMAGES_DIRECTORY,
    PLAIN,
    CardImages,
    SymbolsUnavailable,
    SymbolText,
    prepare_symbols,
    remove_interrupted_symbols,
)
from bot.judge import JudgeDocs
from bot.rules import RulesService
from bot.runtime import return_freed_memory
from bot.scryfall import PostgresBudget, ScryfallClient, ScryfallError
from bot.serving import Admission, Suggestions
from bot.storage import Database, PostgresStartGate, open_database
from cogs._gate import let_in
from cogs._pagers import Pagers
from cogs._ui import NO_MENTIONS, report_error

log = logging.getLogger(__name__)


# What the bot owns and closes when it stops, in this order.
RESOURCES = ("rules", "judge_docs", "card_data", "card_images", "scryfall", "db")


class CommandTree(app_commands.CommandTree):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.suggestions = Suggestions()  # autocomplete's turns, one user's flood never everyone's delay

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        # The one gate before every command (options checked against their declarations) and autocomplete (turns).
        return await let_in(self, self.suggestions, interaction)

    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        await report_error(interaction, error)


def discover_extensions() -> list[str]:
    """Every public module in ``cogs/``: one extension a feature."""
    return sorted(
        f"{cogs.__name__}.{module.name}"
        for module in pkgutil.iter_modules(cogs.__path__)
        if not module.name.startswith("_")
    )


class CycleBot(InFlight, Health, commands.AutoShardedBot):
    db: Database
    scryfall: ScryfallClient
    card_data: CardData
    rules: RulesService
    judge_docs: JudgeDocs | None
    card_images: CardImages
    pagers: Pagers

    def __init__(self, config: Config, *, extensions: list[str] | None = None) -> None:
        intents = discord.Intents.default()
        intents.message_content = config.inline_cards
        # None: as many shards as Discord recommends, all in this process.
        shard_ids = list(config.shard_ids) if config.shard_ids is not None else None
        super().__init__(
            commands.when_mentioned,
            intents=intents,
            tree_cls=CommandTree,
            help_command=None,
            allowed_mentions=NO_MENTIONS,
            # Installable by a server and by a user; used in servers, the bot's DM and group chats.
            **EVERYWHERE,
            activity=discord.Game("/about · Magic rules and cycling"),
            shard_count=config.shard_count,
            shard_ids=shard_ids,
        )
        self.config = config
        self.version = __version__
        self.extension_names = discover_extensions() if extensions is None else extensions
        self.failed_extensions: dict[str, str] = {}
        self.force_sync = False
        self.start_watching()
        self.start_gate: PostgresStartGate | None = None
        self.admission = Admission()  # fair shares of the pools, per user and for everyone
        return_freed_memory()  # card images come and go in bursts: their memory must go back when they do
        # Mana symbols: their markup where Discord shows emoji (text until the emoji are ready, or for good when
        # they can't be made), and their pictures for the goldfish table.
        self.mana: SymbolText = PLAIN
        self.symbol_pngs: dict[str, bytes] = {}
        self._symbols: asyncio.Task | None = None

    async def setup_hook(self) -> None:
        # Every interaction passes through here first: the drain on shutdown and the "expired" answer need it.
        parsers = self._connection.parsers
        parsers["INTERACTION_CREATE"] = functools.partial(self._receive_interaction, parsers["INTERACTION_CREATE"])
        self.db = await open_database(self.config)
        log.info("Database ready (%s) at schema version %s", self.db.describe(), await self.db.schema_version())
        if self.config.shards_elsewhere and self.db.dialect == "sqlite":
            log.warning(
                "Shards %s of %s run here and the others in other processes, but this process keeps its own SQLite "
                "database: games, statistics and the Scryfall budget are not shared. Set DATABASE_URL to one "
                "PostgreSQL database for all of them (see the README, Running at scale).",
                ",".join(map(str, self.config.shard_ids)),
                self.config.shard_count,
            )
        # One rate-limited, cached Scryfall client for every feature: Scryfall counts requests per application,
        # so processes sharing a PostgreSQL database share one budget kept there.
        budget = PostgresBudget(self.db.pool, asyncio.get_running_loop()) if self.db.dialect == "postgresql" else None
        self.scryfall = ScryfallClient.from_config(self.config, budget=budget)
        # The local copy of Scryfall's cards: serves what it holds now, refreshes in the background.
        self.card_data = await CardData.open(
            self.config.data_dir, self.config.scryfall_api_url, languages=self.config.card_languages
        )
        if self.config.card_data_auto_update:
            self.card_data.start()
        self.card_source = CardSource.of(self)  # local first, the API as fallback
        self.card_source.follow()  # its name matcher built as soon as a copy is loaded, and after each refresh
        # What an interrupted drawing of the symbols left; the rules service does the same for its updates.
        await asyncio.to_thread(remove_interrupted_symbols, self.config.data_dir)
        if self.config.mana_emoji:
            self._symbols = asyncio.create_task(self.prepare_symbols(), name="mana-symbols")
        # The Comprehensive Rules: the configured file, the downloaded copy or the bundled excerpt.
        try:
            self.rules = await RulesService.open(self.config)
        except Exception:
            # A rules file that cannot be read leaves /rule unavailable, not the whole bot.
            log.exception("Could not load the Comprehensive Rules")
            self.rules = RulesService(self.config)
        # The judges' documents (MTR, IPG): the newest versions kept, else their bundled outlines.
        try:
            self.judge_docs = await JudgeDocs.open(self.config)
        except Exception:
            # Documents that cannot be read leave /mtr and /ipg saying so, not the whole bot down.
            log.exception("Could not load the judges' documents")
            self.judge_docs = None
        # Card images for the goldfish table's picture: memory, then disk, then Scryfall's image host.
        self.card_images = await CardImages.open(self.config.data_dir / IMAGES_DIRECTORY, self.config.scryfall_api_url)
        self.pagers = Pagers()  # every feature's Previous/Next pages in memory
        for name in self.extension_names:
            try:
                await self.load_extension(name)
            except Exception as error:
                # One broken feature must not take the others down with it.
                self.failed_extensions[name] = f"{type(error).__name__}: {error}"
                log.exception("Could not load extension %s", name)
        await self.sync_commands()
        self.heartbeat.start()
        self.checkpoint.start()

    async def prepare_symbols(self) -> None:
        """Render the mana symbols once (kept in the data folder) and upload them once as the application's emoji;
        whatever fails leaves the text form (``{2}{G}``), said once in the log."""
        try:
            images = await prepare_symbols(self.config.data_dir, self.scryfall)
            self.symbol_pngs = await asyncio.to_thread(lambda: {s: image.png() for s, image in images.items()})
        except (SymbolsUnavailable, ScryfallError, OSError, ValueError) as error:
            log.warning("Mana symbols stay as text ({2}{G}): they could not be made (%s)", error)
            return
        try:
            self.mana = await mana_emoji(self, images)
        except discord.HTTPException as error:
            log.warning("Mana symbols stay as text ({2}{G}): Discord refused the application emoji (%s)", error.status)

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """Wait for this shard's turn to start a gateway session. Discord allows one start per bucket every
        5 seconds for the whole bot; processes sharing PostgreSQL take turns there, one process by itself."""
        db = getattr(self, "db", None)
        if db is None or db.dialect != "postgresql":
            await super().before_identify_hook(shard_id, initial=initial)
            return
        if self.start_gate is None:
            self.start_gate = PostgresStartGate(db, await self.max_concurrency())
        waited = await self.start_gate.wait(shard_id or 0)
        if waited > 0.05:
            log.info("Shard %s waited %.1f s for its turn to start a session", shard_id, waited)

    async def max_concurrency(self) -> int:
        """How many session starts Discord allows at once (its buckets); 1 if it can't be asked."""
        try:
            return (await self.fetch_session_start_limits()).max_concurrency
        except (discord.HTTPException, OSError, KeyError, TypeError) as error:
            log.warning("Could not ask Discord for the session start limit (%s); starting one shard at a time", error)
            return 1

    def command_payload(self, guild: discord.abc.Snowflake | None) -> list[dict]:
        return command_payload(self.tree, guild)

    @property
    def holds_shard_zero(self) -> bool:
        return self.config.shard_ids is None or 0 in self.config.shard_ids

    async def sync_commands(self) -> bool:
        """Sync the command tree only if its schema changed since the last sync to that scope.

        With the shards spread over several processes only the one holding shard 0 syncs: the commands are the
        application's, not a shard's, and two processes syncing at once would race.
        """
        if not self.holds_shard_zero:
            log.info("Not syncing application commands: shard 0 runs in another process")
            return False
        return await sync_if_changed(self, force=self.force_sync)

    async def on_ready(self) -> None:
        shards = ", ".join(map(str, self.shard_ids or range(self.shard_count or 0)))
        log.info(
            "Connected as %s (id %s) to %d servers on shard(s) %s of %s",
            self.user,
            self.user and self.user.id,
            len(self.guilds),
            shards,
            self.shard_count,
        )

    async def close(self) -> None:
        self.heartbeat.cancel()
        self.checkpoint.cancel()
        if self._symbols is not None:
            self._symbols.cancel()
        try:
            await super().close()
        finally:
            # The resources setup_hook opened, the database last (a start that failed half way opened fewer).
            for name in RESOURCES:
                resource = getattr(self, name, None)
                if resource is not None:
                    await resource.close()
