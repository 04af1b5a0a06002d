"""The /goldfish commands and the component callbacks: read the interaction, call the service, render."""

from __future__ import annotations

import logging
import secrets

import discord
from discord import app_commands
from discord.ext import commands

from bot import limits
from bot.goldfish import DisplayStore, GameKey, GameService, GameStore, game_of, is_loadable
from bot.goldfish.engine import Action, Game, IllegalAction
from bot.goldfish.table import where_text
from bot.text import escape, one_line, plural
from cogs._commands import command, described
from cogs._ui import reply
from cogs.decks import ANY_DECK, DeckRequest, chosen_deck, deck_options, ready_text
from cogs.goldfish._actions import PendingStart, TableActions, replace_question
from cogs.goldfish._coach import Coaching, add_trend, close_coach, coach_state
from cogs.goldfish._coach import attach as attach_coach
from cogs.goldfish._components import DYNAMIC_ITEMS, Deferral, replace_view
from cogs.goldfish._inputs import (
    FIND_NOTHING,
    MAX_NAME_CHARS,
    OPTION_HELP,
    HandCard,
    cards_named,
    find_card,
    hand_card,
    lands_named,
    matching,
    parse_card_value,
    permanent_named,
)
from cogs.goldfish._looks import attach_looks
from cogs.goldfish._picture import TablePictures
from cogs.goldfish._render import stats_embed
from cogs.goldfish._simulate import attach, close_simulations
from cogs.goldfish._threads import open_thread, thread_problem
from cogs.goldfish._view import attach_view

log = logging.getLogger(__name__)


SEED_MAX = 2**31 - 1
PENDING_STARTS = 256


class Goldfish(Coaching, TableActions, commands.Cog):
    goldfish = app_commands.Group(name="goldfish", description="Practise cycling in a solitaire game in this channel")
    stats = app_commands.Group(name="stats", description="Your goldfish statistics", parent=goldfish)

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.store: GameStore
        self.service: GameService
        self.pending: dict[str, PendingStart] = {}
        self.tables: dict[GameKey, list[int]] = {}
        self.unsaved: set[GameKey] = set()

    async def cog_load(self) -> None:
        self.store = GameStore(self.bot.db)  # type: ignore[attr-defined]
        self.service = GameService(self.store)
        self.pictures = TablePictures(self.bot, DisplayStore(self.bot.db), self.edits)  # type: ignore[attr-defined]
        self.bot.add_dynamic_items(*DYNAMIC_ITEMS)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(*DYNAMIC_ITEMS)
        # The worker processes first: nothing that fails below may leave them running.
        close_simulations(self)
        close_coach(self)
        try:
            await self.pictures.close()
        finally:
            await self.save_tables()

    # ------------------------------------------------------------ /goldfish start

    @command(goldfish, "start")
    @deck_options()
    @described(OPTION_HELP)
    async def start(
        self,
        interaction: discord.Interaction,
        seed: app_commands.Range[int, 0, SEED_MAX] | None = None,
        play_first: bool = True,
        shared: bool = False,
        thread: bool = False,
        wanted: DeckRequest = ANY_DECK,
    ) -> None:
        """Start a goldfish game in this channel: a preset deck, one you saved, or your own list, file or link."""
        if thread and (problem := thread_problem(interaction)):
            raise IllegalAction(problem)
        if wanted.own:  # read and resolved, a link in its site's turn: privately, as the answer begins with it
            await interaction.response.defer(ephemeral=True, thinking=True)
        chosen = await chosen_deck(interaction, wanted)
        if chosen.own is not None and not interaction.response.is_done():
            await interaction.response.defer(ephemeral=True, thinking=True)
        key = GameKey.of(interaction.channel_id, interaction.user.id, shared)
        existing = None
        if not thread:  # a new thread holds no game to replace
            async with Deferral(interaction, update=False):
                existing = await self.service.replaceable(key, interaction.user.id, self.can_manage(interaction))
        ask = existing is not None and is_loadable(existing) and existing.game.phase != "over"
        game_seed = secrets.randbelow(SEED_MAX) if seed is None else seed
        try:
            game = Game.new(chosen.deck, seed=game_seed, on_the_play=play_first)
        except IllegalAction as illegal:
            raise IllegalAction(f"I can't start a game with that deck: {illegal}") from None

        async def begin(answer: discord.Interaction) -> None:
            # A thread's game is announced privately (its table goes to the thread); else the table is the answer.
            async with Deferral(answer, update=False, private=thread):
                place = await open_thread(answer, shared=shared) if thread else None
                record = await self.service.start(
                    channel_id=place.id if place else answer.channel_id,
                    guild_id=answer.guild_id,
                    owner_id=answer.user.id,
                    shared=shared,
                    game=game,
                    replace_version=existing.version if existing else None,
                )
            if answer is interaction and chosen.own is not None:
                # Deferred ephemerally: the first follow-up answers privately, the second is the game.
                await answer.followup.send(ready_text(chosen.deck, chosen.own, play_first), ephemeral=True)
            if place is None:
                await self.replaced(answer, record, existing)
                return
            await self.post_in(place, record)
            whose = "The shared game" if shared else "Your goldfish game"
            await reply(answer, f"{whose} is in its own thread: {place.jump_url}", ephemeral=True)

        if not ask:
            await begin(interaction)
            return
        token = secrets.token_hex(8)
        if len(self.pending) >= PENDING_STARTS:
            self.pending.pop(next(iter(self.pending)))
        self.pending[token] = PendingStart(interaction.user.id, begin)
        await reply(
            interaction, replace_question(existing, interaction.user.id), view=replace_view(token), ephemeral=True
        )

    # ------------------------------------------------------------ play commands

    @command(goldfish, "cycle")
    @described(OPTION_HELP)
    async def cycle(
        self,
        interaction: discord.Interaction,
        card: app_commands.Transform[str, HandCard("cycle")],
        ability: app_commands.Range[int, 1, 9] | None = None,
        find: app_commands.Range[str, 1, MAX_NAME_CHARS] | None = None,
        tap: app_commands.Range[str, 1, MAX_NAME_CHARS * 4] | None = None,
        x: app_commands.Range[int, 0, 20] | None = None,
        pay: bool | None = None,
        sacrifice: app_commands.Range[str, 1, MAX_NAME_CHARS] | None = None,
    ) -> None:
        """Cycle a card from your hand (702.29): pay the cost, discard it, draw or search."""
        record = await self.playable(interaction)
        game = game_of(record)
        options = game.cycle_options()
        cyclers = [c for c in game.zones.hand if any(o.iid == c.iid for o in options)]
        iid = hand_card(game, card, cyclers, "card with cycling")
        parsed = parse_card_value(card)
        index = ability - 1 if ability else (parsed[1] if parsed and parsed[0] == iid and parsed[1] else None)
        mine = [o for o in options if o.iid == iid]
        if index is None:
            index = next((o.ability_index for o in mine if o.affordable), mine[0].ability_index)
        option = next((o for o in mine if o.ability_index == index), None)
        if option is None:
            raise IllegalAction(
                f"{escape(mine[0].name)} has {plural(len(mine), 'cycling ability', 'cycling abilities')}."
            )
        lands = lands_named(game, tap)
        chosen = x is not None or pay is not None or sacrifice is not None
        if find is None and not chosen:
            await self.cycle_chosen(interaction, record.key, iid, index, None, edit=False, tap=lands)
            return
        extra = {
            "x": x or 0,
            "pay": True if pay is None else pay,
            "sacrifice": permanent_named(game, sacrifice) if sacrifice else None,
            "tap": lands,
        }
        if find is None:
            action = Action("cycle", iid, index, find_nothing=bool(option.search), **extra)
        elif find.strip().lower() in (FIND_NOTHING, "find nothing", "none"):
            action = Action("cycle", iid, index, find_nothing=True, **extra)
        else:
            if not option.search:
                raise IllegalAction(f"{escape(option.name)}'s {escape(option.label)} doesn't search for anything.")
            candidates = game.search_candidates(iid, index)
            found = find_card(game, find, candidates) if candidates else None
            action = Action("cycle", iid, index, find=found, find_nothing=found is None, **extra)
        await self.run(interaction, record.key, action, seen=None, edit=False)

    @cycle.autocomplete("find")
    async def cycle_find_autocomplete(self, interaction: discord.Interaction, current: str):
        game = await self.autocomplete_game(interaction)
        parsed = parse_card_value(str(interaction.namespace.card or ""))
        if game is None or parsed is None:
            return []
        try:
            candidates = game.search_candidates(parsed[0], parsed[1] or 0)
        except IllegalAction:
            return []
        choices = [
            app_commands.Choice(name=one_line(label), value=value)
            for label, value in matching([(c.name, str(c.iid)) for c in candidates], current)
        ]
        return [
            *choices[: limits.AUTOCOMPLETE_CHOICES - 1],
            app_commands.Choice(name="Find nothing", value=FIND_NOTHING),
        ]

    @command(goldfish, "play")
    @described(OPTION_HELP)
    async def play(self, interaction: discord.Interaction, card: app_commands.Transform[str, HandCard("play")]) -> None:
        """Play a land from your hand (one a turn, CR 305.2)."""
        await self.from_hand(interaction, "play", card)

    @command(goldfish, "cast")
    @described(OPTION_HELP)
    async def cast(
        self,
        interaction: discord.Interaction,
        card: app_commands.Transform[str, HandCard("cast")],
        x: app_commands.Range[int, 0, 20] = 0,
        tap: app_commands.Range[str, 1, MAX_NAME_CHARS * 4] | None = None,
    ) -> None:
        """Cast a spell from your hand: a permanent enters the battlefield, an instant or sorcery resolves."""
        await self.from_hand(interaction, "cast", card, x=x, tap=tap)

    @command(goldfish, "next")
    async def next_turn(self, interaction: discord.Interaction) -> None:
        """End this turn and play the next: untap, upkeep, draw."""
        await self.run(interaction, None, Action("next"), seen=None, edit=False)

    @command(goldfish, "undo")
    async def undo(self, interaction: discord.Interaction) -> None:
        """Take back your last action (the game is replayed from its seed without it)."""
        async with Deferral(interaction, update=False, private=True):
            key = await self.mine(interaction)
            record = await self.service.undo(key, interaction.user.id, tables=self.tables.get(key))
        await self.post(interaction, record, said=f"{record.events[0].text} · {where_text(record.game)}")

    @command(goldfish, "discard")
    @described(OPTION_HELP)
    async def discard(self, interaction: discord.Interaction, cards: app_commands.Range[str, 1, 1000]) -> None:
        """Cleanup: discard down to seven cards (514.1)."""
        record = await self.playable(interaction)
        game = game_of(record)
        if game.phase != "cleanup":
            raise IllegalAction("There is nothing to discard now: you discard in your cleanup step (514.1).")
        await self.run(
            interaction, record.key, Action("discard", cards=cards_named(game, cards)), seen=None, edit=False
        )

    @command(goldfish, "echo")
    @described(OPTION_HELP)
    async def echo(self, interaction: discord.Interaction, pay: bool) -> None:
        """Settle an echo trigger in your upkeep (702.30a)."""
        record = await self.playable(interaction)
        pending = game_of(record).echo_pending()
        if not pending:
            raise IllegalAction("There is no echo trigger waiting: echo triggers in your upkeep (702.30a).")
        await self.run(interaction, record.key, Action("echo", pending[0].iid, pay=pay), seen=None, edit=False)

    @command(goldfish, "mulligan")
    async def mulligan(self, interaction: discord.Interaction) -> None:
        """Shuffle your hand away and draw seven again (London mulligan, CR 103.5)."""
        await self.run(interaction, None, Action("mulligan"), seen=None, edit=False)

    @command(goldfish, "keep")
    @described(OPTION_HELP)
    async def keep(
        self, interaction: discord.Interaction, bottom: app_commands.Range[str, 1, 1000] | None = None
    ) -> None:
        """Keep your hand and begin turn 1."""
        record = await self.playable(interaction)
        game = game_of(record)
        if game.phase != "mulligan":
            raise IllegalAction("There is no hand to keep: the game is already under way.")
        if not game.bottom_count():
            await self.run(interaction, record.key, Action("keep"), seen=None, edit=False)
            return
        if not bottom:
            count = plural(game.bottom_count(), "card")
            said = f"Choose {count} to put on the bottom in the table's menu, or name them with `bottom:`."
            await self.post(interaction, record, mode=("bottom",), said=said)
            return
        chosen = cards_named(game, bottom)
        if len(chosen) != game.bottom_count():
            raise IllegalAction(
                f"Put exactly {plural(game.bottom_count(), 'card')} on the bottom; you named {len(chosen)}."
            )
        await self.run(interaction, record.key, Action("keep", bottom=chosen), seen=None, edit=False)

    @command(goldfish, "end")
    @described(OPTION_HELP)
    async def end(self, interaction: discord.Interaction, player: discord.User | None = None) -> None:
        """End your game in this channel (its starter, or anyone with Manage Messages)."""
        async with Deferral(interaction, update=False):
            if player is not None and player.id != interaction.user.id:
                key = GameKey(interaction.channel_id, player.id)
            else:
                key = await self.mine(interaction)
            record = await self.service.end(key, interaction.user.id, self.can_manage(interaction))
        await self.ended(interaction, record)

    # ------------------------------------------------------------ statistics

    @command(stats, "show")
    async def stats_show(self, interaction: discord.Interaction) -> None:
        """Your goldfish statistics (only you see them)."""
        stats = await self.store.get_stats(interaction.user.id)
        embed = stats_embed(interaction.user, stats)
        add_trend(embed, await coach_state(self).results.recent(interaction.user.id))
        await reply(interaction, embed=embed, ephemeral=True)

    @command(stats, "forget")
    async def stats_forget(self, interaction: discord.Interaction) -> None:
        """Delete your goldfish statistics (and nothing else)."""
        async with Deferral(interaction, update=False):
            deleted = await self.store.forget_stats(interaction.user.id)
        if deleted:
            text = (
                "Deleted your goldfish statistics. Nothing else was touched: games in progress go on, "
                "and if you keep playing, new statistics start from zero."
            )
        else:
            text = "I had no goldfish statistics for you, so there was nothing to delete."
        await reply(interaction, text, ephemeral=True)


attach(Goldfish.goldfish)
attach_view(Goldfish.goldfish)
attach_looks(Goldfish.goldfish)
attach_coach(Goldfish.goldfish)
