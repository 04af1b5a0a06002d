"""Before a local copy of the card data is loaded (a first import under way), goldfish tables are text only:
no picture of frames standing in for every card, no request to any image host."""

from __future__ import annotations

from tests.goldfish.cog_support import SLIDE_SIMPLE, table


async def test_without_card_data_the_table_is_text_only(simcord_env, channel, alice):
    assert not simcord_env.bot.card_data.loaded
    message = (await alice.slash(channel, "goldfish start", deck="slide", seed=SLIDE_SIMPLE)).response
    await alice.click(message, label="Keep")
    await simcord_env.bot.get_cog("Goldfish").pictures.settled()

    assert table(channel).attachments == [] and table(channel).embeds
    assert simcord_env.bot.card_images.fetched == 0
    assert not any(r.method == "PATCH" and "attachments" in str(r.json or "") for r in simcord_env.http_requests)
