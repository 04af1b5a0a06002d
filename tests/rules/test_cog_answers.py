"""/rule as a new user meets it (simcord): the bundled excerpt, numbers as typed, questions, links,
"Show in channel", buttons after a restart, escaping, and what changed between editions."""

from __future__ import annotations

import dataclasses

import pytest

from bot.client import CycleBot
from bot.documents.phone import PAGE_ONE
from tests.data import CR_DIR
from tests.rules.conftest import keep_edition
from tests.rules.phone import visible, visible_length

CR_2024 = CR_DIR / "MagicCompRules-2024-11-08.txt"
CR_2026 = CR_DIR / "MagicCompRules-2026-01-16.txt"


def bold_numbers(description: str) -> list[str]:
    return [part.split("**")[0] for part in ("\n" + description).split("\n**")[1:]]


# ------------------------------------------------------------------ out of the box (bundled excerpt)


@pytest.mark.parametrize(
    ("query", "title"),
    [
        ("trample", "Trample · 702.19"),
        ("echo", "Echo · 702.30"),
        ("704.5", "704.5 State-Based Actions"),
        ("103.5", "103.5 Starting the Game"),
        ("100", "100 General"),
        ("305.2", "305.2 Lands"),
        ("601.2g", "601.2g Casting Spells"),
    ],
)
async def test_a_fresh_install_answers_trample_echo_and_the_rules_the_game_cites(
    simcord_env, channel, alice, query, title
):
    result = await alice.slash(channel, "rule", query=query)

    assert not result.ephemeral
    embed = result.response.embeds[0]
    assert embed.title == title
    assert embed.footer.text.startswith("Comprehensive Rules January 16, 2026, bundled excerpt")
    assert visible_length(embed) <= PAGE_ONE
    assert not simcord_env.errors


async def test_trample_702_19_leads_with_its_definition_and_702_19a_the_whole_rule_behind_next(
    simcord_env, channel, alice
):
    result = await alice.slash(channel, "rule", query="how does trample work")
    embed = result.response.embeds[0]
    assert embed.title == "Trample · 702.19"
    assert embed.description.startswith("A keyword ability that modifies how a creature assigns combat damage.")
    assert bold_numbers(embed.description)[0] == "702.19a"
    assert embed.url == "https://yawgatog.com/resources/magic-rules/#R70219"
    whole = (await alice.click(result.response, label="Next")).response.embeds[0]
    assert whole.title == embed.title and whole.description.startswith("**Rule 702.19 Trample**")
    assert bold_numbers(whole.description)[1:3] == ["702.19a", "702.19b"]


@pytest.mark.parametrize(
    ("query", "title"),
    [("613.1", "613.1 Interaction of Continuous Effects"), ("first strike", "702.7 First Strike")],
)
async def test_a_real_rule_missing_from_the_excerpt_is_named_with_a_link_and_no_admin_instructions(
    simcord_env, channel, alice, query, title
):
    result = await alice.slash(channel, "rule", query=query)

    assert not result.ephemeral
    embed = result.response.embeds[0]
    assert embed.title == title
    shown = visible(embed)
    assert shown.count("The full rules are not loaded here.") == 1
    assert "rules update" not in shown and "RULES_FILE" not in shown and "`" not in shown
    assert "https://yawgatog.com/resources/magic-rules/#R" in embed.description
    assert embed.url.startswith("https://yawgatog.com/resources/magic-rules/#R")


async def test_rule_121_4_links_to_704_which_now_resolves_out_of_the_box(simcord_env, channel, alice):
    result = await alice.slash(channel, "rule", query="121.4")
    items = [item for row in result.response.components for item in row["components"]]
    options = [option["value"] for item in items for option in item.get("options", [])]
    assert options == ["704"]
    opened = await alice.select(result.response, ["704"])
    assert opened.response.embeds[0].title == "704 State-Based Actions"


# ------------------------------------------------------------------ numbers as typed


@pytest.mark.parametrize(
    ("query", "shown"),
    [
        ("702.29 c", ["702.29c"]),
        ("702.29C", ["702.29c"]),
        ("§704.5b", ["704.5b"]),
        ("CR 702.29c", ["702.29c"]),
        ("rule 704.5k?", ["704.5k"]),
        ("702.29e)", ["702.29e"]),
        ("what does 702.29c say", ["702.29c"]),
        ("704.5a-c", ["704.5a", "704.5b", "704.5c"]),
        ("704.5a–c", ["704.5a", "704.5b", "704.5c"]),
        ("702.29a, 702.29c", ["702.29a", "702.29c"]),
    ],
)
async def test_rule_numbers_are_read_as_people_type_them(simcord_env, channel, alice, query, shown):
    result = await alice.slash(channel, "rule", query=query)
    embed = result.response.embeds[0]
    numbers = bold_numbers(embed.description)
    if len(shown) == 1:  # the title names the one rule asked for, and its text follows without the number again
        assert embed.title.split(" ")[0] == shown[0] and numbers == []
    else:
        assert numbers == shown


async def test_a_decimal_comma_702_29_shows_the_whole_rule(simcord_env, channel, alice):
    result = await alice.slash(channel, "rule", query="702,29")
    assert result.response.embeds[0].title == "702.29 Cycling"


# ------------------------------------------------------------------ questions and non-questions


@pytest.mark.parametrize("query", ["how do I sleeve my deck", "lol", "what's the weather", "card prices", "thanks!"])
async def test_a_non_question_gets_a_private_quiet_miss(simcord_env, channel, alice, bob, query):
    result = await alice.slash(channel, "rule", query=query)
    assert result.ephemeral
    embed = result.response.embeds[0]
    assert embed.title.startswith("No rule answers")
    assert result.response.components == []  # nothing close: no menu, no "Show in channel"
    shown = visible(embed)
    assert "London Mulligan" not in shown and "The Ring" not in shown and "rules update" not in shown
    assert channel.history(viewer=bob) == []


async def test_markdown_and_mentions_in_a_query_are_shown_escaped_and_ping_nobody(simcord_env, channel, alice):
    result = await alice.slash(channel, "rule", query="**@everyone** [free](https://evil.example) <@123>")
    embed = result.response.embeds[0]
    assert "\\*\\*" in embed.title and "\\[free\\](" in embed.title  # shown as typed, not as markdown or a link
    assert not result.response.message.mention_everyone
    callbacks = [r for r in simcord_env.http_requests if "/callback" in r.path and r.json]
    assert callbacks and all(r.json["data"]["allowed_mentions"] == {"parse": []} for r in callbacks)


# ------------------------------------------------------------------ showing the table


async def test_a_private_answer_can_be_shown_in_the_channel(simcord_env, channel, alice, bob):
    result = await alice.slash(channel, "rule", query="cycling")
    private = await alice.select(result.response, ["702.29b"])
    assert private.ephemeral

    shown = await alice.click(private.response, label="Show in channel")

    assert not shown.ephemeral
    assert shown.response.embeds[0].title == "702.29b Cycling"
    assert shown.response.embeds[0].description == private.response.embeds[0].description
    assert not simcord_env.errors


class TestFullRules:
    @pytest.fixture
    def simcord_bot(self, bot_config):
        return CycleBot(dataclasses.replace(bot_config, rules_file=CR_2026))

    async def test_keyword_question_answers_702_19_and_all_its_subrules(self, simcord_env, channel, alice):
        result = await alice.slash(channel, "rule", query="how does trample work")
        message = result.response
        numbers = []
        while "Next" in [
            b.get("label") for row in message.components for b in row["components"] if not b.get("disabled")
        ]:
            message = (await alice.click(message, label="Next")).response
            numbers += bold_numbers(message.embeds[0].description)
        assert numbers == ["Rule 702.19 Trample"] + [f"702.19{letter}" for letter in "abcdefg"]

    async def test_empty_library_question_answers_the_rule_that_loses_the_game_121_4(self, simcord_env, channel, alice):
        result = await alice.slash(channel, "rule", query="what happens if I draw from an empty library")
        embed = result.response.embeds[0]
        assert embed.title.split(" ")[0] in ("121.4", "704.5b") or "121.4" in embed.description

    async def test_next_keeps_working_after_a_restart(self, simcord_env, channel, alice, bot_config):
        result = await alice.slash(channel, "rule", query="704.5")
        first = result.response.embeds[0].description

        await simcord_env.restart_bot(CycleBot(dataclasses.replace(bot_config, rules_file=CR_2026)))

        turned = await alice.click(result.response, label="Next")
        second = turned.response.embeds[0]
        assert second.description != first
        assert second.footer.text.split(" · ")[-1].startswith("page 2/")
        assert not simcord_env.errors

    async def test_next_on_a_private_answer_turns_its_page_in_place(self, simcord_env, channel, alice):
        result = await alice.slash(channel, "rule", query="121.4")
        private = await alice.select(result.response, ["704"])
        total = private.response.embeds[0].footer.text.rsplit("/", 1)[1]
        assert private.ephemeral and private.response.embeds[0].footer.text.endswith(f"page 1/{total}")

        turned = await alice.click(private.response, label="Next")

        assert turned.response.embeds[0].footer.text.endswith(f"page 2/{total}")
        assert turned.response.id == private.response.id  # the same private message, edited
        labels = [b.get("label") for row in turned.response.components for b in row["components"]]
        assert "Show in channel" in labels
        assert not simcord_env.errors

    async def test_a_pressed_button_answers_even_when_the_rules_were_unloaded(self, simcord_env, channel, alice):
        result = await alice.slash(channel, "rule", query="704.5")
        simcord_env.bot.rules.loaded = None

        pressed = await alice.click(result.response, label="Next")

        assert pressed.ephemeral
        assert "not loaded right now" in pressed.response.content


class TestChanges:
    @pytest.fixture
    def simcord_bot(self, bot_config):
        keep_edition(bot_config.data_dir, CR_2026)
        keep_edition(bot_config.data_dir, CR_2024)
        return CycleBot(bot_config)

    async def test_changes_lists_what_the_latest_update_added_removed_and_reworded(self, simcord_env, channel, alice):
        result = await alice.slash(channel, "rule", query="changes")
        message = result.response
        text = message.embeds[0].description
        while "Next" in [
            b.get("label") for row in message.components for b in row["components"] if not b.get("disabled")
        ]:
            message = (await alice.click(message, label="Next")).response
            text += "\n" + message.embeds[0].description
        assert result.response.embeds[0].title == (
            "Rules changes: effective November 8, 2024 → effective January 16, 2026"
        )
        added = next(line for line in text.split("\n") if line.startswith("Added"))
        removed = next(line for line in text.split("\n") if line.startswith("Removed"))
        reworded = next(line for line in text.split("\n") if line.startswith("Reworded"))
        assert "122.9" in added.split(": ")[1].split(", ")
        assert "603.2i" in removed.split(": ")[1].split(", ")
        assert "100.4" in reworded.split(": ")[1].split(", ")
        assert "702.29a" not in text

    async def test_changes_for_one_rule_shows_old_and_new_text_100_4(self, simcord_env, channel, alice):
        result = await alice.slash(channel, "rule", query="changes number:100.4")
        text = result.response.embeds[0].description
        assert "Rule 100.4 was reworded." in text
        assert "Before (effective November 8, 2024):" in text and "Now (effective January 16, 2026):" in text
        assert "Tournament Rules" in text.split("Now (")[1]

    async def test_changes_for_an_unchanged_rule_702_29a(self, simcord_env, channel, alice):
        result = await alice.slash(channel, "rule", query="changes 702.29a")
        assert result.response.embeds[0].description.startswith("Rule 702.29a is unchanged.")


async def test_changes_without_a_kept_edition_says_so_privately(simcord_env, channel, alice, bob):
    result = await alice.slash(channel, "rule", query="changes")
    miss = result.response  # told at once and privately: no public "thinking…" first
    assert miss.ephemeral and "No earlier edition is kept yet" in miss.embeds[0].description
    assert channel.history(viewer=bob) == []
