"""/rule with questions that name cards (simcord): the cards, their rulings and the deciding rule from the local
card data, escaped, pinging nobody, and no request to Scryfall's API; and the same from the terminal."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

from bot.carddb.service import FILE_NAME
from bot.config import Config
from bot.documents.phone import PAGE_ONE
from tests.rules.conftest import CR_2026
from tests.rules.phone import visible, visible_length
from tests.support.waits import CEILING

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.fixture
def bot_config(data_dir, fake_scryfall, question_cards_copy) -> Config:
    shutil.copyfile(question_cards_copy, data_dir / FILE_NAME)
    return Config(data_dir=data_dir, scryfall_api_url=fake_scryfall.base_url, rules_file=CR_2026)


async def test_a_card_question_shows_the_card_its_ruling_and_the_evoke_rule_702_74(
    simcord_env, channel, alice, fake_scryfall
):
    result = await alice.slash(channel, "rule", query="if I evoke Solitude do I still get to exile their creature")

    assert not result.ephemeral
    embed = result.response.embeds[0]
    description = embed.description
    # One title (the rule), then the card, then its ruling on the point, then the rule's words.
    assert embed.title == "702.74 Evoke"
    assert description.startswith("**Solitude {3}{W}{W}**\n*Creature — Elemental Incarnation*\n> Flash")
    assert description.index("evoke cost") < description.index("**702.74a**")
    assert "Lifelink matters" not in description
    shown = visible(embed)
    assert shown.count("702.74 Evoke") == 1 and "702.74. Evoke" not in shown
    assert visible_length(embed) <= PAGE_ONE
    assert fake_scryfall.api_requests() == []
    assert not simcord_env.errors


async def test_a_misspelt_card_and_a_plain_question_answer_702_29(simcord_env, channel, alice):
    result = await alice.slash(
        channel, "rule", query="can I still cycle while my opponent has teferi time raveller out"
    )
    description = result.response.embeds[0].description
    assert description.startswith("**Teferi, Time Raveler {1}{W}{U}**")
    assert "**702.29" in description


async def test_a_question_naming_no_card_is_answered_from_the_rules_alone(simcord_env, channel, alice):
    result = await alice.slash(channel, "rule", query="can I block with a tapped creature")
    description = result.response.embeds[0].description
    assert "**Solitude" not in description and "> " not in description.split("\n")[0]


async def test_mentions_and_markdown_around_card_names_are_escaped_and_ping_nobody(simcord_env, channel, alice):
    query = "@everyone does **[[Progenitus]]** <@123> have ~~protection~~ from `everything` ||?||"
    result = await alice.slash(channel, "rule", query=query)

    message = result.response
    embed = message.embeds[0]
    assert embed.description.startswith("**Progenitus {W}{W}{U}{U}{B}{B}{R}{R}{G}{G}**")
    assert not message.message.mention_everyone
    sent = [r.json for r in simcord_env.http_requests if r.json and ("/callback" in r.path or "/webhooks/" in r.path)]
    payloads = [body.get("data", body) for body in sent if "embeds" in body.get("data", body)]
    assert payloads and all(body["allowed_mentions"] == {"parse": []} for body in payloads)
    assert not simcord_env.errors


async def test_the_next_page_of_a_card_answer_is_the_same_answer(simcord_env, channel, alice):
    result = await alice.slash(channel, "rule", query="how does fuse work on wear // tear")
    first = result.response.embeds[0]
    assert first.description.startswith("**Wear // Tear")
    assert "702.102" in first.title


def test_the_terminal_answers_a_card_question_from_the_imported_card_data(tmp_path, question_cards_copy):
    shutil.copyfile(question_cards_copy, tmp_path / FILE_NAME)
    env = {**os.environ, "BOT_DATA_DIR": str(tmp_path), "RULES_FILE": str(CR_2026)}
    env.pop("DISCORD_TOKEN", None)
    done = subprocess.run(
        [sys.executable, "-m", "bot", "rule", "does", "chalice", "of", "the", "void", "on", "1", "counter",
         "[[prismatic ending]]", "with", "X=1"],
        capture_output=True, text=True, env=env, cwd=ROOT, timeout=CEILING,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Chalice of the Void {X}{X}" in out and "Prismatic Ending {X}{W}" in out
    assert "mana value that includes the value chosen for X" in out
    assert out.index("Prismatic Ending {X}{W}") < out.index("Comprehensive Rules January 16, 2026")


def callback_types(env) -> list[int]:
    return [r.json["type"] for r in env.http_requests if "/callback" in r.path and r.json]


async def test_a_question_read_in_time_is_answered_without_thinking_first(simcord_env, channel, alice, bob):
    result = await alice.slash(channel, "rule", query="if I evoke Solitude do I still get to exile their creature")

    # Deferred only past a second (tests/wire/test_acknowledging.py times that on real sockets).
    assert callback_types(simcord_env) == [4]
    assert not result.ephemeral and result.response.embeds[0].title == "702.74 Evoke"
    assert channel.history(viewer=bob)


async def test_a_miss_reaches_only_the_asker_with_no_public_flash(simcord_env, channel, alice, bob):
    result = await alice.slash(channel, "rule", query="lol thanks!")

    assert callback_types(simcord_env) == [4]
    miss = result.response
    assert miss.ephemeral and miss.embeds[0].title.startswith("No rule answers")
    assert channel.history(viewer=bob) == []
    assert not [r for r in simcord_env.http_requests if r.method == "DELETE"]  # nothing shown, then taken back


async def test_a_number_is_answered_at_once_without_waiting_on_the_card_data(simcord_env, channel, alice):
    result = await alice.slash(channel, "rule", query="702.74")
    assert callback_types(simcord_env) == [4]
    assert result.response.embeds[0].title == "702.74 Evoke"


async def test_a_long_card_question_opens_its_whole_rule_from_a_button(simcord_env, channel, alice, bob):
    query = (
        "my opponent wants to know: if I evoke Solitude this turn, do I still get to exile their creature "
        "before it goes away?"
    )
    result = await alice.slash(channel, "rule", query=query)
    labels = [b.get("label") for row in result.response.components for b in row["components"] if b.get("label")]
    assert "Whole rule" in labels and "Next" not in labels  # too long for a button to ask again

    whole = await bob.click(result.response, label="Whole rule")

    assert whole.ephemeral
    assert whole.response.embeds[0].title == "702.74 Evoke"
    assert "**702.74a**" in whole.response.embeds[0].description
    # The public answer stays as it was for the table.
    kept = simcord_env.backend.get_message(result.response.channel_id, result.response.id)
    assert kept.embeds[0]["description"] == result.response.embeds[0].description
    assert not simcord_env.errors
