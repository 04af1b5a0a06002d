"""“Look up cards” on any message (its Apps menu): the message's ``[[card]]`` references, or with none the card names
written out in it, looked up and answered as inline lookups are.

Discord puts the message, its text included, in the interaction itself (``resolved.messages``): no Message Content
intent is needed, ``INLINE_CARDS`` may stay off, and it works wherever the app is installed, since everything goes
through the interaction. The text is someone else's: it is read for the cards and never logged or kept.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.carddb import heavy_search
from bot.cards import MAX_REFERENCES, CardReference, find_references, written_card_names
from bot.serving import LOOKUPS, SEARCHES, Share
from cogs._admission import Refused, asker_of, turns_of
from cogs._permissions import may_answer_publicly
from cogs._ui import describe_error, in_time, reply, reply_private
from cogs.cards._inline import LEFT_OUT_SHOWN, InlineLookups

NAME = "Look up cards"
NOTHING = "I found no `[[card]]` references or card names in that message."


class MessageLookups:
    """The message command's handler; the Cards cog registers it on the command tree."""

    def __init__(self, bot: commands.Bot, inline: InlineLookups) -> None:
        self.bot = bot
        self.inline = inline
        self.command = app_commands.ContextMenu(name=NAME, callback=self.look_up)

    async def look_up(self, interaction: discord.Interaction, message: discord.Message) -> None:
        found = find_references(message.content, limit=MAX_REFERENCES + LEFT_OUT_SHOWN)
        # Public where the app may post (Discord shows it only to the asker where a server blocks external apps).
        # The cards are milliseconds from the local copy, so "thinking…" appears only past a wait, Scryfall, or the
        # first search for names written out (their index is built once per copy of the card data: about a second).
        public = may_answer_publicly(interaction)
        async with in_time(interaction, public=public):
            if not found:
                found = await self.written_names(message.content)
            references, left_out = found[:MAX_REFERENCES], found[MAX_REFERENCES:]
            if not references:
                await reply_private(interaction, NOTHING)
                return
            searched = [reference.name for reference in references if reference.mode == "search"]
            self.spend(interaction, {LOOKUPS: 1, SEARCHES: len(searched)})
            turns = turns_of(interaction, heavy=any(map(heavy_search, searched)))
            results = await self.inline.answers(references, asker_of(interaction), turns)
            refused = next((result for result in results if isinstance(result, Refused)), None)
            if refused is not None:  # a place that came too late: told privately, as any command's refusal
                raise refused
            content, embeds = await self.inline.compose(references, results, left_out)
            if embeds and public:
                await reply(interaction, content, embeds=embeds)
            elif embeds:  # nowhere to show them: the cards are the asker's alone
                await reply_private(interaction, content, embeds=embeds)
            else:  # only misses, or nothing at all
                await reply_private(interaction, content or NOTHING)

    async def written_names(self, text: str) -> list[CardReference]:
        """The card names written out in the message (the local copy's name index; none without it)."""
        rules = getattr(self.bot, "rules", None)
        if rules is None or rules.loaded is None:
            return []
        found, _ = await written_card_names(self.bot.card_data, rules.index, text, MAX_REFERENCES + LEFT_OUT_SHOWN)
        return found

    @staticmethod
    def spend(interaction: discord.Interaction, uses: dict[Share, int]) -> None:
        """The asker's budgets, the ones their /card and inline lookups spend; past one, nothing is spent and they
        are told how long to wait."""
        admission = interaction.client.admission  # type: ignore[attr-defined]
        spent: list[tuple[Share, int]] = []
        for share, count in uses.items():
            if not count:
                continue
            retry_after = admission.spend(share, interaction.user.id, count)
            if retry_after:
                for earlier, earlier_count in spent:
                    admission.give_back(earlier, interaction.user.id, earlier_count)
                cooldown = app_commands.CommandOnCooldown(app_commands.Cooldown(share.rate, share.per), retry_after)
                raise Refused(describe_error(cooldown)[0])
            spent.append((share, count))
