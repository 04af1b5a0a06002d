"""Every share of the bot's work, declared once: how many places each kind of work has, for a user, a server's
members together and everyone outside servers together, and each user's budget of it.

Admission (:mod:`bot.serving.admission`) hands the places out in turn; the features name the share their work
takes (``SEARCHES`` for /search, ``API_SEARCHES`` for the searches only Scryfall's API answers, ``LOOKUPS`` for
/card and inline lookups, ``PICKS`` for the rules' optional language model, ``HINTS`` for the goldfish coach,
``DECK_SITES`` for decks read from the sites players link).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.serving.lanes import SEARCH_THREADS

THREADS = SEARCH_THREADS
# The key of everyone outside servers (DMs and group chats) among the servers' shares.
OUTSIDE = "outside"


@dataclass(frozen=True)
class Share:
    """One kind of work and its limits: ``places`` in all, ``per_user`` for one user, ``per_guild`` for one
    server's members together and ``outside`` for everyone outside servers together; a user's budget of ``rate``
    uses per ``per`` seconds; ``typical``, the seconds one piece usually holds its place (the retry time given to a
    refusal); ``reserve``, the places kept for a server with nothing running; ``light``, the places kept for light
    work, in all and in each group (heavy work, such as a search made to be slow, holds at most ``places - light``
    of them, and at most ``group_limit - light`` of a group's, but always one); ``wait``, the seconds from an
    interaction's creation that a piece may wait for its place (None: refused at once when no place is free)."""

    name: str
    places: int
    per_user: int
    per_guild: int
    outside: int
    rate: int
    per: float
    typical: float
    reserve: int = 1
    light: int = 0
    wait: float | None = None

    def group_limit(self, group: object) -> int:
        return self.outside if group == OUTSIDE else self.per_guild

    def heavy_limit(self, group: object | None = None) -> int:
        """The places heavy work may hold: in all, or in ``group``'s share (always one at least)."""
        limit = self.places if group is None else self.group_limit(group)
        return max(1, limit - self.light)

    @property
    def yours(self) -> str:
        """What a user is told when their own places are all taken (``{count}``: how many they hold)."""
        return YOURS.get(self.name, "You already have {count} of these running")


# Searches users write: a place is a search thread (a search holds it for at most its budget, a second). A user
# holds one, a server's members together all but one, everyone outside servers as much; a server already searching
# never takes the last free thread, so another server always finds one within a search's budget. A heavy search (a
# regular expression, many terms over every card's text, or from someone whose last search ran long) never takes
# the last thread, nor the last of its server's: however many people flood heavy searches, a light one runs at once.
# Searches only Scryfall's API answers (artists, printings, prices…) wait for a place of their own while the API is
# asked, never holding a search thread: its rate limits (two searches a second) are what they wait for, and since
# the answer is Scryfall's anyway, they may wait longer for their turn. Their budget is the searches' (spent once).
# Card lookups (/card, inline [[card]]): a place is held while the local copy is read (a millisecond or two; a
# fuzzy match in a thread now and then), never across a Discord round trip; a lookup only the API answers (a
# printing, any card before the first import) holds none and waits for the Scryfall client's rate limits alone.
# Local searches and lookups wait their turn for up to two seconds from the interaction's creation.
# Requests to the rules' language model: when the share is taken the answer is the lexical one, at once: never
# "busy" and never a wait in a queue. Hints of the goldfish coach: one measured at a time, four a half-minute.
# Decks read from a site a player links (Archidekt, TappedOut): a place is held while the site answers (up to its
# 10 s deadline), one a player, three reads a player a minute; each site is also asked at most once a second.
#
# fmt: off
#                    name                 places   user  server       outside      uses  per   typical
SEARCHES = Share("searches",              THREADS, 1,    THREADS - 1, THREADS - 1, 6,    20.0, 1.0,  light=1, wait=2.0)
API_SEARCHES = Share("Scryfall searches", 4,       1,    2,           2,           6,    20.0, 2.0,  wait=10.0)
LOOKUPS = Share("lookups",                8,       2,    4,           6,           12,   20.0, 0.05, wait=2.0)
PICKS = Share("rule picks",               16,      1,    4,           4,           10,   20.0, 2.0)
HINTS = Share("hints",                    64,      1,    64,          64,          4,    30.0, 2.5,  reserve=0)
DECK_SITES = Share("deck sites",          8,       1,    4,           4,           3,    60.0, 2.0,  wait=10.0)
# fmt: on

YOURS = {
    "searches": "You already have {count} search running",
    "Scryfall searches": "You already have {count} search waiting on Scryfall",
    "lookups": "You already have {count} card lookups running",
    "rule picks": "You already have {count} rules questions being read",
    "hints": "Your last hint is still being measured",
    "deck sites": "Your last deck is still being read from its site",
}
