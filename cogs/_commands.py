"""Slash commands declared once: what every feature's commands share.

* :func:`command`: a command of a group, declared with :func:`answered`.
* :func:`answered`: a refusal meant for the player (any :class:`~bot.errors.UserFacingError`: a move the rules
  don't allow, a list that can't be read, a database that doesn't answer) is answered privately and stops there;
  anything else goes on to the tree's error handler.
* :func:`resolved_signature`: a callback's signature with its annotations evaluated where it was written, so a
  wrapper made anywhere gives discord.py the options it declares (discord.py reads the annotations of the
  function it is given, in that function's module).
"""

from __future__ import annotations

import functools
import inspect
import typing
from collections.abc import Awaitable, Callable

import discord

from bot.errors import UserFacingError
from cogs._ui import reply_private


def resolved_signature(callback: Callable) -> inspect.Signature:
    """``callback``'s signature with every annotation evaluated in its own module (a signature given to it
    explicitly is taken as it is)."""
    given = callback.__dict__.get("__signature__")
    if given is not None:
        return given
    hints = typing.get_type_hints(callback, include_extras=True)
    signature = inspect.signature(callback)
    return signature.replace(
        parameters=[p.replace(annotation=hints.get(p.name, p.annotation)) for p in signature.parameters.values()]
    )


def answered(callback: Callable[..., Awaitable[None]]) -> Callable[..., Awaitable[None]]:
    """The command ``callback`` with its refusals answered to the player, privately."""

    @functools.wraps(callback)
    async def wrapper(self, interaction: discord.Interaction, *args, **kwargs) -> None:
        try:
            await callback(self, interaction, *args, **kwargs)
        except UserFacingError as refusal:
            await reply_private(interaction, str(refusal))

    wrapper.__signature__ = resolved_signature(callback)  # type: ignore[attr-defined]
    return wrapper


def command(group: discord.app_commands.Group, name: str) -> Callable[[Callable], discord.app_commands.Command]:
    """Register ``name`` in ``group``, its refusals answered to the player."""
    return lambda callback: group.command(name=name)(answered(callback))
