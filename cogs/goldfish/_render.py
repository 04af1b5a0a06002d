"""Embeds and views for goldfish: the table text of :mod:`bot.goldfish.table.text` as Discord objects."""

from __future__ import annotations

from collections import Counter

import discord

from bot import limits
from bot.goldfish import PlayerStats, StoredGame
from bot.goldfish.engine import CycleOption, Game, cost_text
from bot.goldfish.table import cycle_label, hand_lines, log_lines, table_text
from bot.hosts import PLAIN, SymbolText
from bot.text import chunk_lines, clip, discord_time, escape, fit_lines, plural
from cogs._symbols import with_symbols
from cogs.goldfish._components import GoldfishButton, GoldfishSelect, Stamp
from cogs.goldfish._drafts import draft_view
from cogs.goldfish._inputs import FIND_NOTHING

TEAL = discord.Colour.dark_teal()


def game_embed(
    record: StoredGame,
    *,
    note: str | None = None,
    symbols: SymbolText = PLAIN,
    footnote: str | None = None,
    ended: bool = False,
) -> discord.Embed:
    """The table as an embed; costs and mana as ``symbols`` show them (the application's emoji once uploaded).
    ``footnote``: a line below the footer (what the table can't show here); ``ended``: the game was ended by hand."""
    text = table_text(
        record.game,
        owner_id=record.owner_id,
        shared=record.shared,
        version=record.version,
        events=record.events,
        note=note,
        ended=ended,
    )
    embed = discord.Embed(
        title=text.title, description=text.description, colour=discord.Colour.dark_grey() if text.over else TEAL
    )
    for name, value, inline in text.fields:
        embed.add_field(name=name, value=value, inline=inline)
    embed.set_footer(text=clip(f"{text.footer}\n{footnote}" if footnote else text.footer, limits.EMBED_FOOTER))
    return with_symbols(embed, symbols)


def _option(label: str, value: str, description: str | None = None) -> discord.SelectOption:
    return discord.SelectOption(
        label=clip(label, limits.SELECT_OPTION_LABEL),
        value=value,
        description=clip(description, limits.SELECT_OPTION_DESCRIPTION) if description else None,
    )


def game_view(record: StoredGame, *, mode: tuple | None = None) -> discord.ui.View:
    """The controls for the game as it is; ``mode`` is ``("find", iid, ability)``, ``("bottom",)``,
    ``("draft", Draft)`` or ``("tap", lands)`` (the lands chosen for the next payment)."""
    game, stamp = record.game, Stamp(record.version, record.player_id)
    view = discord.ui.View(timeout=None)
    back = GoldfishButton.make("back", stamp, "Back", discord.ButtonStyle.secondary)
    if game.phase == "over":
        view.add_item(GoldfishButton.make("new", stamp, "New game", discord.ButtonStyle.success))
        view.add_item(GoldfishButton.make("replay", stamp, "Replay this seed", discord.ButtonStyle.secondary))
        if game.undo_problem is None:
            view.add_item(GoldfishButton.make("undo", stamp, "Undo", discord.ButtonStyle.secondary))
        return view
    if mode and mode[0] == "draft":
        return draft_view(game, stamp, mode[1])
    if mode and mode[0] == "find":
        _, iid, ability = mode
        options = [
            _option(card.name, str(card.iid))
            for card in game.search_candidates(iid, ability)[: limits.SELECT_OPTIONS - 1]
        ]
        options.append(_option("Find nothing", FIND_NOTHING, "Fail to find"))
        view.add_item(GoldfishSelect.make(f"gf:find:{stamp}:{iid}:{ability}", "Choose what the search finds…", options))
        view.add_item(back)
        return view
    if mode and mode[0] == "bottom":
        options = [_option(card.name, str(card.iid)) for card in game.zones.hand[: limits.SELECT_OPTIONS]]
        count = min(game.bottom_count(), len(options))
        placeholder = f"Choose {plural(count, 'card')} to put on the bottom…"
        view.add_item(GoldfishSelect.make(f"gf:bottom:{stamp}", placeholder, options, count))
        view.add_item(back)
        return view
    undo = GoldfishButton.make("undo", stamp, "Undo", discord.ButtonStyle.secondary)
    can_undo = game.undo_problem is None
    if game.phase == "mulligan":
        keep = "Keep" if not game.bottom_count() else f"Keep (bottom {game.bottom_count()})"
        view.add_item(GoldfishButton.make("keep", stamp, keep, discord.ButtonStyle.success))
        if game.player.mulligans < 7:
            view.add_item(GoldfishButton.make("mull", stamp, "Mulligan", discord.ButtonStyle.secondary))
        if can_undo:
            view.add_item(undo)
        return view
    if game.phase == "cleanup":
        count = len(game.zones.hand) - 7
        options = [_option(card.name, str(card.iid)) for card in game.zones.hand]
        placeholder = f"Discard {plural(count, 'card')} down to seven (514.1)…"
        payers = game.optional_payers()
        if payers:
            names = ", ".join(payers)
            view.add_item(
                GoldfishSelect.make(f"gf:discard:{stamp}", f"{placeholder} paying {{1}} for {names}", options, count)
            )
            view.add_item(
                GoldfishSelect.make(f"gf:discard0:{stamp}", f"{placeholder} not paying {{1}}", options, count)
            )
        else:
            view.add_item(GoldfishSelect.make(f"gf:discard:{stamp}", placeholder, options, count))
        if can_undo:
            view.add_item(undo)
        return view
    if game.echo_pending():
        decision = game.decision()
        for action in decision.actions:
            name = game.permanent_name(next(p for p in game.zones.battlefield if p.iid == action.iid))
            cost = cost_text(game.book[name].echo or ()) if name in game.book else ""
            if action.pay:
                view.add_item(
                    GoldfishButton.make(
                        "echo", stamp, f"Pay echo {cost} ({name})", discord.ButtonStyle.success, action.iid
                    )
                )
            else:
                view.add_item(
                    GoldfishButton.make("sac", stamp, f"Sacrifice {name}", discord.ButtonStyle.danger, action.iid)
                )
        if can_undo:
            view.add_item(undo)
        return view
    tap = mode[1] if mode and mode[0] == "tap" else ()
    cycle = [
        _option(f"Cycle {o.name}", f"{o.iid}:{o.ability_index}", cycle_label(o))
        for o in game.cycle_options()
        if o.affordable
    ]
    if cycle:
        view.add_item(GoldfishSelect.make(with_lands(f"gf:cycle:{stamp}", tap), "Cycle a card…", cycle))
    lands = [
        _option(face.name if len(faces) > 1 else card.name, f"{card.iid}:{face.index}" if face.index else str(card.iid))
        for card in game.playable_lands()
        for faces in [game.book[card.name].land_faces]
        for face in faces
    ]
    if lands:
        view.add_item(GoldfishSelect.make(f"gf:land:{stamp}", "Play a land…", lands))
    casts = [
        _option(f"Cast {o.name}", str(o.iid), o.cost + ("" if o.modelled else " · effect not modelled"))
        for o in game.cast_options()
        if o.affordable
    ]
    if casts:
        view.add_item(GoldfishSelect.make(with_lands(f"gf:cast:{stamp}", tap), "Cast a spell…", casts))
    sources = game.mana_sources()
    if (cycle or casts) and len(sources) > 1:
        options = [
            _option(game.permanent_name(p), str(p.iid), None) for p in game.zones.battlefield if p.iid in dict(sources)
        ]
        for option in options:
            option.default = int(option.value) in tap
        view.add_item(
            GoldfishSelect.make(
                f"gf:tap:{stamp}", "Lands to tap for the next payment (optional)…", options, len(options), least=0
            )
        )
    if game.phase == "upkeep":
        for card in game.upkeep_offers():
            label = f"Return {card.name} to hand"
            view.add_item(GoldfishButton.make("act", stamp, label, discord.ButtonStyle.success, card.iid))
    label = {"main": "Next turn", "end_step": "My turn", "upkeep": "Draw step"}.get(game.phase, "Next turn")
    view.add_item(GoldfishButton.make("next", stamp, label, discord.ButtonStyle.primary))
    if can_undo:
        view.add_item(undo)
    view.add_item(GoldfishButton.make("grave", stamp, "Graveyard", discord.ButtonStyle.secondary))
    view.add_item(GoldfishButton.make("lib", stamp, "Library", discord.ButtonStyle.secondary))
    return view


def with_lands(custom_id: str, tap: tuple[int, ...]) -> str:
    """``custom_id`` with the lands chosen to tap (``:t12+14``): as many as fit Discord's 100 characters (about a
    dozen; past them the engine chooses the rest)."""
    chosen = ""
    for iid in tap:
        more = f"{chosen}+{iid}" if chosen else f":t{iid}"
        if len(custom_id) + len(more) > limits.CUSTOM_ID:
            break
        chosen = more
    return custom_id + chosen


def find_asked(option: CycleOption) -> str:
    """A typecycling typed without ``find:``: what it needs, privately, while the table offers the choice."""
    what = f"a {escape(option.search)} card" if option.search else "a card"
    return (
        f"**{escape(option.name)}**'s {escape(cycle_label(option))} searches your library for {what}: choose what it "
        "finds in the table's menu, or run the command again with `find:` (a card's name, or `nothing`)."
    )


def find_mode_note(option: CycleOption) -> str:
    what = f" for {escape(option.search)}" if option.search else ""
    return f"**{escape(option.name)}**: {escape(cycle_label(option))}. Choose what the search{what} finds."


def hand_embed(game: Game, symbols: SymbolText = PLAIN) -> discord.Embed:
    lines = hand_lines(game)
    if game.phase != "over":
        for option in game.cycle_options():
            if option.search:
                lines.append(
                    f"↳ {escape(option.name)}: {escape(cycle_label(option))} searches for {escape(option.search)}"
                )
    embed = discord.Embed(
        title=f"Hand ({len(game.zones.hand)}) · mana {game.available_mana() or 'none'}",
        description=fit_lines(lines, limits.EMBED_DESCRIPTION, empty="empty"),
        colour=TEAL,
    )
    return with_symbols(embed, symbols)


def zone_embed(game: Game, zone: str) -> discord.Embed:
    """The graveyard (oldest first) or the library's contents (counted by name: its order stays hidden)."""
    if zone == "graveyard":
        lines = [f"{n}. {escape(card.name)}" for n, card in enumerate(game.zones.graveyard, 1)]
        title = f"Graveyard ({plural(len(game.zones.graveyard), 'card')})"
    else:
        counts = Counter(card.name for card in game.zones.library)
        lines = [f"{count} × {escape(name)}" for name, count in sorted(counts.items())]
        title = f"Library ({plural(len(game.zones.library), 'card')}, shown by name: the order stays hidden)"
    return discord.Embed(
        title=clip(title, limits.EMBED_TITLE),
        description=fit_lines(lines, limits.EMBED_DESCRIPTION, empty="empty"),
        colour=TEAL,
    )


def log_pages(game: Game, *, shared: bool = False) -> list[discord.Embed]:
    """The whole log, a page per 1,800 characters; in a shared game every line names who acted."""
    lines = log_lines(game, shared=shared) or ["Nothing has happened yet."]
    title = f"Goldfish log · {escape(clip(game.deck_name, 200))}"
    return [discord.Embed(title=title, description=block) for block in chunk_lines(lines, 1800)]


def stats_embed(user: discord.abc.User, stats: PlayerStats | None) -> discord.Embed:
    name = escape(user.display_name, typed=True)
    embed = discord.Embed(title=clip(f"Goldfish statistics · {name}", limits.EMBED_TITLE), colour=TEAL)
    if stats is None:
        embed.description = "No statistics yet: start a game with `/goldfish start`."
        return embed
    embed.description = f"Updated {discord_time(stats.updated_at)}"
    for label, value in stats.rows():
        embed.add_field(name=label, value=value, inline=True)
    embed.set_footer(text="/goldfish stats forget deletes them")
    return embed
