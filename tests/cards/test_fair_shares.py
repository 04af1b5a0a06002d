"""A busy hour turns no one away, and one user cannot slow everyone: many players at once, floods of searches,
lookups and inline references through the real discord.py stack (from servers and from DMs), what the flooding
user is told (privately, with the time to wait) and what everyone else sees meanwhile (their answers, and nothing
of the flood)."""

from __future__ import annotations

import asyncio

import pytest

from bot.serving import LOOKUPS, SEARCHES
from tests.cards.conftest import only_refusals, private, start_slash, wait_until

# Matching every card's text against ten patterns of 900 optional characters: about a second on the sample cards.
SLOW = " or ".join(f"o:/(?:.?){{900}}[{letter}]q/" for letter in "abcdefghij")
# The same kind of search short enough for an inline [[?…]] (no brackets, no literal to look for first).
SLOW_INLINE = " or ".join(f"o:/(?:.?){{90{n}}}\\dq/" for n in range(8))


@pytest.fixture
def bot_config(loaded_config):
    return loaded_config


@pytest.fixture
def cards(local_cards):
    return local_cards


def callback_of(env, result) -> dict:
    """The first answer the bot gave to Discord for this interaction (its type and flags)."""
    path = f"/interactions/{result._interaction.id}/"
    return next(r.json for r in env.http_requests if r.path.startswith(path) and r.path.endswith("/callback"))


def answered_at(env, result) -> int:
    """The position, among everything the bot sent Discord, of its last request about this interaction."""
    token, interaction = result._interaction.token, str(result._interaction.id)
    return max(n for n, r in enumerate(env.http_requests) if token in r.path or interaction in r.path)


def refused_at_once(env, result) -> bool:
    """Answered with a message straight away (not deferred), only the asker seeing it."""
    callback = callback_of(env, result)
    return callback["type"] == 4 and bool(callback["data"]["flags"] & 64) and result.ephemeral


def bot_message_ids(channel, viewer) -> set[int]:
    return {m.id for m in channel.history(viewer=viewer) if m.author.bot}


async def test_forty_players_of_one_server_asking_for_cards_at_once_all_see_their_card(
    cards, simcord_env, guild, channel
):
    players = [guild.add_member(simcord_env.create_user(f"player-{n}")) for n in range(40)]
    names = ["Street Wraith", "Fling", "Krosan Tusker", "Bloated Toad"]
    asks = [start_slash(simcord_env, who, channel, "card", name=names[n % 4]) for n, who in enumerate(players)]
    await simcord_env.settle()

    assert [a.response.embeds[0].title.split(" {")[0] for a in asks] == [names[n % 4] for n in range(40)]
    assert all(not a.ephemeral for a in asks)
    # Answered from the local copy's index: no "thinking…" first, and no place held after the answers.
    assert all(callback_of(simcord_env, a)["type"] == 4 for a in asks)
    assert simcord_env.bot.admission.in_flight(LOOKUPS) == 0
    assert simcord_env.bot.admission.refused["lookups"] == 0
    assert not simcord_env.errors


async def test_a_lookup_waits_for_its_place_in_turn_and_answers_when_one_is_free(
    cards, simcord_env, channel, alice, bob
):
    admission = simcord_env.bot.admission
    held = [admission.enter(LOOKUPS, 9000 + n, 9000 + n) for n in range(LOOKUPS.places)]  # other servers'

    async def release_when_waiting() -> None:
        await wait_until(lambda: admission.waiting(LOOKUPS) == 1)
        for ticket in held:
            ticket.release()

    waiting = start_slash(simcord_env, bob, channel, "card", name="Street Wraith")
    await asyncio.gather(simcord_env.settle(), release_when_waiting())

    assert waiting.response.embeds[0].title == "Street Wraith {3}{B}{B}"
    assert admission.waited["lookups"] == 1 and admission.refused["lookups"] == 0
    # Found to wait: acknowledged at once, publicly (a card is the likely answer), then answered.
    assert callback_of(simcord_env, waiting)["type"] == 5 and not callback_of(simcord_env, waiting).get("data")


async def test_a_lookup_whose_turn_would_come_too_late_is_told_the_bot_is_busy_privately(
    cards, simcord_env, channel, bob
):
    admission = simcord_env.bot.admission
    held = [admission.enter(LOOKUPS, 9000 + n, 9000 + n) for n in range(LOOKUPS.places)]

    busy = await bob.slash(channel, "card", name="Street Wraith")

    text = private(busy).content
    assert text.startswith("I'm busy right now: try again in a moment (in ") and text.endswith(
        ("second).", "seconds).")
    )
    assert admission.waiting(LOOKUPS) == 0 and admission.in_flight(LOOKUPS) == LOOKUPS.places
    # Waiting took over a second: it was deferred meanwhile, and the public "thinking…" is gone.
    assert not [m for m in channel.history() if m.author.bot]
    for ticket in held:
        ticket.release()
    assert only_refusals(simcord_env)


async def test_a_printing_asked_of_scryfall_takes_no_place_among_the_local_lookups(cards, simcord_env, channel, bob):
    admission = simcord_env.bot.admission
    held = [admission.enter(LOOKUPS, 9000 + n, 9000 + n) for n in range(LOOKUPS.places)]

    printing = await bob.slash(channel, "card", name="Test Xcycler", set="tst")

    assert printing.response.embeds[0].title == "Test Xcycler {3}{U}"  # Scryfall's answer, not a wait for a place
    assert admission.waited["lookups"] == 0 and admission.refused["lookups"] == 0
    for ticket in held:
        ticket.release()


async def test_a_flood_of_slow_searches_waits_its_turn_and_others_are_answered_meanwhile(
    cards, simcord_env, channel, alice, bob
):
    flood = [start_slash(simcord_env, alice, channel, "search", query=SLOW) for _ in range(40)]
    others = [
        start_slash(simcord_env, bob, channel, "search", query="t:creature c:g pow>=4"),
        start_slash(simcord_env, bob, channel, "card", name="Street Wraith"),
    ]
    await simcord_env.settle()

    cooled = [r for r in flood if r.response is not None and r.response.content.startswith("Slow down a little")]
    assert len(cooled) == 40 - SEARCHES.rate and all(refused_at_once(simcord_env, r) for r in cooled)
    # Alice's six: one search at a time, in turn; those whose turn would come past their deadline are told so.
    spent = [r for r in flood if r not in cooled]
    searched = [r for r in spent if "took over 1 s" in private(r).content]
    told = [r for r in spent if r not in searched]
    assert searched and len(searched) + len(told) == SEARCHES.rate
    assert all(private(r).content.startswith(f"You already have {SEARCHES.per_user} search running") for r in told)
    assert all(r.acknowledged for r in [*flood, *others])  # nobody's interaction went unanswered

    search, card = others
    assert search.response.embeds[0].title.startswith("Search: ")
    assert card.response.embeds[0].title == "Street Wraith {3}{B}{B}"
    # Bob's answers came while Alice's searches were still running.
    last_of_bob = max(answered_at(simcord_env, search), answered_at(simcord_env, card))
    assert last_of_bob < max(answered_at(simcord_env, r) for r in searched)
    # Bob sees none of what Alice was told.
    seen_by_bob = bot_message_ids(channel, bob)
    assert not seen_by_bob & {private(r).id for r in [*cooled, *spent]}
    assert fake_scryfall_untouched(simcord_env)
    assert only_refusals(simcord_env)


def fake_scryfall_untouched(env) -> bool:
    return not [r for r in env.http_requests if "scryfall" in r.path]


async def test_a_users_budget_is_answered_privately_and_another_user_is_not_affected(
    cards, simcord_env, channel, alice, bob
):
    answers = [await alice.slash(channel, "search", query=f"t:creature mv>={n}") for n in range(SEARCHES.rate + 1)]

    assert all(a.response.embeds for a in answers[:-1])
    slow_down = answers[-1]
    assert refused_at_once(simcord_env, slow_down)
    assert slow_down.response.content.startswith("Slow down a little: try again in ")
    assert (await bob.slash(channel, "search", query="t:creature")).response.embeds
    assert only_refusals(simcord_env)


async def test_inline_lookups_and_card_commands_spend_one_budget(cards, simcord_env, channel, alice):
    for _ in range(LOOKUPS.rate // 2):
        await alice.send(channel, "[[Street Wraith]]")
    cards_asked = [await alice.slash(channel, "card", name="Fling") for _ in range(LOOKUPS.rate // 2 + 1)]

    assert all(a.response.embeds for a in cards_asked[:-1])
    assert cards_asked[-1].response.content.startswith("Slow down a little: try again in ")
    assert only_refusals(simcord_env)


async def test_autocomplete_is_never_refused_for_being_busy(cards, simcord_env, channel, alice):
    admission = simcord_env.bot.admission
    held = [admission.enter(LOOKUPS, 9000 + n, 9000 + n) for n in range(LOOKUPS.places)]

    choices = await alice.autocomplete(channel, "card", "name", "street")

    assert "Street Wraith" in [choice["name"] for choice in choices]
    for ticket in held:
        ticket.release()


async def test_turning_a_page_waits_for_a_place_among_the_users_searches(cards, simcord_env, channel, alice):
    result = await alice.slash(channel, "search", query="t:creature")
    admission = simcord_env.bot.admission
    held = [admission.enter(SEARCHES, alice.id) for _ in range(SEARCHES.per_user)]

    clicked = await alice.click(result.response.message, label="Next")

    assert clicked.followups[-1].ephemeral
    assert clicked.followups[-1].content.startswith(f"You already have {SEARCHES.per_user} search running")
    assert "page 1/" in result.response.embeds[0].footer.text  # the page stayed as it was
    for ticket in held:
        ticket.release()
    await alice.click(result.response.message, label="Next")
    assert "page 2/" in result.response.embeds[0].footer.text
    assert only_refusals(simcord_env)


async def test_a_flood_of_inline_references_across_channels_is_held_back_and_others_are_answered(
    cards, simcord_env, guild, alice, bob
):
    channels = [guild.create_text_channel(f"table-{n}") for n in range(6)]
    for room in channels:  # three in each channel: well within each channel's pace
        for _ in range(3):
            await alice.send(room, "[[Street Wraith]]")
    elsewhere = guild.create_text_channel("elsewhere")
    await bob.send(elsewhere, "[[Fling]]")

    answered = [m for room in channels for m in room.history() if m.author.bot]
    assert len(answered) == LOOKUPS.rate  # Alice's budget across channels; the rest get ⏳ and no reply
    assert all(m.embeds[0].title.startswith("Street Wraith") for m in answered)
    held = [m for room in channels for m in room.history() if not m.author.bot and m.reactions]
    assert len(held) == 18 - LOOKUPS.rate
    (reply,) = [m for m in elsewhere.history() if m.author.bot]
    assert reply.embeds[0].title.startswith("Fling")


@pytest.mark.parametrize("count", [45, 901])
async def test_a_search_of_many_leading_negations_is_answered(cards, simcord_env, channel, alice, caplog, count):
    result = await alice.slash(channel, "search", query="-" * count + "t:creature c:g pow>=4")
    plain = await alice.slash(channel, "search", query=("-" if count % 2 else "") + "t:creature c:g pow>=4")

    def shown(answer) -> tuple:  # the results, or the miss told to the asker alone
        message = answer.response if answer.response is not None else private(answer)
        return message.content, [embed.title for embed in message.embeds]

    assert shown(result) == shown(plain) and "Something went wrong" not in shown(result)[0]
    assert not [r for r in caplog.records if r.levelname == "ERROR"]


async def test_a_search_nested_too_deep_gets_one_sentence_and_no_traceback(cards, simcord_env, channel, alice, caplog):
    result = await alice.slash(channel, "search", query='name:/"/ ' + "a (" * 40 + "b" + ")" * 40)

    text = private(result).content
    assert text.startswith("That search nests") and "Something went wrong" not in text
    assert not [r for r in caplog.records if r.levelname == "ERROR" or r.exc_info]
    assert only_refusals(simcord_env)


async def test_input_answered_at_once_costs_nothing_of_the_users_cooldown_or_share(cards, simcord_env, channel, alice):
    admission = simcord_env.bot.admission
    typos = [await alice.slash(channel, "search", query=f"t:creature (c:g or c:u {n}") for n in range(SEARCHES.rate)]
    typos += [await alice.slash(channel, "cycling", query='o:"draw a card') for _ in range(SEARCHES.rate)]
    set_codes = [await alice.slash(channel, "card", name="Street Wraith", set="x!") for _ in range(LOOKUPS.rate)]

    assert all(refused_at_once(simcord_env, r) for r in [*typos, *set_codes])
    assert all("never closed" in r.response.content for r in typos)
    assert all("is not a set code" in r.response.content for r in set_codes)
    assert admission.in_flight(SEARCHES) == admission.in_flight(LOOKUPS) == 0
    # Every search and lookup of the user's cooldown is still there.
    searches = [await alice.slash(channel, "search", query=f"t:creature mv>={n}") for n in range(SEARCHES.rate)]
    assert all(r.response.embeds[0].title.startswith("Search: ") for r in searches)
    card = await alice.slash(channel, "card", name="Street Wraith")
    assert card.response.embeds[0].title == "Street Wraith {3}{B}{B}"
    assert only_refusals(simcord_env)


def post_now(env, actor, channel, content: str) -> None:
    """A message from ``actor``, delivered to the bot without waiting for it to finish (as ``start_slash``)."""
    env.backend.create_message(channel.id, actor.id, content)
    env._mark_mutation()


async def test_the_searches_of_inline_messages_hold_one_search_thread_at_a_time_and_count_each(
    cards, simcord_env, guild, channel, alice, bob
):
    card_data, running, most = simcord_env.bot.card_data, [0], [0]
    search = card_data.search

    async def counted(query, **options):  # how many of Alice's searches are in flight at once
        if not query.startswith(SLOW_INLINE):
            return await search(query, **options)
        running[0] += 1
        most[0] = max(most[0], running[0])
        try:
            return await search(query, **options)
        finally:
            running[0] -= 1

    card_data.search = counted
    rooms = [guild.create_text_channel(f"table-{n}") for n in range(3)]
    for n, room in enumerate(rooms[:2]):  # two messages of two slow searches each: four of Alice's six
        post_now(simcord_env, alice, room, f"[[?{SLOW_INLINE} -t:a{n}]] and [[?{SLOW_INLINE} -t:b{n}]]")
    bobs = start_slash(simcord_env, bob, channel, "search", query="t:creature c:g pow>=4")
    await simcord_env.settle()
    assert most[0] == SEARCHES.per_user == 1  # one search at a time for a user, whatever the messages
    await alice.send(rooms[2], f"[[?{SLOW_INLINE} -t:c]] [[?{SLOW_INLINE} -t:d]] [[?{SLOW_INLINE} -t:e]]")

    assert bobs.response.embeds[0].title.startswith("Search: ")
    replies = [m for room in rooms[:2] for m in room.history() if m.author.bot]
    assert len(replies) == 2 and all(m.content.count("took over 1 s") == 2 for m in replies)
    # Bob's search had a thread of its own: it was answered while Alice's messages were still searching.
    first_reply = min(
        n for n, r in enumerate(simcord_env.http_requests) if r.method == "POST" and "/messages" in r.path
    )
    assert answered_at(simcord_env, bobs) < first_reply
    # Three more searches are past Alice's six every 20 s: held back, not run.
    (held,) = [m for m in rooms[2].history() if not m.author.bot]
    assert [str(reaction.emoji) for reaction in held.reactions] == ["\N{HOURGLASS WITH FLOWING SAND}"]
    assert not [m for m in rooms[2].history() if m.author.bot]


async def test_two_servers_flooding_searches_leave_a_place_for_a_third(cards, simcord_env, guild, channel, alice, bob):
    carol = guild.add_member(simcord_env.create_user("carol"))
    second = simcord_env.create_guild("Second server")
    second_channel = second.create_text_channel("cards")
    raiders = [second.add_member(simcord_env.create_user(f"raider-{n}")) for n in range(3)]
    third = simcord_env.create_guild("Third server")
    erin = third.add_member(simcord_env.create_user("erin"))
    their_channel = third.create_text_channel("cards")

    raid = [start_slash(simcord_env, who, channel, "search", query=SLOW) for who in (alice, bob, carol) for _ in "ab"]
    raid += [start_slash(simcord_env, who, second_channel, "search", query=SLOW) for who in raiders for _ in "ab"]
    await wait_until(lambda: simcord_env.bot.admission.waiting(SEARCHES) > 0)
    other = start_slash(simcord_env, erin, their_channel, "search", query="t:creature c:g pow>=4")
    await simcord_env.settle()

    assert other.response.embeds[0].title.startswith("Search: ")
    # Erin's search was answered before the raid's last: it waited for one raid search at most.
    assert answered_at(simcord_env, other) < max(answered_at(simcord_env, r) for r in raid)
    assert simcord_env.bot.admission.in_flight(SEARCHES) == 0
    assert only_refusals(simcord_env)


async def test_a_flood_from_dms_leaves_another_dm_user_served(cards, simcord_env):
    flooder, other = simcord_env.create_user("flooder"), simcord_env.create_user("other")
    flood = [start_slash(simcord_env, flooder, flooder.dm_channel, "search", query=SLOW) for _ in range(5)]
    flood += [start_slash(simcord_env, flooder, flooder.dm_channel, "card", name="Fling") for _ in range(12)]
    await wait_until(lambda: simcord_env.bot.admission.in_flight(SEARCHES) > 0)
    search = start_slash(simcord_env, other, other.dm_channel, "search", query="t:creature c:g pow>=4")
    card = start_slash(simcord_env, other, other.dm_channel, "card", name="Street Wraith")
    await simcord_env.settle()

    assert search.response.embeds[0].title.startswith("Search: ")
    assert card.response.embeds[0].title == "Street Wraith {3}{B}{B}"
    assert max(answered_at(simcord_env, search), answered_at(simcord_env, card)) < max(
        answered_at(simcord_env, r) for r in flood
    )
    assert only_refusals(simcord_env)
