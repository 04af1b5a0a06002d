"""User installs over real sockets: which process of a bot split over processes (``SHARD_IDS``) receives
interactions from the bot's DM and from servers that never added the bot, and a start on an application whose
User Install is off."""

from __future__ import annotations

from pathlib import Path

from tests.support.fake_discord import FakeDiscord
from tests.wire.test_shards import dispatched


def server_without_the_bot(fake: FakeDiscord, shard: int) -> str:
    """The id of a server that never added the bot, mapping to ``shard`` by Discord's sharding formula."""
    guild_id = fake.add_guild("Elsewhere", shard=shard)
    del fake.guilds[guild_id]  # no shard gets it: the bot is not a member
    return guild_id


async def answered(fake: FakeDiscord, interaction: dict) -> dict:
    return await fake.callback(await fake.send_interaction(interaction))


async def test_dms_reach_the_process_holding_shard_0_and_user_installs_in_a_server_the_process_of_its_shard(
    spawn_bot, fake_discord: FakeDiscord, tmp_path: Path
):
    fake_discord.shard_count = 2  # each wait: the suite's ceiling (tests/support/waits.py)
    zero = await spawn_bot(SHARD_COUNT="2", SHARD_IDS="0", BOT_DATA_DIR=str(tmp_path / "zero"))
    await fake_discord.wait_until_connected(0)
    await fake_discord.wait_for(lambda r: r.method == "PUT" and r.path.endswith("/commands"))
    one = await spawn_bot(SHARD_COUNT="2", SHARD_IDS="1", BOT_DATA_DIR=str(tmp_path / "one"))
    await fake_discord.wait_until_connected(1)

    in_dm = fake_discord.user_install_interaction("about")
    elsewhere = {shard: server_without_the_bot(fake_discord, shard) for shard in (0, 1)}
    in_servers = {s: fake_discord.user_install_interaction("about", guild_id=g) for s, g in elsewhere.items()}

    assert (await answered(fake_discord, in_dm))["type"] == 4
    for interaction in in_servers.values():
        assert (await answered(fake_discord, interaction))["type"] == 4
    received = {shard: [d["id"] for d in dispatched(fake_discord, shard, "INTERACTION_CREATE")] for shard in (0, 1)}
    assert received == {0: [in_dm["id"], in_servers[0]["id"]], 1: [in_servers[1]["id"]]}
    assert "Traceback" not in zero.stderr + one.stderr
    assert fake_discord.unexpected == []


async def test_without_user_install_on_the_portal_the_bot_syncs_for_servers_and_says_what_to_enable(
    spawn_bot, fake_discord: FakeDiscord
):
    fake_discord.user_install_enabled = False
    bot = await spawn_bot()
    await fake_discord.wait_until_connected()

    refused, accepted = fake_discord.command_syncs()[:2]
    assert refused.status == 400 and accepted.status == 200
    assert {c["name"] for c in accepted.json} == {c["name"] for c in refused.json}
    assert all(c["integration_types"] == [0] for c in fake_discord.commands["global"])
    interaction = await fake_discord.send_interaction(fake_discord.command_interaction("about"))
    assert (await fake_discord.callback(interaction))["type"] == 4
    lines = [line for line in bot.stderr.splitlines() if "User Install" in line]
    assert len(lines) == 1 and "enable User Install on the Developer Portal's Installation tab" in lines[0]


async def test_look_up_cards_reads_the_message_discord_sends_in_the_interaction_without_the_intent(
    start_bot, wired: FakeDiscord, fake_scryfall
):
    bot = await start_bot(["cogs.cards"], scryfall_api_url=fake_scryfall.base_url)
    assert not bot.intents.message_content
    await wired.wait_for(lambda r: r.method == "PUT" and r.path.endswith("/commands"))

    found = await wired.send_interaction(wired.message_command_interaction("Look up cards", "[[Street Wraith]] ftw"))
    nothing = await wired.send_interaction(wired.message_command_interaction("Look up cards", "gg, see you friday"))

    answer = await wired.callback(found)
    if answer["type"] == 5:  # Scryfall's API answered after a second: deferred, then the card
        answer = {"data": await wired.followup(found)}
    assert answer["data"]["embeds"][0]["title"].startswith("Street Wraith")
    assert not answer["data"].get("flags", 0) & 64
    told = await wired.callback(nothing)
    assert told["type"] == 4 and told["data"]["flags"] & 64
    assert "no `[[card]]` references or card names" in told["data"]["content"]
    assert wired.unexpected == []
