"""/card, /cycling and inline [[card]] lookups: a thin shell over the Scryfall client and bot.cards."""

from __future__ import annotations

import asyncio
import logging
import math
import re
import time
from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.cards import render
from bot.cards.inline import find_references
from bot.cards.query import DEFAULT_KIND, KINDS, MAX_EXTRA_QUERY, QueryTooLong, cycling_query
from bot.errors import UserFacingError
from bot.scryfall import (
    AmbiguousCard,
    BadQuery,
    CardNotFound,
    ScryfallClient,
    ScryfallError,
    ScryfallUnavailable,
)
from bot.text import chunk_lines
from cogs._ui import NO_MENTIONS, GuardedView, PagedView, Paginator, guarded, reply

log = logging.getLogger(__name__)

MAX_NAME = 150
RESULTS_PER_PAGE = 15
RULINGS_PAGE_CHARS = 1800
AUTOCOMPLETE_SECONDS = 2.0
# Discord keeps an interaction token for 15 minutes; past this the user hears that Scryfall timed out.
LOOKUP_SECONDS = 60.0
CARD_COLOUR = discord.Colour.dark_teal()
SET_CODE = re.compile(r"[a-z0-9]{2,6}")
CARD_ID = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
INFO_LABELS = {"rulings": "Rulings", "legality": "Legality", "prices": "Prices", "faces": "Other faces"}
KIND_CHOICES = [app_commands.Choice(name=kind.label, value=kind.value) for kind in KINDS.values()]


# ------------------------------------------------------------------ helpers


def to_embed(display: render.CardDisplay) -> discord.Embed:
    embed = discord.Embed(
        title=display.title, url=display.url, description=display.description or None, colour=CARD_COLOUR
    )
    for name, value in display.fields:
        embed.add_field(name=name, value=value, inline=True)
    if display.image_url:
        embed.set_image(url=display.image_url)
    if display.thumbnail_url:
        embed.set_thumbnail(url=display.thumbnail_url)
    if display.footer:
        embed.set_footer(text=display.footer)
    return embed


def echo(text: str, limit: int = 100) -> str:
    """User input quoted back safely: one line, clipped, markdown escaped (mentions never ping anyway)."""
    return discord.utils.escape_markdown(render.clip(" ".join(text.split()), limit))


def scryfall_message(error: BaseException) -> str:
    """What the user sees when Scryfall could not give an answer."""
    if isinstance(error, ScryfallUnavailable):
        if "timed out" in str(error).lower():
            return "Scryfall timed out: it did not answer in time. Please try again in a few minutes."
        return error.user_message()
    if isinstance(error, TimeoutError):
        return "Scryfall timed out: it did not answer in time. Please try again in a few minutes."
    if isinstance(error, ScryfallError):
        return error.user_message()
    raise error


async def within(seconds: float, awaitable: Any) -> Any:
    """``awaitable``'s result, or TimeoutError after ``seconds`` (the client's own call carries on, shielded)."""
    async with asyncio.timeout(seconds):
        return await awaitable


# ------------------------------------------------------------------ card buttons (survive restarts)


class CardInfoButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=rf"card:(?P<action>rulings|legality|prices|faces):(?P<card_id>{CARD_ID})",
):
    """Rulings, Legality, Prices or Other faces of the card whose Scryfall id is in the custom id.

    Read-only information: anyone may press, and the answer is shown only to whoever pressed.
    """

    def __init__(self, action: str, card_id: str) -> None:
        super().__init__(
            discord.ui.Button(
                label=INFO_LABELS[action],
                style=discord.ButtonStyle.secondary,
                custom_id=f"card:{action}:{card_id}",
            )
        )
        self.action = action
        self.card_id = card_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /
    ) -> CardInfoButton:
        return cls(match["action"], match["card_id"])

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        cog = interaction.client.get_cog(Cards.__cog_name__)
        if not isinstance(cog, Cards):
            raise UserFacingError("Card lookups are not available right now.")
        await cog.show_info(interaction, self.action, self.card_id)


def card_buttons(card: dict) -> discord.ui.View | None:
    card_id = str(card.get("id") or "")
    if not re.fullmatch(CARD_ID, card_id):
        return None
    view = discord.ui.View(timeout=None)
    actions = ["rulings", "legality", "prices"]
    if render.is_multi_faced(card):
        actions.append("faces")
    for action in actions:
        view.add_item(CardInfoButton(action, card_id))
    return view


# ------------------------------------------------------------------ views


class CandidatePicker(GuardedView):
    """A select menu of the cards an ambiguous name could mean; only the requester may pick."""

    def __init__(self, cog: Cards, owner_id: int, candidates: Sequence[str], set_code: str | None) -> None:
        super().__init__(owner_id, timeout=300)
        self.cog = cog
        self.set_code = set_code
        options = [discord.SelectOption(label=name[:100], value=name[:100]) for name in dict.fromkeys(candidates)]
        self.choice.options = options[:25]

    @discord.ui.select(placeholder="Which card did you mean?")
    async def choice(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        await interaction.response.defer()
        name = select.values[0]
        try:
            answer = await within(LOOKUP_SECONDS, self.cog.client.named(name, set_code=self.set_code, fuzzy=False))
        except (ScryfallError, ScryfallUnavailable, TimeoutError) as error:
            await reply(interaction, scryfall_message(error), ephemeral=True)
            return
        self.stop()
        await interaction.edit_original_response(content=None, **self.cog.card_message(answer))


class CyclingResults(PagedView):
    """Previous/Next over /cycling results, fetching Scryfall's next page only when it is reached."""

    def __init__(self, cog: Cards, owner_id: int, heading: str, query: str, first: dict) -> None:
        super().__init__(owner_id, timeout=600)
        self.cog = cog
        self.heading = heading
        self.query = query
        self.lines = [render.cycling_result_line(card) for card in first.get("data") or []]
        self.total = int(first.get("total_cards") or len(self.lines))
        self.next_url = first.get("next_page") if first.get("has_more") else None
        self.warnings = [str(warning) for warning in first.get("warnings") or []]
        self._update_buttons()

    @property
    def page_count(self) -> int:
        known = self.total if self.next_url else len(self.lines)
        return max(1, math.ceil(known / RESULTS_PER_PAGE))

    def needs_fetch(self, index: int) -> bool:
        return self.next_url is not None and len(self.lines) < (index + 1) * RESULTS_PER_PAGE

    async def load_until(self, index: int) -> None:
        while self.needs_fetch(index):
            answer = await within(LOOKUP_SECONDS, self.cog.client.next_page(self.next_url))
            self.lines.extend(render.cycling_result_line(card) for card in answer.data.get("data") or [])
            self.next_url = answer.data.get("next_page") if answer.data.get("has_more") else None

    def embed(self) -> discord.Embed:
        start = self.index * RESULTS_PER_PAGE
        lines = self.lines[start : start + RESULTS_PER_PAGE]
        embed = discord.Embed(
            title=render.clip(f"Cycling cards: {self.heading}", render.TITLE_LIMIT),
            description=chunk_lines(lines)[0] or "No more results.",
            colour=CARD_COLOUR,
        )
        if self.warnings:
            embed.add_field(name="Scryfall warnings", value=render.clip("\n".join(self.warnings), 1024), inline=False)
        noun = "card" if self.total == 1 else "cards"
        footer = f"{self.total} {noun} · page {self.index + 1}/{self.page_count} · {self.query}"
        embed.set_footer(text=render.clip(footer, render.FOOTER_LIMIT))
        return embed

    async def send(self, interaction: discord.Interaction) -> None:
        if self.page_count > 1:
            self.message = await interaction.followup.send(
                embed=self.embed(), view=self, allowed_mentions=NO_MENTIONS, wait=True
            )
        else:
            await interaction.followup.send(embed=self.embed(), allowed_mentions=NO_MENTIONS)

    async def prepare(self, interaction: discord.Interaction, target: int) -> bool:
        if not self.needs_fetch(target):
            return True
        await interaction.response.defer()
        try:
            await self.load_until(target)
        except (ScryfallError, ScryfallUnavailable, TimeoutError) as error:
            # The page stays as it was; pressing Next again retries.
            await reply(interaction, scryfall_message(error), ephemeral=True)
            return False
        return True

    @property
    def current(self) -> discord.Embed:
        return self.embed()


# ------------------------------------------------------------------ the cog


class Cards(commands.Cog):
    """Scryfall card lookups with cycling costs up front."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.inline_cooldown = commands.CooldownMapping.from_cooldown(3, 30, commands.BucketType.channel)
        self.clock = time.monotonic

    @property
    def client(self) -> ScryfallClient:
        """The bot's Scryfall client: the bot owns it, every feature shares its cache and rate limits."""
        return self.bot.scryfall

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(CardInfoButton)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(CardInfoButton)

    # ---------------------------------------------------------- shared pieces

    def card_message(self, answer: Any) -> dict[str, Any]:
        """``embed`` and ``view`` keyword arguments for a full card answer."""
        card = answer.data
        embed = to_embed(render.render_card(card, stale=answer.stale))
        view = card_buttons(card)
        return {"embed": embed, "view": view if view is not None else discord.utils.MISSING}

    async def card_by_id(self, card_id: str) -> dict:
        try:
            answer = await within(LOOKUP_SECONDS, self.client.get_uri(f"{self.client.base_url}/cards/{card_id}"))
        except (ScryfallError, ScryfallUnavailable, TimeoutError) as error:
            raise UserFacingError(scryfall_message(error)) from None
        return answer.data

    async def suggestions(self, name: str) -> list[str]:
        try:
            return await within(AUTOCOMPLETE_SECONDS, self.client.autocomplete(name))
        except Exception:
            log.info("No suggestions for %r", name, exc_info=True)
            return []

    # ---------------------------------------------------------- /card

    async def card_name_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice]:
        current = " ".join(current.split())[:MAX_NAME]
        if len(current) < 2:
            return []
        try:
            names = await within(AUTOCOMPLETE_SECONDS, self.client.autocomplete(current))
        except Exception:
            # Autocomplete has no way to show an error; an empty list is the honest answer.
            log.info("Card autocomplete failed for %r", current, exc_info=True)
            return []
        return [app_commands.Choice(name=name[:100], value=name[:100]) for name in names[:25]]

    @app_commands.command(name="card")
    @app_commands.rename(set_code="set")
    @app_commands.describe(name="Card name; partial or misspelt names work", set_code="Set code, e.g. akh or mh2")
    @app_commands.autocomplete(name=card_name_autocomplete)
    async def card(
        self,
        interaction: discord.Interaction,
        name: app_commands.Range[str, 1, MAX_NAME],
        set_code: app_commands.Range[str, 1, 8] | None = None,
    ) -> None:
        """Look a card up on Scryfall: text, cycling costs, set, image, rulings and prices."""
        name = " ".join(name.split())
        if set_code is not None:
            set_code = set_code.strip().lower()
            if not SET_CODE.fullmatch(set_code):
                message = f"“{echo(set_code)}” is not a set code (2–6 letters or digits, like akh)."
                await interaction.response.send_message(message, ephemeral=True)
                return
        if not name:
            await interaction.response.send_message("Give a card name.", ephemeral=True)
            return
        await interaction.response.defer(thinking=True)
        try:
            answer = await within(LOOKUP_SECONDS, self.client.named(name, set_code=set_code, fuzzy=True))
        except AmbiguousCard as error:
            candidates = error.candidates or await self.suggestions(name)
            if not candidates:
                await interaction.followup.send(error.user_message(), allowed_mentions=NO_MENTIONS)
                return
            picker = CandidatePicker(self, interaction.user.id, candidates, set_code)
            picker.message = await interaction.followup.send(
                f"“{echo(name)}” matches several cards. Pick one:", view=picker, allowed_mentions=NO_MENTIONS, wait=True
            )
            return
        except CardNotFound as error:
            await interaction.followup.send(
                await self.miss_message(name, set_code, error), allowed_mentions=NO_MENTIONS
            )
            return
        except (ScryfallError, ScryfallUnavailable, TimeoutError) as error:
            await interaction.followup.send(scryfall_message(error), allowed_mentions=NO_MENTIONS)
            return
        await interaction.followup.send(allowed_mentions=NO_MENTIONS, **self.card_message(answer))

    async def miss_message(self, name: str, set_code: str | None, error: ScryfallError) -> str:
        where = f" in set {set_code.upper()}" if set_code else ""
        lines = [f"No card named “{echo(name)}”{where}. Scryfall says: {error.user_message()}"]
        suggestions = await self.suggestions(name)
        if suggestions:
            lines.append("Did you mean: " + ", ".join(echo(s) for s in suggestions[:10]) + "?")
        return render.clip("\n".join(lines), 2000)

    # ---------------------------------------------------------- card buttons

    async def show_info(self, interaction: discord.Interaction, action: str, card_id: str) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        card = await self.card_by_id(card_id)
        name = card.get("name") or "This card"
        if action == "rulings":
            await self.show_rulings(interaction, card)
            return
        if action == "legality":
            embed = discord.Embed(title=render.clip(f"Legality: {name}", render.TITLE_LIMIT), colour=CARD_COLOUR)
            groups = render.legality_groups(card)
            for label, formats in groups:
                embed.add_field(name=label, value=render.clip(", ".join(formats), 1024), inline=False)
            if not groups:
                embed.description = render.legality_lines(card)[0]
            await interaction.followup.send(embed=embed, ephemeral=True)
        elif action == "prices":
            embed = discord.Embed(
                title=render.clip(f"Prices: {name}", render.TITLE_LIMIT),
                description="\n".join(render.price_lines(card)),
                url=(card.get("purchase_uris") or {}).get("tcgplayer"),
                colour=CARD_COLOUR,
            )
            embed.set_footer(text=f"{render.set_line(card)} · prices from Scryfall, updated daily")
            await interaction.followup.send(embed=embed, ephemeral=True)
        else:
            embeds = [to_embed(display) for display in render.render_faces(card)][:10]
            await interaction.followup.send(embeds=embeds, ephemeral=True)

    async def show_rulings(self, interaction: discord.Interaction, card: dict) -> None:
        name = card.get("name") or "this card"
        uri = card.get("rulings_uri") or f"{self.client.base_url}/cards/{card['id']}/rulings"
        try:
            answer = await within(LOOKUP_SECONDS, self.client.get_uri(uri))
        except (ScryfallError, ScryfallUnavailable, TimeoutError) as error:
            raise UserFacingError(scryfall_message(error)) from None
        lines = render.ruling_lines(answer.data.get("data") or [])
        if not lines:
            await interaction.followup.send(f"Scryfall has no rulings for {echo(name)}.", ephemeral=True)
            return
        pages = [
            discord.Embed(
                title=render.clip(f"Rulings: {name}", render.TITLE_LIMIT), description=block, colour=CARD_COLOUR
            )
            for block in chunk_lines(lines, RULINGS_PAGE_CHARS)
        ]
        await Paginator(pages, interaction.user.id).send(interaction, ephemeral=True)

    # ---------------------------------------------------------- /cycling

    @app_commands.command(name="cycling")
    @app_commands.describe(
        kind="Which cycling: plain, typecycling, landcycling...; default any",
        query="More Scryfall search terms, e.g. c:r cmc<=3 or set:akh",
    )
    @app_commands.choices(kind=KIND_CHOICES)
    async def cycling(
        self,
        interaction: discord.Interaction,
        kind: app_commands.Choice[str] | None = None,
        query: app_commands.Range[str, 1, MAX_EXTRA_QUERY] | None = None,
    ) -> None:
        """List cards with cycling on Scryfall, with each card's cycling costs."""
        kind_value = kind.value if kind is not None else DEFAULT_KIND
        try:
            full_query = cycling_query(kind_value, query)
        except QueryTooLong as error:
            await interaction.response.send_message(str(error), ephemeral=True)
            return
        await interaction.response.defer(thinking=True)
        heading = KINDS[kind_value].label + (f" · {query.strip()}" if query and query.strip() else "")
        try:
            answer = await within(LOOKUP_SECONDS, self.client.search(full_query, order="name"))
        except CardNotFound as error:
            message = f"No cards with {KINDS[kind_value].label} match that search."
            if error.warnings:
                message += "\n" + "\n".join(f"• {warning}" for warning in error.warnings)
            await interaction.followup.send(render.clip(message, 2000), allowed_mentions=NO_MENTIONS)
            return
        except BadQuery as error:
            message = f"Scryfall could not read that search: {error.user_message()}"
            await interaction.followup.send(render.clip(message, 2000), allowed_mentions=NO_MENTIONS)
            return
        except (ScryfallError, ScryfallUnavailable, TimeoutError) as error:
            await interaction.followup.send(scryfall_message(error), allowed_mentions=NO_MENTIONS)
            return
        results = CyclingResults(self, interaction.user.id, heading, full_query, answer.data)
        await results.send(interaction)

    # ---------------------------------------------------------- inline [[card]]

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        if not self.bot.config.inline_cards or message.author.bot or not message.content:
            return
        references = find_references(message.content)
        if not references:
            return
        now = self.clock()
        bucket = self.inline_cooldown.get_bucket(message, now)
        if bucket is not None and bucket.update_rate_limit(now):
            log.info("Inline card lookups in channel %s are cooling down", message.channel.id)
            return
        results = await asyncio.gather(
            *(
                within(LOOKUP_SECONDS, self.client.named(ref.name, set_code=ref.set_code, fuzzy=True))
                for ref in references
            ),
            return_exceptions=True,
        )
        embeds, misses, trouble = [], [], None
        for reference, result in zip(references, results, strict=True):
            if isinstance(result, BaseException):
                if isinstance(result, CardNotFound | AmbiguousCard):
                    misses.append(echo(reference.name, 60))
                elif isinstance(result, ScryfallError | ScryfallUnavailable | TimeoutError):
                    trouble = scryfall_message(result)
                else:
                    log.error("Inline lookup of %r failed", reference.name, exc_info=result)
                    trouble = "Something went wrong looking that up."
                continue
            embeds.append(to_embed(render.render_compact(result.data)))
        lines = []
        if misses:
            lines.append("No single card found for: " + ", ".join(misses))
        if trouble:
            lines.append(trouble)
        if not embeds and not lines:
            return
        try:
            await message.reply(
                content=render.clip("\n".join(lines), 2000) or None,
                embeds=embeds,
                mention_author=False,
                allowed_mentions=NO_MENTIONS,
            )
        except discord.HTTPException:
            log.warning("Could not answer inline card lookups in channel %s", message.channel.id, exc_info=True)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Cards(bot))
