"""/goldfish simulate and /goldfish odds: a deck's odds, measured on the engine or computed exactly.

The commands are methods of :class:`SimulationCommands`, attached to the ``/goldfish`` group by
:func:`attach`; discord.py binds them to the Goldfish cog, so ``self`` is the cog. The games run
in the cog's :class:`~bot.goldfish.practice.simulate.SimulationPool` (worker processes), never on the
event loop, and the chart is drawn there too.
"""

from __future__ import annotations

import io
import logging
import secrets

import discord
from discord import app_commands

from bot import limits
from bot.errors import UserFacingError
from bot.goldfish.decks import MAX_CARDS
from bot.goldfish.engine import Deck, IllegalAction
from bot.goldfish.practice import (
    DEFAULT_GAMES,
    DEFAULT_TURNS,
    MAX_GAMES,
    MAX_TURNS,
    ODDS_MAX_TURNS,
    SEED_LIMIT,
    Report,
    Settings,
    SimulationPool,
    check_odds,
    odds_table,
    odds_text,
    render_png,
)
from bot.text import clip, escape, normalise, plural
from cogs._commands import answered, described
from cogs._ui import defer_public, in_time, reply
from cogs.decks import (
    ANY_DECK,
    DEFAULT_DECK,
    DeckName,
    DeckRequest,
    chosen_deck,
    deck_choices,
    deck_options,
    named_deck,
    saved_and_presets,
)
from cogs.goldfish._inputs import OPTION_HELP

log = logging.getLogger(__name__)

CHART_NAME = "goldfish-odds.png"
POOL_ATTRIBUTE = "simulations"


def simulation_pool(cog: object) -> SimulationPool:
    """The cog's pool, started on first use (a cog that never simulates starts no processes)."""
    pool = getattr(cog, POOL_ATTRIBUTE, None)
    if pool is None:
        pool = SimulationPool()
        setattr(cog, POOL_ATTRIBUTE, pool)
    return pool


def close_simulations(cog: object) -> None:
    """Stop the cog's worker processes, if it started any."""
    pool = getattr(cog, POOL_ATTRIBUTE, None)
    if pool is not None:
        pool.close()


def simulation_embed(report: Report) -> discord.Embed:
    embed = discord.Embed(
        title=clip(f"Odds of {escape(report.deck_name)}", 256),
        description=f"{report.summary()}\n```\n{report.table()}\n```",
    )
    embed.add_field(name="Policy", value=clip(report.policy, 1024), inline=False)
    embed.add_field(
        name="Reading it",
        value=(
            "**T**: the turn. **Lands**: made every land drop so far. **Payoff**: a payoff on the battlefield. "
            "**Cycled**: mean cards cycled so far. **Died**: the goldfish reached 0 life that turn; **By**: by then."
        ),
        inline=False,
    )
    if report.errors:
        samples = "\n".join(f"• {escape(sample)}" for sample in report.error_samples)
        embed.add_field(name=f"Games left out: {report.errors:,}", value=clip(samples or "—", 1024), inline=False)
    embed.set_image(url=f"attachment://{CHART_NAME}")
    embed.set_footer(text=f"Same seed, same figures: seed {report.settings.seed}.")
    return embed


class SimulationCommands:
    """The commands, as methods so discord.py binds them to the cog they are attached to."""

    @app_commands.command(name="simulate")
    @answered
    @deck_options()
    @described(OPTION_HELP)
    async def simulate(
        self,
        interaction: discord.Interaction,
        games: app_commands.Range[int, 1, MAX_GAMES] = DEFAULT_GAMES,
        turns: app_commands.Range[int, 1, MAX_TURNS] = DEFAULT_TURNS,
        on_the_draw: bool = False,
        seed: app_commands.Range[int, 0, SEED_LIMIT] | None = None,
        wanted: DeckRequest = ANY_DECK,
    ) -> None:
        """Play many goldfish games with a fixed policy and chart the deck's odds turn by turn."""
        base = secrets.randbelow(SEED_LIMIT) if seed is None else seed
        settings = Settings(games=games, turns=turns, on_the_play=not on_the_draw, seed=base).check()
        pool = simulation_pool(self)
        if pool.pending >= pool.max_pending:
            raise IllegalAction("The simulator is busy with other simulations; try again in a minute.")
        # The answer is public; a deck that can't be read is told privately (a public "thinking…" taken back).
        async with in_time(interaction, public=True):
            built = (await chosen_deck(interaction, wanted)).deck
        await defer_public(interaction)
        try:
            report = await pool.simulate(built, settings)
            png = await pool.call(render_png, report)
        except IllegalAction as refusal:
            # Deferred publicly, so the "thinking…" message becomes the answer (Discord keeps its visibility).
            await reply(interaction, str(refusal))
            return
        log.info("Simulated %s games of %s turns (seed %s)", report.games, settings.turns, settings.seed)
        chart = discord.File(io.BytesIO(png), filename=CHART_NAME)
        await reply(interaction, embed=simulation_embed(report), file=chart)

    @app_commands.command(name="odds")
    @answered
    @described(OPTION_HELP)
    @app_commands.autocomplete(deck=saved_and_presets)
    async def odds(
        self,
        interaction: discord.Interaction,
        copies: app_commands.Range[int, 1, MAX_CARDS] | None = None,
        deck_size: app_commands.Range[int, 1, MAX_CARDS] | None = None,
        wanted: app_commands.Range[int, 1, MAX_CARDS] = 1,
        turns: app_commands.Range[int, 1, ODDS_MAX_TURNS] = 6,
        deck: DeckName | None = None,
        card: DeckName | None = None,
    ) -> None:
        """The chance to have seen at least some copies of a card by each turn, on the play and on the draw."""
        named = None
        if deck or card:
            if not (deck and card):
                raise IllegalAction("Name both `deck:` and `card:` (a card of that deck), or give `copies:`.")
            chosen = await named_deck(interaction, deck)
            named, copies = card_in(chosen.deck, card)
            deck_size = chosen.deck.size()
        elif copies is None:
            raise IllegalAction("Give `copies:` (and `deck_size:`), or a `deck:` and one of its cards with `card:`.")
        deck_size = deck_size or 60
        check_odds(copies, deck_size, wanted, turns)
        rows = odds_table(copies, deck_size, wanted, turns)
        what = f"{escape(named)} ({copies})" if named else str(copies)
        embed = discord.Embed(
            title=clip(f"At least {wanted} of {what} in {plural(deck_size, 'card')}", limits.EMBED_TITLE),
            description=(
                "Cards seen by each turn's draw: 7 + turn − 1 on the play (no first draw, CR 103.8a), "
                "7 + turn on the draw; no mulligans, cycling or searches. **Seen**: on the play/on the draw."
                f"\n```\n{odds_text(rows)}\n```"
            ),
        )
        await reply(interaction, embed=embed)

    @odds.autocomplete("card")
    async def odds_card_autocomplete(self, interaction: discord.Interaction, current: str):
        try:
            chosen = await named_deck(interaction, str(interaction.namespace.deck or DEFAULT_DECK))
        except UserFacingError:
            return []
        return deck_choices([(f"{name} ×{count}", name) for count, name in chosen.deck.entries], current)


def card_in(deck: Deck, typed: str) -> tuple[str, int]:
    """The card of ``deck`` a player named (a face's name too, case and accents aside) and its copies."""
    wanted = normalise(typed)
    for count, name in deck.entries:
        faces = [face.get("name", "") for face in deck.cards.get(name, {}).get("card_faces") or ()]
        if wanted in (normalise(n) for n in (name, *faces)):
            return name, count
    raise IllegalAction(f"{escape(deck.name)} has no card called “{escape(clip(typed, 60), typed=True)}”.")


def attach(group: app_commands.Group) -> None:
    """Add /goldfish simulate and /goldfish odds to the ``goldfish`` group."""
    group.add_command(SimulationCommands.simulate)
    group.add_command(SimulationCommands.odds)
