"""The end-of-game review keeps the emoji, through discord.py: an ended table gives its hand's costs without their
"needs …" notes (moot once the game is over), so the table and its review fit one message with every symbol as the
application's emoji, as a player sees it."""

from __future__ import annotations

import dataclasses

import pytest

from bot import limits
from cogs.goldfish._coach import coach_state
from tests.cards.conftest import bulk_copy, loaded_config  # noqa: F401  (fixtures: the local card data)
from tests.cards.test_one_rendering import as_emoji, texts
from tests.goldfish.test_cog_coach import REVIEW_GAMES, reviews_done
from tests.support.simcord_discord import rendering_faults
from tests.support.waits import CEILING


@pytest.fixture
def bot_config(loaded_config):  # noqa: F811
    return dataclasses.replace(loaded_config, goldfish_reviews=True)


@pytest.fixture
async def cog(simcord_env):
    await simcord_env.bot.prepare_symbols()  # the symbols as the application's emoji, as at the bot's start
    assert simcord_env.bot.mana
    cog = simcord_env.bot.get_cog("Goldfish")
    state = coach_state(cog)
    state.review_seconds, state.review_games = 2 * CEILING, REVIEW_GAMES
    simcord_env.settle_timeout = 3 * CEILING
    return cog


async def test_an_ended_game_and_its_review_show_every_symbol_as_an_emoji(simcord_env, channel, alice, cog):
    # Turn 1 with no land out: a hand of seven whose every cost "needs" mana, its longest.
    table = (await alice.slash(channel, "goldfish start", deck="landcycling", seed=1)).response
    await alice.click(table, label="Keep")
    before = [field.value for field in table.embeds[0].fields if field.name.startswith("Hand (")]
    assert "needs" in "".join(before)

    ended = await alice.slash(channel, "goldfish end")
    await reviews_done(cog)

    assert ended.response.content.startswith("Goldfish game ended by")
    shown = table.embeds
    assert len(shown) == 2 and shown[1].title.startswith("Review ·")
    assert as_emoji(table), texts(table)  # one rendering: no {2}{G} beside an emoji
    assert sum(len(embed) for embed in shown) <= limits.EMBED_TOTAL
    assert shown[0].description.startswith("**Game ended** after 1 turn.")
    hand = "\n".join(field.value for field in shown[0].fields if field.name.startswith("Hand ("))
    assert hand.count("• **") == 7 and "cycling" in hand and "needs" not in hand  # costs, without what they need
    assert rendering_faults == []
