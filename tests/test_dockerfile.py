"""The Dockerfile can't be built here, so read it for the obvious mistakes."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def instructions() -> list[tuple[str, str]]:
    text = (ROOT / "Dockerfile").read_text().replace("\\\n", " ")
    parsed = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            keyword, _, rest = line.partition(" ")
            parsed.append((keyword.upper(), rest.strip()))
    return parsed


def values(instructions, keyword):
    return [rest for key, rest in instructions if key == keyword]


def test_slim_python_base(instructions):
    (base,) = values(instructions, "FROM")
    assert re.fullmatch(r"python:3\.1[1-9]-slim(-\w+)?", base)


def test_runs_as_a_non_root_user(instructions):
    users = values(instructions, "USER")
    assert users, "no USER instruction: the container would run as root"
    assert users[-1] not in {"root", "0", "0:0"}
    keywords = [key for key, _ in instructions]
    assert keywords.index("USER") > max(i for i, key in enumerate(keywords) if key in {"RUN", "COPY"})


def test_data_directory_is_a_volume_and_the_bot_uses_it(instructions):
    volumes = [json.loads(v) if v.startswith("[") else v.split() for v in values(instructions, "VOLUME")]
    assert ["/data"] in volumes
    assert any("BOT_DATA_DIR=/data" in env for env in values(instructions, "ENV"))


def test_entry_point_is_the_bot_module(instructions):
    (command,) = values(instructions, "CMD")
    assert json.loads(command) == ["python", "-m", "bot"]
    assert not values(instructions, "ENTRYPOINT")


def test_health_check_uses_the_bots_own_probe(instructions):
    (health,) = values(instructions, "HEALTHCHECK")
    assert health.endswith('CMD ["python", "-m", "bot", "health"]')


def test_no_secret_is_baked_into_the_image(instructions):
    for key, rest in instructions:
        if key in {"ENV", "ARG"}:
            assert "TOKEN" not in rest.upper()
    ignored = (ROOT / ".dockerignore").read_text().split()
    assert ".env" in ignored and "data" in ignored


def test_every_package_directory_is_copied(instructions):
    copied = " ".join(values(instructions, "COPY"))
    for package in ("bot", "cogs"):
        assert f"{package} ./{package}" in copied
