"""Fake Archidekt and TappedOut on 127.0.0.1, answering as the sites do, faults included.

``FakeArchidekt`` serves ``/api/decks/<id>/`` as Archidekt's JSON (a deck's ``cards`` with their ``quantity``,
``categories`` and ``card.oracleCard.name``, its ``categories`` with ``isPremier`` and ``includedInDeck``), and
Django's ``{"detail": "Not found."}`` with a 404 for a deck it has not (a private one alike). ``FakeTappedOut``
serves ``/mtg-decks/<slug>/?fmt=txt`` as the plain text of its export. Any path can be given a fault instead
(:mod:`tests.support.hostile_host`: a status, a web page, a body of megabytes, a body that hangs, a redirect), and
each request is recorded with the time it came (``times``, on ``time.monotonic``'s clock).
"""

from __future__ import annotations

import time
from collections.abc import Iterable

import orjson

from tests.support.hostile_host import Body, HostileHost, _Handler

SIDEBOARD, MAYBEBOARD, COMMANDER = "Sideboard", "Maybeboard", "Commander"
PAGE = b"<!DOCTYPE html><html><head><title>Just a moment...</title></head><body>Checking your browser</body></html>"


class _Timed(_Handler):
    def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
        self.server_fake.times.append(time.monotonic())
        super().do_GET()


class _Site(HostileHost):
    thread_name = "fake-deck-site"

    def __init__(self) -> None:
        super().__init__()
        self.times: list[float] = []

    @property
    def handler(self):
        return _Timed

    def fail(self, path: str, answer) -> None:
        self.routes[path] = answer

    @property
    def host(self) -> str:
        return self.base_url.removeprefix("http://")


class FakeArchidekt(_Site):
    def started(self) -> None:
        self.routes.setdefault("/api/decks/0/", Body(b'{"detail":"Not found."}', "application/json", 404))

    def add_deck(self, deck_id: int, name: str, cards: Iterable[tuple[int, str, str]], *, extra: dict | None = None):
        """A public deck: ``cards`` as ``(quantity, name, first category)``; its categories as Archidekt's defaults
        (Commander premier, Sideboard and Maybeboard out of the deck) and any other in it."""
        cards = list(cards)
        named = {category for _, _, category in cards} - {COMMANDER, SIDEBOARD, MAYBEBOARD}
        categories = [
            {"id": 1, "name": COMMANDER, "isPremier": True, "includedInDeck": True, "includedInPrice": True},
            {"id": 2, "name": SIDEBOARD, "isPremier": False, "includedInDeck": False, "includedInPrice": False},
            {"id": 3, "name": MAYBEBOARD, "isPremier": False, "includedInDeck": False, "includedInPrice": False},
        ]
        categories += [
            {"id": 10 + n, "name": c, "isPremier": False, "includedInDeck": True, "includedInPrice": True}
            for n, c in enumerate(sorted(named))
        ]
        body = {
            "id": deck_id,
            "name": name,
            "deckFormat": 3,
            "categories": categories,
            "cards": [
                {
                    "id": 500 + n,
                    "quantity": quantity,
                    "categories": [category, "Ramp"] if category not in (SIDEBOARD, MAYBEBOARD) else [category],
                    "card": {
                        "uid": f"0000-{n}",
                        "collectorNumber": str(n + 1),
                        "edition": {"editioncode": "xyz", "editionname": "Somewhere"},
                        "oracleCard": {"name": card, "cmc": 1, "types": ["Creature"]},
                    },
                }
                for n, (quantity, card, category) in enumerate(cards)
            ],
        } | (extra or {})
        self.routes[f"/api/decks/{deck_id}/"] = Body(orjson.dumps(body), "application/json")


class FakeTappedOut(_Site):
    def add_deck(self, slug: str, text: str) -> None:
        self.routes[f"/mtg-decks/{slug}/?fmt=txt"] = Body(text.encode(), "text/plain; charset=utf-8")
