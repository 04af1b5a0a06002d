"""/help and /about, each with its own job.

``/help`` is how to use the bot: a short first page of what to type, feature by feature, and ``/help command``
for one command's options. ``/about`` is what is running: the version, the rules edition and how the full rules
get loaded, the card data, the shards and where the data comes from.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot import BOT_NAME, limits
from bot.text import clip, escape, fit_lines, one_line
from cogs._permissions import app_permissions, bot_can_post, missing
from cogs._ui import reply

ATTRIBUTION = (
    "Card data and images come from [Scryfall](https://scryfall.com). "
    f"{BOT_NAME} is unofficial Fan Content permitted under the Fan Content Policy. "
    "Not approved/endorsed by Wizards. Portions of the materials used are property of "
    "Wizards of the Coast. ©Wizards of the Coast LLC."
)
COLOUR = discord.Colour.dark_teal()
# What a server grants when it adds the bot, the one place for it (README and docs/getting-started.md say why each,
# and a test holds their invite links to it): 309238025280.
INVITED = (
    "view_channel send_messages embed_links attach_files read_message_history add_reactions use_external_emojis "
    "create_public_threads send_messages_in_threads"
)
SERVER_PERMISSIONS = discord.Permissions(**dict.fromkeys(INVITED.split(), True))
AUTHORIZE = "https://discord.com/oauth2/authorize?client_id={app}&integration_type={kind}&scope={scopes}"


def add_links(application_id: int) -> discord.ui.View:
    """Two link buttons: add the bot to a server (its permissions asked for), and to one's own apps."""
    server = AUTHORIZE.format(app=application_id, kind=0, scopes="bot+applications.commands")
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label="Add to a server", url=f"{server}&permissions={SERVER_PERMISSIONS.value}"))
    mine = AUTHORIZE.format(app=application_id, kind=1, scopes="applications.commands")
    view.add_item(discord.ui.Button(label="Add to my apps", url=mine))
    return view


# The first page of /help: what to type for each thing the bot does, shortest first (a phone shows about 10 lines).
GUIDE = (
    ("Cards", "`/card lightning bolt` · `[[bolt]]` in chat · `/search t:creature c:g mv<=2` · `/cycling`"),
    ("Any message", "Apps › **Look up cards**: the cards a message names, in any chat"),
    ("Rules", "`/rule 702.29` · `/rule cycling` · `/rule can I cycle a land from my hand?`"),
    ("Judges", "`/ipg hce` · `/ipg 2.2` · `/mtr 3.8` · `/mtr taking notes`"),
    ("Goldfish", "`/goldfish start` a practice game here · `/goldfish odds` · `/goldfish simulate`"),
    ("Your decks", "`/deck save` paste, upload or link a list once · then `/goldfish start deck:` its name"),
    ("More", "`/help command:goldfish` for one command's options · `/about` for the version and data"),
)


def command_line(command: app_commands.Command | app_commands.Group) -> str:
    if isinstance(command, app_commands.Group):
        subs = ", ".join(sub.name for sub in command.commands)
        return f"`/{command.name}` ({subs}): {command.description}"
    return f"`/{command.name}`: {command.description}"


def option_lines(command: app_commands.Command | app_commands.Group) -> list[str]:
    """Each subcommand (for a group) or each option, one short line apiece."""
    if isinstance(command, app_commands.Group):
        return [f"`/{sub.qualified_name}`: {sub.description}" for sub in command.commands]
    lines = []
    for parameter in command.parameters:
        optional = "" if parameter.required else " (optional)"
        lines.append(f"`{parameter.display_name}`{optional}: {parameter.description}")
    return lines or ["No options."]


class About(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    # ---------------------------------------------------------------- /about

    def rules_edition(self) -> str:
        rules = getattr(self.bot, "rules", None)
        return rules.description() if rules is not None else "not loaded"

    def rules_source(self) -> str:
        """How the full rules get here: downloaded by the bot, an operator's file, or the excerpt until then."""
        rules = getattr(self.bot, "rules", None)
        loaded = getattr(rules, "loaded", None)
        origin = getattr(loaded, "origin", "")
        config = getattr(self.bot, "config", None)
        if origin == "RULES_FILE":
            return "Loaded from the file the operator named in `RULES_FILE`."
        if origin == "downloaded":
            return "Downloaded from Wizards of the Coast's rules page; the bot looks for a newer edition by itself."
        if getattr(config, "rules_auto_update", False):
            return (
                "The bundled excerpt answers until the bot has downloaded the full text from Wizards of the Coast "
                "(it does so by itself, in the background)."
            )
        return (
            "The bundled excerpt: downloading is turned off (`RULES_AUTO_UPDATE=0`). An operator loads the full "
            "text with `cyclebot rules update`, or names a file in `RULES_FILE`."
        )

    def judge_docs(self) -> str:
        """The MTR's and IPG's versions in use, and how they stay current."""
        docs = getattr(self.bot, "judge_docs", None)
        if docs is None:
            return "not loaded"
        config = getattr(self.bot, "config", None)
        how = (
            "The bot checks Wizards' rules-documents page daily."
            if getattr(config, "judge_docs_auto_update", False)
            else "Updates are off (`JUDGE_DOCS_AUTO_UPDATE=0`): `cyclebot judge-docs update` downloads them."
        )
        return f"{docs.description()}\n{how}"

    def card_data_description(self) -> str:
        card_data = getattr(self.bot, "card_data", None)
        info = card_data.info() if card_data is not None else None
        if info is None:
            return "not downloaded yet: card lookups ask Scryfall directly"
        return f"{info.count:,} cards, Scryfall data of {info.updated_at[:10]} ({info.size_bytes / 1e6:.0f} MB on disk)"

    def shards_description(self) -> str:
        """This process's shards (a big bot runs its shards in several processes) and each one's latency."""
        latencies = getattr(self.bot, "shard_latencies", None)
        if not callable(latencies):
            return "not sharded"
        parts = [
            f"{shard_id}: {latency * 1000:.0f} ms" if latency is not None else f"{shard_id}: not measured yet"
            for shard_id, latency in latencies().items()
        ]
        return f"{len(parts)} of {self.bot.shard_count} here · latency {', '.join(parts)}"

    def build_embed(self, permissions: discord.Permissions | None = None) -> discord.Embed:
        """What is running: version, rules, card data, shards, sources (the commands are /help's job); with the
        ``permissions`` of a server channel, what the bot lacks there and what that costs."""
        embed = discord.Embed(
            title=f"{BOT_NAME} {self.bot.version}",
            description=(
                "Magic: The Gathering help in chat: Comprehensive Rules and tournament documents lookups, "
                "Scryfall card search with a soft spot for cycling, and goldfish games to practise cycling. "
                "`/help` shows what to type."
            ),
            colour=COLOUR,
        )
        rules = f"{self.rules_edition()}\n{self.rules_source()}"
        embed.add_field(name="Comprehensive Rules", value=clip(rules, limits.EMBED_FIELD_VALUE), inline=False)
        embed.add_field(name="Tournament documents", value=clip(self.judge_docs(), 1024), inline=False)
        embed.add_field(name="Card data", value=clip(self.card_data_description(), 1024), inline=False)
        embed.add_field(name="Shards", value=clip(self.shards_description(), 1024), inline=False)
        failed = getattr(self.bot, "failed_extensions", {})
        if failed:
            embed.add_field(name="Unavailable right now", value=clip(", ".join(sorted(failed)), 1024), inline=False)
        gaps = missing(permissions) if permissions is not None else []
        if gaps:
            lines = [f"**{needed.label}**: {needed.without}" for needed in gaps]
            embed.add_field(name="Missing in this channel", value=fit_lines(lines), inline=False)
        embed.add_field(name="Sources", value=ATTRIBUTION, inline=False)
        return embed

    @app_commands.command(name="about")
    async def about(self, interaction: discord.Interaction) -> None:
        """The bot's version, rules edition and card data, what it lacks here, and its sources."""
        # Only a server that added the bot has a channel whose gaps it can mend; where only the player added it, the
        # bot posts nothing by itself there, and the server's own permissions say nothing useful.
        here = app_permissions(interaction) if interaction.guild_id is not None and bot_can_post(interaction) else None
        view = add_links(interaction.application_id)
        await interaction.response.send_message(embed=self.build_embed(here), view=view, ephemeral=True)

    # ---------------------------------------------------------------- /help

    def top_level(self) -> list[app_commands.Command | app_commands.Group]:
        commands = self.bot.tree.get_commands(type=discord.AppCommandType.chat_input)
        return sorted(commands, key=lambda c: c.name)

    def help_embed(self, name: str | None = None) -> discord.Embed:
        """The guide (what to type, feature by feature), or one command's options."""
        if name:
            wanted = name.strip().lstrip("/").split()[0].lower() if name.strip().lstrip("/") else ""
            command = next((c for c in self.top_level() if c.name == wanted), None)
            if command is None:
                names = ", ".join(f"`/{c.name}`" for c in self.top_level())
                return discord.Embed(
                    title="Help",
                    description=clip(f"There is no command called “{escape(one_line(name, 40))}”. Try: {names}.", 4096),
                    colour=COLOUR,
                )
            embed = discord.Embed(title=f"/{command.name}", description=command.description, colour=COLOUR)
            embed.add_field(
                name="Subcommands" if isinstance(command, app_commands.Group) else "Options",
                value=fit_lines(option_lines(command), limits.EMBED_FIELD_VALUE),
                inline=False,
            )
            return embed
        embed = discord.Embed(title=f"{BOT_NAME}: what to type", colour=COLOUR)
        for title, text in GUIDE:
            embed.add_field(name=title, value=text, inline=False)
        embed.add_field(
            name="All commands",
            value=fit_lines([command_line(c) for c in self.top_level()], limits.EMBED_FIELD_VALUE),
            inline=False,
        )
        return embed

    @app_commands.command(name="help")
    @app_commands.describe(command="A command to explain, e.g. goldfish")
    async def help(
        self, interaction: discord.Interaction, command: app_commands.Range[str, 1, 40] | None = None
    ) -> None:
        """What to type: a short guide to each feature, or one command's options."""
        await reply(interaction, embed=self.help_embed(command), ephemeral=True)

    @help.autocomplete("command")
    async def help_command_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        typed = current.strip().lstrip("/").lower()
        return [
            app_commands.Choice(name=one_line(f"/{c.name}: {c.description}"), value=c.name)
            for c in self.top_level()
            if typed in c.name
        ][: limits.AUTOCOMPLETE_CHOICES]


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(About(bot))
