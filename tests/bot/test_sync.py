"""Command sync happens only when the tree's schema changed (hash kept in the database)."""

from __future__ import annotations

from bot.client import CycleBot


def sync_calls(env) -> list:
    return [r for r in env.http_requests if r.method == "PUT" and "/commands" in r.path]


async def test_first_start_syncs_and_a_restart_with_the_same_commands_does_not(simcord_env, bot_config):
    assert len(sync_calls(simcord_env)) == 1

    await simcord_env.restart_bot(CycleBot(bot_config))

    assert len(sync_calls(simcord_env)) == 1


async def test_a_changed_tree_is_synced_again(simcord_env, bot_config):
    changed = CycleBot(bot_config, extensions=["cogs.about", "tests.support.boom_cog"])
    await simcord_env.restart_bot(changed)

    calls = sync_calls(simcord_env)
    assert len(calls) == 2
    assert {c["name"] for c in calls[-1].json} >= {"about", "boom"}


async def test_force_sync_syncs_an_unchanged_tree(simcord_env, bot_config):
    again = CycleBot(bot_config)
    again.force_sync = True
    await simcord_env.restart_bot(again)
    assert len(sync_calls(simcord_env)) == 2


async def test_guild_id_syncs_to_that_guild(simcord_env, data_dir):
    from bot.config import Config

    guild = simcord_env.create_guild("dev")
    bot = CycleBot(Config(data_dir=data_dir, guild_id=guild.id))
    await simcord_env.restart_bot(bot)
    assert any(f"/guilds/{guild.id}/commands" in r.path for r in sync_calls(simcord_env))
