"""The game message's buttons and selects: ``DynamicItem``s whose custom ids carry what they need.

They keep working after a restart, and a click on an outdated message (a fast double click) is
still matched and answered. Each carries a :class:`Stamp`: the game's version the message showed and whose game it
is (``<version>~<player>``, player 0 for the channel's shared game), so a click acts on the game of its message
whichever other games the channel holds. The "Replace the game?" buttons carry a token for the pending start;
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
from dataclasses import dataclass
from typing import NamedTuple, Protocol

import discord

from bot import limits
from bot.goldfish.engine import IllegalAction
from bot.text import clip
from cogs._ui import guarded

# Discord drops an interaction that is not acknowledged within 3 s: answer at once when the
# database is quick, acknowledge first when it is not.
DEFER_AFTER = 1.5


# A game message's version, then whose game it is (an id from before games were keyed by player has no player).
STAMP = r"(?P<version>\d{1,9})(?:~(?P<player>\d{1,20}))?"


@dataclass(frozen=True)
class Stamp:
    """What a component knows of its game: the version its message showed, and the game's player (its owner, or
    0 for the channel's shared game; None on a message posted before games were keyed by player)."""

    version: int
    player: int | None = None

    def __str__(self) -> str:
        return f"{self.version}~{self.player}" if self.player is not None else str(self.version)

    @classmethod
    def of(cls, match: re.Match[str]) -> Stamp:
        return cls(int(match["version"]), int(match["player"]) if match["player"] else None)


class Picked(NamedTuple):
    """What a select sent: its values, the card the select is about (``iid``, ability) and the lands to tap."""

    values: list[str]
    card: tuple[int, int] | None = None
    tap: tuple[int, ...] = ()


class TableHandler(Protocol):
    """What the game message's components ask of the goldfish tables (the cog answers them)."""

    async def on_button(
        self, interaction: discord.Interaction, kind: str, stamp: Stamp, iid: int | None = None
    ) -> None: ...

    async def on_select(self, interaction: discord.Interaction, kind: str, stamp: Stamp, picked: Picked) -> None: ...

    async def on_draft(
        self, interaction: discord.Interaction, stamp: Stamp, code: str, field: str | None, values: list[str]
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
    template=r"gf:(?P<kind>next|mull|keep|back|undo|grave|lib|new|replay|echo|sac|act):"
    + STAMP
    + r"(?::(?P<iid>\d{1,9}))?",
):
    """Next turn, Mulligan, Keep, Back, Undo, the zone views, New game, Replay, echo and upkeep choices:
    ``gf:<kind>:<stamp>[:<iid>]``."""

    @classmethod
    def make(
        cls, kind: str, stamp: Stamp, label: str, style: discord.ButtonStyle, iid: int | None = None
    ) -> GoldfishButton:
        custom_id = f"gf:{kind}:{stamp}" + (f":{iid}" if iid is not None else "")
        return cls(discord.ui.Button(label=clip(label, limits.BUTTON_LABEL), style=style, custom_id=custom_id))

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        match = self.parsed()
        iid = int(match["iid"]) if match["iid"] else None
        await tables_of(interaction).on_button(interaction, match["kind"], Stamp.of(match), iid)


class GoldfishSelect(
    FromOwnComponent,
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"gf:(?P<kind>cycle|land|cast|find|bottom|discard0|discard|tap):" + STAMP + r"(?::(?P<iid>\d{1,9}):"
    r"(?P<ability>\d{1,2}))?(?::t(?P<tap>[0-9+]{1,90}))?",
):
    """Card choices: ``gf:cycle|land|cast|bottom|discard|discard0|tap:<stamp>`` (``discard0``: discard
    without paying the optional {1} of Drake Haven and the like), ``gf:find:<stamp>:<iid>:<ability>``;
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
        await tables_of(interaction).on_select(interaction, match["kind"], Stamp.of(match), Picked(values, card, tap))


class DraftSelect(
    FromOwnComponent,
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"gf:d(?P<field>[xpsl]):" + STAMP + r":(?P<draft>[0-9a-z.+\-]{1,90})",
):
    """A choice for an action being prepared (X, "you may pay {1}", what to sacrifice):
    ``gf:d<field>:<stamp>:<draft>``."""

    @classmethod
    def make(cls, field: str, stamp: Stamp, draft: str, placeholder: str, options: list[discord.SelectOption]):
        select = discord.ui.Select(
            custom_id=f"gf:d{field}:{stamp}:{draft}",
            placeholder=clip(placeholder, limits.SELECT_PLACEHOLDER),
            options=options[: limits.SELECT_OPTIONS],
        )
        return cls(select)

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        match = self.parsed()
        values = [str(v) for v in ((interaction.data or {}).get("values") or [])]
        await tables_of(interaction).on_draft(interaction, Stamp.of(match), match["draft"], match["field"], values)


class DraftButton(
    FromOwnComponent,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"gf:go:" + STAMP + r":(?P<draft>[0-9a-z.+\-]{1,90})",
):
    """Do the prepared action: ``gf:go:<stamp>:<draft>``."""

    @classmethod
    def make(cls, stamp: Stamp, draft: str, label: str) -> DraftButton:
        button = discord.ui.Button(
            label=clip(label, limits.BUTTON_LABEL),
            style=discord.ButtonStyle.success,
            custom_id=f"gf:go:{stamp}:{draft}",
        )
        return cls(button)

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        match = self.parsed()
        await tables_of(interaction).on_draft(interaction, Stamp.of(match), match["draft"], None, [])


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
