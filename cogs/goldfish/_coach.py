"""The goldfish coach in Discord: /goldfish hint, the review posted on a finished game's table, the trend.

The rollouts run in the cog's :class:`~bot.goldfish.practice.simulate.SimulationPool` (worker processes), never on the
event loop: a hint defers at once and is edited in when the rollouts are back, or with the policy's move when
they take longer than ``HINT_SECONDS``. Each player has a fair share of hints (:data:`HINTS`: one measured at a
time, and a cooldown), answered at once and privately past it; one server's players together have half of the hints
measured at once (:data:`MAX_HINTS_PER_SERVER`), the policy's move past it.

A review is measured in the background when a game ends (the deck's simulation is cached per deck) and added to
the ended table; its task is kept and its errors are logged. Reviews share: they run one at a time in a pool of
their own whose worker has the lowest scheduling priority, so hints (in the other pool) never wait behind them
and take the CPU first; they are measured a few decisions per call, and stop at ``REVIEW_SECONDS`` after the
game ended with what was measured by then. Past ``REVIEWS_WAITING`` reviews in all, or ``REVIEWS_PER_PLAYER``
for one player, a review gives the player's own figures only. Everything the coach says is escaped (card and
deck names can come from a player's own list).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from collections import Counter

import discord
from discord import app_commands

from bot import limits
from bot.errors import UserFacingError
from bot.goldfish import RECENT_GAMES, ResultStore, StoredGame, game_of, result_from, trend
from bot.goldfish.engine import Game, IllegalAction, UnreadableGame
from bot.goldfish.practice import (
    REVIEW_GAMES,
    Advice,
    ReportCache,
    Review,
    SimulationPool,
    advise_in_pool,
    figure_line,
    hint_sentence,
    player_game,
    review_in_pool,
    review_lines,
)
from bot.hosts import PLAIN
from bot.runtime import BACKGROUND_NICE
from bot.serving import HINTS
from bot.text import clip, escape, plural
from cogs._admission import fair_share
from cogs._symbols import one_rendering, symbols_for, with_symbols
from cogs._ui import NO_MENTIONS, reply
from cogs.goldfish._render import game_embed, game_view
from cogs.goldfish._simulate import simulation_pool

log = logging.getLogger(__name__)

HINT_SECONDS = HINTS.typical  # the rollouts' share of a hint; the answer itself is deferred at once
MAX_HINTS = 4  # hints measured at once; more get the policy's move at once rather than queue behind them
# Of those, what one server's players measure together: a server's many accounts leave the rest to other servers.
MAX_HINTS_PER_SERVER = MAX_HINTS // 2
REVIEWS_WAITING = 8  # reviews waiting or being measured, everyone's together
REVIEWS_PER_PLAYER = 2
REVIEW_SECONDS = 120.0  # from the game's end: a review is posted with what was measured by then
REVIEW_NICE = BACKGROUND_NICE  # the review worker's scheduling priority: the lowest, below hints and everything else
REVIEW_POOL_ATTRIBUTE = "review_pool"
SHOWN_CANDIDATES = 6
GOLD = discord.Colour.gold()


def coach_state(cog: object) -> CoachState:
    """The cog's coach state (results store, report cache, review tasks), made on first use."""
    state = getattr(cog, "coach_state", None)
    if state is None:
        state = CoachState(ResultStore(cog.bot.db))  # type: ignore[attr-defined]
        cog.coach_state = state  # type: ignore[attr-defined]
    return state


class CoachState:
    def __init__(self, results: ResultStore) -> None:
        self.results = results
        self.reports = ReportCache()
        self.tasks: set[asyncio.Task] = set()
        self.hint_seconds = HINT_SECONDS
        self.review_games = REVIEW_GAMES
        self.reviews = 0
        self.hints_running = 0
        self.hints_by_server: Counter[int | None] = Counter()  # hints being measured, by the server asking
        self.review_seconds = REVIEW_SECONDS
        self.reviews_waiting: Counter[int | None] = Counter()  # by the player whose game it is
        self.reviewing = asyncio.Lock()  # one review measured at a time

    def close(self) -> None:
        for task in self.tasks:
            task.cancel()


def review_pool(cog: object) -> SimulationPool:
    """The pool reviews are measured in, started on first use: one worker at the lowest scheduling priority."""
    pool = getattr(cog, REVIEW_POOL_ATTRIBUTE, None)
    if pool is None:
        pool = SimulationPool(workers=1, max_pending=1, nice=REVIEW_NICE)
        setattr(cog, REVIEW_POOL_ATTRIBUTE, pool)
    return pool


def close_coach(cog: object) -> None:
    state = getattr(cog, "coach_state", None)
    if state is not None:
        state.close()
    pool = getattr(cog, REVIEW_POOL_ATTRIBUTE, None)
    if pool is not None:
        pool.close()


# ------------------------------------------------------------------ measuring, in the pools


async def measured_advice(cog: object, game: Game, deadline: float, server: int | None = None) -> Advice:
    """The coach's advice, its rollouts split over the hints' pool; the policy's move past ``deadline``, when
    ``MAX_HINTS`` hints are already being measured (``MAX_HINTS_PER_SERVER`` for the ``server`` asking), or when a
    worker died."""
    state = coach_state(cog)
    mine = state.hints_by_server[server] >= MAX_HINTS_PER_SERVER  # None: everyone outside servers, together
    busy = state.hints_running >= MAX_HINTS or mine
    state.hints_running += 1
    state.hints_by_server[server] += 1
    try:
        return await advise_in_pool(game, lambda: simulation_pool(cog), deadline, busy=busy)
    finally:
        state.hints_running -= 1
        state.hints_by_server[server] -= 1
        if state.hints_by_server[server] <= 0:
            del state.hints_by_server[server]


async def measured_review(
    cog: object, game: Game, player_id: int | None = None, deadline: float | None = None
) -> Review:
    """The review of a finished game: the player's figures, and when there is room (see the module's docstring)
    the deck's simulation (cached per deck) and the moments, measured in the review pool by ``deadline`` (a
    ``time.perf_counter()`` time; ``review_seconds`` from now unless given): whatever was measured by then, however
    long the wait for the pool and however busy the machine."""
    state = coach_state(cog)
    waiting = state.reviews_waiting
    if waiting.total() >= REVIEWS_WAITING or waiting[player_id] >= REVIEWS_PER_PLAYER:
        log.info("Goldfish reviews are busy: a finished game gets the player's own figures only")
        return Review(player_game(game))
    deadline = time.perf_counter() + state.review_seconds if deadline is None else deadline
    waiting[player_id] += 1
    try:
        turn = asyncio.ensure_future(state.reviewing.acquire())
        await asyncio.wait([turn], timeout=max(0.0, deadline - time.perf_counter()))
        if not turn.done():  # the reviews before it took the time: the player's own figures
            turn.cancel()
            log.info("A goldfish review's turn in the pool came after its deadline")
            return Review(player_game(game))
        try:
            pool = review_pool(cog)
            return await review_in_pool(game, pool, state.reports, games=state.review_games, deadline=deadline)
        finally:
            state.reviewing.release()
    finally:
        waiting[player_id] -= 1
        if waiting[player_id] <= 0:
            del waiting[player_id]


# ------------------------------------------------------------------ embeds


def hint_embed(game: Game, advice: Advice) -> discord.Embed:
    embed = discord.Embed(
        title="The coach's move", description=clip(escape(hint_sentence(game, advice)), 1500), colour=GOLD
    )
    if advice.figures:
        lines = [f"• {escape(figure_line(game, f))}" for f in advice.figures[:SHOWN_CANDIDATES]]
        more = len(advice.figures) - SHOWN_CANDIDATES
        if more > 0:
            lines.append(f"…and {plural(more, 'more move')} measured.")
        embed.add_field(
            name="Each move played out", value=clip("\n".join(lines), limits.EMBED_FIELD_VALUE), inline=False
        )
    embed.set_footer(
        text=f"Rollouts: the rest of the game played by the simulation's policy, seed {advice.seed}. "
        "Same position, same figures."
    )
    return embed


def review_embed(game: Game, review: Review, *, measuring: float | None = None) -> discord.Embed:
    """The review; ``measuring``: the ``time.perf_counter()`` time by which the rest is added (the first part)."""
    embed = discord.Embed(title=clip(f"Review · {escape(game.deck_name)}", limits.EMBED_TITLE), colour=GOLD)
    for name, lines in review_lines(game, review).items():
        embed.add_field(name=name, value=clip(escape("\n".join(lines)), limits.EMBED_FIELD_VALUE), inline=False)
    if measuring is not None:
        by = int(time.time() + max(0.0, measuring - time.perf_counter()))
        embed.add_field(
            name="Being measured",
            value=f"The deck in simulation and your decisions: added here by <t:{by}:t> (<t:{by}:R>).",
            inline=False,
        )
    return embed


def add_trend(embed: discord.Embed, results: list) -> None:
    """The player's trend as a field of their statistics embed."""
    trends = trend(results)
    if not trends:
        return
    lines = []
    for deck in trends:
        if deck.median_kill_turn is None:
            lines.append(f"**{escape(deck.deck_name)}**: no win in {plural(deck.games, 'game')}")
            continue
        kills = ", ".join(str(t) for t in deck.kill_turns[-8:])
        lines.append(
            f"**{escape(deck.deck_name)}**: median kill turn {deck.median_kill_turn:g} "
            f"({plural(deck.wins, 'win')} in {plural(deck.games, 'game')}; kills, oldest first: {kills})"
        )
    embed.add_field(
        name=f"Trend (your last {RECENT_GAMES} games)",
        value=clip("\n".join(lines), limits.EMBED_FIELD_VALUE),
        inline=False,
    )


# ------------------------------------------------------------------ the commands


class CoachCommands:
    """The commands, as methods so discord.py binds them to the cog they are attached to."""

    @app_commands.command(name="hint")
    @fair_share(HINTS)
    async def hint(self, interaction: discord.Interaction) -> None:
        """The move the coach recommends now and why, measured by playing each move out (only you see it)."""
        try:
            record = await self.service.mine(interaction.channel_id, interaction.user.id)
            self.service.check_player(record, interaction.user.id)
            game = game_of(record)
            if game.phase == "over":
                raise IllegalAction("This game is over: `/goldfish hint` advises on a game in progress.")
        except IllegalAction as refusal:
            await reply(interaction, str(refusal), ephemeral=True)
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            advice = await measured_advice(self, game, coach_state(self).hint_seconds, interaction.guild_id)
        except IllegalAction as refusal:
            await reply(interaction, str(refusal))
            return
        await reply(interaction, embed=with_symbols(hint_embed(game, advice), symbols_for(interaction)))


def attach(group: app_commands.Group) -> None:
    """Add /goldfish hint to the ``goldfish`` group."""
    group.add_command(CoachCommands.hint)


# ------------------------------------------------------------------ when a game ends


class Coaching:
    """Recording a finished game and posting its review; a mixin of the Goldfish cog (needs ``bot``)."""

    bot: discord.Client

    async def game_over(self, record: StoredGame, message_id: int | None) -> None:
        """A game just ended (won, lost, or ended by hand): record it for the trend and review it in the
        background, adding the review to the table message ``message_id``."""
        try:
            game = record.game
        except UnreadableGame:  # nothing to review
            return
        result = result_from(game)
        if result is None:
            return
        state = coach_state(self)
        try:
            await state.results.record(record.owner_id, f"{record.channel_id}:{record.created_at}", result)
        except UserFacingError:  # the database is down: the game is saved, only its line in the trend is lost
            log.warning("Could not record a finished goldfish game in channel %s", record.channel_id)
        if not getattr(self.bot.config, "goldfish_reviews", True):  # type: ignore[attr-defined]
            return
        task = asyncio.create_task(self._post_review(record, game, message_id))
        state.tasks.add(task)
        task.add_done_callback(self._review_done)

    def _review_done(self, task: asyncio.Task) -> None:
        coach_state(self).tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("A goldfish review failed", exc_info=task.exception())

    async def _post_review(self, record: StoredGame, game: Game, message_id: int | None) -> None:
        """The player's own figures at once, saying the rest is being measured; then, by the deadline however busy
        the machine, the review with whatever was measured, in the same place."""
        state = coach_state(self)
        deadline = time.perf_counter() + state.review_seconds
        first = Review(player_game(game))
        shown = await self._show_review(record, game, message_id, review_embed(game, first, measuring=deadline))
        review = await measured_review(self, game, record.owner_id, deadline)
        if shown is None:
            return  # the channel is gone or closed to the bot
        if await self._show_review(record, game, message_id, review_embed(game, review), shown) is not None:
            state.reviews += 1

    async def _show_review(
        self,
        record: StoredGame,
        game: Game,
        message_id: int | None,
        embed: discord.Embed,
        shown: discord.PartialMessage | discord.Message | None = None,
    ) -> discord.PartialMessage | discord.Message | None:
        """Show ``embed`` under the game's table (``message_id``) while it still shows this game, else in a message
        of its own (``shown``, the one made the first time, is edited); the message it is in, or None."""
        channel = self.bot.get_partial_messageable(record.channel_id)  # type: ignore[attr-defined]
        table_message = shown if shown is not None and shown.id == message_id else None
        if (
            (shown is None or table_message is not None)
            and message_id is not None
            and await self._still_this_game(record)
        ):
            # The ended table names its hand without costs (what the cards could do next is moot), so table and
            # review fit one message with every symbol as an emoji.
            table = game_embed(record, symbols=PLAIN, ended=True)
            if len(table) + len(embed) <= limits.EMBED_TOTAL:
                try:
                    # The controls are sent again: a finished game's table keeps New game and Replay, an ended one none.
                    view = game_view(record) if game.phase == "over" else None
                    both = functools.partial(one_rendering, [table, embed])
                    await self.edits.edit(record.channel_id, message_id, both, view=view)  # type: ignore[attr-defined]
                    return channel.get_partial_message(message_id)
                except discord.HTTPException:
                    log.info("The table of a finished goldfish game in channel %s is gone", record.channel_id)
        try:
            if shown is not None and table_message is None:
                await shown.edit(embed=embed)
                return shown
            return await channel.send(embed=embed, allowed_mentions=NO_MENTIONS)
        except discord.HTTPException:  # the channel is gone or closed to the bot: the review is dropped
            log.info("Could not post a goldfish review in channel %s", record.channel_id)
            return None

    async def _still_this_game(self, record: StoredGame) -> bool:
        """Whether the table still shows the reviewed game: a finished game's table is edited in place by New game,
        Replay and Undo, so it must still be that game at that version. An ended game's table shows it for good."""
        if record.game.phase != "over":
            return True
        current = await self.store.peek(record.key)  # type: ignore[attr-defined]
        return current is not None and (current.created_at, current.version) == (record.created_at, record.version)
