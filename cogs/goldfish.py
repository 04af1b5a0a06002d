"""/goldfish: practise cycling in a solitaire game, one game a channel, kept in SQLite.

Every action, whether a slash command, a button or a select, goes through :meth:`Goldfish.act`:
under the channel's lock it loads the game, checks who is acting and whether the message they
clicked is still current, applies the engine action, and saves the new state with the version it
read (a stale write changes nothing). Player statistics change in that same transaction.

Buttons and selects are :class:`discord.ui.DynamicItem`s whose custom ids carry the game version
(and the card where one is needed), so they keep working after the bot restarts.
"""

from __future__ import annotations

import asyncio
import logging
import re
import secrets
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import UserFacingError
from bot.goldfish import CycleOption, Deck, Event, Game, IllegalAction, parse_decklist, preset_decks, resolve_decklist
from bot.goldfish.store import GameExistsError, GameStore, StaleGameError, StatsDelta, StoredGame
from bot.scryfall import ScryfallError, ScryfallUnavailable
from bot.text import chunk_lines
from cogs._ui import GuardedView, Paginator, reply, report_error

log = logging.getLogger(__name__)

MAX_DECKLIST_CHARS = 6000
MAX_DECKLIST_CARDS = 250
MAX_OPTION_CHARS = 100
SEED_MAX = 2**31 - 1
DEFAULT_DECK = "slide"
RECENT_EVENTS = 6
SELECT_LIMIT = 25
FIELD_LIMIT = 1024
CARD_ACTIONS = frozenset({"cycle", "play", "cast"})
FIND_NOTHING = "nothing"

CollectionFetcher = Callable[[list[dict]], Awaitable[tuple[list[dict], list[Any]]]]


class Refusal(UserFacingError):
    """A polite no, shown only to the person who asked; nothing changed."""


# --------------------------------------------------------------------------- card lookup seam


def card_lookup(bot: commands.Bot) -> CollectionFetcher | None:
    """Scryfall's ``collection`` lookup from the bot's client, which resolves custom decklists."""
    client = getattr(bot, "scryfall", None)
    return getattr(client, "collection", None)


# --------------------------------------------------------------------------- actions


@dataclass(frozen=True)
class Action:
    """One thing a player does. ``version`` is the game version the player saw (None: the current one)."""

    kind: str  # "mulligan" | "keep" | "cycle" | "play" | "cast" | "next"
    iid: int | None = None
    ability: int = 0
    find: int | None = None
    find_nothing: bool = False
    bottom: tuple[int, ...] = ()
    version: int | None = None


@dataclass
class Table:
    """A channel's game as loaded from the database."""

    channel_id: int
    owner_id: int
    shared: bool
    version: int
    game: Game
    events: list[Event] = field(default_factory=list)

    @classmethod
    def from_record(cls, record: StoredGame) -> Table:
        return cls(record.channel_id, record.owner_id, record.shared, record.version, Game.from_dict(record.state))


def apply(game: Game, action: Action) -> list[Event]:
    if action.kind == "mulligan":
        return game.mulligan()
    if action.kind == "keep":
        return game.keep(list(action.bottom))
    if action.kind == "cycle":
        return game.cycle(action.iid, action.ability, find=action.find, find_nothing=action.find_nothing)
    if action.kind == "play":
        return game.play_land(action.iid)
    if action.kind == "cast":
        return game.cast(action.iid)
    if action.kind == "next":
        return game.next_turn()
    raise ValueError(f"unknown goldfish action {action.kind!r}")


def stats_delta(before: dict[str, int], game: Game) -> StatsDelta:
    after = game.stats

    def grew(key: str) -> int:
        return max(0, int(after.get(key, 0)) - int(before.get(key, 0)))

    return StatsDelta(
        cards_cycled=grew("cards_cycled"),
        typecycling_searches=grew("typecycling_searches"),
        turns=grew("turns"),
        longest_game=int(game.turn),
    )


# --------------------------------------------------------------------------- rendering


def clip(text: str, limit: int = MAX_OPTION_CHARS) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def safe(text: str) -> str:
    """Player-supplied text for an embed: no markdown tricks (mentions never ping anyway)."""
    return discord.utils.escape_markdown(discord.utils.escape_mentions(text))


def join_lines(lines: Sequence[str], limit: int = FIELD_LIMIT, empty: str = "—") -> str:
    out: list[str] = []
    used = 0
    for index, line in enumerate(lines):
        more = f"… and {len(lines) - index} more"
        if used + len(line) + 1 > limit - len(more) - 1:
            out.append(more)
            break
        out.append(line)
        used += len(line) + 1
    return "\n".join(out) or empty


def event_line(event: Event) -> str:
    rule = f" (CR {event.rule})" if event.rule else ""
    return f"• {safe(event.text)}{rule}"


def cycle_label(option: CycleOption) -> str:
    return option.label or "Cycling"


def hand_lines(game: Game) -> list[str]:
    options: dict[int, list[CycleOption]] = {}
    if game.phase != "over":
        for option in game.cycle_options():
            options.setdefault(option.iid, []).append(option)
    playable = {card.iid for card in game.playable_lands()} if game.phase == "main" else set()
    lines = []
    for card in game.hand:
        parts = []
        for option in options.get(card.iid, []):
            if option.affordable or game.phase == "mulligan":
                parts.append(safe(cycle_label(option)))
            else:
                parts.append(f"~~{safe(cycle_label(option))}~~ ✗ {safe(option.reason or 'cannot pay')}")
        if card.iid in playable:
            parts.append("land: playable")
        detail = f" — {'; '.join(parts)}" if parts else ""
        lines.append(f"• **{safe(card.name)}**{detail}")
    return lines


def render_embed(table: Table, *, note: str | None = None) -> discord.Embed:
    game = table.game
    colour = discord.Colour.dark_teal() if game.phase != "over" else discord.Colour.dark_grey()
    embed = discord.Embed(title=clip(f"Goldfish · {game.deck_name}", 256), colour=colour)
    who = f"<@{table.owner_id}>'s game" + (" (shared: anyone here can play)" if table.shared else "")
    if game.phase == "mulligan":
        status = (
            f"Mulligan: keep this hand or mulligan (London mulligan, CR 103.5). Mulligans so far: {game.mulligans}."
        )
    elif game.phase == "over":
        status = f"**Game over** after {game.turn} turns: {safe(game.result or 'finished')}."
    else:
        land = "land played" if game.land_played else "land drop available"
        status = f"**Turn {game.turn}** ({'on the play' if game.on_the_play else 'on the draw'}) · {land}"
    embed.description = f"{status}\n{who}" + (f"\n\n{note}" if note else "")
    embed.add_field(name="Life", value=f"You **{game.life}** · Opponent **{game.opponent_life}**", inline=True)
    lands = [p for p in game.battlefield if game.is_land(p.name)]
    mana = game.available_mana() if game.phase != "mulligan" else ""
    embed.add_field(name="Mana", value=f"{len(lands)} lands · {mana or 'no mana'} available", inline=True)
    embed.add_field(
        name="Zones",
        value=f"Library {len(game.library)} · Graveyard {len(game.graveyard)}",
        inline=True,
    )
    if game.battlefield:
        permanents = [f"{safe(p.name)}{' (tapped)' if p.tapped else ''}" for p in game.battlefield]
        embed.add_field(name="Battlefield", value=join_lines([", ".join(permanents)]), inline=False)
    embed.add_field(name=f"Hand ({len(game.hand)})", value=join_lines(hand_lines(game), empty="empty"), inline=False)
    recent = [event_line(e) for e in table.events[-RECENT_EVENTS:]] or [
        f"• {safe(line)}" for line in game.log[-RECENT_EVENTS:]
    ]
    if recent:
        embed.add_field(name="What happened", value=join_lines(recent), inline=False)
    side = "on the play" if game.on_the_play else "on the draw"
    embed.set_footer(text=f"Seed {game.seed} · {side} · game version {table.version} · /goldfish log for the full log")
    return embed


# --------------------------------------------------------------------------- components


class GoldfishButton(
    discord.ui.DynamicItem[discord.ui.Button], template=r"gf:(?P<kind>next|mull|keep|back):(?P<version>\d+)"
):
    """Next turn, Mulligan, Keep, Back: ``gf:<kind>:<version>``."""

    def __init__(self, button: discord.ui.Button) -> None:
        super().__init__(button)

    @classmethod
    def make(cls, kind: str, version: int, label: str, style: discord.ButtonStyle) -> GoldfishButton:
        return cls(discord.ui.Button(label=label, style=style, custom_id=f"gf:{kind}:{version}"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]):
        return cls(item)

    async def callback(self, interaction: discord.Interaction) -> None:
        match = self.__discord_ui_compiled_template__.fullmatch(self.custom_id)
        await cog_of(interaction).on_button(interaction, match["kind"], int(match["version"]))


class GoldfishSelect(
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"gf:(?P<kind>cycle|land|cast|find|bottom):(?P<version>\d+)(?::(?P<iid>\d+):(?P<ability>\d+))?",
):
    """Card choices: ``gf:cycle|land|cast|bottom:<version>``, ``gf:find:<version>:<iid>:<ability>``."""

    def __init__(self, select: discord.ui.Select) -> None:
        super().__init__(select)

    @classmethod
    def make(cls, custom_id: str, placeholder: str, options: list[discord.SelectOption], count: int = 1):
        select = discord.ui.Select(
            custom_id=custom_id,
            placeholder=clip(placeholder, 150),
            options=options[:SELECT_LIMIT],
            min_values=count,
            max_values=count,
        )
        return cls(select)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match[str]):
        return cls(item)

    async def callback(self, interaction: discord.Interaction) -> None:
        match = self.__discord_ui_compiled_template__.fullmatch(self.custom_id)
        values = list((interaction.data or {}).get("values") or [])
        card = (int(match["iid"]), int(match["ability"])) if match["iid"] else None
        await cog_of(interaction).on_select(interaction, match["kind"], int(match["version"]), values, card)


def cog_of(interaction: discord.Interaction) -> Goldfish:
    cog = interaction.client.get_cog("Goldfish")  # type: ignore[union-attr]
    if cog is None:
        raise Refusal("Goldfish games are unavailable right now.")
    return cog


def render_view(table: Table, *, mode: tuple | None = None) -> discord.ui.View:
    """The controls for the game as it is; ``mode`` is ``("find", iid, ability)`` or ``("bottom",)``."""
    game, version = table.game, table.version
    view = discord.ui.View(timeout=None)
    if game.phase == "over":
        return view
    back = GoldfishButton.make("back", version, "Back", discord.ButtonStyle.secondary)
    if mode and mode[0] == "find":
        _, iid, ability = mode
        options = [
            discord.SelectOption(label=clip(card.name), value=str(card.iid))
            for card in game.search_candidates(iid, ability)[: SELECT_LIMIT - 1]
        ]
        options.append(discord.SelectOption(label="Find nothing", value=FIND_NOTHING, description="Fail to find"))
        view.add_item(
            GoldfishSelect.make(f"gf:find:{version}:{iid}:{ability}", "Choose what the search finds…", options)
        )
        view.add_item(back)
        return view
    if mode and mode[0] == "bottom":
        options = [
            discord.SelectOption(label=clip(card.name), value=str(card.iid)) for card in game.hand[:SELECT_LIMIT]
        ]
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
        discord.SelectOption(
            label=clip(f"Cycle {option.name}"),
            value=f"{option.iid}:{option.ability_index}",
            description=clip(cycle_label(option)),
        )
        for option in game.cycle_options()
        if option.affordable
    ]
    if cycle:
        view.add_item(GoldfishSelect.make(f"gf:cycle:{version}", "Cycle a card…", cycle))
    lands = [discord.SelectOption(label=clip(card.name), value=str(card.iid)) for card in game.playable_lands()]
    if lands:
        view.add_item(GoldfishSelect.make(f"gf:land:{version}", "Play a land…", lands))
    casts = [
        discord.SelectOption(label=clip(f"Cast {option.name}"), value=str(option.iid), description=clip(option.cost))
        for option in game.cast_options()
        if option.affordable
    ]
    if casts:
        view.add_item(GoldfishSelect.make(f"gf:cast:{version}", "Cast a payoff permanent…", casts))
    view.add_item(GoldfishButton.make("next", version, "Next turn", discord.ButtonStyle.primary))
    return view


def find_mode_note(option: CycleOption) -> str:
    what = f" for {safe(option.search)}" if option.search else ""
    return f"**{safe(option.name)}**: {safe(cycle_label(option))}. Choose what the search{what} finds."


class ConfirmReplace(GuardedView):
    """Replace / Cancel, for whoever asked to start a game over an unfinished one."""

    def __init__(self, cog: Goldfish, owner_id: int, start: Callable[[discord.Interaction], Awaitable[None]]) -> None:
        super().__init__(owner_id, timeout=120)
        self.cog = cog
        self.start = start

    @discord.ui.button(label="Replace the game", style=discord.ButtonStyle.danger)
    async def confirm(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        self.stop()
        await interaction.response.edit_message(content="Starting the new game…", view=None)
        async with self.cog.refusals(interaction):
            await self.start(interaction)

    @discord.ui.button(label="Keep the current game", style=discord.ButtonStyle.secondary)
    async def cancel(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        self.stop()
        await interaction.response.edit_message(content="Nothing changed: the current game goes on.", view=None)


# --------------------------------------------------------------------------- the cog


def stats_embed(user: discord.abc.User, stats) -> discord.Embed:
    embed = discord.Embed(title=f"Goldfish statistics · {user.display_name}"[:256], colour=discord.Colour.dark_teal())
    if stats is None:
        embed.description = "No statistics yet: start a game with `/goldfish start`."
        return embed
    for name, value in (
        ("Games started", stats.games),
        ("Cards cycled", stats.cards_cycled),
        ("Typecycling searches", stats.typecycling_searches),
        ("Turns played", stats.turns),
        ("Longest game", f"{stats.longest_game} turns"),
    ):
        embed.add_field(name=name, value=str(value), inline=True)
    embed.set_footer(text=f"Updated {stats.updated_at} · /goldfish stats forget deletes them")
    return embed


def parse_card_value(value: str) -> tuple[int, int | None] | None:
    match = re.fullmatch(r"\s*(\d{1,9})(?::(\d{1,2}))?\s*", value)
    if not match:
        return None
    return int(match[1]), (int(match[2]) if match[2] else None)


def split_decklist(text: str) -> str:
    """A decklist typed in one line: entries may be separated by ``;`` as well as by newlines."""
    return "\n".join(part.strip() for part in re.split(r"[;\n]", text) if part.strip())


class Goldfish(commands.Cog):
    goldfish = app_commands.Group(
        name="goldfish", description="Practise cycling in a solitaire game in this channel", guild_only=True
    )
    stats = app_commands.Group(name="stats", description="Your goldfish statistics", parent=goldfish)

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.store: GameStore
        self.fetch_collection: CollectionFetcher | None = None
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()

    async def cog_load(self) -> None:
        self.store = GameStore(self.bot.db)  # type: ignore[attr-defined]
        self.bot.add_dynamic_items(GoldfishButton, GoldfishSelect)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(GoldfishButton, GoldfishSelect)

    # ------------------------------------------------------------ plumbing

    def lock(self, channel_id: int) -> asyncio.Lock:
        lock = self._locks.get(channel_id)
        if lock is None:
            lock = self._locks[channel_id] = asyncio.Lock()
        return lock

    @asynccontextmanager
    async def refusals(self, interaction: discord.Interaction) -> AsyncIterator[None]:
        """A :class:`Refusal` becomes an ephemeral answer; anything else is reported and re-raised."""
        try:
            yield
        except Refusal as refusal:
            await reply(interaction, str(refusal), ephemeral=True)
        except (discord.HTTPException, app_commands.AppCommandError):
            raise
        except Exception as error:
            if interaction.command is None:  # components: the tree's error handler never sees these
                await report_error(interaction, error)
            raise

    async def load_table(self, channel_id: int) -> Table:
        record = await self.store.load(channel_id)
        if record is None:
            raise Refusal("There is no goldfish game in this channel. Start one with `/goldfish start`.")
        return Table.from_record(record)

    @staticmethod
    def check_player(table: Table, user_id: int) -> None:
        if table.shared or table.owner_id == user_id:
            return
        raise Refusal(
            f"This is <@{table.owner_id}>'s goldfish game, so only they can play it. "
            "Start your own with `/goldfish start` in another channel, or ask them to start one with `shared:true`."
        )

    @staticmethod
    def check_fresh(table: Table, action: Action) -> None:
        game = table.game
        if game.phase == "over":
            raise Refusal("This game is over. Start a new one with `/goldfish start`.")
        if action.kind in CARD_ACTIONS and action.iid is not None and all(c.iid != action.iid for c in game.hand):
            raise Refusal(
                "That card is gone: it is no longer in the hand (it was probably just used). "
                "The newest game message shows what you can do now."
            )
        if action.version is not None and action.version != table.version and action.kind not in CARD_ACTIONS:
            raise Refusal(
                "The game has moved on since this message was posted, so nothing happened. "
                "Use the newest game message, or `/goldfish status` to post it again."
            )

    async def act(self, channel_id: int, user_id: int, action: Action) -> Table:
        """Load → check → act → save, under the channel's lock; the table carries the action's events."""
        async with self.lock(channel_id):
            table = await self.load_table(channel_id)
            self.check_player(table, user_id)
            self.check_fresh(table, action)
            game = table.game
            before = dict(game.stats)
            try:
                events = apply(game, action)
            except IllegalAction as illegal:
                raise Refusal(str(illegal)) from None
            try:
                table.version = await self.store.save(
                    channel_id, game.to_dict(), table.version, user_id=user_id, stats=stats_delta(before, game)
                )
            except StaleGameError:
                raise Refusal("The game changed at the same moment, so nothing happened. Please try again.") from None
            table.events = events
            return table

    def can_manage(self, interaction: discord.Interaction) -> bool:
        return interaction.permissions.manage_messages

    async def post(self, interaction: discord.Interaction, table: Table, *, mode=None, note=None) -> None:
        """A new public game message (slash commands)."""
        await reply(interaction, embed=render_embed(table, note=note), view=render_view(table, mode=mode))

    async def show(self, interaction: discord.Interaction, table: Table, *, mode=None, note=None) -> None:
        """The clicked game message, updated in place (components)."""
        await interaction.response.edit_message(
            embed=render_embed(table, note=note), view=render_view(table, mode=mode)
        )

    async def run(self, interaction: discord.Interaction, action: Action, *, edit: bool) -> None:
        table = await self.act(interaction.channel_id, interaction.user.id, action)
        await (self.show if edit else self.post)(interaction, table)

    # ------------------------------------------------------------ components

    async def on_button(self, interaction: discord.Interaction, kind: str, version: int) -> None:
        async with self.refusals(interaction):
            if kind == "next":
                await self.run(interaction, Action("next", version=version), edit=True)
            elif kind == "mull":
                await self.run(interaction, Action("mulligan", version=version), edit=True)
            elif kind == "keep":
                table = await self.viewable(interaction, version)
                if table.game.mulligans:
                    await self.show(interaction, table, mode=("bottom",))
                else:
                    await self.run(interaction, Action("keep", version=version), edit=True)
            elif kind == "back":
                await self.show(interaction, await self.viewable(interaction, version))

    async def viewable(self, interaction: discord.Interaction, version: int) -> Table:
        """The game for a control that changes only the message, after the same checks as an action."""
        table = await self.load_table(interaction.channel_id)
        self.check_player(table, interaction.user.id)
        self.check_fresh(table, Action("view", version=version))
        return table

    async def on_select(
        self,
        interaction: discord.Interaction,
        kind: str,
        version: int,
        values: list[str],
        card: tuple[int, int] | None,
    ) -> None:
        async with self.refusals(interaction):
            if kind == "cycle":
                iid, ability = parse_card_value(values[0]) or (0, 0)
                await self.cycle_chosen(interaction, iid, ability or 0, version, edit=True)
            elif kind == "find":
                iid, ability = card
                nothing = values[0] == FIND_NOTHING
                action = Action(
                    "cycle",
                    iid,
                    ability,
                    find=None if nothing else int(values[0]),
                    find_nothing=nothing,
                    version=version,
                )
                await self.run(interaction, action, edit=True)
            elif kind == "land":
                await self.run(interaction, Action("play", int(values[0]), version=version), edit=True)
            elif kind == "cast":
                await self.run(interaction, Action("cast", int(values[0]), version=version), edit=True)
            elif kind == "bottom":
                bottom = tuple(int(v) for v in values)
                await self.run(interaction, Action("keep", bottom=bottom, version=version), edit=True)

    async def cycle_chosen(
        self, interaction: discord.Interaction, iid: int, ability: int, version: int | None, *, edit: bool
    ) -> None:
        """Cycle now, or first ask what a search finds (typecycling and "when you cycle" searches)."""
        table = await self.load_table(interaction.channel_id)
        self.check_player(table, interaction.user.id)
        self.check_fresh(table, Action("cycle", iid, ability, version=version))
        option = next((o for o in table.game.cycle_options() if o.iid == iid and o.ability_index == ability), None)
        if option is None:
            raise Refusal("That card has no such cycling ability.")
        if not option.affordable:
            raise Refusal(f"You can't cycle {option.name} now: {option.reason or 'you cannot pay the cost'}.")
        if option.search and table.game.search_candidates(iid, ability):
            note = find_mode_note(option)
            await (self.show if edit else self.post)(interaction, table, mode=("find", iid, ability), note=note)
            return
        action = Action("cycle", iid, ability, find_nothing=bool(option.search), version=version)
        await self.run(interaction, action, edit=edit)

    # ------------------------------------------------------------ /goldfish start

    @goldfish.command(name="start")
    @app_commands.describe(
        deck="A preset deck: slide, landcycling or two-colour (default slide)",
        decklist='Your own list, entries separated by ";" or new lines: "4 Street Wraith; 4 Ash Barrens; 16 Plains"',
        seed="Shuffle seed, to replay the same game",
        play_first="Be on the play (default) or on the draw",
        shared="Let anyone in this channel play the game (default: only you)",
    )
    async def start(
        self,
        interaction: discord.Interaction,
        deck: app_commands.Range[str, 1, MAX_OPTION_CHARS] | None = None,
        decklist: app_commands.Range[str, 1, MAX_DECKLIST_CHARS] | None = None,
        seed: app_commands.Range[int, 0, SEED_MAX] | None = None,
        play_first: bool = True,
        shared: bool = False,
    ) -> None:
        """Start a goldfish game in this channel: a preset deck or your own decklist."""
        async with self.refusals(interaction):
            if deck and decklist:
                raise Refusal("Choose either a preset `deck` or your own `decklist`, not both.")
            existing = await self.store.load(interaction.channel_id)
            replace = existing is not None and Game.from_dict(existing.state).phase != "over"
            if replace and existing.owner_id != interaction.user.id and not self.can_manage(interaction):
                raise Refusal(
                    f"This channel already has a goldfish game by <@{existing.owner_id}>. "
                    "Only they or someone with Manage Messages can replace it; or use another channel."
                )
            if decklist:
                await interaction.response.defer(ephemeral=True, thinking=True)
                built = await self.custom_deck(decklist)
            else:
                built = self.preset(deck or DEFAULT_DECK)
            game_seed = secrets.randbelow(SEED_MAX) if seed is None else seed
            try:
                game = Game.new(built, seed=game_seed, on_the_play=play_first)
            except IllegalAction as illegal:
                raise Refusal(f"I can't start a game with that deck: {illegal}") from None

            async def begin(answer: discord.Interaction) -> None:
                record = await self.create(answer, game, shared, existing.version if existing else None)
                table = Table.from_record(record)
                if answer is interaction and decklist:
                    # Deferred ephemerally: the first follow-up answers privately, the second is the game.
                    await answer.followup.send(
                        f"Deck ready: {safe(built.name)} ({built.size()} cards).", ephemeral=True
                    )
                    await answer.followup.send(embed=render_embed(table), view=render_view(table))
                elif answer.response.is_done():
                    # The Replace button already answered by closing the question.
                    await answer.followup.send(embed=render_embed(table), view=render_view(table))
                else:
                    await self.post(answer, table)

            if replace:
                view = ConfirmReplace(self, interaction.user.id, begin)
                owner = "your" if existing.owner_id == interaction.user.id else f"<@{existing.owner_id}>'s"
                await reply(
                    interaction,
                    f"This channel already has {owner} goldfish game in progress. Replace it with a new one?",
                    view=view,
                    ephemeral=True,
                )
                view.message = await interaction.original_response()
            else:
                await begin(interaction)

    async def create(self, interaction: discord.Interaction, game: Game, shared: bool, replace_version: int | None):
        async with self.lock(interaction.channel_id):
            try:
                return await self.store.create(
                    channel_id=interaction.channel_id,
                    guild_id=interaction.guild_id,
                    owner_id=interaction.user.id,
                    shared=shared,
                    state=game.to_dict(),
                    replace_version=replace_version,
                    stats=StatsDelta(games=1),
                )
            except GameExistsError:
                raise Refusal("Someone started a game in this channel at the same moment; try again.") from None
            except StaleGameError:
                raise Refusal("The game changed while you were deciding, so nothing was replaced.") from None

    @staticmethod
    def preset(name: str) -> Deck:
        decks = preset_decks()
        key = name.strip().lower()
        if key not in decks:
            names = ", ".join(sorted(decks))
            raise Refusal(f"There is no preset deck called “{clip(safe(name), 60)}”. The preset decks are: {names}.")
        return decks[key]

    async def custom_deck(self, text: str) -> Deck:
        if len(text) > MAX_DECKLIST_CHARS:
            raise Refusal(f"That decklist is too long: at most {MAX_DECKLIST_CHARS} characters.")
        try:
            entries = parse_decklist(split_decklist(text))
        except IllegalAction as illegal:
            raise Refusal(f"I couldn't read that decklist: {illegal}") from None
        if not entries:
            raise Refusal('I found no cards in that decklist. Write entries like "4 Street Wraith; 20 Plains".')
        total = sum(count for count, *_ in entries)
        if total > MAX_DECKLIST_CARDS:
            raise Refusal(f"That decklist has {total} cards; a goldfish deck can have at most {MAX_DECKLIST_CARDS}.")
        fetch = self.fetch_collection or card_lookup(self.bot)
        if fetch is None:
            raise Refusal(
                "Custom decklists need the card lookup feature, which this bot doesn't have right now. "
                "Try a preset deck: " + ", ".join(sorted(preset_decks())) + "."
            )
        try:
            built, unknown = await resolve_decklist(entries, fetch)
        except IllegalAction as illegal:
            raise Refusal(f"I can't use that decklist: {illegal}") from None
        except (ScryfallError, ScryfallUnavailable) as error:
            raise Refusal(f"I couldn't look the decklist up on Scryfall: {error.user_message()}") from None
        if unknown:
            names = ", ".join(clip(safe(name), 60) for name in unknown[:20])
            more = f" and {len(unknown) - 20} more" if len(unknown) > 20 else ""
            raise Refusal(f"I couldn't find these cards: {names}{more}. Check the spelling and try again.")
        return built

    @start.autocomplete("deck")
    async def deck_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        current = current.lower()
        return [
            app_commands.Choice(name=clip(f"{key} — {deck.name}"), value=key)
            for key, deck in sorted(preset_decks().items())
            if current in key or current in deck.name.lower()
        ][:SELECT_LIMIT]

    # ------------------------------------------------------------ play commands

    async def my_table(self, interaction: discord.Interaction) -> Table:
        table = await self.load_table(interaction.channel_id)
        self.check_player(table, interaction.user.id)
        return table

    @staticmethod
    def hand_card(table: Table, value: str, candidates: Sequence, what: str) -> int:
        """The iid for what the player typed or picked: an autocomplete value or a card name."""
        parsed = parse_card_value(value)
        ids = {c.iid for c in candidates}
        if parsed and parsed[0] in ids:
            return parsed[0]
        wanted = value.strip().casefold()
        for exact in (True, False):
            for card in candidates:
                name = card.name.casefold()
                if (name == wanted) if exact else (wanted and name.startswith(wanted)):
                    return card.iid
        hand = ", ".join(safe(c.name) for c in table.game.hand) or "empty"
        raise Refusal(f"There is no {what} called “{clip(safe(value), 60)}” in your hand. Your hand: {hand}.")

    @goldfish.command(name="cycle")
    @app_commands.describe(
        card="A card with cycling in your hand", ability="Which cycling ability, if it has several", find="What to find"
    )
    async def cycle(
        self,
        interaction: discord.Interaction,
        card: app_commands.Range[str, 1, MAX_OPTION_CHARS],
        ability: app_commands.Range[int, 1, 9] | None = None,
        find: app_commands.Range[str, 1, MAX_OPTION_CHARS] | None = None,
    ) -> None:
        """Cycle a card from your hand (CR 702.29): pay the cost, discard it, draw or search."""
        async with self.refusals(interaction):
            table = await self.my_table(interaction)
            game = table.game
            if game.phase == "over":
                raise Refusal("This game is over. Start a new one with `/goldfish start`.")
            options = game.cycle_options()
            cyclers = [c for c in game.hand if any(o.iid == c.iid for o in options)]
            iid = self.hand_card(table, card, cyclers, "card with cycling")
            parsed = parse_card_value(card)
            index = ability - 1 if ability else (parsed[1] if parsed and parsed[0] == iid and parsed[1] else None)
            mine = [o for o in options if o.iid == iid]
            if index is None:
                index = next((o.ability_index for o in mine if o.affordable), mine[0].ability_index)
            option = next((o for o in mine if o.ability_index == index), None)
            if option is None:
                raise Refusal(f"{safe(mine[0].name)} has {len(mine)} cycling abilit{'y' if len(mine) == 1 else 'ies'}.")
            if find is None:
                await self.cycle_chosen(interaction, iid, index, None, edit=False)
                return
            if find.strip().lower() in (FIND_NOTHING, "find nothing", "none"):
                action = Action("cycle", iid, index, find_nothing=True)
            else:
                if not option.search:
                    raise Refusal(f"{safe(option.name)}'s {safe(cycle_label(option))} doesn't search for anything.")
                candidates = game.search_candidates(iid, index)
                found = self.hand_card(table, find, candidates, "card") if candidates else None
                action = Action("cycle", iid, index, find=found, find_nothing=found is None)
            await self.run(interaction, action, edit=False)

    @cycle.autocomplete("card")
    async def cycle_card_autocomplete(self, interaction: discord.Interaction, current: str):
        game = await self.autocomplete_game(interaction)
        if game is None:
            return []
        current = current.casefold()
        return [
            app_commands.Choice(
                name=clip(f"{o.name} — {cycle_label(o)}" + ("" if o.affordable else " (can't pay now)")),
                value=f"{o.iid}:{o.ability_index}",
            )
            for o in game.cycle_options()
            if current in o.name.casefold()
        ][:SELECT_LIMIT]

    @cycle.autocomplete("find")
    async def cycle_find_autocomplete(self, interaction: discord.Interaction, current: str):
        game = await self.autocomplete_game(interaction)
        parsed = parse_card_value(str(interaction.namespace.card or ""))
        if game is None or parsed is None:
            return []
        iid, index = parsed
        try:
            candidates = game.search_candidates(iid, index or 0)
        except IllegalAction:
            return []
        current = current.casefold()
        choices = [
            app_commands.Choice(name=clip(c.name), value=str(c.iid)) for c in candidates if current in c.name.casefold()
        ]
        return [*choices[: SELECT_LIMIT - 1], app_commands.Choice(name="Find nothing", value=FIND_NOTHING)]

    async def autocomplete_game(self, interaction: discord.Interaction) -> Game | None:
        record = await self.store.load(interaction.channel_id)
        if record is None or not (record.shared or record.owner_id == interaction.user.id):
            return None
        game = Game.from_dict(record.state)
        return None if game.phase == "over" else game

    @goldfish.command(name="play")
    @app_commands.describe(card="A land in your hand")
    async def play(self, interaction: discord.Interaction, card: app_commands.Range[str, 1, MAX_OPTION_CHARS]) -> None:
        """Play a land from your hand (one a turn, CR 305.2)."""
        async with self.refusals(interaction):
            table = await self.my_table(interaction)
            if table.game.phase != "main":
                raise Refusal("You can play a land once the game is under way (keep your hand first).")
            iid = self.hand_card(table, card, table.game.playable_lands(), "playable land")
            await self.run(interaction, Action("play", iid), edit=False)

    @play.autocomplete("card")
    async def play_autocomplete(self, interaction: discord.Interaction, current: str):
        game = await self.autocomplete_game(interaction)
        if game is None or game.phase != "main":
            return []
        current = current.casefold()
        return [
            app_commands.Choice(name=clip(c.name), value=str(c.iid))
            for c in game.playable_lands()
            if current in c.name.casefold()
        ][:SELECT_LIMIT]

    @goldfish.command(name="cast")
    @app_commands.describe(card="A payoff permanent in your hand, such as Astral Slide or Lightning Rift")
    async def cast(self, interaction: discord.Interaction, card: app_commands.Range[str, 1, MAX_OPTION_CHARS]) -> None:
        """Cast a cycling payoff permanent from your hand so its abilities work."""
        async with self.refusals(interaction):
            table = await self.my_table(interaction)
            if table.game.phase != "main":
                raise Refusal("You can cast spells once the game is under way (keep your hand first).")
            options = table.game.cast_options()
            castable = [c for c in table.game.hand if any(o.iid == c.iid for o in options)]
            iid = self.hand_card(table, card, castable, "payoff permanent")
            await self.run(interaction, Action("cast", iid), edit=False)

    @cast.autocomplete("card")
    async def cast_autocomplete(self, interaction: discord.Interaction, current: str):
        game = await self.autocomplete_game(interaction)
        if game is None or game.phase != "main":
            return []
        current = current.casefold()
        return [
            app_commands.Choice(
                name=clip(f"{o.name} — {o.cost}" + ("" if o.affordable else " (can't pay now)")), value=str(o.iid)
            )
            for o in game.cast_options()
            if current in o.name.casefold()
        ][:SELECT_LIMIT]

    @goldfish.command(name="next")
    async def next_turn(self, interaction: discord.Interaction) -> None:
        """End this turn and play the next: untap, upkeep, draw."""
        async with self.refusals(interaction):
            await self.run(interaction, Action("next"), edit=False)

    @goldfish.command(name="mulligan")
    async def mulligan(self, interaction: discord.Interaction) -> None:
        """Shuffle your hand away and draw seven again (London mulligan, CR 103.5)."""
        async with self.refusals(interaction):
            await self.run(interaction, Action("mulligan"), edit=False)

    @goldfish.command(name="keep")
    @app_commands.describe(bottom="After a mulligan: the cards to put on the bottom, separated by commas")
    async def keep(
        self, interaction: discord.Interaction, bottom: app_commands.Range[str, 1, 1000] | None = None
    ) -> None:
        """Keep your hand and begin turn 1."""
        async with self.refusals(interaction):
            table = await self.my_table(interaction)
            game = table.game
            if game.phase != "mulligan":
                raise Refusal("There is no hand to keep: the game is already under way.")
            if not game.mulligans:
                await self.run(interaction, Action("keep"), edit=False)
                return
            if not bottom:
                await self.post(interaction, table, mode=("bottom",))
                return
            remaining = list(game.hand)
            chosen = []
            for name in (part for part in bottom.split(",") if part.strip()):
                iid = self.hand_card(table, name, remaining, "card")
                chosen.append(iid)
                remaining = [c for c in remaining if c.iid != iid]
            if len(chosen) != game.mulligans:
                raise Refusal(f"Put exactly {game.mulligans} card(s) on the bottom; you named {len(chosen)}.")
            await self.run(interaction, Action("keep", bottom=tuple(chosen)), edit=False)

    # ------------------------------------------------------------ looking at the game

    @goldfish.command(name="status")
    async def status(self, interaction: discord.Interaction) -> None:
        """Post the game message again, with its buttons."""
        async with self.refusals(interaction):
            await self.post(interaction, await self.load_table(interaction.channel_id))

    @goldfish.command(name="hand")
    async def hand(self, interaction: discord.Interaction) -> None:
        """Your hand, with each cycling cost and what it would search for (only you see it)."""
        async with self.refusals(interaction):
            table = await self.load_table(interaction.channel_id)
            game = table.game
            lines = hand_lines(game)
            if game.phase != "over":
                for option in game.cycle_options():
                    if option.search:
                        lines.append(
                            f"↳ {safe(option.name)}: {safe(cycle_label(option))} searches for {safe(option.search)}"
                        )
            embed = discord.Embed(
                title=f"Hand ({len(game.hand)}) · mana {game.available_mana() or 'none'}",
                description=join_lines(lines, 4000, "empty"),
                colour=discord.Colour.dark_teal(),
            )
            await reply(interaction, embed=embed, ephemeral=True)

    @goldfish.command(name="log")
    async def log_command(self, interaction: discord.Interaction) -> None:
        """The whole game log, page by page (only you see it)."""
        async with self.refusals(interaction):
            table = await self.load_table(interaction.channel_id)
            lines = [safe(line) for line in table.game.log] or ["Nothing has happened yet."]
            pages = [
                discord.Embed(title=f"Goldfish log · {clip(table.game.deck_name, 200)}", description=block)
                for block in chunk_lines(lines, 1800)
            ]
            await Paginator(pages, interaction.user.id).send(interaction, ephemeral=True)

    @goldfish.command(name="end")
    async def end(self, interaction: discord.Interaction) -> None:
        """End the game in this channel (its starter, or anyone with Manage Messages)."""
        async with self.refusals(interaction):
            async with self.lock(interaction.channel_id):
                table = await self.load_table(interaction.channel_id)
                if table.owner_id != interaction.user.id and not self.can_manage(interaction):
                    raise Refusal(
                        f"Only <@{table.owner_id}>, who started this game, or someone with Manage Messages can end it."
                    )
                await self.store.delete(interaction.channel_id)
            game = table.game
            cycled = game.stats.get("cards_cycled", 0)
            await reply(
                interaction,
                f"Goldfish game ended by {interaction.user.mention} after {game.turn} turn(s): "
                f"{cycled} card(s) cycled, opponent at {game.opponent_life} life.",
            )

    # ------------------------------------------------------------ statistics

    @stats.command(name="show")
    async def stats_show(self, interaction: discord.Interaction) -> None:
        """Your goldfish statistics (only you see them)."""
        stats = await self.store.get_stats(interaction.user.id)
        await reply(interaction, embed=stats_embed(interaction.user, stats), ephemeral=True)

    @stats.command(name="forget")
    async def stats_forget(self, interaction: discord.Interaction) -> None:
        """Delete your goldfish statistics (and nothing else)."""
        deleted = await self.store.forget_stats(interaction.user.id)
        if deleted:
            text = (
                "Deleted your goldfish statistics. Nothing else was touched: games in progress go on, "
                "and if you keep playing, new statistics start from zero."
            )
        else:
            text = "I had no goldfish statistics for you, so there was nothing to delete."
        await reply(interaction, text, ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Goldfish(bot))
