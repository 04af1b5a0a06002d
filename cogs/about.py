"""/about and /help: what the bot does, its commands, its sources."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot import BOT_NAME

ATTRIBUTION = (
    "Card data and images come from [Scryfall](https://scryfall.com). "
    f"{BOT_NAME} is unofficial Fan Content permitted under the Fan Content Policy. "
    "Not approved/endorsed by Wizards. Portions of the materials used are property of "
    "Wizards of the Coast. ©Wizards of the Coast LLC."
)


class About(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    def rules_edition(self) -> str:
        rules = getattr(self.bot, "rules", None)
        return rules.description() if rules is not None else "not loaded"

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

    def command_lines(self) -> list[str]:
        lines = []
        for command in sorted(self.bot.tree.get_commands(), key=lambda c: c.name):
            if isinstance(command, app_commands.Group):
                subs = ", ".join(sub.name for sub in command.commands)
                lines.append(f"`/{command.name}` ({subs}): {command.description}")
            else:
                lines.append(f"`/{command.name}`: {command.description}")
        return lines

    def build_embed(self) -> discord.Embed:
        embed = discord.Embed(
            title=f"{BOT_NAME} {self.bot.version}",
            description=(
                "Magic: The Gathering help in chat: Comprehensive Rules lookups, Scryfall card "
                "search with a soft spot for cycling, and goldfish games to practise cycling."
            ),
            colour=discord.Colour.dark_teal(),
        )
        embed.add_field(name="Commands", value="\n".join(self.command_lines())[:1024] or "none", inline=False)
        embed.add_field(name="Comprehensive Rules", value=self.rules_edition()[:1024], inline=False)
        embed.add_field(name="Card data", value=self.card_data_description()[:1024], inline=False)
        embed.add_field(name="Shards", value=self.shards_description()[:1024], inline=False)
        failed = getattr(self.bot, "failed_extensions", {})
        if failed:
            embed.add_field(name="Unavailable right now", value=", ".join(sorted(failed))[:1024], inline=False)
        embed.add_field(name="Sources", value=ATTRIBUTION, inline=False)
        return embed

    @app_commands.command(name="about")
    async def about(self, interaction: discord.Interaction) -> None:
        """What this bot does, its commands and where its data comes from."""
        await interaction.response.send_message(embed=self.build_embed(), ephemeral=True)

    @app_commands.command(name="help")
    async def help(self, interaction: discord.Interaction) -> None:
        """How to use this bot: its commands and where its data comes from."""
        await interaction.response.send_message(embed=self.build_embed(), ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(About(bot))
