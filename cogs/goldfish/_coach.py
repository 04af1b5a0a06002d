"""The goldfish coach in Discord: /goldfish hint, the review posted on a finished game's table, the trend.

The rollouts run in the cog's :class:`~bot.goldfish.simulate.SimulationPool` (worker processes), never on the
event loop: a hint defers at once and is edited in when the rollouts are back, or with the policy's move when
they take longer than ``HINT_SECONDS``. A review is measured in the background when a game ends (the deck's
simulation is cached per deck) and added to the ended table; its task is kept and its errors are logged.
Everything the coach says is escaped (card and deck names can come from a player's own list).
"""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures.process import BrokenProcessPool

import discord
from discord import app_commands

from bot import limits
from bot.errors import UserFacingError
from bot.goldfish import coach
from bot.goldfish.advice import figure_line, hint_sentence, review_lines
from bot.goldfish.engine import Game
from bot.goldfish.model import IllegalAction, UnreadableGame
from bot.goldfish.results import RECENT_GAMES, ResultStore, result_from, trend
from bot.goldfish.review import (
    REVIEW_GAMES,
    ReportCache,
    Review,
    decision_points,
    deck_figures,
    moments_at,
    player_game,
    review_settings,
    top_moments,
)
from bot.goldfish.service import game_of
from bot.goldfish.store import StoredGame
from bot.text import clip, escape, plural
from cogs._ui import NO_MENTIONS, reply, symbols_of, with_symbols
from cogs.goldfish._render import game_embed, game_view
from cogs.goldfish._simulate import simulation_pool

log = logging.getLogger(__name__)

HINT_SECONDS = 2.5  # the rollouts' share of a hint; the answer itself is deferred at once
MAX_HINTS = 4  # hints measured at once; more get the policy's move at once rather than queue behind them
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

    def close(self) -> None:
        for task in self.tasks:
            task.cancel()


def close_coach(cog: object) -> None:
    state = getattr(cog, "coach_state", None)
    if state is not None:
        state.close()


# ------------------------------------------------------------------ measuring, in the pool


def _halves(items: list, parts: int) -> list[list]:
    size = -(-len(items) // parts) if items else 0
    return [items[i : i + size] for i in range(0, len(items), size)] if size else []


async def measured_advice(cog: object, game: Game, deadline: float) -> coach.Advice:
    """The coach's advice, its rollouts split over the pool's workers; the policy's move past ``deadline``, when
    ``MAX_HINTS`` hints are already being measured, or when a worker died."""
    moves = coach.candidates(game)
    base = coach.hint_seed(game)
    unmeasured = coach.without_rollouts(game, moves)
    if unmeasured is not None:
        return unmeasured
    state = coach_state(cog)
    if state.hints_running >= MAX_HINTS:
        log.info("Goldfish hints are busy; answered with the policy's move")
        return coach.timed_out(game)
    pool = simulation_pool(cog)
    seeds = coach.rollout_seeds(base, 0, coach.rollouts_for(len(moves)))
    state.hints_running += 1
    try:
        calls = [pool.call(coach.measure, game, moves, part, coach.HORIZON) for part in _halves(seeds, pool.workers)]
        parts = await asyncio.wait_for(asyncio.gather(*calls), deadline)
    except TimeoutError:
        log.info("A goldfish hint ran out of time; answered with the policy's move")
        return coach.timed_out(game)
    except BrokenProcessPool:
        log.exception("A worker process died measuring a goldfish hint")
        pool.close()  # the next use starts a new pool
        return coach.timed_out(game)
    finally:
        state.hints_running -= 1
    return coach.rank(game, coach.merge(parts), moves[0], base)


async def measured_review(cog: object, game: Game) -> Review:
    """The whole review: the deck's simulation (cached per deck) and the moments, measured in the pool."""
    state = coach_state(cog)
    pool = simulation_pool(cog)
    player = player_game(game)
    settings = review_settings(game, state.review_games)
    deck = game.deck()
    report = state.reports.get(deck, settings)
    if report is None:
        try:
            report = await pool.simulate(deck, settings)
        except IllegalAction:  # the pool is busy with other simulations: the review goes without the deck's figures
            log.info("No simulation for a goldfish review: the pool is busy")
        else:
            state.reports.put(deck, settings, report)
    points = decision_points(game)
    try:
        parts = await asyncio.gather(*(pool.call(moments_at, game, part) for part in _halves(points, pool.workers)))
    except BrokenProcessPool:
        log.exception("A worker process died measuring a goldfish review")
        pool.close()
        moments = None
    else:
        moments = tuple(top_moments([moment for part in parts for moment in part]))
    figures = deck_figures(report, player) if report is not None else None
    return Review(player, figures, moments)


# ------------------------------------------------------------------ embeds


def hint_embed(game: Game, advice: coach.Advice) -> discord.Embed:
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


def review_embed(game: Game, review: Review) -> discord.Embed:
    embed = discord.Embed(title=clip(f"Review · {escape(game.deck_name)}", limits.EMBED_TITLE), colour=GOLD)
    for name, lines in review_lines(game, review).items():
        embed.add_field(name=name, value=clip(escape("\n".join(lines)), limits.EMBED_FIELD_VALUE), inline=False)
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
    async def hint(self, interaction: discord.Interaction) -> None:
        """The move the coach recommends now and why, measured by playing each move out (only you see it)."""
        try:
            record = await self.service.peek(interaction.channel_id)
            self.service.check_player(record, interaction.user.id)
            game = game_of(record)
            if game.phase == "over":
                raise IllegalAction("This game is over: `/goldfish hint` advises on a game in progress.")
        except IllegalAction as refusal:
            await reply(interaction, str(refusal), ephemeral=True)
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            advice = await measured_advice(self, game, coach_state(self).hint_seconds)
        except IllegalAction as refusal:
            await reply(interaction, str(refusal))
            return
        await reply(interaction, embed=with_symbols(hint_embed(game, advice), symbols_of(self.bot)))


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
        review = await measured_review(self, game)
        embed = review_embed(game, review)
        channel = self.bot.get_partial_messageable(record.channel_id)  # type: ignore[attr-defined]
        posted = False
        if message_id is not None and await self._still_this_game(record):
            table = game_embed(record, symbols=symbols_of(self.bot))
            if len(table) + len(embed) <= limits.EMBED_TOTAL:
                try:
                    # The controls are sent again: a finished game's table keeps New game and Replay, an ended one none.
                    view = game_view(record) if game.phase == "over" else None
                    await channel.get_partial_message(message_id).edit(embeds=[table, embed], view=view)
                    posted = True
                except discord.HTTPException:
                    log.info("The table of a finished goldfish game in channel %s is gone", record.channel_id)
        if not posted:
            try:
                await channel.send(embed=embed, allowed_mentions=NO_MENTIONS)
            except discord.HTTPException:  # the channel is gone or closed to the bot: the review is dropped
                log.info("Could not post a goldfish review in channel %s", record.channel_id)
                return
        coach_state(self).reviews += 1

    async def _still_this_game(self, record: StoredGame) -> bool:
        """Whether the table still shows the reviewed game: a finished game's table is edited in place by New game,
        Replay and Undo, so it must still be that game at that version. An ended game's table shows it for good."""
        if record.game.phase != "over":
            return True
        current = await self.store.peek(record.channel_id)  # type: ignore[attr-defined]
        return current is not None and (current.created_at, current.version) == (record.created_at, record.version)
