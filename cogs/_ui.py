"""Discord-side helpers shared by the cogs: safe replies, error reporting and paging."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import math
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence

import discord
from discord import app_commands

from bot.errors import UserFacingError
from bot.serving import on_wait
from bot.text import escape, one_line
from cogs._symbols import one_message, symbols_for

log = logging.getLogger(__name__)

NO_MENTIONS = discord.AllowedMentions.none()
# What a form or component nothing answers any more (from before a restart, or past its time) is told, by the start
# of its custom id, where the general "this has expired" would say too little.
EXPIRED_ANSWERS = {"deck-form:": "This form expired; run `/deck save` again."}


def expired_answer(custom_id: str) -> str | None:
    return next((text for start, text in EXPIRED_ANSWERS.items() if custom_id.startswith(start)), None)


def rendered(interaction: discord.Interaction, content: str | None, kwargs: dict) -> str | None:
    """A reply's text and embeds (in ``kwargs``, changed in place) with card symbols shown one way for the whole
    message, as the place it goes to allows (:func:`cogs._symbols.one_message`): a refusal's "needs {R}" as the
    table beside it shows it. The text a player typed and the bot quotes stays text (``escape(typed=True)``)."""
    one = isinstance(kwargs.get("embed"), discord.Embed)
    given = kwargs.get("embeds")
    embeds = [kwargs["embed"]] if one else list(given) if isinstance(given, list | tuple) else []
    content, shown = one_message(content, embeds, symbols_for(interaction))
    if embeds:
        kwargs.update({"embed": shown[0]} if one else {"embeds": shown})
    return content


async def reply(interaction: discord.Interaction, content: str | None = None, **kwargs) -> None:
    """Answer an interaction whether or not it was already answered or deferred; never pings."""
    kwargs.setdefault("allowed_mentions", NO_MENTIONS)
    content = rendered(interaction, content, kwargs)
    async with _responding(interaction):
        if interaction.response.is_done():
            await interaction.followup.send(content, **kwargs)
        else:
            await interaction.response.send_message(content, **kwargs)


async def defer_public(interaction: discord.Interaction) -> None:
    """Acknowledge work that may take longer than a second at once: "thinking…" in the channel, for an answer that
    will help the table. Prefer :func:`in_time`, which defers only when the work has not been answered by then.

    Decide what can be decided without a pool (numbers, syntax errors, cooldowns) before calling this: those get
    their reply at once. If the answer turns out to be a miss, :func:`reply_private` takes the "thinking…" back.
    """
    async with _responding(interaction):
        if not interaction.response.is_done():
            await interaction.response.defer(thinking=True)
            interaction.extras[_DEFERRED_PUBLIC] = True


async def reply_private(interaction: discord.Interaction, content: str | None = None, **kwargs) -> None:
    """A reply only the asker sees, whatever came before; never pings.

    The first follow-up after a deferred response replaces its "thinking…" message and keeps the defer's
    visibility, so after a public deferral a private follow-up would land in the channel. The public
    "thinking…" message is deleted first, and the reply follows privately.
    """
    kwargs.setdefault("allowed_mentions", NO_MENTIONS)
    content = rendered(interaction, content, kwargs)
    async with _responding(interaction):
        if not interaction.response.is_done():
            await interaction.response.send_message(content, ephemeral=True, **kwargs)
            return
        if interaction.extras.pop(_DEFERRED_PUBLIC, False):
            try:
                await interaction.delete_original_response()
            except discord.HTTPException as error:  # gone already, or refused: the private answer matters more
                log.info("Could not take back the thinking of interaction %s (%s)", interaction.id, error.status)
        await interaction.followup.send(content, ephemeral=True, **kwargs)


_DEFERRED_PUBLIC = "cyclebot.deferred_public"
_RESPONDING = "cyclebot.responding"
_RECEIVED = "cyclebot.received"
_PUBLIC = "cyclebot.public"  # whether the answer in the making will be public (set by in_time)

# ---------------------------------------------------------------- when to acknowledge
# One rule for every command: Discord drops an interaction not acknowledged within 3 s of its creation. What the
# input and the local data decide (milliseconds) is answered without deferring, so a private answer never follows
# a public "thinking…". Work that may take longer (a wait in a queue, a Scryfall call, a search, a model) runs
# under :func:`in_time`: deferred at ``DEFER_AFTER`` from the interaction's creation if not answered by then,
# publicly only if the answer will be public; work that must wait its turn in a queue is deferred as soon as it
# is found to wait (:func:`acknowledge_now`).
DEFER_AFTER = 1.0
ACKNOWLEDGE_WITHIN = 3.0
LONG_WAIT = 3.0  # seconds: a wait for a service this long is told to the asker, who otherwise sees "thinking…"


def mark_received(interaction: discord.Interaction) -> None:
    """Note when the bot received ``interaction`` (the client calls this as it hands it to the handlers)."""
    interaction.extras.setdefault(_RECEIVED, time.monotonic() - _age_at_receipt(interaction))


def _age_at_receipt(interaction: discord.Interaction) -> float:
    """How old the interaction was when it arrived, by its id's timestamp; 0 when the clocks disagree (a
    timestamp in the future, or older than Discord would still let the bot answer)."""
    age = (discord.utils.utcnow() - interaction.created_at).total_seconds()
    return age if 0.0 <= age <= ACKNOWLEDGE_WITHIN else 0.0


def created_at(interaction: discord.Interaction) -> float:
    """When the interaction was created, on ``time.monotonic``'s clock (deadlines count from it)."""
    mark_received(interaction)
    return interaction.extras[_RECEIVED]


def _responding(interaction: discord.Interaction) -> asyncio.Lock:
    """The lock every response to ``interaction`` goes through, so a deferral and an answer never cross."""
    lock = interaction.extras.get(_RESPONDING)
    if lock is None:
        lock = interaction.extras[_RESPONDING] = asyncio.Lock()
    return lock


async def acknowledge_now(interaction: discord.Interaction) -> None:
    """Defer ``interaction`` now unless it is answered already (work found to be waiting, such as a turn in a
    queue, need not wait for :func:`in_time`'s second): in the channel only if its answer will be public."""
    public = interaction.extras.get(_PUBLIC, False)
    async with _responding(interaction):
        if interaction.response.is_done():
            return
        try:
            await interaction.response.defer(thinking=True, ephemeral=not public)
        except discord.HTTPException as error:  # expired, or answered elsewhere: the block's reply says more
            log.info("Could not defer interaction %s (%s)", interaction.id, error.status)
            return
        if public:
            interaction.extras[_DEFERRED_PUBLIC] = True


@contextlib.asynccontextmanager
async def in_time(
    interaction: discord.Interaction, *, public: bool, long_wait: Callable[[float], str] | None = None
) -> AsyncIterator[None]:
    """Run the block (which answers ``interaction`` through :func:`reply` or :func:`reply_private`); if it has not
    answered by ``DEFER_AFTER`` from the interaction's creation, defer then ("thinking…", in the channel only if
    ``public``). The block's answer then becomes the deferral's follow-up.

    Work that finds it must wait its turn for a service (``bot.serving.waiting``: Scryfall's rate limit) is
    acknowledged at once, whatever the clock; a wait of ``LONG_WAIT`` seconds or more is told to the asker alone in
    ``long_wait(seconds)``'s words, when given, and the answer follows when it comes."""

    due = asyncio.Event()  # set once the guard starts deferring: from then on it is waited for, never cut off
    interaction.extras[_PUBLIC] = public
    told: list[asyncio.Task] = []

    async def defer_when_due() -> None:
        await asyncio.sleep(max(0.0, created_at(interaction) + DEFER_AFTER - time.monotonic()))
        due.set()
        await acknowledge_now(interaction)

    def heard(seconds: float) -> None:
        if not told and not interaction.response.is_done():
            words = long_wait(seconds) if long_wait is not None and seconds >= LONG_WAIT else None
            told.append(asyncio.ensure_future(_tell_waiting(interaction, words)))

    guard = asyncio.create_task(defer_when_due(), name=f"defer-when-due-{interaction.id}")
    try:
        with on_wait(heard):
            yield
    finally:
        if not due.is_set():
            guard.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await guard
        for task in told:
            with contextlib.suppress(asyncio.CancelledError):
                await task


async def _tell_waiting(interaction: discord.Interaction, words: str | None) -> None:
    """Acknowledge ``interaction`` now that its work waits: with ``words`` to the asker alone, or as a deferral."""
    if words is None:
        await acknowledge_now(interaction)
        return
    async with _responding(interaction):
        if interaction.response.is_done():
            return
        try:
            await interaction.response.send_message(words, ephemeral=True, allowed_mentions=NO_MENTIONS)
        except discord.HTTPException as error:  # expired, or answered elsewhere: the block's reply says more
            log.info("Could not tell interaction %s it waits (%s)", interaction.id, error.status)


def describe_error(error: BaseException) -> tuple[str, bool]:
    """The text a user sees for ``error`` and whether it was unexpected (worth a traceback)."""
    original = getattr(error, "original", None) or error
    if isinstance(original, UserFacingError):
        return str(original), False
    if isinstance(error, app_commands.CommandOnCooldown):
        return f"Slow down a little: try again in {max(1, math.ceil(error.retry_after))} s.", False
    if isinstance(error, app_commands.MissingPermissions):
        return "You need the " + ", ".join(error.missing_permissions) + " permission for that.", False
    if isinstance(error, app_commands.NoPrivateMessage):
        return "That only works in a server channel.", False
    if isinstance(error, app_commands.TransformerError):
        return (
            f"That value isn't something I understand: {escape(one_line(str(error.value), 200))}",
            False,
        )
    if isinstance(error, app_commands.CheckFailure):
        return "You can't use that here.", False
    if isinstance(error, app_commands.CommandNotFound):
        return "That command no longer exists; Discord will refresh the list shortly.", False
    return "", True


async def report_error(interaction: discord.Interaction, error: BaseException) -> None:
    """The last net for commands and components: a short ephemeral answer, a traceback in the log."""
    message, unexpected = describe_error(error)
    if unexpected:
        error_id = secrets.token_hex(4)
        command = interaction.command.qualified_name if interaction.command else interaction.data
        log.error(
            "Unexpected error %s in %s (user %s, channel %s)",
            error_id,
            command,
            interaction.user.id,
            interaction.channel_id,
            exc_info=error,
        )
        message = f"Something went wrong on my side (error id `{error_id}`). Please try again later."
    try:
        await reply_private(interaction, message)
    except discord.HTTPException:
        log.warning("Could not tell user %s about an error: the interaction expired", interaction.user.id)


def guarded(callback: Callable[..., Awaitable[None]]) -> Callable[..., Awaitable[None]]:
    """For ``DynamicItem`` callbacks, whose errors discord.py only logs: the user gets an answer too."""

    @functools.wraps(callback)
    async def wrapper(self, interaction: discord.Interaction, *args) -> None:
        try:
            await callback(self, interaction, *args)
        except Exception as error:
            await report_error(interaction, error)

    return wrapper


class GuardedView(discord.ui.View):
    """A view that only its owner may use, whose errors reach the user, and that disables itself."""

    message: discord.Message | discord.InteractionMessage | None = None

    def __init__(self, owner_id: int | None, *, timeout: float | None = 600) -> None:
        super().__init__(timeout=timeout)
        self.owner_id = owner_id

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        if self.owner_id is None or interaction.user.id == self.owner_id:
            return True
        await reply(interaction, "These buttons belong to whoever asked; run the command yourself.", ephemeral=True)
        return False

    async def on_error(self, interaction: discord.Interaction, error: Exception, item: discord.ui.Item) -> None:
        await report_error(interaction, error)

    async def on_timeout(self) -> None:
        for child in self.children:
            if isinstance(child, discord.ui.Button | discord.ui.Select):
                child.disabled = True
        if self.message is not None:
            try:
                await self.message.edit(view=self)
            except discord.HTTPException:
                pass


class PagedView(GuardedView):
    """Previous/Next buttons that only the requester can press; subclasses supply the pages."""

    def __init__(self, owner_id: int | None, *, timeout: float = 600) -> None:
        super().__init__(owner_id, timeout=timeout)
        self.index = 0

    @property
    def page_count(self) -> int:
        raise NotImplementedError

    @property
    def current(self) -> discord.Embed:
        """The page at ``self.index``."""
        raise NotImplementedError

    async def prepare(self, interaction: discord.Interaction, target: int) -> bool:
        """Make page ``target`` available (a subclass may fetch it); False keeps the page as it is."""
        return True

    def _update_buttons(self) -> None:
        self.previous.disabled = self.index == 0
        self.next.disabled = self.index >= self.page_count - 1

    async def _turn(self, interaction: discord.Interaction, step: int) -> None:
        target = max(0, min(self.page_count - 1, self.index + step))
        if not await self.prepare(interaction, target):
            return
        self.index = min(target, self.page_count - 1)
        self._update_buttons()
        if interaction.response.is_done():
            await interaction.edit_original_response(embed=self.current, view=self)
        else:
            await interaction.response.edit_message(embed=self.current, view=self)

    @discord.ui.button(label="Previous", style=discord.ButtonStyle.secondary)
    async def previous(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await self._turn(interaction, -1)

    @discord.ui.button(label="Next", style=discord.ButtonStyle.secondary)
    async def next(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await self._turn(interaction, 1)


class Paginator(PagedView):
    """Previous/Next over a list of embeds; only the requester can turn the pages."""

    def __init__(self, pages: Sequence[discord.Embed], owner_id: int | None, *, timeout: float = 600) -> None:
        super().__init__(owner_id, timeout=timeout)
        if not pages:
            raise ValueError("a paginator needs at least one page")
        self.pages = list(pages)
        total = len(self.pages)
        for number, page in enumerate(self.pages, start=1):
            if total > 1:
                footer = page.footer.text or ""
                page.set_footer(text=f"{footer} · page {number}/{total}".lstrip(" ·"))
        self._update_buttons()

    @property
    def page_count(self) -> int:
        return len(self.pages)

    @property
    def current(self) -> discord.Embed:
        return self.pages[self.index]

    async def send(self, interaction: discord.Interaction, *, ephemeral: bool = False) -> None:
        view = self if len(self.pages) > 1 else discord.utils.MISSING
        await reply(interaction, embed=self.current, view=view, ephemeral=ephemeral)
        if len(self.pages) > 1:
            self.message = await interaction.original_response()
