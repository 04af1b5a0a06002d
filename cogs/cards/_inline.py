"""Inline ``[[card]]`` lookups in chat: a short answer to each reference of a message, within the author's budget and
the channel's pace, never silent when held back (⏳ while a message waits its turn, one line when its turn would
come too late), misses named with what they could have meant, sent as the channel's permissions allow."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time

import discord
from discord.ext import commands

from bot import limits
from bot.carddb import Asker, QueryError, SearchPage, heavy_search
from bot.cards import (
    DISCORD_MARKS,
    MAX_REFERENCES,
    CardReference,
    CardSource,
    find_references,
    miss_suggestions,
    miss_text,
    no_set_text,
    origin_text,
    unknown_sets,
)
from bot.scryfall import AmbiguousCard, CardNotFound, ScryfallError
from bot.serving import LOOKUPS, SEARCHES, Busy, Pace, Turn
from bot.text import clip
from cogs._admission import MessageShares, asker_of, quiet
from cogs._permissions import MissingNotes, channel_permissions
from cogs._symbols import as_text, one_message, symbols_in
from cogs._ui import NO_MENTIONS
from cogs.cards._render import echo, failure_text, page_count, reference_embed, results_embed
from cogs.cards._search import query_error_text, result_line, search_embed

log = logging.getLogger(__name__)

INLINE_RESULTS = 5
LEFT_OUT_SHOWN = 6  # references past the limit named in the reply (one more is "…")
HELD_BACK = "\N{HOURGLASS WITH FLOWING SAND}"
CHANNEL_RATE, CHANNEL_PER = 10, 30.0  # answers per channel: a lively table, not a flood
LONGEST_WAIT = 30.0  # a message held back is answered within this many seconds of being sent, or told why not


def sent_at(message: discord.Message) -> float:
    """When ``message`` was sent, on ``time.monotonic``'s clock (by its id's timestamp; now when the clocks
    disagree)."""
    age = (discord.utils.utcnow() - message.created_at).total_seconds()
    return time.monotonic() - (age if 0.0 <= age <= LONGEST_WAIT else 0.0)


class InlineLookups:
    """What the Cards cog's message listener does with a message: the author's budget (the one their /card spends),
    the channel's pace, a place in the lookup queue, and the replies as the channel's permissions allow."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.pace = Pace(CHANNEL_RATE, CHANNEL_PER, LONGEST_WAIT)
        self.shares = MessageShares()
        self.notes = MissingNotes()

    @property
    def source(self) -> CardSource:
        return self.bot.card_source

    async def answer(self, message: discord.Message) -> None:
        """Answer the ``[[card]]`` references of ``message``, if it has any and inline lookups are on."""
        if not self.bot.config.inline_cards or message.author.bot or not message.content:
            return
        if message.channel.id in self.bot.config.inline_quiet_channels:
            return  # another card bot answers [[…]] here
        references = find_references(message.content, limit=MAX_REFERENCES + LEFT_OUT_SHOWN)
        if not references:
            return
        references, left_out = references[:MAX_REFERENCES], references[MAX_REFERENCES:]
        permissions = channel_permissions(message.channel, self.bot)
        if not permissions.send_messages:
            self.notes.note(message.channel, "send_messages", "inline cards not answered")
            return
        searches = sum(reference.mode == "search" for reference in references)
        shares = (LOOKUPS, SEARCHES) if searches else (LOOKUPS,)
        try:  # the author's own budget first, across channels and commands: a flood never spends the channel's
            self.shares.spend(self.bot, message, *shares, uses={SEARCHES: searches})
        except Busy:
            await self.react(message, HELD_BACK, permissions)
            return
        turn = self.pace.turn(message.channel.id)
        if turn is None:
            log.info("Inline card lookups in channel %s are past their pace", message.channel.id)
            await self.tell(message, self.too_many(), permissions)
            return
        deadline = sent_at(message) + self.pace.longest_wait
        held = turn > time.monotonic() and await self.react(message, HELD_BACK, permissions)
        if turn > time.monotonic():  # its turn comes later: ⏳ until then, so nobody wonders
            await asyncio.sleep(turn - time.monotonic())
        heavy = any(heavy_search(reference.name) for reference in references if reference.mode == "search")
        turns = self.shares.turns(self.bot, message, deadline, heavy=heavy)
        results = await self.answers(references, asker_of(message), turns)
        await self.unreact(message, held)
        if any(isinstance(result, Busy) for result in results):
            quiet.warning("Inline card lookups were past their deadline in the lookup queue")
            await self.tell(message, self.too_many(), permissions)
            return
        content, embeds = await self.compose(references, results, left_out)
        if embeds or content:
            await self.send(message, content or "", embeds, permissions)

    async def compose(
        self,
        references: list[CardReference],
        results: list[discord.Embed | BaseException],
        left_out: list[CardReference],
    ) -> tuple[str | None, list[discord.Embed]]:
        """The reply to a message's references: the cards' embeds, and a line for the misses, a failure, the cards
        too long to show with the others (one message's embeds hold 6,000 characters together) and the references
        past the limit (None when there is nothing to say but the cards)."""
        embeds, misses, trouble, too_long = [], [], None, []
        for reference, result in zip(references, results, strict=True):
            if isinstance(result, QueryError):
                misses.append(f"?{echo(reference.name, 60)}: {query_error_text(result)}")
            elif isinstance(result, CardNotFound | AmbiguousCard):
                misses.append(await self.miss(reference, result))
            elif isinstance(result, ScryfallError):
                trouble = failure_text(result)
            elif isinstance(result, BaseException):
                log.error("Inline lookup failed", exc_info=result)
                trouble = "Something went wrong looking that up."
            elif sum(map(len, embeds)) + len(result) <= limits.EMBED_TOTAL:
                embeds.append(result)
            else:
                too_long.append(echo(reference.name, 60))
        lines = misses + ([trouble] if trouble else [])
        if too_long:
            lines.append(f"Too long to show with the others: {', '.join(too_long)} (ask for it on its own).")
        if left_out:
            # Never silent: the references past the limit are named, so nobody waits for them.
            names = ", ".join(echo(reference.name, 60) for reference in left_out[: LEFT_OUT_SHOWN - 1])
            more = "…" if len(left_out) >= LEFT_OUT_SHOWN else ""
            lines.append(f"I look up {MAX_REFERENCES} cards a message; not looked up: {names}{more}")
        return clip("\n".join(lines), limits.MESSAGE_CONTENT) or None, embeds

    async def send(
        self, message: discord.Message, content: str, embeds: list[discord.Embed], permissions: discord.Permissions
    ) -> None:
        """The answer as the channel allows: embeds, or text without Embed Links; a reply, or a plain message
        without Read Message History; symbols as emoji only with Use External Emojis, and all one way."""
        if not permissions.embed_links:
            self.notes.note(message.channel, "embed_links", "inline cards sent as text")
            cards = as_text(embeds, limits.MESSAGE_CONTENT - len(content) - 2)
            content, embeds = "\n\n".join(part for part in (content, cards) if part), []
        content, embeds = one_message(content, embeds, symbols_in(message.channel, self.bot))
        kwargs = {"content": clip(content, limits.MESSAGE_CONTENT) or None, "embeds": embeds}
        try:
            await self.post(message, permissions, **kwargs)
        except discord.HTTPException as error:
            log.warning("Could not answer inline lookups in channel %s (HTTP %s)", message.channel.id, error.status)

    async def post(self, message: discord.Message, permissions: discord.Permissions, **kwargs) -> None:
        """A reply to ``message``, or a plain message in its channel where the bot may not read the history a reply
        points to."""
        if permissions.read_message_history:
            await message.reply(**kwargs, mention_author=False, allowed_mentions=NO_MENTIONS)
            return
        self.notes.note(message.channel, "read_message_history", "inline cards sent as messages, not replies")
        await message.channel.send(**kwargs, allowed_mentions=NO_MENTIONS)

    async def react(self, message: discord.Message, emoji: str, permissions: discord.Permissions) -> bool:
        """Never silent: a reaction where the bot may add one (Add Reactions and Read Message History), else nothing
        more (a reply to each message of a flood would be the flood)."""
        if not (permissions.add_reactions and permissions.read_message_history):
            self.notes.note(message.channel, "add_reactions", "held-back lookups wait without ⏳")
            return False
        try:
            await message.add_reaction(emoji)
        except discord.HTTPException as error:
            log.info("Could not react to a held-back lookup in channel %s (%s)", message.channel.id, error.status)
            return False
        return True

    async def unreact(self, message: discord.Message, held: bool) -> None:
        if not held:
            return
        try:
            await message.remove_reaction(HELD_BACK, self.bot.user)  # type: ignore[arg-type]
        except discord.HTTPException:
            pass

    def too_many(self) -> str:
        rate, per = self.pace.rate, self.pace.per
        return f"{HELD_BACK} Too many card lookups here right now ({rate} every {per:.0f} s): ask again in a moment."

    async def tell(self, message: discord.Message, line: str, permissions: discord.Permissions) -> None:
        """One line answering ``message`` instead of its cards."""
        try:
            await self.post(message, permissions, content=line)
        except discord.HTTPException:
            log.warning("Could not say that inline lookups in channel %s are held back", message.channel.id)

    async def answers(
        self, references: list[CardReference], asker: Asker, turns: Turn
    ) -> list[discord.Embed | BaseException]:
        """The answer to each reference, in order (an exception for one that failed: :class:`Busy` for one whose
        place came too late). Card lookups run at once; searches one after another, so a message holds one search
        thread at a time, as one /search does (its single place in the searches' share means that, and five slow
        searches at once would fill the pool). ``turns``: the places the references wait for, one a share for them
        all (see :class:`bot.serving.Turns`)."""
        cards = [reference for reference in references if reference.mode != "search"]

        async def searches_in_turn() -> dict[CardReference, discord.Embed | BaseException]:
            answers: dict[CardReference, discord.Embed | BaseException] = {}
            for reference in references:
                if reference.mode == "search":
                    try:
                        answers[reference] = await self.one(reference, asker, turns)
                    except Exception as error:  # told in the reply, like a lookup's
                        answers[reference] = error
            return answers

        *found, searched = await asyncio.gather(
            *(self.one(reference, asker, turns) for reference in cards), searches_in_turn(), return_exceptions=True
        )
        if isinstance(searched, BaseException):
            raise searched
        answers = dict(zip(cards, found, strict=True)) | searched
        return [answers[reference] for reference in references]

    async def one(self, reference: CardReference, asker: Asker, turns: Turn) -> discord.Embed:
        """The embed answering one inline reference: a card, or the first results of a ``[[?search]]``. A place is
        held only while the local copy is read: a printing (``[[name|set]]``) is the API's answer, which its own
        rate limits share out."""
        if reference.mode != "search":
            async with turns(LOOKUPS) if self.source.reads_locally(reference.set_code) else contextlib.nullcontext():
                answer = await self.source.named(reference.name, set_code=reference.set_code, number=reference.number)
            return reference_embed(reference.mode, answer)
        found = await self.source.search(reference.name, page_size=INLINE_RESULTS, asker=asker, turn=turns)
        if isinstance(found, SearchPage):
            if not found.total:
                raise CardNotFound("No cards match that search.", status=404, code="not_found", type="local")
            return search_embed(reference.name, found, origin_text("local", self.source.data_date()))
        lines = [result_line(card) for card in found.cards[:INLINE_RESULTS]]
        return results_embed(
            f"Search: {echo(reference.name, 200)}",
            lines,
            found.total,
            0,
            page_count(found.total),
            found.warnings,
            found.origin,
        )

    async def miss(self, reference: CardReference, error: ScryfallError) -> str:
        """A reference that found no single card, explained as /card explains it: the set named when it is the
        problem, a nickname's card, the cards it could have meant."""
        shown = echo(reference.name, 60)
        if reference.mode == "search":
            missing = await unknown_sets(self.source, reference.name)
            return f"?{shown}: " + (no_set_text(missing, DISCORD_MARKS) if missing else "no cards match.")
        candidates = getattr(error, "candidates", None) or []
        if isinstance(error, AmbiguousCard) and not candidates:
            candidates = await miss_suggestions(self.source, reference.name)
        if candidates:
            names = ", ".join(f"**{echo(name, 60)}**" for name in candidates[:5])
            return f"“{shown}” matches several cards: {names}. Which one?"
        said = await miss_text(self.source, reference.name, reference.set_code, error, DISCORD_MARKS)
        return said.replace("\n", " ")
