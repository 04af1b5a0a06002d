"""The game message's buttons and selects: ``DynamicItem``s whose custom ids carry what they need.

They keep working after a restart, and a click on an outdated message (a fast double click) is
still matched and answered. The "Replace the game?" buttons carry a token for the pending start;
after a restart that start is gone and the click is answered with "this has expired".

A click is handed to the bot's goldfish tables (:class:`TableHandler`, an interface the cog satisfies, found
through ``interaction.client``); nothing here imports the cog.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import re
import threading
from typing import Protocol

import discord

from bot import limits
from bot.goldfish.engine import IllegalAction
from bot.text import clip
from cogs._ui import guarded

# Discord drops an interaction that is not acknowledged within 3 s: answer at once when the
# database is quick, acknowledge first when it is not.
DEFER_AFTER = 1.5


class TableHandler(Protocol):
    """What the game message's components ask of the goldfish tables (the cog answers them)."""

    async def on_button(
        self, interaction: discord.Interaction, kind: str, version: int, iid: int | None = None
    ) -> None: ...

    async def on_select(
        self,
        interaction: discord.Interaction,
        kind: str,
        version: int,
        values: list[str],
        card: tuple[int, int] | None,
        tap: tuple[int, ...] = (),
    ) -> None: ...

    async def on_draft(
        self, interaction: discord.Interaction, version: int, code: str, field: str | None, values: list[str]
    ) -> None: ...

    async def on_replace(self, interaction: discord.Interaction, token: str, replace: bool) -> None: ...


def tables_of(interaction: discord.Interaction) -> TableHandler:
    """The bot's goldfish tables, or a refusal while the feature is not loaded."""
    tables = interaction.client.get_cog("Goldfish")  # type: ignore[union-attr]
    if tables is None:
        raise IllegalAction("Goldfish games are unavailable right now.")
    return tables


class Deferral:
    """Acknowledge the interaction if the work inside takes longer than ``DEFER_AFTER`` seconds.

    ``update=True`` (components) defers as a message update; otherwise (commands) Discord shows
    "thinking…". Leaving the block settles it, so the answer never races the acknowledgement.
    The timer is a wall-clock thread timer: it must fire even when the loop's own clock is driven
    by something else (a test harness) while the work waits on the database thread.
    """

    def __init__(
        self, interaction: discord.Interaction, *, update: bool, after: float = DEFER_AFTER, private: bool = False
    ) -> None:
        self.interaction = interaction
        self.private = private
        self.update = update
        self.after = after
        self._timer: threading.Timer | None = None
        self._task: asyncio.Task | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._closed = False

    async def __aenter__(self) -> Deferral:
        self._loop = asyncio.get_running_loop()
        # The interaction's context (contextvars) goes with the callback, as a task would carry it.
        context = contextvars.copy_context()
        self._timer = threading.Timer(self.after, lambda: self._loop.call_soon_threadsafe(self._fire, context=context))
        self._timer.daemon = True
        self._timer.start()
        return self

    async def __aexit__(self, *exc_info) -> None:
        self._closed = True
        if self._timer is not None:
            self._timer.cancel()
        if self._task is not None:
            with contextlib.suppress(discord.HTTPException):
                await self._task

    def _fire(self) -> None:
        # Runs on the loop: after the block has closed, the answer is the acknowledgement.
        if not self._closed and not self.interaction.response.is_done():
            self._task = self._loop.create_task(self._defer())

    async def _defer(self) -> None:
        if self.interaction.response.is_done():
            return
        if self.update:
            await self.interaction.response.defer()
        else:
            await self.interaction.response.defer(thinking=True, ephemeral=self.private)


class FromOwnComponent:
    """A ``DynamicItem`` rebuilt from the component that was clicked: its custom id is all it needs."""

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str]):
        return cls(item)

    def parsed(self) -> re.Match[str]:
        return self.__discord_ui_compiled_template__.fullmatch(self.custom_id)


class GoldfishButton(
    FromOwnComponent,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"gf:(?P<kind>next|mull|keep|back|undo|grave|lib|new|replay|echo|sac|act):(?P<version>\d{1,9})"
    r"(?::(?P<iid>\d{1,9}))?",
):
    """Next turn, Mulligan, Keep, Back, Undo, the zone views, New game, Replay, echo and upkeep choices:
    ``gf:<kind>:<version>[:<iid>]``."""

    @classmethod
    def make(
        cls, kind: str, version: int, label: str, style: discord.ButtonStyle, iid: int | None = None
    ) -> GoldfishButton:
        custom_id = f"gf:{kind}:{version}" + (f":{iid}" if iid is not None else "")
        return cls(discord.ui.Button(label=clip(label, limits.BUTTON_LABEL), style=style, custom_id=custom_id))

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        match = self.parsed()
        iid = int(match["iid"]) if match["iid"] else None
        await tables_of(interaction).on_button(interaction, match["kind"], int(match["version"]), iid)


class GoldfishSelect(
    FromOwnComponent,
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"gf:(?P<kind>cycle|land|cast|find|bottom|discard0|discard|tap):(?P<version>\d{1,9})"
    r"(?::(?P<iid>\d{1,9}):(?P<ability>\d{1,2}))?(?::t(?P<tap>[0-9+]{1,70}))?",
):
    """Card choices: ``gf:cycle|land|cast|bottom|discard|discard0|tap:<version>`` (``discard0``: discard
    without paying the optional {1} of Drake Haven and the like), ``gf:find:<version>:<iid>:<ability>``;
    ``:t<iid>+<iid>`` carries the lands the player chose to tap for the next payment."""

    @classmethod
    def make(
        cls,
        custom_id: str,
        placeholder: str,
        options: list[discord.SelectOption],
        count: int = 1,
        least: int | None = None,
    ):
        options = options[: limits.SELECT_OPTIONS]
        select = discord.ui.Select(
            custom_id=custom_id,
            placeholder=clip(placeholder, limits.SELECT_PLACEHOLDER),
            options=options,
            min_values=count if least is None else least,
            max_values=min(count, len(options)),
        )
        return cls(select)

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        match = self.parsed()
        values = [str(v) for v in ((interaction.data or {}).get("values") or [])]
        card = (int(match["iid"]), int(match["ability"])) if match["iid"] else None
        tap = tuple(int(t) for t in match["tap"].split("+") if t) if match["tap"] else ()
        await tables_of(interaction).on_select(interaction, match["kind"], int(match["version"]), values, card, tap)


class DraftSelect(
    FromOwnComponent,
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"gf:d(?P<field>[xpsl]):(?P<version>\d{1,9}):(?P<draft>[0-9a-z.+\-]{1,80})",
):
    """A choice for an action being prepared (X, "you may pay {1}", what to sacrifice):
    ``gf:d<field>:<version>:<draft>``."""

    @classmethod
    def make(cls, field: str, version: int, draft: str, placeholder: str, options: list[discord.SelectOption]):
        select = discord.ui.Select(
            custom_id=f"gf:d{field}:{version}:{draft}",
            placeholder=clip(placeholder, limits.SELECT_PLACEHOLDER),
            options=options[: limits.SELECT_OPTIONS],
        )
        return cls(select)

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        match = self.parsed()
        values = [str(v) for v in ((interaction.data or {}).get("values") or [])]
        await tables_of(interaction).on_draft(
            interaction, int(match["version"]), match["draft"], match["field"], values
        )


class DraftButton(
    FromOwnComponent,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"gf:go:(?P<version>\d{1,9}):(?P<draft>[0-9a-z.+\-]{1,80})",
):
    """Do the prepared action: ``gf:go:<version>:<draft>``."""

    @classmethod
    def make(cls, version: int, draft: str, label: str) -> DraftButton:
        button = discord.ui.Button(
            label=clip(label, limits.BUTTON_LABEL),
            style=discord.ButtonStyle.success,
            custom_id=f"gf:go:{version}:{draft}",
        )
        return cls(button)

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        match = self.parsed()
        await tables_of(interaction).on_draft(interaction, int(match["version"]), match["draft"], None, [])


class ReplaceButton(
    FromOwnComponent,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"gf:replace:(?P<token>[0-9a-f]{1,32}):(?P<choice>yes|no)",
):
    """ "Replace the game" / "Keep the current game": ``gf:replace:<token>:yes|no``."""

    @classmethod
    def make(cls, token: str, replace: bool) -> ReplaceButton:
        if replace:
            button = discord.ui.Button(
                label="Replace the game", style=discord.ButtonStyle.danger, custom_id=f"gf:replace:{token}:yes"
            )
        else:
            button = discord.ui.Button(
                label="Keep the current game", style=discord.ButtonStyle.secondary, custom_id=f"gf:replace:{token}:no"
            )
        return cls(button)

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        match = self.parsed()
        await tables_of(interaction).on_replace(interaction, match["token"], match["choice"] == "yes")


def replace_view(token: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(ReplaceButton.make(token, True))
    view.add_item(ReplaceButton.make(token, False))
    return view


DYNAMIC_ITEMS = (GoldfishButton, GoldfishSelect, DraftSelect, DraftButton, ReplaceButton)
