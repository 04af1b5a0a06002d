"""Slash commands declared once: what every feature's commands share.

* :func:`command`: a command of a group, declared with :func:`answered`.
* :func:`described`: a command's options described from its feature's table (each option's words declared once).
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
from collections.abc import Awaitable, Callable, Mapping

import discord
from discord import app_commands

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


def command(group: app_commands.Group, name: str) -> Callable[[Callable], app_commands.Command]:
    """Register ``name`` in ``group``, its refusals answered to the player."""
    return lambda callback: group.command(name=name)(answered(callback))


def described(table: Mapping[str, str]) -> Callable[[Callable], Callable]:
    """Describe each option of a command from ``table``: by ``"command.option"`` where one name means different
    things in different commands (``"cycle.card"``), else by the option's name alone."""

    def decorator(callback: Callable) -> Callable:
        command = callback.__name__
        names = [name for name in resolved_signature(callback).parameters if name not in ("self", "interaction")]
        found = {name: table.get(f"{command}.{name}") or table.get(name) for name in names}
        return app_commands.describe(**{name: text for name, text in found.items() if text})(callback)

    return decorator
