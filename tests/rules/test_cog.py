"""/rule through the real discord.py stack (simcord): answers, paging, related rules, autocomplete."""

from __future__ import annotations

import dataclasses
import logging
import re

import pytest

from bot.client import CycleBot
from bot.documents.phone import PAGE, PAGE_ONE
from bot.rules.asking.ask import lookup
from tests.data import CR_DIR
from tests.rules.conftest import keep_edition
from tests.rules.phone import visible, visible_length

CR_2026 = CR_DIR / "MagicCompRules-2026-01-16.txt"


def select_options(message) -> list[dict]:
    return [option for item in buttons(message) for option in item.get("options", [])]


def buttons(message) -> list[dict]:
    return [item for row in message.components for item in row.get("components", [])]


def bold_numbers(description: str) -> list[str]:
    return [part.split("**")[0] for part in description.split("\n**")[1:]] if description else []


async def test_rule_702_29_from_the_bundled_excerpt_shows_its_title_once_then_702_29a_to_f(simcord_env, channel, alice):
    result = await alice.slash(channel, "rule", query="702.29")

    assert not result.ephemeral
    message = result.response
    embed = message.embeds[0]
    assert embed.title == "702.29 Cycling"
    assert embed.description.startswith("**702.29a** Cycling is an activated ability")
    assert visible(embed).count("Cycling\n") == 1  # the title, not again as the first line
    assert embed.footer.text.startswith("Comprehensive Rules January 16, 2026, bundled excerpt")
    numbers = bold_numbers("\n" + embed.description)
    while any(button.get("label") == "Next" and not button.get("disabled") for button in buttons(message)):
        message = (await alice.click(message, label="Next")).response
        numbers += bold_numbers("\n" + message.embeds[0].description)
    assert numbers == [f"702.29{c}" for c in "abcdef"]
    assert not simcord_env.errors


async def test_about_names_the_bundled_excerpt_and_its_edition_dates(simcord_env, channel, alice):
    result = await alice.slash(channel, "about")
    fields = {field.name: field.value for field in result.response.embeds[0].fields}
    assert "bundled excerpt" in fields["Comprehensive Rules"]
    assert "January 16, 2026" in fields["Comprehensive Rules"]


async def test_a_term_offers_its_rule_s_subrules_privately_to_whoever_picks_one(simcord_env, channel, alice, bob):
    result = await alice.slash(channel, "rule", query="cycling")
    embed = result.response.embeds[0]
    assert embed.title == "Cycling · 702.29"
    assert embed.fields == []  # no "See also" list repeating the menu
    options = [option["value"] for option in select_options(result.response)]
    assert "702.29b" in options and "702.29a" not in options  # 702.29a is on the page already

    opened = await alice.select(result.response, ["702.29b"])
    assert opened.ephemeral
    assert opened.response.embeds[0].title == "702.29b Cycling"

    # Someone else at the table gets their own private copy instead of a refusal.
    copy = await bob.select(result.response, ["702.29b"])
    assert copy.ephemeral
    assert copy.response.embeds[0].title == "702.29b Cycling"
    assert not simcord_env.errors


@pytest.mark.parametrize(
    ("query", "title"), [("999.99", "No rule 999.99"), ("abc!!", "No rule answers"), ("x" * 6000, "That is too long")]
)
async def test_bad_input_gets_a_private_miss_not_an_error(simcord_env, channel, alice, bob, query, title):
    result = await alice.slash(channel, "rule", query=query)

    assert result.ephemeral
    embed = result.response.embeds[0]
    assert embed.title.startswith(title)
    assert "error id" not in (result.response.content or "")
    assert channel.history(viewer=bob) == []
    assert not simcord_env.errors


async def test_autocomplete_offers_rule_numbers_from_the_excerpt(simcord_env, channel, alice):
    choices = await alice.autocomplete(channel, "rule", "query", "702.2")
    assert [choice["value"] for choice in choices] == ["702.29"] + [f"702.29{c}" for c in "abcdef"]


class TestFullRules:
    @pytest.fixture
    def simcord_bot(self, bot_config):
        return CycleBot(dataclasses.replace(bot_config, rules_file=CR_2026))

    async def test_rule_704_5_pages_through_every_subrule_in_order(self, simcord_env, channel, alice):
        result = await alice.slash(channel, "rule", query="704.5")
        message = result.response
        first = message.embeds[0]
        assert first.title == "704.5 State-Based Actions"
        total = int(first.footer.text.rsplit("/", 1)[1])
        assert total >= 2
        assert first.footer.text.startswith("Comprehensive Rules January 16, 2026 · page 1/")
        assert visible_length(first) <= PAGE_ONE

        descriptions = [first.description]
        for _ in range(total - 1):
            turned = await alice.click(message, label="Next")
            message = turned.response
            descriptions.append(message.embeds[0].description)
        assert message.embeds[0].footer.text.endswith(f"page {total}/{total}")
        assert all(len(text) <= 4096 for text in descriptions)
        shown = [n for text in descriptions for n in bold_numbers("\n" + text)]
        # 704.5's own words come first under its title, then every subrule in order.
        assert descriptions[0].startswith("The state-based actions are as follows:")
        assert shown == [f"704.5{c}" for c in "abcdefghijkmnpqrstuvwxyz"]
        assert not simcord_env.errors

    async def test_next_pressed_by_someone_else_gives_them_a_private_copy_at_that_page(
        self, simcord_env, channel, alice, bob
    ):
        result = await alice.slash(channel, "rule", query="704.5")
        before = result.response.embeds[0].to_dict()

        copy = await bob.click(result.response, label="Next")

        assert copy.ephemeral
        assert copy.response.embeds[0].footer.text.endswith("page 2/" + before["footer"]["text"].rsplit("/", 1)[1])
        assert copy.response.embeds[0].description != before["description"]
        # The public answer stays where its asker left it.
        after = simcord_env.backend.get_message(result.response.channel_id, result.response.id)
        assert after.embeds[0]["description"] == before["description"]
        assert not simcord_env.errors

    async def test_section_702_lists_keyword_abilities(self, simcord_env, channel, alice):
        result = await alice.slash(channel, "rule", query="702")
        message = result.response
        assert message.embeds[0].title == "702 Keyword Abilities"
        descriptions = [message.embeds[0].description]
        while any(button.get("label") == "Next" and not button.get("disabled") for button in buttons(message)):
            message = (await alice.click(message, label="Next")).response
            descriptions.append(message.embeds[0].description)
        text = "\n".join(descriptions)
        assert "**702.29.** Cycling" in text and "**702.2.** Deathtouch" in text
        assert "702.29a" not in text

    async def test_examples_false_leaves_examples_out_101_2(self, simcord_env, channel, alice):
        with_examples = await alice.slash(channel, "rule", query="101.2")
        without = await alice.slash(channel, "rule", query="101.2", examples=False)
        assert "*Example:*" in with_examples.response.embeds[0].description
        assert "*Example:*" not in without.response.embeds[0].description

    async def test_a_question_naming_a_term_is_answered_sure_with_its_rule_in_the_menu(
        self, simcord_env, channel, alice
    ):
        result = await alice.slash(channel, "rule", query="how does typecycling work?")
        embed = result.response.embeds[0]
        assert embed.title == "Typecycling · 702.29"
        assert "702.29f" in [option["value"] for option in select_options(result.response)]

    async def test_autocomplete_is_limited_to_25_choices_of_100_characters(self, simcord_env, channel, alice):
        choices = await alice.autocomplete(channel, "rule", "query", "702.2")
        assert len(choices) == 25
        assert choices[0] == {"name": "702.2. Deathtouch", "value": "702.2"}
        assert all(len(choice["name"]) <= 100 and len(choice["value"]) <= 100 for choice in choices)
        terms = await alice.autocomplete(channel, "rule", "query", "typecyc")
        assert terms[0]["value"] == "Typecycling"

    @pytest.mark.parametrize(
        ("typed", "meant"),
        [
            ("sb", "State-Based Actions"),  # what players type for it
            ("sba", "State-Based Actions"),
            ("etb", "Enters the Battlefield"),
            ("frist", "First Strike"),  # a typo, not Forest or Fight
            ("dethtouch", "Deathtouch"),
            ("based state", "State-Based Actions"),  # words swapped
        ],
    )
    async def test_autocomplete_forgives_abbreviations_typos_and_word_order(
        self, simcord_env, channel, alice, typed, meant
    ):
        choices = await alice.autocomplete(channel, "rule", "query", typed)
        assert choices and choices[0]["value"] == meant, choices[:3]

    async def test_about_names_the_full_edition(self, simcord_env, channel, alice):
        result = await alice.slash(channel, "about")
        fields = {field.name: field.value for field in result.response.embeds[0].fields}
        assert fields["Comprehensive Rules"].startswith("Comprehensive Rules effective January 16, 2026 (full text")


class TestBrokenRulesFile:
    @pytest.fixture
    def simcord_bot(self, bot_config, tmp_path):
        broken = tmp_path / "broken.txt"
        broken.write_text("<html>not the rules</html>")
        return CycleBot(dataclasses.replace(bot_config, rules_file=broken))

    async def test_broken_rules_file_is_logged_and_the_excerpt_answers(self, simcord_env, channel, alice, caplog):
        result = await alice.slash(channel, "rule", query="702.29")
        assert result.response.embeds[0].title == "702.29 Cycling"
        records = caplog.get_records("setup")
        assert any(r.levelno == logging.ERROR and "RULES_FILE" in r.getMessage() for r in records)


class TestDownloadedRules:
    @pytest.fixture
    def simcord_bot(self, bot_config):
        keep_edition(bot_config.data_dir, CR_DIR / "MagicCompRules-2024-11-08.txt")
        return CycleBot(bot_config)

    async def test_a_previous_download_is_used_without_rules_file(self, simcord_env, channel, alice):
        result = await alice.slash(channel, "rule", query="100.1")
        assert "November 8, 2024" in result.response.embeds[0].footer.text
        assert simcord_env.bot.rules.refresh_task is not None


@pytest.mark.parametrize("query", ["704.5", "702", "100", "7", "613", "cycling", "state-based actions", "999.99"])
def test_every_page_fits_discords_embed_limits_and_nothing_is_dropped(full_index, query):
    from cogs.rules import render_pages

    answer = lookup(full_index, query)
    pages = render_pages(answer)
    assert all(len(page) <= 6000 and len(page.description or "") <= 4096 for page in pages)
    assert visible_length(pages[0]) <= PAGE_ONE and all(visible_length(page) <= PAGE for page in pages)
    shown = "\n".join(page.description or "" for page in pages)
    titled = answer.title.split(" ")[0]
    assert all(line.number in shown for line in answer.lines if line.number and line.number.rstrip(".") != titled)
    assert all(line.text[:40] in shown.replace("\\", "") for line in answer.lines)


async def test_related_rules_are_those_that_refer_to_the_answer_never_its_neighbours(simcord_env, channel, alice):
    """/rule frist strike (a rule the excerpt lacks) listed 702.1, 702.19 and 702.29 as "Related": the keyword
    abilities printed next to it. Related now means the rules whose own text refers to 702.7."""
    answer = (await alice.slash(channel, "rule", query="frist strike")).response.embeds[0]
    assert answer.title == "702.7 First Strike"
    related = [line for line in answer.description.split("\n") if line.startswith("• ")]
    assert related and not any(number in line for line in related for number in ("702.1.", "702.19", "702.29"))
    document = simcord_env.bot.rules.index.document
    for line in related:
        (rule,) = document.by_number[line.split("**")[1].rstrip(".")]
        assert re.search(r"\b702\.7(?!\d)", rule.text), rule.text
