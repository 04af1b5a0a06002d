"""The game table as text: what a game message shows, fitted to Discord's limits but free of Discord.

:func:`table_text` gives the title, description, fields and footer; the Discord shell turns them
into an embed. Card and deck names come from players' decklists, so every one is escaped.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from bot import limits
from bot.goldfish.engine import CycleOption, Event, Game, Permanent, mana_text, shortfall
from bot.text import chunk_lines, clip, escape, fit_lines, plural

RECENT_EVENTS = 6
BATTLEFIELD_FIELDS = 3


@dataclass
class TableText:
    title: str
    description: str
    fields: list[tuple[str, str, bool]] = field(default_factory=list)
    footer: str = ""
    over: bool = False


CITATION = re.compile(r"\b\d{3}\.\d+[a-z]?\b")


def actor_text(actor: int | None) -> str:
    """Who took an action, as Discord shows a user (in an embed a mention names them and pings nobody)."""
    return f"<@{actor}>" if actor is not None else ""


def event_text(event: Event, *, shared: bool = False) -> str:
    """One event for people: its text, the rule behind it once (a text that already cites a rule gets no second
    citation), and in a shared game who acted."""
    rule = f" ({event.rule})" if event.rule and not CITATION.search(event.text) else ""
    who = f"{actor_text(event.actor)}: " if shared and event.actor is not None else ""
    # An undo's line is built from escaped names by table.moves, and names whose move it took back.
    text = event.text if event.kind == "undo" else escape(event.text)
    return f"{who}{text}{rule}"


def event_line(event: Event, *, shared: bool = False) -> str:
    return f"• {event_text(event, shared=shared)}"


def log_lines(game: Game, *, shared: bool = False) -> list[str]:
    """The whole game, one event a line, oldest first; in a shared game each line names who acted."""
    return [event_text(event, shared=shared) for event in game.events]


def cycle_label(option: CycleOption) -> str:
    return option.label or "Cycling"


def hand_lines(game: Game, *, finished: bool = False) -> list[str]:
    """One compact line per card in hand: what it can do now (cycling at its effective cost, play, cast) and
    what is out of reach with the reason; a card whose effect is not modelled says so. Before a hand is kept, and in
    a ``finished`` game (won, lost or ended by hand), each card's costs only: what it could do next is moot."""
    bare = finished or game.phase == "mulligan"  # costs without the reasons they can't be paid, or other notes
    shown = finished or game.phase != "over"
    options: dict[int, list[CycleOption]] = {}
    if shown:
        for option in game.cycle_options():
            options.setdefault(option.iid, []).append(option)
    casts = {o.iid: o for o in game.cast_options()} if shown else {}
    playable = set() if finished else {card.iid for card in game.playable_lands()}
    lines = []
    for card in game.zones.hand:
        parts = []
        for option in options.get(card.iid, []):
            label = cycle_label(option)
            ability = game.book[card.name].cycling[option.ability_index]
            cost = game.cycle_cost(ability)
            if cost.text.lower() not in label.lower():  # "Cycling—Sacrifice a land" names its cost already
                label += f" → {cost.text}"
            if option.affordable or bare:
                parts.append(escape(label))
            else:
                parts.append(f"{escape(label)} ({escape(why_not(game, option.reason, cost.symbols))})")
        if card.iid in playable:
            parts.append("land: playable")
        cast = casts.get(card.iid)
        if cast is not None:
            mark = "" if cast.modelled or finished else " (effect not modelled)"
            if cast.affordable or bare:  # nothing is castable before a hand is kept
                parts.append(f"cast {escape(cast.cost)}{mark}")
            else:
                why = why_not(game, cast.reason, game.cast_symbols(card.name, 0))
                parts.append(f"cast {escape(cast.cost)} ({escape(why)}){mark}")
        detail = f" — {'; '.join(parts)}" if parts else ""
        lines.append(f"• **{escape(card.name)}**{detail}")
    return lines


def why_not(game: Game, reason: str | None, symbols) -> str:
    """Why something can't be done now, in a few words: what mana is missing (``needs {R}``) when mana is the
    problem, else the engine's reason without its rule number (the rules are cited in the log)."""
    if game.phase in ("main", "end_step", "upkeep") and game.mana_problem(symbols) is not None:
        return shortfall(symbols, game.mana_sources())
    return CITATION.sub("", reason or "not now").replace(" ()", "").strip()


def _permanent_key(game: Game, p: Permanent) -> tuple:
    return (not game.is_land(p.name), p.token, game.permanent_name(p), p.power, p.toughness)


def battlefield_lines(game: Game) -> list[str]:
    """Identical permanents stacked on one line: ``Plains ×3 (1 tapped)``; lands first, then by name."""
    counts: Counter[tuple] = Counter()
    tapped: Counter[tuple] = Counter()
    order: list[tuple] = []
    for permanent in sorted(game.zones.battlefield, key=lambda p: _permanent_key(game, p)):
        key = _permanent_key(game, permanent)
        if key not in counts:
            order.append(key)
        counts[key] += 1
        tapped[key] += permanent.tapped
    lines = []
    for key in order:
        _, token, name, power, toughness = key
        text = escape(name)
        if power is not None:
            text += f" {power}/{toughness}"
        count, down = counts[key], tapped[key]
        if count > 1:
            text += f" ×{count}"
        if down and count == 1:
            text += " (tapped)"
        elif down:
            text += " (all tapped)" if down == count else f" ({down} tapped)"
        lines.append(text)
    return lines


def battlefield_fields(game: Game) -> list[tuple[str, str, bool]]:
    """The battlefield over as many fields as it needs (up to a few), never cutting a permanent."""
    lines = battlefield_lines(game)
    if not lines:
        return []
    one_line = ", ".join(lines)
    if len(one_line) <= limits.EMBED_FIELD_VALUE:
        return [("Battlefield", one_line, False)]
    blocks = chunk_lines(lines, limits.EMBED_FIELD_VALUE)
    if len(blocks) > BATTLEFIELD_FIELDS:
        head = blocks[: BATTLEFIELD_FIELDS - 1]
        shown = sum(block.count("\n") + 1 for block in head)
        blocks = [*head, fit_lines(lines[shown:], limits.EMBED_FIELD_VALUE)]
    names = ["Battlefield"] + [f"Battlefield ({n}/{len(blocks)})" for n in range(2, len(blocks) + 1)]
    return [(name, block, False) for name, block in zip(names, blocks, strict=True)]


def status_text(game: Game, *, ended: bool = False) -> str:
    if ended and game.phase != "over":  # ended by hand (/goldfish end), where it stood
        return f"**Game ended** after {plural(game.turn, 'turn')}."
    if game.phase == "mulligan":
        so_far = f"{plural(game.player.mulligans, 'mulligan')} so far" if game.player.mulligans else "no mulligans yet"
        return f"Mulligan: keep this hand or mulligan (London mulligan, 103.5); {so_far}."
    if game.phase == "over":
        return f"**Game over** after {plural(game.turn, 'turn')}: {escape(game.result or 'finished')}."
    side = "on the play" if game.on_the_play else "on the draw"
    if game.phase != "main":
        return f"**Turn {game.turn}** ({side}) · {escape(game.decision().prompt)}"
    land = "land played" if game.player.land_played else "land drop available"
    return f"**Turn {game.turn}** ({side}) · {land}"


def table_text(
    game: Game,
    *,
    owner_id: int,
    shared: bool,
    version: int,
    events: Sequence[Event] = (),
    note: str | None = None,
    ended: bool = False,
) -> TableText:
    """Everything the game message shows; ``events`` are the last action's (else the latest of the game).

    ``version`` is the store's write counter: the controls carry it, people never see it. A shared game is read
    by everyone at the table, so it says whose actions were whose and never speaks to one of them as "You".
    ``ended``: the game was ended by hand where it stood; like a game over, its hand is named without its costs.
    """
    who = f"Shared game started by {actor_text(owner_id)}: anyone here can play" if shared else f"<@{owner_id}>'s game"
    text = TableText(
        title=clip(f"Goldfish · {escape(game.deck_name)}", limits.EMBED_TITLE),  # a player's deck: their words
        description=f"{status_text(game, ended=ended)}\n{who}" + (f"\n\n{note}" if note else ""),
        over=game.phase == "over" or ended,
    )
    players = "Players" if shared else "You"
    text.fields.append(("Life", f"{players} **{game.player.life}** · Opponent **{game.opponent.life}**", True))
    lands = sum(1 for p in game.zones.battlefield if game.is_land(p.name))
    mana = mana_text(game.mana_sources()) if game.phase != "mulligan" else ""
    text.fields.append(("Mana", f"{plural(lands, 'land')} · {mana or 'no mana'} available", True))
    text.fields.append(("Zones", f"Library {len(game.zones.library)} · Graveyard {len(game.zones.graveyard)}", True))
    text.fields += battlefield_fields(game)
    hand = hand_lines(game, finished=text.over)
    text.fields.append((f"Hand ({len(game.zones.hand)})", fit_lines(hand, empty="empty"), False))
    shown = list(events or game.events)
    # The player's own action (the first event) stays in view however many triggers follow it.
    if len(shown) > RECENT_EVENTS:
        shown = [shown[0], *shown[-(RECENT_EVENTS - 1) :]] if events else shown[-RECENT_EVENTS:]
    recent = [event_line(e, shared=shared) for e in shown]
    if recent:
        text.fields.append(("What happened", fit_lines(recent), False))
    side = "on the play" if game.on_the_play else "on the draw"
    text.footer = f"Seed {game.seed} · {side} · /goldfish log for the full log"
    return text
