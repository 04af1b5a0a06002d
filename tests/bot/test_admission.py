"""Admission's shares (core, no Discord): a user's, a server's and everyone's places."""

from __future__ import annotations

import pytest

from bot.admission import SEARCHES, Admission, Busy


def test_a_servers_members_together_hold_at_most_the_servers_places():
    admission = Admission(clock=lambda: 0.0)
    held = [admission.enter(SEARCHES, user, guild_id=100) for user in range(SEARCHES.per_guild)]
    with pytest.raises(Busy, match="I'm busy right now"):
        admission.enter(SEARCHES, 99, guild_id=100)
    assert admission.enter(SEARCHES, 98, guild_id=200)  # another server still has places
    held[0].release()
    assert admission.enter(SEARCHES, 99, guild_id=100)  # a place given back is the server's again


def test_everyone_outside_servers_together_has_one_servers_places():
    # Accounts that message the bot directly are the easiest to make many of: together they count as one server.
    admission = Admission(clock=lambda: 0.0)
    strangers = [admission.enter(SEARCHES, user) for user in range(SEARCHES.per_guild)]
    with pytest.raises(Busy):
        admission.enter(SEARCHES, 99)
    assert admission.enter(SEARCHES, 98, guild_id=200)
    for ticket in strangers:
        ticket.release()
    assert admission.enter(SEARCHES, 99)
    assert admission.in_flight(SEARCHES) == 2
