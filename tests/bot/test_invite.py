"""The invite asks for what the bot uses, in one number: /about's button, the README's and Getting started's links and
their permissions tables all hold to :data:`cogs.about.SERVER_PERMISSIONS`, and that number is the sum of Discord's
own permission bits."""

from __future__ import annotations

import re
from pathlib import Path

import discord

from cogs.about import SERVER_PERMISSIONS, add_links

ROOT = Path(__file__).resolve().parents[2]
PAGES = (ROOT / "README.md", ROOT / "docs" / "getting-started.md")
# Discord's bitwise permission flags (https://discord.com/developers/docs/topics/permissions#permissions), by the
# name each has in a server's settings.
DISCORD_BITS = {
    "Add Reactions": (6, "add_reactions"),
    "View Channels": (10, "view_channel"),
    "Send Messages": (11, "send_messages"),
    "Embed Links": (14, "embed_links"),
    "Attach Files": (15, "attach_files"),
    "Read Message History": (16, "read_message_history"),
    "Use External Emojis": (18, "use_external_emojis"),
    "Create Public Threads": (35, "create_public_threads"),
    "Send Messages in Threads": (38, "send_messages_in_threads"),
}
FIRST_INVITE = 117760  # View Channels, Send Messages, Embed Links, Attach Files, Read Message History
ADDED = ("Use External Emojis", "Add Reactions", "Create Public Threads", "Send Messages in Threads")


def test_the_invites_number_is_the_sum_of_discords_bits_for_what_the_bot_uses():
    assert sum(1 << bit for bit, _ in DISCORD_BITS.values()) == SERVER_PERMISSIONS.value == 309238025280
    assert FIRST_INVITE + sum(1 << DISCORD_BITS[name][0] for name in ADDED) == 309238025280
    # discord.py's flags are Discord's bits, and the bot asks for these and no others.
    assert all(getattr(discord.Permissions, flag).flag == 1 << bit for bit, flag in DISCORD_BITS.values())
    assert SERVER_PERMISSIONS == discord.Permissions(**{flag: True for _, flag in DISCORD_BITS.values()})


def test_the_readme_getting_started_and_about_invite_with_the_same_number():
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        assert re.findall(r"&permissions=(\d+)", text) == [str(SERVER_PERMISSIONS.value)], page.name
        assert re.findall(r"[Pp]ermissions \((\d+)\):", text) == [str(SERVER_PERMISSIONS.value)], page.name
        rows = re.findall(r"^\s*\| ([A-Z][\w ]+?) \| (.+?) \|$", text, re.MULTILINE)
        named = {name for name, why in rows if name in DISCORD_BITS and why.strip()}
        assert named == set(DISCORD_BITS), f"{page.name} says why for {sorted(named)}"
    [server] = [item.url for item in add_links(1234).children if "integration_type=0" in item.url]
    assert server.endswith(f"&permissions={SERVER_PERMISSIONS.value}")
