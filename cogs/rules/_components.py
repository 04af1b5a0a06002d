"""Buttons and the rules menu under an answer; their state is in the custom id, so they keep working after a
restart and never expire. They reach the rules through the bot (``interaction.client.rules``), as the command does,
and answer with the same ``send``/``send_key``/``edit_key`` the command uses.

A judge answers for the whole table: on a public answer the asker turns its pages, anyone else gets their
own private copy at the page they asked for; a private answer can be shown in the channel. The menu offers
the rules the page names but does not show (the related ones, or the candidates of an unsure answer).
"""

from __future__ import annotations

import re

import discord

from bot import limits
from bot.cards import QuestionCards
from bot.errors import UserFacingError
from bot.rules import Answer, RulesService, clip
from cogs._symbols import symbols_for
from cogs._ui import guarded, in_time, reply, reply_private
from cogs.rules._render import render_pages

SELECT_LIMIT = limits.SELECT_OPTIONS
CUSTOM_ID_LIMIT = limits.CUSTOM_ID
# "rule:next:3:123456789012345678:1:" leaves the rest of the 100 characters for what was asked.
PAGE_ID = r"rule:(?P<action>prev|next|show|whole):(?P<page>\d{1,3}):(?P<owner>\d{1,20}):(?P<examples>[01]):(?P<key>.*)"
RELATED_ID = r"rule:rel:(?P<examples>[01])"
LABELS = {"prev": "Previous", "next": "Next", "show": "Show in channel", "whole": "Whole rule"}


def answer_key(query: str, answer: Answer) -> str:
    """What to look up again to rebuild the answer: the query if it fits in a custom id, else its first rule."""
    query = " ".join(query.split())
    room = CUSTOM_ID_LIMIT - len("rule:next:999:18446744073709551615:1:")
    if len(query) <= room:
        return query
    if answer.kind == "history":  # what to ask again is the answer's own query ("history 702.29 in 2009")
        return answer.query if len(answer.query) <= room else ""
    target = answer.target
    return target if len(target) <= room and answer.kind != "cards" else ""


def rules_of(interaction: discord.Interaction) -> RulesService:
    """The bot's rules, or a short answer when they are not loaded."""
    rules = getattr(interaction.client, "rules", None)
    if interaction.client.get_cog("Rules") is None or rules is None or rules.loaded is None:
        raise UserFacingError("The rules are not loaded right now; try again in a minute.")
    return rules


def question_cards(client: discord.Client) -> QuestionCards:
    """The card finder for questions that name cards (it finds nothing while no card data is loaded)."""
    return QuestionCards(getattr(client, "card_data", None))


async def send(
    interaction: discord.Interaction,
    key: str,
    answer: Answer,
    page: int,
    *,
    examples: bool,
    ephemeral: bool = False,
) -> None:
    """A page of ``answer`` as a new message: public (or ``ephemeral``) when it answers, private when not."""
    pages = render_pages(answer, symbols_for(interaction))
    page = max(0, min(page, len(pages) - 1))
    private = ephemeral or not answer.found
    view = answer_view(answer, key, page, len(pages), owner=interaction.user.id, examples=examples, ephemeral=private)
    if not answer.found:
        await reply_private(interaction, embed=pages[page], view=view or discord.utils.MISSING)
    else:
        await reply(interaction, embed=pages[page], view=view or discord.utils.MISSING, ephemeral=ephemeral)


async def send_key(interaction: discord.Interaction, key: str, page: int, *, examples: bool, ephemeral: bool) -> None:
    """The answer to ``key`` (a component's query) as a new message, deferred if it takes over a second."""
    rules = rules_of(interaction)
    cards = question_cards(interaction.client)
    async with in_time(interaction, public=not ephemeral):
        answer = await rules.answer(key, examples=examples, cards=cards)
        await send(interaction, key, answer, page, examples=examples, ephemeral=ephemeral)


async def edit_key(interaction: discord.Interaction, key: str, page: int, *, owner: int, examples: bool) -> None:
    """Turn the message under a button to ``page`` of the answer to ``key``."""
    rules = rules_of(interaction)
    cards = question_cards(interaction.client)
    if rules.waits(key, cards):
        await interaction.response.defer()
    answer = await rules.answer(key, examples=examples, cards=cards)
    pages = render_pages(answer, symbols_for(interaction))
    page = max(0, min(page, len(pages) - 1))
    private = interaction.message is not None and interaction.message.flags.ephemeral
    view = answer_view(answer, key, page, len(pages), owner=owner, examples=examples, ephemeral=private)
    if interaction.response.is_done():
        await interaction.edit_original_response(embed=pages[page], view=view)
    else:
        await interaction.response.edit_message(embed=pages[page], view=view)


class PageButton(discord.ui.DynamicItem[discord.ui.Button], template=PAGE_ID):
    def __init__(self, action: str, page: int, owner: int, examples: bool, key: str, *, disabled: bool = False):
        style = discord.ButtonStyle.primary if action == "show" else discord.ButtonStyle.secondary
        super().__init__(
            discord.ui.Button(
                label=LABELS[action],
                style=style,
                disabled=disabled,
                custom_id=f"rule:{action}:{page}:{owner}:{int(examples)}:{key}"[:CUSTOM_ID_LIMIT],
            )
        )
        self.action, self.page, self.owner, self.examples, self.key = action, page, owner, examples, key

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /
    ) -> PageButton:
        return cls(match["action"], int(match["page"]), int(match["owner"]), match["examples"] == "1", match["key"])

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        if self.action == "show":
            # Shown to everyone; its buttons now belong to whoever showed it.
            await send_key(interaction, self.key, self.page, examples=self.examples, ephemeral=False)
            return
        if self.action == "whole":
            # The whole rule, for whoever asks, without taking the answer away from the table.
            await send_key(interaction, self.key, 0, examples=self.examples, ephemeral=True)
            return
        target = self.page + (1 if self.action == "next" else -1)
        message = interaction.message
        private = message is None or message.flags.ephemeral
        if private or interaction.user.id == self.owner:
            await edit_key(interaction, self.key, target, owner=self.owner, examples=self.examples)
        else:
            await send_key(interaction, self.key, target, examples=self.examples, ephemeral=True)


def menu(answer: Answer | None) -> list:
    """The rules the menu offers: the related ones, then the rule's own parts."""
    return [*answer.related, *answer.parts] if answer is not None else []


class RelatedSelect(discord.ui.DynamicItem[discord.ui.Select], template=RELATED_ID):
    """Opens a rule the answer names, privately, for whoever picks it."""

    def __init__(self, examples: bool, answer: Answer | None = None) -> None:
        options = [
            discord.SelectOption(label=clip(choice.name, 100), value=choice.value[:100])
            for choice in menu(answer)[:SELECT_LIMIT]
        ]
        super().__init__(
            discord.ui.Select(
                placeholder="Open a rule…",
                options=options or [discord.SelectOption(label="-")],
                custom_id=f"rule:rel:{int(examples)}",
            )
        )
        self.examples = examples

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match[str], /
    ) -> RelatedSelect:
        return cls(match["examples"] == "1")

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        values = (interaction.data or {}).get("values") or []
        if not values or not isinstance(values[0], str):
            raise UserFacingError("Pick one of the rules in the menu.")
        await send_key(interaction, values[0][:100], 0, examples=self.examples, ephemeral=True)


def answer_view(
    answer: Answer, key: str, page: int, total: int, *, owner: int, examples: bool, ephemeral: bool
) -> discord.ui.View | None:
    """Previous/Next when there are several pages (or "Whole rule" when the question is too long to ask again),
    "Show in channel" on a private answer, the rules menu."""
    view = discord.ui.View(timeout=None)
    if total > 1 and key:
        view.add_item(PageButton("prev", page, owner, examples, key, disabled=page <= 0))
        view.add_item(PageButton("next", page, owner, examples, key, disabled=page >= total - 1))
    elif total > 1 and answer.whole_number:
        # Too long a question for a button to ask again: the whole rule is opened by its number instead.
        view.add_item(PageButton("whole", 0, owner, examples, answer.whole_number))
    if ephemeral and answer.found and key:
        view.add_item(PageButton("show", page, owner, examples, key))
    if menu(answer):
        view.add_item(RelatedSelect(examples, answer))
    return view if view.children else None
