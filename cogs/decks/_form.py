"""The form a player pastes a long list into, and the question asked before a saved deck is replaced.

``/deck save name:`` with no list, file or link answers with :class:`DeckForm` (Discord's modal: the interaction's
first response, since a modal can't follow a deferral), one paragraph of up to 4,000 characters. The form lives in
this process's memory: submitted after a restart, or after :data:`FORM_SECONDS`, it is answered as expired
(``cogs._ui.EXPIRED_ANSWERS``, by its custom id). :class:`ReplaceView` holds a deck read and resolved until its
owner says whether it replaces the deck of the same name.
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable

import discord

from bot import limits
from bot.goldfish.decks import DeckSummary, PlayerDeck
from bot.text import escape
from cogs._ui import GuardedView, reply, report_error

FORM_PREFIX = "deck-form:"
FORM_SECONDS = 15 * 60.0
QUESTION_SECONDS = 5 * 60.0
PLACEHOLDER = "Deck\n4 Street Wraith (FUT) 88\n4 Ash Barrens\n…\n\nSideboard\n2 Negate"

Submitted = Callable[[discord.Interaction, str, str], Awaitable[None]]
Decided = Callable[[discord.Interaction, PlayerDeck], Awaitable[None]]


class DeckForm(discord.ui.Modal):
    """Paste a list: ``submitted(interaction, name, text)`` takes it from there."""

    def __init__(self, name: str, submitted: Submitted) -> None:
        title = f"Deck: {name}"
        super().__init__(
            title=title if len(title) <= limits.MODAL_TITLE else title[: limits.MODAL_TITLE - 1] + "…",
            timeout=FORM_SECONDS,
            custom_id=FORM_PREFIX + secrets.token_hex(8),
        )
        self.name = name
        self.submitted = submitted
        self.decklist: discord.ui.TextInput = discord.ui.TextInput(
            label="Your list (Arena, MTGO, Moxfield or plain)",
            style=discord.TextStyle.paragraph,
            placeholder=PLACEHOLDER,
            max_length=limits.TEXT_INPUT_VALUE,
            custom_id="decklist",
        )
        self.add_item(self.decklist)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await self.submitted(interaction, self.name, self.decklist.value)

    async def on_error(self, interaction: discord.Interaction, error: Exception) -> None:
        await report_error(interaction, error)


class ReplaceView(GuardedView):
    """Replace the saved deck of the same name, or keep it; only the player who asked may choose."""

    def __init__(self, owner_id: int, deck: PlayerDeck, decided: Decided) -> None:
        super().__init__(owner_id, timeout=QUESTION_SECONDS)
        self.deck = deck
        self.decided = decided

    @discord.ui.button(label="Replace it", style=discord.ButtonStyle.danger)
    async def replace(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        self.stop()
        await self.decided(interaction, self.deck)

    @discord.ui.button(label="Keep the saved one", style=discord.ButtonStyle.secondary)
    async def keep(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        self.stop()
        await interaction.response.edit_message(
            content=f"Kept your saved **{escape(self.deck.name)}**; nothing changed.", view=None
        )


async def ask_to_replace(
    interaction: discord.Interaction, existing: DeckSummary, deck: PlayerDeck, decided: Decided
) -> None:
    view = ReplaceView(interaction.user.id, deck, decided)
    text = (
        f"You already have a deck called **{escape(existing.name)}** ({existing.counts_text()}). "
        f"Replace it with this one ({deck.counts_text()})?"
    )
    await reply(interaction, text, view=view, ephemeral=True)
    view.message = await interaction.original_response()
