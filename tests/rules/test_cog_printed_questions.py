"""/rule with a question naming a card as it is printed in a language the operator chose (simcord): the card shown
with the answer, from the local card data, with no request to Scryfall's API; and the same from the terminal."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

from bot.carddb.printed import FILE_NAME as PRINTED_FILE
from bot.carddb.service import FILE_NAME
from bot.config import Config
from tests.rules.conftest import CR_2026, PRINTED_LANGUAGES
from tests.support.waits import CEILING

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.fixture
def bot_config(data_dir, fake_scryfall, printed_copy) -> Config:
    for name in (FILE_NAME, PRINTED_FILE):
        shutil.copyfile(printed_copy / name, data_dir / name)
    return Config(
        data_dir=data_dir,
        scryfall_api_url=fake_scryfall.base_url,
        rules_file=CR_2026,
        card_languages=PRINTED_LANGUAGES,
    )


@pytest.mark.parametrize(
    "query",
    [
        "If I cast Gnade des Engels, can my opponent respond to it?",
        "can my opponent respond when I cast 天使の嗜み",
    ],
)
async def test_a_question_naming_a_card_by_its_printed_name_shows_that_card(
    simcord_env, channel, alice, fake_scryfall, query
):
    result = await alice.slash(channel, "rule", query=query)

    assert not result.ephemeral
    description = result.response.embeds[0].description
    assert description.startswith("**Angel's Grace {W}**\n*Instant*\n> Split second")
    assert fake_scryfall.api_requests() == []
    assert not simcord_env.errors


async def test_a_printed_name_several_cards_share_shows_them_all(simcord_env, channel, alice):
    result = await alice.slash(channel, "rule", query="if my opponent casts Eliminare can I respond to it")
    description = result.response.embeds[0].description
    assert "**Cancel {1}{U}{U}**" in description and "**Wipe Away {1}{U}{U}**" in description


def test_the_terminal_finds_a_card_by_its_printed_name_in_the_languages_chosen(tmp_path, printed_copy):
    for name in (FILE_NAME, PRINTED_FILE):
        shutil.copyfile(printed_copy / name, tmp_path / name)
    env = {**os.environ, "BOT_DATA_DIR": str(tmp_path), "RULES_FILE": str(CR_2026), "CARD_LANGUAGES": "de,ja"}
    env.pop("DISCORD_TOKEN", None)
    question = ["can", "my", "opponent", "respond", "when", "I", "cast", "天使の嗜み"]
    done = subprocess.run(
        [sys.executable, "-m", "bot", "rule", *question], capture_output=True, text=True, env=env, cwd=ROOT,
        timeout=CEILING,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "Angel's Grace {W}" in done.stdout
    english_only = subprocess.run(
        [sys.executable, "-m", "bot", "rule", *question], capture_output=True, text=True, cwd=ROOT, timeout=CEILING,
        env={**env, "CARD_LANGUAGES": ""},
    )  # fmt: skip
    assert "Angel's Grace" not in english_only.stdout + english_only.stderr
