"""The command tree's gate through the real discord.py stack (simcord, raw payloads as a broken or hostile client
could send them): options checked against their declarations before any handler runs, and autocomplete's turns
(one user's flood, a newer request replacing an older one, a budget past which the answer is an empty list)."""

from __future__ import annotations

import logging

import pytest
from simcord.enums import InteractionType
from simcord.interactions import base_payload
from simcord.results import InteractionResult

from bot.serving.lograte import RateLimitedLog
from bot.serving.suggest import RATE
from cogs import _gate
from tests.cards.conftest import wait_until


def deliver(env, actor, channel, data: dict, kind: int = InteractionType.APPLICATION_COMMAND) -> InteractionResult:
    """Deliver an interaction whose ``data`` is exactly what is given (a real client builds it from the command's
    declaration; this one need not), without waiting for the bot."""
    record, payload = base_payload(
        env.backend, type=kind, channel_id=channel.id, guild_id=actor.guild.id, user_id=actor.id, data=data
    )
    env.backend.emit("INTERACTION_CREATE", payload)
    return InteractionResult(env, record)


def slash_data(env, actor, channel, name: str, options: list | None) -> dict:
    from simcord.actors import _resolve_visible_command
    from simcord.enums import AppCommandType

    root = _resolve_visible_command(actor, channel.id, name, AppCommandType.CHAT_INPUT)
    data = {"id": root["id"], "name": root["name"], "type": 1}
    return data if options is None else data | {"options": options}


GARBLED = [
    # A string where /goldfish start's integer seed goes.
    (
        "goldfish",
        [{"name": "start", "type": 1, "options": [{"name": "seed", "type": 4, "value": "abc"}]}],
        "“seed” must be a whole number",
    ),
    ("card", None, "“name” is missing"),  # no options at all
    ("card", [{"name": "name", "type": 3, "value": "x" * 151}], "“name” must be between 1 and 150 characters long"),
    ("card", [{"name": "name", "type": 4, "value": 3}], "“name” arrived as the wrong kind of value"),
    ("card", [{"name": "name", "type": 3, "value": "Fling"}, {"name": "@everyone", "type": 3, "value": "x"}], None),
    ("goldfish", [], "a subcommand is missing"),
    ("rule", [{"name": "query", "type": 3, "value": "702.29"}, {"name": "examples", "type": 5, "value": "yes"}], None),
]


@pytest.mark.parametrize(("command", "options", "said"), GARBLED, ids=lambda value: str(value)[:30])
async def test_a_garbled_command_gets_one_private_line_and_one_log_line(
    simcord_env, channel, alice, caplog, monkeypatch, command, options, said
):
    caplog.set_level(logging.INFO)
    # Refusals a stranger can cause are logged at most once a minute: a fresh minute for each case.
    monkeypatch.setattr(_gate, "quiet", RateLimitedLog(_gate.log))
    result = deliver(simcord_env, alice, channel, slash_data(simcord_env, alice, channel, command, options))
    await simcord_env.settle()

    answer = result.response
    assert answer.ephemeral and answer.content.startswith("That command reached me garbled: ")
    assert answer.content.endswith(f"Pick /{command} again from the list of commands.")
    if said is not None:
        assert said in answer.content
    assert "@everyone" not in answer.content  # a name from the payload is escaped, never a ping
    assert not answer.message.mentions and not answer.message.mention_everyone
    lines = [r for r in caplog.records if r.name == "cogs._gate"]
    assert len(lines) == 1 and lines[0].levelname == "WARNING" and not lines[0].exc_info
    assert not [r for r in caplog.records if r.exc_info or r.levelname == "ERROR"]
    assert "x" * 20 not in caplog.text  # what was typed never reaches the log
    assert not simcord_env.errors
    assert [m for m in channel.history() if m.author.bot] == []  # nothing ran: no table, no card


@pytest.mark.parametrize("resolved", [None, {}, {"messages": {}}, {"messages": {"1": {}}}, {"users": {}}])
async def test_a_message_command_without_its_target_gets_one_private_line_and_one_log_line(
    simcord_env, channel, alice, bob, caplog, monkeypatch, resolved
):
    from simcord.actors import _resolve_visible_command
    from simcord.enums import AppCommandType

    caplog.set_level(logging.INFO)
    monkeypatch.setattr(_gate, "quiet", RateLimitedLog(_gate.log))
    message = await bob.send(channel, "[[Street Wraith]]")
    root = _resolve_visible_command(alice, channel.id, "Look up cards", AppCommandType.MESSAGE)
    data = {"id": root["id"], "name": root["name"], "type": 3, "target_id": str(message.id)}
    result = deliver(simcord_env, alice, channel, data if resolved is None else data | {"resolved": resolved})
    await simcord_env.settle()

    answer = result.response
    assert answer.ephemeral
    assert answer.content == (
        "That command reached me garbled: the message it was used on is missing. Choose Look up cards again from Apps."
    )
    lines = [r for r in caplog.records if r.name == "cogs._gate"]
    assert [line.getMessage() for line in lines] == [
        f"Refused Look up cards from user {alice.id}: it does not match the command (the message it was used on is "
        "missing)"
    ]
    assert not [r for r in caplog.records if r.exc_info or r.levelname == "ERROR"]
    assert not simcord_env.errors


async def test_a_well_formed_command_passes_the_gate(simcord_env, channel, alice):
    options = [{"name": "query", "type": 3, "value": "702.29"}, {"name": "examples", "type": 5, "value": False}]
    result = deliver(simcord_env, alice, channel, slash_data(simcord_env, alice, channel, "rule", options))
    await simcord_env.settle()
    assert result.response.embeds[0].title.startswith("702.29")


def autocomplete_data(env, actor, channel, typed: str) -> dict:
    data = slash_data(env, actor, channel, "rule", None)
    return data | {"options": [{"name": "query", "type": 3, "value": typed, "focused": True}]}


def choices_sent(env, result: InteractionResult) -> list | None:
    path = f"/interactions/{result._interaction.id}/"
    bodies = [r.json for r in env.http_requests if r.path.startswith(path) and r.path.endswith("/callback")]
    return bodies[0]["data"]["choices"] if bodies else None


async def test_one_users_flood_of_autocompletes_is_cut_short_and_another_user_is_answered(
    simcord_env, channel, alice, bob
):
    flood = [
        deliver(simcord_env, alice, channel, autocomplete_data(simcord_env, alice, channel, "cycl"), 4)
        for _ in range(3 * RATE)
    ]
    choices = await bob.autocomplete(channel, "rule", "query", "cycl")
    await simcord_env.settle()

    assert choices  # Bob's suggestions, while Alice's flood was under way
    answered = [choices_sent(simcord_env, r) for r in flood]
    assert all(a is not None for a in answered)  # every request answered, never an error
    assert sum(1 for a in answered if a) <= RATE  # past her budget (or replaced by a newer one): empty lists
    assert answered.count([]) >= 2 * RATE
    gate = simcord_env.bot.tree.suggestions
    assert gate.over_budget >= 2 * RATE and not gate.waiting and not gate.running


async def test_a_newer_request_replaces_the_older_one_still_waiting(simcord_env, channel, alice, bob):
    gate = simcord_env.bot.tree.suggestions
    gate.running = True  # another autocomplete is running: the next ones wait
    older = deliver(simcord_env, alice, channel, autocomplete_data(simcord_env, alice, channel, "cyc"), 4)
    await wait_until(lambda: alice.id in gate.waiting)
    newer = deliver(simcord_env, alice, channel, autocomplete_data(simcord_env, alice, channel, "cycling"), 4)
    await wait_until(lambda: choices_sent(simcord_env, older) is not None)
    assert choices_sent(simcord_env, older) == [] and gate.superseded == 1

    gate.done()  # the running one finished: Alice's latest takes the turn
    await simcord_env.settle()
    assert [c["value"] for c in choices_sent(simcord_env, newer)]
    assert not gate.running
