"""compose.yaml can't be run here, so read it: PostgreSQL and one bot service a shard, wired together."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import yaml

from bot.config import Config

ROOT = Path(__file__).resolve().parents[1]
# ${NAME}, ${NAME:?message}, ${NAME:-default}: what compose substitutes from the environment or .env.
VARIABLE = re.compile(r"\$\{(?P<name>\w+)(?::?[?-][^}]*)?\}")


@pytest.fixture(scope="module")
def compose() -> dict:
    return yaml.safe_load((ROOT / "compose.yaml").read_text())


@pytest.fixture(scope="module")
def bots(compose) -> dict[str, dict]:
    return {name: service for name, service in compose["services"].items() if name.startswith("bot-")}


def environment(service: dict) -> dict[str, str]:
    env = service.get("environment") or {}
    if isinstance(env, list):
        env = dict(item.partition("=")[::2] for item in env)
    # Every ${VARIABLE} stands for what an operator puts in .env.
    return {key: VARIABLE.sub(lambda m: f"{m['name'].lower()}-value", str(value)) for key, value in env.items()}


def named_volumes(service: dict) -> dict[str, str]:
    """Mount point -> named volume (not a host path)."""
    mounts = {}
    for volume in service.get("volumes") or []:
        source, _, target = volume.partition(":")
        assert not source.startswith(("/", ".", "~")), f"{volume}: a named volume, not a host directory"
        mounts[target.split(":")[0]] = source
    return mounts


def test_the_database_is_postgresql_15_with_a_volume_and_a_readiness_check(compose):
    db = compose["services"]["db"]
    assert db["image"] == "postgres:15"
    assert named_volumes(db)["/var/lib/postgresql/data"] in compose["volumes"]
    test = db["healthcheck"]["test"]
    assert test[0] == "CMD" and test[1] == "pg_isready"
    env = environment(db)
    assert test[2:] == ["-U", env["POSTGRES_USER"], "-d", env["POSTGRES_DB"]]


def test_two_bot_services_run_shards_0_and_1_of_2_and_together_cover_every_shard(bots):
    assert len(bots) == 2
    shards: list[int] = []
    for service in bots.values():
        config = Config.from_env(environment(service))
        assert config.shard_count == 2
        shards.extend(config.shard_ids)
    assert sorted(shards) == [0, 1], "each shard in exactly one process"


def test_one_image_is_built_once_from_the_dockerfile_and_every_shard_runs_it(bots):
    assert [service["build"] for service in bots.values() if "build" in service] == ["."]
    assert (ROOT / "Dockerfile").is_file()
    (image,) = {service["image"] for service in bots.values()}
    assert ":" in image and "/" not in image, "a local tag, not a registry's image"
    # The shards that do not build must wait for the image, not look for it in a registry.
    assert all(service["pull_policy"] == "never" for service in bots.values())


def test_bots_reach_the_database_service(compose, bots):
    db = environment(compose["services"]["db"])
    for service in bots.values():
        url = urlsplit(environment(service)["DATABASE_URL"])
        assert url.scheme == "postgresql" and url.hostname == "db" and url.port == 5432
        assert url.username == db["POSTGRES_USER"] and url.path == f"/{db['POSTGRES_DB']}"
        assert url.password == db["POSTGRES_PASSWORD"], "the same password variable as the database"
        assert service["depends_on"]["db"]["condition"] == "service_healthy"


def test_each_bot_has_its_own_data_volume_and_the_bots_health_check(compose, bots):
    data_volumes = [named_volumes(service)["/data"] for service in bots.values()]
    assert len(set(data_volumes)) == len(bots), "per-process data (card data, rules, cache) is not shared"
    assert all(volume in compose["volumes"] for volume in data_volumes)
    for service in bots.values():
        assert service["healthcheck"]["test"] == ["CMD", "cyclebot", "health"]
        # The bot writes its heartbeat every 30 s; health allows 120 s.
        assert service["healthcheck"]["interval"] == "60s"


def test_no_secret_is_written_into_the_file(compose, bots):
    text = (ROOT / "compose.yaml").read_text()
    raw = {**compose["services"]["db"]["environment"], **compose["x-bot-environment"]}
    for key in ("DISCORD_TOKEN", "POSTGRES_PASSWORD"):
        assert VARIABLE.fullmatch(str(raw[key])), f"{key} comes from the environment"
    assert "${POSTGRES_PASSWORD:?" in raw["DATABASE_URL"]
    assert not re.search(r"[MN][A-Za-z\d]{23,}\.[\w-]{6}\.[\w-]{27,}", text), "a Discord token"


def test_a_stop_leaves_time_for_the_bots_drain(bots):
    from bot.frame.interactions import DRAIN_SECONDS

    for service in bots.values():
        assert int(service["stop_grace_period"].removesuffix("s")) > DRAIN_SECONDS
