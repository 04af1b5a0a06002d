"""/rule with an operator's language model that picks (simcord and a fake OpenAI-compatible endpoint on 127.0.0.1):
"thinking…" first, the model's pick leading the rules' own text, a miss private at once without a request, and
the lexical answer when the model fails. (simcord runs the bot on a virtual clock, where a timeout never comes:
a model slower than its timeout is tested on the real clock, in test_picker.py.)"""

from __future__ import annotations

import dataclasses

import pytest

from bot.client import CycleBot
from bot.rules.asking.ask import lookup
from bot.rules.ranking.index import RulesIndex
from bot.rules.text.document import load_document
from tests.data import CR_2026
from tests.support.fake_llm import FakeLLM, Scripted

QUESTION = "what happens if my library is empty and I have to draw"


@pytest.fixture(scope="module")
def lexical():
    """The lexical answer to QUESTION, as the bot will rank it before asking the model."""
    return lookup(RulesIndex(load_document(CR_2026)), QUESTION)


def callback_types(env) -> list[int]:
    return [r.json["type"] for r in env.http_requests if "/callback" in r.path and r.json]


@pytest.fixture
def script():
    return [Scripted(pick={"rules": [], "sure": False})]


@pytest.fixture
def fake_llm(script):
    with FakeLLM(*script) as fake:
        yield fake


@pytest.fixture
def simcord_bot(bot_config, fake_llm):
    config = dataclasses.replace(
        bot_config, rules_file=CR_2026, rules_llm_url=fake_llm.url, rules_llm_model="rules-model", rules_llm_timeout=1.0
    )
    return CycleBot(config)


class TestAPick:
    @pytest.fixture
    def script(self, lexical):
        return [Scripted(pick={"rules": [lexical.pool[2]], "sure": True})]

    async def test_the_models_pick_leads_the_rules_own_text_after_thinking_in_the_channel(
        self, simcord_env, channel, alice, bob, fake_llm, lexical
    ):
        result = await alice.slash(channel, "rule", query=QUESTION)

        assert callback_types(simcord_env) == [5]
        assert not result.ephemeral and channel.history(viewer=bob)
        embed = result.response.embeds[0]
        picked = lexical.pool[2]
        assert embed.description.startswith(f"• **{picked}") or embed.description.split("\n")[0].count(picked)
        assert len(fake_llm.requests) == 1
        assert not simcord_env.errors

    async def test_a_miss_goes_privately_at_once_and_the_model_is_not_asked(
        self, simcord_env, channel, alice, fake_llm
    ):
        result = await alice.slash(channel, "rule", query="how do I sleeve my deck")

        assert callback_types(simcord_env) == [4]
        assert result.ephemeral and result.response.embeds[0].title.startswith("No rule answers")
        assert fake_llm.requests == []

    async def test_a_number_is_answered_at_once_without_the_model(self, simcord_env, channel, alice, fake_llm):
        await alice.slash(channel, "rule", query="704.5b")
        assert callback_types(simcord_env) == [4] and fake_llm.requests == []


class TestAFailingModel:
    @pytest.fixture
    def script(self):
        return [Scripted(status=500)]

    async def test_a_failing_model_leaves_the_lexical_answer_and_the_user_never_sees_an_error(
        self, simcord_env, channel, alice, fake_llm, lexical
    ):
        result = await alice.slash(channel, "rule", query=QUESTION)

        shown = result.response.embeds[0]
        assert not result.ephemeral
        assert lexical.ranked()[0] in shown.description.split("\n")[0] or lexical.ranked()[0] in shown.title
        assert "error" not in shown.description.lower()
        assert not simcord_env.errors
