"""Playing the documentation's Discord examples with the real bot through simcord, and showing what the player sees.

Steps, one a line:

- ``/goldfish start deck:slide seed:11``: a slash command, options as ``name:value`` (a value runs to the
  next option's name, so ``query:t:creature c:g`` is one value);
- ``say is [[Street Wraith]] any good?``: a message in the channel;
- ``click Next``: a button of the last message shown; ``choose Generous Ent``: an option of its menu;
- ``look up: I cycled street wraith``: a message in the channel, and **Look up cards** from its Apps menu;
- ``as bob``: the next steps are someone else's.

What the last step changed in the channel, as the member who took it sees it (their private replies
included, other people's not), is rendered as a quote: the message's text, each embed's title,
description, fields and footer, its pictures and attachments, and its buttons and menus.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import discord
import simcord

from bot.client import CycleBot
from bot.config import Config
from tests.docs.markers import Example
from tests.support import simcord_discord

MENTION = re.compile(r"<@!?(\d+)>")
CHANNEL = re.compile(r"<#(\d+)>")
CODE_SPAN = re.compile(r"(`+).*?\1", re.DOTALL)
MESSAGE_LINK = re.compile(r"https://discord\.com/channels/\d+/\d+/\d+")


class ExampleError(RuntimeError):
    """A step that cannot be played (a command, option, button or menu that isn't there)."""


class Conversation:
    """One bot for every example of a setting; each example gets a server, channel and members of its own."""

    def __init__(self, data_dir: Path, scryfall_url: str) -> None:
        simcord_discord.install()
        config = Config(data_dir=data_dir, scryfall_api_url=scryfall_url, inline_cards=True)
        self.bot = CycleBot(config)
        self._run = simcord.run(self.bot)
        self.env: simcord.Env | None = None
        self._names: dict[int, str] = {}

    async def __aenter__(self) -> Conversation:
        self.env = await self._run.__aenter__()
        return self

    async def __aexit__(self, *exc: object) -> None:
        try:
            await self._run.__aexit__(*exc)
        finally:
            await self.bot.close()

    async def play(self, example: Example) -> str:
        guild = self.env.create_guild("Magic night")
        channel = guild.create_text_channel("cycling")
        members: dict[str, simcord.MemberActor] = {}

        def member(name: str):
            if name not in members:
                members[name] = guild.add_member(self.env.create_user(name))
                self._names[members[name].id] = name
            return members[name]

        actor = member("alice")
        shown: list[discord.Message] = []
        for step in example.steps:
            if step.startswith("as "):
                actor = member(step[3:].strip())
                continue
            before = snapshot(channel.history(viewer=actor))
            await self._step(step, actor, channel, shown)
            shown = [m for m in channel.history(viewer=actor) if snapshot([m]) - before and m.author.bot]
            if not shown:
                raise ExampleError(f"{example.where}: {step!r} changed nothing the player sees")
        return "\n>\n".join(self.render(message) for message in shown) + "\n"

    async def _step(self, step: str, actor, channel, shown: list[discord.Message]) -> None:
        if step.startswith("/"):
            name, options = self._parse_slash(step[1:])
            await actor.slash(channel, name, **options)
        elif step.startswith("say "):
            await actor.send(channel, step[4:])
        elif step.startswith("look up: "):
            message = await actor.send(channel, step[9:])
            await actor.context_menu(channel, "Look up cards", message)
        elif step.startswith("click "):
            label = step[6:].strip()
            message = _last_with(shown, lambda c: isinstance(c, discord.Button) and c.label == label, step)
            await actor.click(message, label=label)
        elif step.startswith("choose "):
            label = step[7:].strip()
            menu = None

            def has_option(component) -> bool:
                nonlocal menu
                if isinstance(component, discord.SelectMenu) and any(o.label == label for o in component.options):
                    menu = component
                    return True
                return False

            message = _last_with(shown, has_option, step)
            value = next(o.value for o in menu.options if o.label == label)
            await actor.select(message, [value], custom_id=menu.custom_id)

    def _parse_slash(self, text: str) -> tuple[str, dict]:
        words = text.split()
        command = self.bot.tree.get_command(words[0])
        path = [words[0]]
        rest = words[1:]
        while isinstance(command, discord.app_commands.Group) and rest:
            command = command.get_command(rest[0])
            path.append(rest.pop(0))
        if command is None or isinstance(command, discord.app_commands.Group):
            raise ExampleError(f"no slash command /{' '.join(path)}")
        parameters = {parameter.display_name: parameter for parameter in command.parameters}
        options: dict = {}
        if rest:
            names = "|".join(re.escape(name) for name in parameters)
            parts = re.split(rf"(?:^|\s)({names}):", " ".join(rest))
            if parts[0].strip():
                known = ", ".join(parameters)
                raise ExampleError(f"/{' '.join(path)}: {parts[0]!r} is not an option (options: {known})")
            for name, value in zip(parts[1::2], parts[2::2], strict=True):
                options[name] = _typed(parameters[name], value.strip())
        return " ".join(path), options

    def render(self, message: discord.Message) -> str:
        """The message as the player sees it, as Markdown for a quote."""
        lines: list[str] = []
        if message.content:
            lines += self._text(message.content)
        for embed in message.embeds:
            lines += self._embed(embed)
        for attachment in message.attachments:
            about = f": {attachment.description}" if attachment.description else ""
            lines.append(f"📎 *{_escape(attachment.filename)}*{_escape(about)}")
        for row in message.components:
            controls = [_control(child) for child in getattr(row, "children", [row])]
            lines.append(" ".join(control for control in controls if control))
        if message.flags.ephemeral:
            lines.append("<small>Only you can see this</small>")
        return _quote(lines)

    def _embed(self, embed: discord.Embed) -> list[str]:
        lines = []
        if embed.author and embed.author.name:
            lines.append(f"<small>{html.escape(embed.author.name)}</small>")
        if embed.title:
            title = self._inline(embed.title)
            lines.append(f"**[{title}]({embed.url})**" if embed.url else f"**{title}**")
        if embed.description:
            lines += self._text(embed.description)
        for field in embed.fields:
            lines.append(f"**{self._inline(field.name)}**")
            lines += self._text(field.value)
        if embed.image and embed.image.url:
            lines.append("*(picture)*")
        if embed.thumbnail and embed.thumbnail.url:
            lines.append("*(small picture)*")
        if embed.footer and embed.footer.text:
            lines += [f"<small>{html.escape(line)}</small>" for line in embed.footer.text.splitlines()]
        return lines

    def _inline(self, text: str) -> str:
        text = MENTION.sub(lambda m: "@" + self._names.get(int(m[1]), "someone"), text)
        text = CHANNEL.sub("#cycling", text)
        text = MESSAGE_LINK.sub("*#cycling › message*", text)
        return _escape(text)

    def _text(self, text: str) -> list[str]:
        """Discord's Markdown, line by line, made safe for the page's Markdown (code blocks kept as they are)."""
        lines: list[str] = []
        in_code = False
        for line in text.splitlines():
            if line.lstrip().startswith("```"):
                in_code = not in_code
                lines.append(Verbatim(line))
            elif in_code:
                lines.append(Verbatim(line))
            elif line.startswith("-# "):
                lines.append(f"<small>{self._inline(line[3:])}</small>")
            elif re.match(r"#{1,3} ", line):
                lines.append(f"**{self._inline(line.lstrip('#').strip())}**")
            else:
                lines.append(self._inline(line))
        return lines


class Verbatim(str):
    """A line of a code block: no line break, no escaping, a paragraph of its own."""


def _typed(parameter: discord.app_commands.Parameter, value: str):
    """The option's value as Discord sends it: a choice's value for its name, numbers and booleans typed."""
    for choice in parameter.choices:
        if value in (choice.name, str(choice.value)):
            return choice.value
    kind = parameter.type
    if kind is discord.AppCommandOptionType.integer:
        return int(value)
    if kind is discord.AppCommandOptionType.number:
        return float(value)
    if kind is discord.AppCommandOptionType.boolean:
        return value.lower() in ("true", "yes", "1")
    return value


def _last_with(messages: list[discord.Message], wanted, step: str) -> discord.Message:
    for message in reversed(messages):
        for row in message.components:
            if any(wanted(child) for child in getattr(row, "children", [row])):
                return message
    raise ExampleError(f"{step!r}: no such control on the messages shown")


def _control(component) -> str:
    if isinstance(component, discord.Button):
        label = _escape(component.label or str(component.emoji or ""))
        # A disabled button is still a button, greyed as Discord greys it (docs/stylesheets/replies.css).
        return (
            f'<span class="button-disabled" title="disabled">`{label}`</span>' if component.disabled else f"`{label}`"
        )
    if isinstance(component, discord.SelectMenu):
        return f"`{_escape(component.placeholder or 'Choose…')} ▾`"
    return ""


def _escape(text: str) -> str:
    """``<`` as an entity outside code spans, so nothing the bot writes reads as HTML on the page."""
    out = []
    position = 0
    for match in CODE_SPAN.finditer(text):
        out.append(text[position : match.start()].replace("<", "&lt;"))
        out.append(match[0])
        position = match.end()
    out.append(text[position:].replace("<", "&lt;"))
    return "".join(out)


def _quote(lines: list[str]) -> str:
    """Lines as one quote, each on its own line: a hard break between lines, a paragraph at a blank one, and
    code blocks and the reply's own quotes (``> …``) as blocks of their own."""

    def block(line: str) -> str:
        if isinstance(line, Verbatim):
            return "code"
        return "quote" if line.startswith("> ") else "text"

    out: list[str] = []
    for position, line in enumerate(lines):
        if not line.strip():
            out.append(">")
            continue
        if position and lines[position - 1].strip() and block(lines[position - 1]) != block(line):
            out.append(">")  # a block starts: a paragraph break, so the last one does not run on into it
        following = lines[position + 1] if position + 1 < len(lines) else ""
        joined = following.strip() and block(following) == block(line) != "code"
        out.append(f"> {line}<br>" if joined else f"> {line}".rstrip())
    return "\n".join(out)


def snapshot(messages: list[discord.Message]) -> set[tuple]:
    """What a player can see of each message, to tell which ones a step added or changed."""
    return {
        (
            message.id,
            message.content,
            repr([embed.to_dict() for embed in message.embeds]),
            repr([row.to_dict() for row in message.components]),
            tuple(attachment.filename for attachment in message.attachments),
        )
        for message in messages
    }
