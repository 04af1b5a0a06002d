"""Reading what players type and pick: card values, select values, "a card in your hand"."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Protocol

import discord
from discord import app_commands

from bot import limits
from bot.carddb import normalise
from bot.goldfish.engine import CardInstance, Game, IllegalAction
from bot.goldfish.practice import DEFAULT_GAMES, DEFAULT_TURNS, MAX_GAMES, MAX_TURNS
from bot.goldfish.table import cycle_label
from bot.text import Entry, Matcher, clip, escape, one_line

FIND_NOTHING = "nothing"
MAX_NAME_CHARS = 100
TAP_HELP = 'The lands to tap, by name, separated by commas ("Swamp, Island"); default: the best ones'
# The options of the /goldfish commands, each described once (``cogs._commands.described``): by the command's and
# the option's names where a name means something else in another command, else by the option's name.
OPTION_HELP = {
    "start.seed": "Shuffle seed, to replay the same game",
    "play_first": "Be on the play (default) or on the draw",
    "shared": "Let anyone in this channel play the game (default: only you)",
    "thread": "Play in a new thread of this channel (where the bot may create threads)",
    "cycle.card": "A card with cycling in your hand",
    "ability": "Which cycling ability, if it has several",
    "find": "What to find",
    "tap": TAP_HELP,
    "cycle.x": "X, for a cost or trigger with {X} (Decree of Justice)",
    "cycle.pay": 'Pay {1} for "you may pay {1}" triggers (Lightning Rift, Drake Haven); default yes',
    "sacrifice": "The land to sacrifice, for costs such as Edge of Autumn's",
    "play.card": "A land in your hand",
    "cast.card": "A spell in your hand",
    "cast.x": "X, for a spell with {X} in its cost",
    "cards": "The cards to discard down to seven, separated by commas",
    "echo.pay": "Pay the echo cost (true) or sacrifice the permanent (false)",
    "bottom": "After a mulligan: the cards to put on the bottom, separated by commas",
    "player": "Whose game to end (needs Manage Messages); default: yours, or the shared game",
    "games": f"How many games (default {DEFAULT_GAMES:,}, at most {MAX_GAMES:,})",
    "simulate.turns": f"How many turns each (default {DEFAULT_TURNS}, at most {MAX_TURNS})",
    "on_the_draw": "Be on the draw instead of on the play",
    "simulate.seed": "Base seed: the same seed gives the same figures",
    "copies": "Copies of the card in the deck (or give deck and card)",
    "deck_size": "Cards in the deck (default 60)",
    "odds.wanted": "How many of them you want to have seen (default 1)",
    "odds.turns": "Up to which turn (default 6)",
    "odds.deck": "Your saved deck, or a preset: copies and deck size come from it",
    "odds.card": "A card of that deck",
}
CARD_VALUE = re.compile(r"\s*(\d{1,9})(?::(\d{1,2}))?\s*")
FORGED = "That choice isn't one I offered, so nothing happened. Use the newest game message."


class PlayableGames(Protocol):
    """Where autocomplete reads the channel's game from (the cog answers it, found through ``interaction.client``)."""

    async def autocomplete_game(self, interaction: discord.Interaction) -> Game | None: ...


def matching(offered: Sequence[tuple[str, str]], typed: str, limit: int = limits.AUTOCOMPLETE_CHOICES):
    """The ``(label, value)`` choices that fit what was typed, matched the way card names are everywhere
    (``bot.text.matching``: typos, word order, prefixes), by the card's name (a label's part before " — ")."""
    if not typed.strip():
        return list(offered)[:limit]
    entries = [Entry(label, value) for label, value in offered]
    keys = [(label.split(" — ")[0], index) for index, (label, _) in enumerate(offered)]
    keys += [(label, index) for index, (label, _) in enumerate(offered)]
    return [(entry.name, entry.value) for entry in Matcher(entries, keys).complete(typed, limit)]


def parse_card_value(value: str) -> tuple[int, int | None] | None:
    """``"12"`` or ``"12:1"`` (card iid, cycling ability index) as offered by autocomplete and selects."""
    match = CARD_VALUE.fullmatch(value)
    if not match:
        return None
    return int(match[1]), (int(match[2]) if match[2] else None)


def select_ints(values: Sequence[str], count: int | None = 1) -> list[int]:
    """The card iids a select sent; a forged, empty or non-numeric value is refused, not a crash."""
    if not values or (count is not None and len(values) != count):
        raise IllegalAction(FORGED)
    found = []
    for value in values:
        parsed = parse_card_value(str(value))
        if parsed is None or parsed[1] is not None:
            raise IllegalAction(FORGED)
        found.append(parsed[0])
    return found


def select_card(values: Sequence[str]) -> tuple[int, int]:
    """The ``iid:ability`` value of the cycle select."""
    if len(values) != 1 or (parsed := parse_card_value(str(values[0]))) is None:
        raise IllegalAction(FORGED)
    return parsed[0], parsed[1] or 0


def names_of(game: Game, name: str) -> list[str]:
    """A card's name and each face's, normalised as the lookup compares them ("Tangled Vale" is a name of
    Tangled Florahedron // Tangled Vale; "lorien revealed" of Lórien Revealed)."""
    faces = (game.cards.get(name) or {}).get("card_faces") or ()
    return [normalise(text) for text in [name, *(face.get("name") or "" for face in faces)] if text]


def typed_face(game: Game, card: CardInstance, value: str) -> int:
    """The face a land was named by (a modal double-faced card's back, 712.12), else its first."""
    wanted = normalise(value)
    for face in game.book[card.name].land_faces:
        if wanted and normalise(face.name) == wanted:
            return face.index
    return 0


def hand_card(game: Game, value: str, candidates: Sequence[CardInstance], what: str) -> int:
    """The iid for what the player typed or picked: an autocomplete value, or a card's name or a face's (accents,
    case and punctuation aside), whole or its start."""
    parsed = parse_card_value(value)
    ids = {c.iid for c in candidates}
    if parsed and parsed[0] in ids:
        return parsed[0]
    wanted = normalise(value)
    for exact in (True, False):
        for card in candidates:
            names = names_of(game, card.name)
            if any((name == wanted) if exact else (wanted and name.startswith(wanted)) for name in names):
                return card.iid
    for card in game.zones.hand:
        if wanted and wanted in names_of(game, card.name):
            why = game.land_problem(card) if what == "playable land" else None
            if why:
                raise IllegalAction(f"You can't play {escape(card.name)}: {escape(why)}.")
            raise IllegalAction(f"{escape(card.name)} is in your hand but is not a {what} now.")
    hand = ", ".join(escape(c.name) for c in game.zones.hand) or "empty"
    raise IllegalAction(f"There is no {what} called “{escape(clip(value, 60))}” in your hand. Your hand: {hand}.")


def find_card(game: Game, value: str, candidates: Sequence[CardInstance]) -> int:
    """The card a search is told to find, by what the player typed or picked; a name it can't find is refused
    with what it can (not with the hand, which a search of the library does not look at)."""
    try:
        return hand_card(game, value, candidates, "card")
    except IllegalAction:
        names = ", ".join(sorted({escape(card.name) for card in candidates}))
        raise IllegalAction(
            f"The search can't find a card called “{escape(clip(value, 60), typed=True)}”. It can find: {names}."
        ) from None


def split_names(text: str, known: Sequence[str]) -> list[str]:
    """Names separated by commas, where a name may hold commas itself: "Esika, God of the Tree, Forest" is two
    names when ``known`` (the names that could be meant) has Esika's."""
    norms = {normalise(name) for name in known}
    parts = [part.strip() for part in text.split(",")]
    names, start = [], 0
    while start < len(parts):
        end = next(
            (end for end in range(len(parts), start + 1, -1) if normalise(", ".join(parts[start:end])) in norms),
            start + 1,
        )
        names.append(", ".join(parts[start:end]))
        start = end
    return [name for name in names if name]


def cards_named(game: Game, text: str) -> tuple[int, ...]:
    """Cards in hand named by the player, separated by commas (each card once)."""
    remaining, chosen = list(game.zones.hand), []
    known = [name for card in remaining for name in names_of(game, card.name)]
    for name in split_names(text, known):
        iid = hand_card(game, name, remaining, "card")
        chosen.append(iid)
        remaining = [c for c in remaining if c.iid != iid]
    return tuple(chosen)


def lands_named(game: Game, text: str | None, what: str = "land") -> tuple[int, ...]:
    """The untapped lands the player named, separated by commas: ``"Swamp, Island"``."""
    if not text:
        return ()
    remaining = [p for p in game.zones.battlefield if not p.tapped and game.colours_of(p)]
    chosen = []
    for part in split_names(text, [game.permanent_name(p) for p in remaining]):
        wanted = normalise(part)
        found = next((p for p in remaining if normalise(game.permanent_name(p)) == wanted), None) or next(
            (p for p in remaining if wanted and normalise(game.permanent_name(p)).startswith(wanted)), None
        )
        if found is None:
            names = ", ".join(escape(game.permanent_name(p)) for p in remaining) or "none"
            raise IllegalAction(
                f"You have no untapped {what} called “{escape(clip(part, 60))}”. Your untapped lands: {names}."
            )
        chosen.append(found.iid)
        remaining.remove(found)
    return tuple(chosen)


def permanent_named(game: Game, text: str) -> int:
    """A permanent you control, by name (for "Sacrifice a land")."""
    wanted = normalise(text)
    for exact in (True, False):
        for permanent in game.zones.battlefield:
            name = normalise(game.permanent_name(permanent))
            if (name == wanted) if exact else (wanted and name.startswith(wanted)):
                return permanent.iid
    names = ", ".join(escape(game.permanent_name(p)) for p in game.zones.battlefield) or "nothing"
    raise IllegalAction(f"You control no permanent called “{escape(clip(text, 60))}”. You control: {names}.")


class HandCard(app_commands.Transformer):
    """A card in your hand, for one command: ``cycle`` (cards with cycling), ``play`` (lands) or ``cast``.

    Autocomplete offers the matching cards of the channel's game (only to those who may play it);
    the value is the card's id, or what the player typed (resolved by name when the command runs).
    """

    def __init__(self, kind: str) -> None:
        self.kind = kind

    @property
    def type(self) -> discord.AppCommandOptionType:
        return discord.AppCommandOptionType.string

    @property
    def max_value(self) -> int:
        return limits.SELECT_OPTION_LABEL

    @property
    def min_value(self) -> int:
        return 1

    async def transform(self, interaction: discord.Interaction, value: str) -> str:
        return value

    async def autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        games: PlayableGames | None = interaction.client.get_cog("Goldfish")  # type: ignore[union-attr]
        game = await games.autocomplete_game(interaction) if games else None
        if game is None:
            return []
        choices = matching(self.offered(game), current)
        return [
            app_commands.Choice(name=one_line(name), value=value)
            for name, value in choices[: limits.AUTOCOMPLETE_CHOICES]
        ]

    def offered(self, game: Game) -> list[tuple[str, str]]:
        if self.kind == "cycle":
            return [
                (
                    f"{o.name} — {cycle_label(o)}" + ("" if o.affordable else " (can't pay now)"),
                    f"{o.iid}:{o.ability_index}",
                )
                for o in game.cycle_options()
            ]
        if game.phase != "main":
            return []
        if self.kind == "play":
            return [(c.name, str(c.iid)) for c in game.playable_lands()]
        return [
            (f"{o.name} — {o.cost}" + ("" if o.affordable else " (can't pay now)"), str(o.iid))
            for o in game.cast_options()
        ]
