"""Embeds and views for goldfish: the table text of :mod:`bot.goldfish.table` as Discord objects."""

from __future__ import annotations

import discord

from bot import limits
from bot.goldfish import Game
from bot.goldfish.model import CycleOption
from bot.goldfish.stats import PlayerStats
from bot.goldfish.store import StoredGame
from bot.goldfish.table import cycle_label, hand_lines, table_text
from bot.text import chunk_lines, clip, escape, fit_lines
from cogs.goldfish._components import GoldfishButton, GoldfishSelect
from cogs.goldfish._inputs import FIND_NOTHING

TEAL = discord.Colour.dark_teal()


def game_embed(record: StoredGame, *, note: str | None = None) -> discord.Embed:
    text = table_text(
        record.game,
        owner_id=record.owner_id,
        shared=record.shared,
        version=record.version,
        events=record.events,
        note=note,
    )
    embed = discord.Embed(
        title=text.title, description=text.description, colour=discord.Colour.dark_grey() if text.over else TEAL
    )
    for name, value, inline in text.fields:
        embed.add_field(name=name, value=value, inline=inline)
    embed.set_footer(text=text.footer)
    return embed


def _option(label: str, value: str, description: str | None = None) -> discord.SelectOption:
    return discord.SelectOption(
        label=clip(label, limits.SELECT_OPTION_LABEL),
        value=value,
        description=clip(description, limits.SELECT_OPTION_DESCRIPTION) if description else None,
    )


def game_view(record: StoredGame, *, mode: tuple | None = None) -> discord.ui.View:
    """The controls for the game as it is; ``mode`` is ``("find", iid, ability)`` or ``("bottom",)``."""
    game, version = record.game, record.version
    view = discord.ui.View(timeout=None)
    if game.phase == "over":
        return view
    back = GoldfishButton.make("back", version, "Back", discord.ButtonStyle.secondary)
    if mode and mode[0] == "find":
        _, iid, ability = mode
        options = [
            _option(card.name, str(card.iid))
            for card in game.search_candidates(iid, ability)[: limits.SELECT_OPTIONS - 1]
        ]
        options.append(_option("Find nothing", FIND_NOTHING, "Fail to find"))
        view.add_item(
            GoldfishSelect.make(f"gf:find:{version}:{iid}:{ability}", "Choose what the search finds…", options)
        )
        view.add_item(back)
        return view
    if mode and mode[0] == "bottom":
        options = [_option(card.name, str(card.iid)) for card in game.hand[: limits.SELECT_OPTIONS]]
        count = min(game.mulligans, len(options))
        placeholder = f"Choose {count} card{'s' if count != 1 else ''} to put on the bottom…"
        view.add_item(GoldfishSelect.make(f"gf:bottom:{version}", placeholder, options, count))
        view.add_item(back)
        return view
    if game.phase == "mulligan":
        keep = "Keep" if not game.mulligans else f"Keep (bottom {game.mulligans})"
        view.add_item(GoldfishButton.make("keep", version, keep, discord.ButtonStyle.success))
        view.add_item(GoldfishButton.make("mull", version, "Mulligan", discord.ButtonStyle.secondary))
        return view
    cycle = [
        _option(f"Cycle {o.name}", f"{o.iid}:{o.ability_index}", cycle_label(o))
        for o in game.cycle_options()
        if o.affordable
    ]
    if cycle:
        view.add_item(GoldfishSelect.make(f"gf:cycle:{version}", "Cycle a card…", cycle))
    lands = [_option(card.name, str(card.iid)) for card in game.playable_lands()]
    if lands:
        view.add_item(GoldfishSelect.make(f"gf:land:{version}", "Play a land…", lands))
    casts = [_option(f"Cast {o.name}", str(o.iid), o.cost) for o in game.cast_options() if o.affordable]
    if casts:
        view.add_item(GoldfishSelect.make(f"gf:cast:{version}", "Cast a payoff permanent…", casts))
    view.add_item(GoldfishButton.make("next", version, "Next turn", discord.ButtonStyle.primary))
    return view


def find_mode_note(option: CycleOption) -> str:
    what = f" for {escape(option.search)}" if option.search else ""
    return f"**{escape(option.name)}**: {escape(cycle_label(option))}. Choose what the search{what} finds."


def hand_embed(game: Game) -> discord.Embed:
    lines = hand_lines(game)
    if game.phase != "over":
        for option in game.cycle_options():
            if option.search:
                lines.append(
                    f"↳ {escape(option.name)}: {escape(cycle_label(option))} searches for {escape(option.search)}"
                )
    return discord.Embed(
        title=f"Hand ({len(game.hand)}) · mana {game.available_mana() or 'none'}",
        description=fit_lines(lines, limits.EMBED_DESCRIPTION, empty="empty"),
        colour=TEAL,
    )


def log_pages(game: Game) -> list[discord.Embed]:
    lines = [escape(line) for line in game.log] or ["Nothing has happened yet."]
    title = f"Goldfish log · {clip(game.deck_name, 200)}"
    return [discord.Embed(title=title, description=block) for block in chunk_lines(lines, 1800)]


def stats_embed(user: discord.abc.User, stats: PlayerStats | None) -> discord.Embed:
    embed = discord.Embed(title=clip(f"Goldfish statistics · {user.display_name}", limits.EMBED_TITLE), colour=TEAL)
    if stats is None:
        embed.description = "No statistics yet: start a game with `/goldfish start`."
        return embed
    for label, value in stats.rows():
        embed.add_field(name=label, value=value, inline=True)
    embed.set_footer(text=f"Updated {stats.updated_at} · /goldfish stats forget deletes them")
    return embed
