"""The command tree's one gate, passed by every interaction before any handler (``CommandTree.interaction_check``):

* a command's options are checked against what it declares (type, range, length, choices, the required ones)
  before it runs, since discord.py hands on whatever a payload holds ("abc" for an integer seed, no options at
  all), and a context menu's target is checked to be there. A mismatch gets one polite private line and one log
  line, never a traceback;
* autocomplete takes its turn (:mod:`bot.serving.suggest`): past the user's budget, replaced by their newer request, or
  past its deadline, it gets an empty list, never an error.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord
from discord import AppCommandOptionType, AppCommandType, app_commands

from bot.serving import RateLimitedLog, Suggestions
from bot.text import escape, one_line
from cogs._ui import NO_MENTIONS, created_at

log = logging.getLogger(__name__)
quiet = RateLimitedLog(log)

AUTOCOMPLETE_WAIT = 2.0  # seconds from the request's creation: Discord stops showing choices soon after
SNOWFLAKE_TYPES = {
    AppCommandOptionType.user,
    AppCommandOptionType.channel,
    AppCommandOptionType.role,
    AppCommandOptionType.mentionable,
    AppCommandOptionType.attachment,
}
TARGETS = {AppCommandType.user.value: "user", AppCommandType.message.value: "message"}
NESTING = {AppCommandOptionType.subcommand.value, AppCommandOptionType.subcommand_group.value}


def _name(value: object) -> str:
    return escape(one_line(str(value), 32))


def _value_problem(param: app_commands.Parameter, value: Any) -> str | None:
    """What is wrong with ``value`` for ``param``, in a few words, or None."""
    kind, name = param.type, f"“{_name(param.display_name)}”"
    if kind is AppCommandOptionType.string:
        if not isinstance(value, str):
            return f"{name} must be text"
        size: float = len(value)
        unit = " characters long"
    elif kind is AppCommandOptionType.integer:
        if isinstance(value, bool) or not isinstance(value, int):
            return f"{name} must be a whole number"
        size, unit = value, ""
    elif kind is AppCommandOptionType.number:
        if isinstance(value, bool) or not isinstance(value, int | float):
            return f"{name} must be a number"
        size, unit = value, ""
    elif kind is AppCommandOptionType.boolean:
        return None if isinstance(value, bool) else f"{name} must be yes or no"
    elif kind in SNOWFLAKE_TYPES:
        return None if str(value).isdigit() else f"{name} must be a {kind.name}"
    else:
        return None
    low, high = param.min_value, param.max_value
    if (low is not None and size < low) or (high is not None and size > high):
        bounds = f"between {low} and {high}" if low is not None and high is not None else f"at least {low}"
        if low is None:
            bounds = f"at most {high}"
        return f"{name} must be {bounds}{unit}"
    if param.choices and not param.autocomplete and value not in [choice.value for choice in param.choices]:
        return f"{name} must be one of its choices"
    return None


def target_problem(data: dict) -> str | None:
    """What is wrong with a context menu's target, or None: Discord sends the message (or user) it was used on in
    ``resolved``, and discord.py can't run the command without it."""
    kind = TARGETS.get(data.get("type"))
    resolved = data.get("resolved")
    found = resolved.get(f"{kind}s") if kind and isinstance(resolved, dict) else None
    if kind and not (isinstance(found, dict) and isinstance(found.get(str(data.get("target_id"))), dict)):
        return f"the {kind} it was used on is missing"
    return None


def option_problem(tree: app_commands.CommandTree, interaction: discord.Interaction) -> str | None:
    """What is wrong with a command's options against what the command declares (a context menu's target), or
    None."""
    data = interaction.data or {}
    if data.get("type", 1) != 1:  # context menus carry a target, not options
        return target_problem(data)
    guild = discord.Object(interaction.guild_id) if interaction.guild_id else None
    command = tree.get_command(str(data.get("name")), guild=guild) or tree.get_command(str(data.get("name")))
    if command is None:
        return None  # discord.py answers an unknown command itself (CommandNotFound)
    options = data.get("options")
    while isinstance(command, app_commands.Group):
        nested = options[0] if isinstance(options, list) and options and isinstance(options[0], dict) else None
        if nested is None or nested.get("type") not in NESTING:
            return "a subcommand is missing"
        sub = command.get_command(str(nested.get("name")))
        if sub is None:
            return f"there is no “{_name(nested.get('name'))}” in /{_name(command.qualified_name)}"
        command, options = sub, nested.get("options")
    if options is None:
        options = []
    if not isinstance(options, list) or not all(isinstance(option, dict) for option in options):
        return "its options are unreadable"
    params = {param.display_name: param for param in command.parameters}
    given: set[str] = set()
    for option in options:
        param = params.get(str(option.get("name")))
        if param is None:
            return f"there is no option “{_name(option.get('name'))}”"
        if option.get("type") != param.type.value:
            return f"“{_name(param.display_name)}” arrived as the wrong kind of value"
        problem = _value_problem(param, option.get("value"))
        if problem is not None:
            return problem
        given.add(param.display_name)
    missing = [name for name, param in params.items() if param.required and name not in given]
    return f"“{_name(missing[0])}” is missing" if missing else None


async def let_in(tree: app_commands.CommandTree, suggestions: Suggestions, interaction: discord.Interaction) -> bool:
    """Whether discord.py may hand ``interaction`` to its command (answered here when not)."""
    if interaction.type is discord.InteractionType.autocomplete:
        return await _autocomplete_turn(suggestions, interaction)
    if interaction.type is not discord.InteractionType.application_command:
        return True
    problem = option_problem(tree, interaction)
    if problem is None:
        return True
    data = interaction.data or {}
    slash = data.get("type", 1) == 1
    command = ("/" if slash else "") + _name(data.get("name"))
    # Names only: option values are what someone typed, and never reach the log.
    quiet.warning("Refused %s from user %s: it does not match the command (%s)", command, interaction.user.id, problem)
    again = f"Pick {command} again from the list of commands." if slash else f"Choose {command} again from Apps."
    text = f"That command reached me garbled: {problem}. {again}"
    try:
        await interaction.response.send_message(text, ephemeral=True, allowed_mentions=NO_MENTIONS)
    except discord.HTTPException as error:
        log.info("Could not answer a garbled command (%s)", error.status)
    return False


async def _autocomplete_turn(suggestions: Suggestions, interaction: discord.Interaction) -> bool:
    """Wait for this autocomplete's turn; the turn is given on when the handler's task ends. No turn: no choices."""
    if await suggestions.turn(interaction.user.id, created_at(interaction) + AUTOCOMPLETE_WAIT):
        task = asyncio.current_task()
        if task is None:  # pragma: no cover - discord.py runs the tree in a task
            suggestions.done()
        else:
            task.add_done_callback(lambda _: suggestions.done())
        return True
    try:
        await interaction.response.autocomplete([])
    except discord.HTTPException:
        pass  # the user typed on: Discord no longer wants these choices
    return False
