"""Shards: which of them run in this process (SHARD_COUNT, SHARD_IDS), and what /about and health say of them."""

from __future__ import annotations

import json

import pytest

from bot.cli import main
from bot.config import Config
from bot.errors import ConfigError


@pytest.mark.parametrize(
    ("environ", "count", "ids"),
    [
        ({}, None, None),
        ({"SHARD_COUNT": "4"}, 4, (0, 1, 2, 3)),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "0-1"}, 4, (0, 1)),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "0,2"}, 4, (0, 2)),
        ({"SHARD_COUNT": "8", "SHARD_IDS": " 6-7, 0 "}, 8, (0, 6, 7)),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "1"}, 2, (1,)),
    ],
)
def test_shard_count_and_ids_come_from_the_environment(environ, count, ids):
    config = Config.from_env(environ)
    assert (config.shard_count, config.shard_ids) == (count, ids)


@pytest.mark.parametrize(
    ("environ", "elsewhere"),
    [
        ({}, False),
        ({"SHARD_COUNT": "2"}, False),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "0-1"}, False),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "1"}, True),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "0,2"}, True),
    ],
)
def test_whether_other_processes_hold_shards(environ, elsewhere):
    assert Config.from_env(environ).shards_elsewhere is elsewhere


def test_a_config_built_in_code_runs_one_shard_without_asking_discord():
    assert (Config().shard_count, Config().shard_ids) == (1, None)


@pytest.mark.parametrize(
    ("environ", "message"),
    [
        ({"SHARD_COUNT": "4", "SHARD_IDS": "4"}, "SHARD_IDS must be between 0 and 3 for SHARD_COUNT=4 (got '4')"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "0-2"}, "SHARD_IDS must be between 0 and 1 for SHARD_COUNT=2"),
        ({"SHARD_IDS": "0-1"}, "SHARD_IDS needs SHARD_COUNT"),
        ({"SHARD_COUNT": "0"}, "SHARD_COUNT must be a whole number of shards, 1 or more (got '0')"),
        ({"SHARD_COUNT": "two"}, "SHARD_COUNT must be a whole number"),
        ({"SHARD_COUNT": "-1"}, "SHARD_COUNT must be a whole number"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "a-b"}, "SHARD_IDS must be shard numbers like 0-1 or 0,2"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "0-"}, "SHARD_IDS must be shard numbers"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "1,1"}, "SHARD_IDS must name each shard once"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "2-1"}, "SHARD_IDS must name each shard once"),
    ],
)
def test_impossible_shard_settings_are_refused_with_one_clear_line(environ, message):
    with pytest.raises(ConfigError) as error:
        Config.from_env(environ)
    assert str(error.value).startswith(message)
    assert "\n" not in str(error.value)


def test_a_bad_shard_setting_stops_python_m_bot_with_exit_code_2(monkeypatch, capsys):
    monkeypatch.setenv("SHARD_COUNT", "2")
    monkeypatch.setenv("SHARD_IDS", "3")
    monkeypatch.setenv("DISCORD_TOKEN", "never-used")
    assert main(["run"]) == 2
    assert capsys.readouterr().err.startswith("error: SHARD_IDS must be between 0 and 1 for SHARD_COUNT=2")


async def test_about_names_the_shards_of_this_process_and_their_latency(simcord_env, channel, alice):
    result = await alice.slash(channel, "about")

    fields = {field.name: field.value for field in result.response.embeds[0].fields}
    assert fields["Shards"] == "1 of 1 here · latency 0: 0 ms"


def test_health_prints_the_shards_and_latencies_of_the_heartbeat(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("BOT_DATA_DIR", str(tmp_path))
    record = {"time": 0, "shard_count": 4, "shards": [{"id": 0, "latency": 0.0421}, {"id": 1, "latency": None}]}
    (tmp_path / "heartbeat").write_text(json.dumps(record))

    assert main(["health"]) == 0
    out = capsys.readouterr().out.strip()
    assert out.startswith("healthy: last heartbeat ")
    assert out.endswith("; shards 0, 1 of 4 (latency 0: 42 ms, 1: not measured)")


def test_health_reads_a_heartbeat_without_shards(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("BOT_DATA_DIR", str(tmp_path))
    (tmp_path / "heartbeat").write_text("1795381852")

    assert main(["health"]) == 0
    assert capsys.readouterr().out.strip().endswith(" s ago")
