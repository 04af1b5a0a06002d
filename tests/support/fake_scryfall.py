"""A fake Scryfall API: a real HTTP server on 127.0.0.1 in a background thread.

It serves real card objects from a JSON-lines file plus a few CONSTRUCTED fixtures (below),
rewrites every ``https://api.scryfall.com`` URI onto its own base URL, and behaves like Scryfall
where the bot cares: error objects, list objects with 175 cards a page, the named / autocomplete /
search / collection / rulings / random endpoints, a small but real subset of the search syntax,
required headers and the published rate limits (answered with 429 when exceeded).

It also serves Scryfall's bulk data like Scryfall does, from the same host: ``/bulk-data``,
``/bulk-data/oracle-cards`` and the file itself (``fake.bulk`` is a :class:`FakeBulk` holding the
same cards; its faults script a broken download). ``fake.api_requests()`` are the requests that
were not for bulk data, and ``refuse_api(status)`` answers every one of them with that error.

Tests can inspect ``fake.requests`` and ``fake.max_rate(klass)``, and script failures with
``fail_next``, ``hang_next`` and ``break_next`` (what a broken proxy or network does: a truncated,
HTML, empty or non-object 200, an HTML 404, a body trickling a byte at a time, a 60 MB body
generated on the fly, a redirect loop). Because it runs in its own threads it keeps answering while the
test's event loop is blocked or busy.
"""

from __future__ import annotations

import json
import random
import re
import threading
import time
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

from bot.cycling import cycling_abilities, has_cycling
from tests.support.fake_bulk import FakeBulk
from tests.support.http_fake import ThreadedHTTPFake

SCRYFALL = "https://api.scryfall.com"
PAGE_SIZE = 175
AUTOCOMPLETE_SIZE = 20
COLLECTION_MAX = 75
SEARCH_PATHS = ("/cards/search", "/cards/named", "/cards/random", "/cards/collection")
LIMITS = {"search": 2, "other": 10, "cdn": 1000}  # svgs.scryfall.io is a CDN, not the API: no 10 a second
WINDOW = 1.0
BULK_PATH = re.compile(r"^/(bulk-data(/|$)|file/)")
NO_MATCH = (
    "Your query didn’t match any cards. Adjust your search terms or refer to the syntax guide at "
    "https://scryfall.com/docs/reference"
)


def endpoint_class(path: str) -> str:
    if path.startswith("/card-symbols/"):
        return "cdn"
    return "search" if any(path == p or path.startswith(p + "/") for p in SEARCH_PATHS) else "other"


def normalise(text: str) -> str:
    """Lower case without accents or punctuation: ``"Lórien  Revealed!"`` → ``"lorien revealed"``."""
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return " ".join(re.sub(r"[^a-z0-9 ]+", " ", text.lower().replace("'", "")).split())


# --------------------------------------------------------------------------- CONSTRUCTED fixtures
# Hand-built card objects in Scryfall's real shape, for layouts the real sample lacks. Their ids
# (all starting "f0000000"), prices, artists and rulings are made up; "Test Xcycler" and
# "Test Cycling Face" are not real cards.


def _image_uris(slug: str) -> dict[str, str]:
    base = "https://cards.scryfall.io/{size}/front/f/0/" + slug + ".jpg?1700000000"
    return {size: base.format(size=size) for size in ("small", "normal", "large", "png", "art_crop", "border_crop")}


def _constructed(card_id: str, name: str, set_code: str, number: str, **fields: Any) -> dict[str, Any]:
    card = {
        "object": "card",
        "id": card_id,
        "oracle_id": card_id.replace("f0000000", "f1111111"),
        "name": name,
        "lang": "en",
        "released_at": "2024-01-01",
        "uri": f"{SCRYFALL}/cards/{card_id}",
        "scryfall_uri": f"https://scryfall.com/card/{set_code}/{number}?utm_source=api",
        "highres_image": True,
        "legalities": {"standard": "not_legal", "modern": "legal", "legacy": "legal", "vintage": "legal"},
        "games": ["paper"],
        "reserved": False,
        "set": set_code,
        "set_name": "Constructed Test Fixtures",
        "set_uri": f"{SCRYFALL}/sets/{set_code}",
        "set_search_uri": f"{SCRYFALL}/cards/search?order=set&q=e%3A{set_code}&unique=prints",
        "rulings_uri": f"{SCRYFALL}/cards/{card_id}/rulings",
        "prints_search_uri": f"{SCRYFALL}/cards/search?order=released&q=oracleid%3A{card_id}&unique=prints",
        "collector_number": number,
        "digital": False,
        "rarity": "uncommon",
        "artist": "Constructed Fixture",
        "border_color": "black",
        "frame": "2015",
        "prices": {"usd": "0.25", "usd_foil": None, "eur": "0.20", "tix": "0.03"},
    }
    card.update(fields)
    return card


# Real card objects of cards that exist only online (Astral, Sega) and of a paper card's online printing, so
# lookups meet both kinds (tests/data/scryfall/digital-and-paper.jsonl; Lightning Bolt and Llanowar Elves from
# the same file are left out: the sample's cycling cards are what the other tests count).
DIGITAL_AND_PAPER = ("Academy Manufactor", "Aswan Jaguar", "Lydari Elephant", "A-Cauldron Familiar")


def digital_and_paper() -> list[dict[str, Any]]:
    from tests.data import DIGITAL_AND_PAPER_CARDS

    with open(DIGITAL_AND_PAPER_CARDS, encoding="utf-8") as lines:
        cards = [json.loads(line) for line in lines if line.strip()]
    return [card for card in cards if card["name"] in DIGITAL_AND_PAPER]


CONSTRUCTED_CARDS: list[dict[str, Any]] = [
    # A transforming double-faced card: faces carry image_uris, the card has none at top level.
    _constructed(
        "f0000000-0000-4000-8000-000000000001",
        "Delver of Secrets // Insectile Aberration",
        "tst",
        "1",
        layout="transform",
        cmc=1.0,
        type_line="Creature — Human Wizard // Creature — Human Insect",
        color_identity=["U"],
        keywords=["Flying", "Transform"],
        card_faces=[
            {
                "object": "card_face",
                "name": "Delver of Secrets",
                "mana_cost": "{U}",
                "type_line": "Creature — Human Wizard",
                "oracle_text": "At the beginning of your upkeep, look at the top card of your library. You may reveal "
                "that card. If an instant or sorcery card is revealed this way, transform Delver of Secrets.",
                "colors": ["U"],
                "power": "1",
                "toughness": "1",
                "image_uris": _image_uris("delver-front"),
            },
            {
                "object": "card_face",
                "name": "Insectile Aberration",
                "mana_cost": "",
                "type_line": "Creature — Human Insect",
                "oracle_text": "Flying",
                "colors": ["U"],
                "color_indicator": ["U"],
                "power": "3",
                "toughness": "2",
                "image_uris": _image_uris("delver-back"),
            },
        ],
    ),
    # A made-up modal double-faced card with cycling on its front face.
    _constructed(
        "f0000000-0000-4000-8000-000000000002",
        "Test Cycling Face // Test Far Face",
        "tst",
        "2",
        layout="modal_dfc",
        cmc=3.0,
        type_line="Sorcery // Land",
        color_identity=["G"],
        keywords=["Cycling"],
        card_faces=[
            {
                "object": "card_face",
                "name": "Test Cycling Face",
                "mana_cost": "{2}{G}",
                "type_line": "Sorcery",
                "oracle_text": "Search your library for a basic land card, put it onto the battlefield tapped, then "
                "shuffle.\nCycling {2} ({2}, Discard this card: Draw a card.)",
                "colors": ["G"],
                "image_uris": _image_uris("test-face-front"),
            },
            {
                "object": "card_face",
                "name": "Test Far Face",
                "mana_cost": "",
                "type_line": "Land",
                "oracle_text": "Test Far Face enters the battlefield tapped.\n{T}: Add {G}.",
                "colors": [],
                "image_uris": _image_uris("test-face-back"),
            },
        ],
    ),
    # A split card: one top-level image and mana cost "{1}{R} // {1}{U}", faces without images.
    _constructed(
        "f0000000-0000-4000-8000-000000000003",
        "Fire // Ice",
        "tst",
        "3",
        layout="split",
        mana_cost="{1}{R} // {1}{U}",
        cmc=4.0,
        type_line="Instant // Instant",
        colors=["R", "U"],
        color_identity=["R", "U"],
        keywords=[],
        image_uris=_image_uris("fire-ice"),
        card_faces=[
            {
                "object": "card_face",
                "name": "Fire",
                "mana_cost": "{1}{R}",
                "type_line": "Instant",
                "oracle_text": "Fire deals 2 damage divided as you choose among one or two targets.",
            },
            {
                "object": "card_face",
                "name": "Ice",
                "mana_cost": "{1}{U}",
                "type_line": "Instant",
                "oracle_text": "Tap target permanent.\nDraw a card.",
            },
        ],
    ),
    # A made-up card with an {X} cycling cost.
    _constructed(
        "f0000000-0000-4000-8000-000000000004",
        "Test Xcycler",
        "tst",
        "4",
        layout="normal",
        mana_cost="{3}{U}",
        cmc=4.0,
        type_line="Creature — Elemental",
        oracle_text="Flying\nCycling {X}{U} ({X}{U}, Discard this card: Draw a card.)\n"
        "When you cycle Test Xcycler, scry X.",
        power="3",
        toughness="3",
        colors=["U"],
        color_identity=["U"],
        keywords=["Flying", "Cycling"],
        image_uris=_image_uris("test-xcycler"),
    ),
]

CONSTRUCTED_RULINGS: dict[str, list[dict[str, Any]]] = {
    "f0000000-0000-4000-8000-000000000004": [
        {
            "object": "ruling",
            "oracle_id": "f1111111-0000-4000-8000-000000000004",
            "source": "wotc",
            "published_at": "2024-01-01",
            "comment": "(Constructed ruling.) X is the amount you chose while paying the cycling cost.",
        },
        {
            "object": "ruling",
            "oracle_id": "f1111111-0000-4000-8000-000000000004",
            "source": "scryfall",
            "published_at": "2024-01-02",
            "comment": "(Constructed ruling.) If you choose 0 for X, you scry 0.",
        },
    ],
    "f0000000-0000-4000-8000-000000000003": [
        {
            "object": "ruling",
            "oracle_id": "f1111111-0000-4000-8000-000000000003",
            "source": "wotc",
            "published_at": "2024-01-01",
            "comment": "(Constructed ruling.) You choose which half to cast before putting it on the stack.",
        }
    ],
}


# --------------------------------------------------------------------------- card helpers


def faces(card: dict[str, Any]) -> list[dict[str, Any]]:
    return list(card.get("card_faces") or [card])


def face_names(card: dict[str, Any]) -> list[str]:
    names = [card["name"]]
    if card.get("card_faces"):
        names.extend(face["name"] for face in card["card_faces"])
    return names


def oracle_text(card: dict[str, Any]) -> str:
    if card.get("oracle_text"):
        return card["oracle_text"]
    return "\n".join(face.get("oracle_text") or "" for face in faces(card))


def card_colors(card: dict[str, Any]) -> set[str]:
    if "colors" in card:
        return set(card["colors"] or [])
    return {color for face in faces(card) for color in face.get("colors") or []}


def card_keywords(card: dict[str, Any]) -> set[str]:
    """Scryfall's keywords plus the cycling family names it would list (Cycling, Landcycling, Typecycling)."""
    words = {keyword.lower() for keyword in card.get("keywords") or ()}
    for ability in cycling_abilities(card):
        words.update({ability.keyword.lower(), "cycling"})
        if ability.is_typecycling:
            words.add("typecycling")
            if ability.keyword.lower().endswith("landcycling") or (ability.search or "").lower() in {
                "plains",
                "island",
                "swamp",
                "mountain",
                "forest",
            }:
                words.add("landcycling")
    if has_cycling(card):
        words.add("cycling")
    return words


# --------------------------------------------------------------------------- search syntax

COLOR_WORDS = {
    "white": "W",
    "blue": "U",
    "black": "B",
    "red": "R",
    "green": "G",
    "colorless": "",
    "c": "",
}
OPERATORS = (">=", "<=", "!=", ":", "=", ">", "<")
TOKEN = re.compile(
    r"""\s*(?:
        (?P<open>\() | (?P<close>\)) |
        (?P<neg>-)?(?P<key>[a-z]+)(?P<op>>=|<=|!=|:|=|>|<)(?:"(?P<qvalue>[^"]*)"|(?P<value>[^\s()]+)) |
        (?P<bang>!)?"(?P<quoted>[^"]*)" |
        (?P<word>-?[^\s()"]+)
    )""",
    re.VERBOSE | re.IGNORECASE,
)
Predicate = Callable[[dict[str, Any]], bool]


class QueryError(Exception):
    pass


def _compare(left: float, op: str, right: float) -> bool:
    return {
        ":": left == right,
        "=": left == right,
        "!=": left != right,
        ">": left > right,
        "<": left < right,
        ">=": left >= right,
        "<=": left <= right,
    }[op]


def _colors(value: str) -> set[str] | None:
    value = value.lower()
    if value in COLOR_WORDS:
        return {COLOR_WORDS[value]} - {""}
    if value in ("m", "multicolor"):
        return None
    if re.fullmatch(r"[wubrg]+", value):
        return set(value.upper())
    raise QueryError(value)


def term_predicate(key: str, op: str, value: str) -> Predicate:
    """The predicate for one ``key op value`` term; raises KeyError for an unknown key."""
    key = key.lower()
    low = value.lower()
    if key in ("o", "oracle"):
        return lambda card: low.replace("~", card["name"].lower()) in oracle_text(card).lower()
    if key in ("t", "type"):
        return lambda card: low in (card.get("type_line") or "").lower()
    if key in ("kw", "keyword"):
        return lambda card: low in card_keywords(card)
    if key in ("s", "set", "e", "edition"):
        return lambda card: card.get("set", "").lower() == low
    if key == "oracleid":  # what a card's prints_search_uri asks
        return lambda card: (card.get("oracle_id") or "").lower() == low
    if key in ("cmc", "mv", "manavalue"):
        try:
            number = float(value)
        except ValueError:
            raise QueryError(value) from None
        return lambda card: _compare(float(card.get("cmc") or 0), op, number)
    if key in ("c", "color", "colors"):
        wanted = _colors(value)
        if wanted is None:
            return lambda card: len(card_colors(card)) > 1
        if op in (":", ">="):
            return lambda card: wanted <= card_colors(card) if wanted else not card_colors(card)
        if op == "=":
            return lambda card: card_colors(card) == wanted
        if op == "<=":
            return lambda card: card_colors(card) <= wanted
        raise QueryError(value)
    if key == "name":
        return lambda card: normalise(value) in normalise(card["name"])
    if key in ("a", "artist"):
        return lambda card: low in (card.get("artist") or "").lower()
    raise KeyError(key)


class QueryParser:
    """Scryfall's syntax, a subset: words, ``key:value`` terms, ``-`` negation, ``or``, parentheses."""

    def __init__(self, query: str) -> None:
        self.query = query
        self.tokens = self._tokenise(query)
        self.pos = 0
        self.warnings: list[str] = []

    @staticmethod
    def _tokenise(query: str) -> list[re.Match[str]]:
        tokens, pos = [], 0
        while pos < len(query):
            if query[pos:].strip() == "":
                break
            match = TOKEN.match(query, pos)
            if not match or match.end() == pos:
                raise QueryError(f"Could not read “{query[pos:].strip()}”.")
            tokens.append(match)
            pos = match.end()
        return tokens

    def parse(self) -> Predicate | None:
        predicate = self._or()
        if self.pos < len(self.tokens):
            raise QueryError("Your query has an unmatched closing parenthesis.")
        return predicate

    def _peek(self) -> re.Match[str] | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def _or(self) -> Predicate | None:
        parts = [self._and()]
        while (token := self._peek()) is not None and (token["word"] or "").lower() == "or":
            self.pos += 1
            parts.append(self._and())
        kept = [part for part in parts if part is not None]
        if not kept:
            return None
        return kept[0] if len(kept) == 1 else (lambda card: any(part(card) for part in kept))

    def _and(self) -> Predicate | None:
        parts: list[Predicate] = []
        while (token := self._peek()) is not None and not token["close"]:
            if (token["word"] or "").lower() == "or":
                break
            self.pos += 1
            predicate = self._term(token)
            if predicate is not None:
                parts.append(predicate)
        if not parts:
            return None
        return parts[0] if len(parts) == 1 else (lambda card: all(part(card) for part in parts))

    def _term(self, token: re.Match[str]) -> Predicate | None:
        if token["open"]:
            inner = self._or()
            closing = self._peek()
            if closing is None or not closing["close"]:
                raise QueryError("Your query has an unmatched opening parenthesis.")
            self.pos += 1
            return inner
        if token["key"]:
            value = token["qvalue"] if token["qvalue"] is not None else token["value"]
            try:
                predicate = term_predicate(token["key"], token["op"], value)
            except KeyError:
                self.warnings.append(
                    f"Invalid expression “{token.group().strip()}” was ignored. Unknown keyword “{token['key']}”."
                )
                return None
            except QueryError:
                self.warnings.append(
                    f"Invalid expression “{token.group().strip()}” was ignored. “{value}” is not a valid value."
                )
                return None
            return (lambda card: not predicate(card)) if token["neg"] else predicate
        if token["quoted"] is not None:
            wanted = normalise(token["quoted"])
            if token["bang"]:
                return lambda card: any(normalise(name) == wanted for name in face_names(card))
            return lambda card: wanted in normalise(card["name"])
        word = token["word"]
        negate = word.startswith("-") and len(word) > 1
        wanted = normalise(word[1:] if negate else word)
        if not wanted:
            self.warnings.append(f"Invalid expression “{word}” was ignored.")
            return None

        def by_name(card: dict[str, Any]) -> bool:
            return wanted in normalise(card["name"])

        return (lambda card: not by_name(card)) if negate else by_name


# --------------------------------------------------------------------------- recording and scripting


@dataclass
class RecordedRequest:
    method: str
    path: str
    query: dict[str, str]
    raw_query: str
    headers: dict[str, str]
    time: float
    klass: str
    body: bytes = b""
    status: int = 0


@dataclass
class _Rule:
    kind: str  # "fail", "hang" or "break"
    count: int
    path: str | None = None
    status: int | str = 500
    retry_after: float | str | None = None
    seconds: float = 0.0
    fault: str = ""

    def matches(self, path: str) -> bool:
        return self.count > 0 and (self.path is None or re.search(self.path, path) is not None)


@dataclass
class _State:
    requests: list[RecordedRequest] = field(default_factory=list)
    violations: list[str] = field(default_factory=list)
    rules: list[_Rule] = field(default_factory=list)


FAULTS = ("truncated", "html", "empty", "not_object", "html_404", "trickle", "huge", "redirect_loop")
HTML_PAGE = (
    b"<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head>"
    b"<body><h1>Bad gateway</h1><p>The upstream server did not answer.</p></body></html>"
)
HUGE_BYTES = 60 * 1024 * 1024


@dataclass
class Fault:
    """A broken answer written as is: ``body`` bytes, or a ``stream`` of chunks with ``length`` declared."""

    status: int
    content_type: str = "application/json; charset=utf-8"
    body: bytes = b""
    stream: Callable[[], Iterable[bytes]] | None = None
    length: int | None = None
    headers: dict[str, str] = field(default_factory=dict)


def huge_body() -> Iterable[bytes]:
    """60 MB of a valid-looking Scryfall list, generated a chunk at a time (never held in memory)."""
    yield b'{"object":"list","has_more":false,"data":['
    filler = b'{"object":"card","name":"' + b"x" * 1000 + b'"},'
    sent = 42
    while sent + len(filler) < HUGE_BYTES - 2:
        yield filler
        sent += len(filler)
    yield b" " * (HUGE_BYTES - 2 - sent) + b"]}"


def error_object(status: int, code: str, details: str, **extra: Any) -> dict[str, Any]:
    return {"object": "error", "code": code, "status": status, "details": details, **extra}


# --------------------------------------------------------------------------- the server


class FakeScryfall(ThreadedHTTPFake):
    """``with FakeScryfall(cards_path) as fake: ... fake.base_url ...``"""

    thread_name = "fake-scryfall"

    @property
    def handler(self) -> type[BaseHTTPRequestHandler]:
        return _Handler

    def __init__(
        self,
        cards_path: Path | None = None,
        *,
        enforce_limits: bool = True,
        limit_retry_after: float = 30.0,
        hang_seconds: float = 5.0,
    ) -> None:
        cards: list[dict[str, Any]] = []
        if cards_path is not None:
            with open(cards_path, encoding="utf-8") as lines:
                cards = [json.loads(line) for line in lines if line.strip()]
        cards.extend(json.loads(json.dumps(card)) for card in CONSTRUCTED_CARDS)
        if cards_path is not None:
            cards.extend(digital_and_paper())
        self.cards = cards
        self.by_id = {card["id"]: card for card in cards}
        # The bulk file holds the same cards as the API (plus the bulk fixtures' own layouts).
        self.bulk = FakeBulk(cards_path)
        bulk_names = {card["name"] for card in self.bulk.cards}
        self.bulk.cards.extend(
            json.loads(json.dumps(card)) for card in CONSTRUCTED_CARDS if card["name"] not in bulk_names
        )
        if cards_path is not None:
            self.bulk.cards.extend(digital_and_paper())
        self.api_refused: int | None = None
        self.symbol_answers: dict[str, Fault] = {}
        self.enforce_limits = enforce_limits
        self.limit_retry_after = limit_retry_after
        self.hang_seconds = hang_seconds
        self._lock = threading.Lock()
        self._state = _State()
        self._stopping = threading.Event()
        super().__init__()

    def started(self) -> None:
        self.bulk.base_url = self.base_url

    def stop(self) -> None:
        self._stopping.set()
        super().stop()

    # ------------------------------------------------------------------ test controls

    @property
    def requests(self) -> list[RecordedRequest]:
        with self._lock:
            return list(self._state.requests)

    @property
    def violations(self) -> list[str]:
        with self._lock:
            return list(self._state.violations)

    def requests_to(self, path_pattern: str) -> list[RecordedRequest]:
        return [request for request in self.requests if re.search(path_pattern, request.path)]

    def api_requests(self) -> list[RecordedRequest]:
        """Every request that was not for bulk data: what a lookup served locally must not send."""
        return [request for request in self.requests if not BULK_PATH.match(request.path)]

    def refuse_api(self, status: int | None = 503) -> None:
        """Answer every API request (not the bulk data) with ``status`` until ``refuse_api(None)``."""
        with self._lock:
            self.api_refused = status

    def max_rate(self, klass: str = "all") -> int:
        """The most requests of an endpoint class (``"search"``, ``"other"`` or ``"all"``) seen
        within any one-second window."""
        times = sorted(r.time for r in self.requests if klass == "all" or r.klass == klass)
        best, start = 0, 0
        for end, moment in enumerate(times):
            while moment - times[start] >= WINDOW:
                start += 1
            best = max(best, end - start + 1)
        return best

    def statuses(self, status: int) -> list[RecordedRequest]:
        return [request for request in self.requests if request.status == status]

    def fail_next(
        self, status: int | str, count: int = 1, path: str | None = None, retry_after: float | None = None
    ) -> None:
        """Answer the next ``count`` requests (matching the regular expression ``path``) with ``status``:
        404, ``"ambiguous"``, 400, 422, 429 (with ``Retry-After``), 500, 503..."""
        with self._lock:
            self._state.rules.append(_Rule("fail", count, path, status=status, retry_after=retry_after))

    def hang_next(self, count: int = 1, path: str | None = None, seconds: float | None = None) -> None:
        """Make the next ``count`` matching requests wait ``seconds`` (default ``hang_seconds``) before answering."""
        with self._lock:
            self._state.rules.append(_Rule("hang", count, path, seconds=seconds or self.hang_seconds))

    def break_next(self, fault: str, count: int = 1, path: str | None = None, seconds: float = 5.0) -> None:
        """Answer the next ``count`` matching requests with a broken answer, one of ``FAULTS``.

        ``trickle`` sends the real answer one byte every ``seconds``.
        """
        if fault not in FAULTS:
            raise ValueError(f"unknown fault {fault!r}")
        with self._lock:
            self._state.rules.append(_Rule("break", count, path, seconds=seconds, fault=fault))

    def serve_symbol(
        self, name: str, body: bytes = b"", *, stream: Callable[[], Iterable[bytes]] | None = None, status: int = 200
    ) -> None:
        """Serve ``body`` (or the chunks of ``stream``, sent as they are made) as the SVG of ``/card-symbols/NAME.svg``
        instead of the real one: what a compromised symbol host would send. ``forget_symbols()`` serves them all
        again."""
        with self._lock:
            self.symbol_answers[name] = Fault(status, "image/svg+xml", body, stream=stream)

    def forget_symbols(self) -> None:
        with self._lock:
            self.symbol_answers.clear()

    def reset(self) -> None:
        """Forget recorded requests, violations and scripted failures."""
        with self._lock:
            self._state = _State()

    # ------------------------------------------------------------------ request handling (server threads)

    def _record(self, request: RecordedRequest) -> tuple[_Rule | None, int]:
        """Record a request; return the scripted rule that applies and the class's count in the last second."""
        with self._lock:
            state = self._state
            state.requests.append(request)
            window = sum(1 for r in state.requests if r.klass == request.klass and request.time - r.time < WINDOW)
            rule = next((rule for rule in state.rules if rule.matches(request.path)), None)
            if rule is not None:
                rule.count -= 1
            return rule, window

    def _violation(self, text: str) -> None:
        with self._lock:
            self._state.violations.append(text)

    def handle(self, request: RecordedRequest) -> tuple[int, Any, dict[str, str]]:
        """Answer one request: ``(status, JSON object, extra headers)``."""
        rule, window = self._record(request)
        agent = request.headers.get("user-agent", "").strip()
        accept = request.headers.get("accept", "").strip()
        if not agent or not accept:
            missing = "User-Agent" if not agent else "Accept"
            self._violation(f"{request.method} {request.path}: missing {missing} header")
            return 400, error_object(400, "bad_request", f"Your request must include a {missing} header."), {}
        if agent.lower().startswith(("python-requests", "python-urllib")):
            self._violation(f"{request.method} {request.path}: generic User-Agent {agent!r}")
        if self.enforce_limits and window > LIMITS[request.klass]:
            self._violation(f"{request.method} {request.path}: {window} {request.klass} requests within 1 s")
            details = "You have made too many requests. Please slow down."
            headers = {"Retry-After": f"{self.limit_retry_after:g}"}
            return 429, error_object(429, "rate_limited", details), headers
        if self.api_refused is not None and not BULK_PATH.match(request.path) and request.klass != "cdn":
            status = self.api_refused
            return status, error_object(status, "internal_error", "Scryfall is having trouble right now."), {}
        if rule is not None and rule.kind == "hang":
            self._stopping.wait(rule.seconds)
        elif rule is not None and rule.kind == "break":
            return self._broken(rule, request)
        elif rule is not None:
            return self._scripted(rule, request)
        if BULK_PATH.match(request.path):
            return self._bulk(request)
        try:
            return self._route(request)
        except Exception as exc:  # a bug in the fake shows up as a 500 with its message
            return 500, error_object(500, "internal_error", f"Fake Scryfall failed: {exc!r}"), {}

    def _bulk(self, request: RecordedRequest) -> tuple[int, Fault, dict[str, str]]:
        status, headers, body = self.bulk.handle(request.method, request.path, request.headers)
        headers = dict(headers)
        content_type = headers.pop("Content-Type", "application/octet-stream")
        if not isinstance(body, bytes):  # a slow or endless body, sent as it is made
            length = headers.pop("Content-Length", None)
            chunks = body
            fault = Fault(status, content_type, stream=lambda: chunks, length=length and int(length), headers=headers)
            return status, fault, {}
        return status, Fault(status, content_type, body, headers=headers), {}

    def _scripted(self, rule: _Rule, request: RecordedRequest) -> tuple[int, dict[str, Any], dict[str, str]]:
        if rule.status == "ambiguous":
            name = request.query.get("fuzzy") or request.query.get("exact") or request.query.get("q") or ""
            details = f"Too many cards match ambiguous name “{name}”. Add more words to refine your search."
            return 404, error_object(404, "not_found", details, type="ambiguous"), {}
        status = int(rule.status)
        if status == 404:
            return 404, error_object(404, "not_found", NO_MATCH), {}
        if status == 429:
            after = rule.retry_after
            headers = {} if after is None else {"Retry-After": after if isinstance(after, str) else f"{after:g}"}
            return 429, error_object(429, "rate_limited", "You have made too many requests."), headers
        if status in (400, 422):
            details = "All of your terms were ignored." if status == 400 else "Your request could not be processed."
            warnings = ["Invalid expression “foo:bar” was ignored. Unknown keyword “foo”."]
            return status, error_object(status, "bad_request", details, warnings=warnings), {}
        return status, error_object(status, "internal_error", "Scryfall is having trouble right now."), {}

    def _broken(self, rule: _Rule, request: RecordedRequest) -> tuple[int, Any, dict[str, str]]:
        fault = rule.fault
        if fault == "html":
            return 200, Fault(200, "text/html; charset=utf-8", HTML_PAGE), {}
        if fault == "html_404":
            return 404, Fault(404, "text/html; charset=utf-8", HTML_PAGE.replace(b"502 Bad Gateway", b"404")), {}
        if fault == "empty":
            return 200, Fault(200), {}
        if fault == "not_object":
            return 200, Fault(200, body=b'["Pendrell Drake"]'), {}
        if fault == "huge":
            # No Content-Length: the body runs until the connection closes, so only a cap enforced
            # while reading can stop it.
            return 200, Fault(200, stream=huge_body), {}
        if fault == "redirect_loop":
            target = request.path + ("?" + request.raw_query if request.raw_query else "")
            return 302, Fault(302, "text/html", b"", headers={"Location": target}), {}
        status, payload, headers = self._route(request)
        body = json.dumps(payload, ensure_ascii=False).replace(SCRYFALL, self.base_url).encode("utf-8")
        if fault == "truncated":
            return status, Fault(status, body=body[: len(body) // 2]), headers
        seconds = rule.seconds  # trickle: the real answer, a byte at a time

        def trickle() -> Iterable[bytes]:
            for byte in body:
                yield bytes([byte])
                if self._stopping.wait(seconds):
                    return

        return status, Fault(status, stream=trickle, length=len(body)), headers

    # ------------------------------------------------------------------ endpoints

    def _route(self, request: RecordedRequest) -> tuple[int, dict[str, Any], dict[str, str]]:
        path, query = request.path.rstrip("/"), request.query
        if request.method == "POST" and path == "/cards/collection":
            return self._collection(request.body)
        if request.method != "GET":
            return 405, error_object(405, "method_not_allowed", f"{request.method} is not allowed here."), {}
        if path == "/cards/named":
            return self._named(query)
        if path == "/cards/autocomplete":
            return self._autocomplete(query.get("q", ""))
        if path == "/cards/search":
            return self._search(query)
        if path == "/cards/random":
            return self._random(query)
        if match := re.fullmatch(r"/cards/([0-9a-f-]{36})(/rulings)?", path):
            card = self.by_id.get(match[1])
            if card is None:
                return 404, error_object(404, "not_found", "No card found with the given ID."), {}
            if match[2]:
                rulings = CONSTRUCTED_RULINGS.get(card["id"], [])
                return 200, {"object": "list", "has_more": False, "data": rulings}, {}
            return 200, card, {}
        if match := re.fullmatch(r"/sets/([^/]+)", path):
            return self._set(match[1])
        if path == "/symbology":
            return self._symbology()
        if match := re.fullmatch(r"/card-symbols/([A-Za-z0-9]+)\.svg", path):
            return self._card_symbol(match[1])
        if match := re.fullmatch(r"/cards/([a-z0-9]+)/([^/]+)", path):
            found = [c for c in self.cards if c["set"] == match[1].lower() and c["collector_number"] == match[2]]
            if found:
                return 200, found[0], {}
            return 404, error_object(404, "not_found", "No card found with the given set and number."), {}
        return 404, error_object(404, "not_found", "The requested endpoint or object was not found."), {}

    def _symbology(self) -> tuple[int, dict[str, Any], dict[str, str]]:
        """Scryfall's real /symbology list, its SVGs served here (svgs.scryfall.io is this server, in tests)."""
        from tests.data import SYMBOLOGY

        text = SYMBOLOGY.read_text(encoding="utf-8").replace("https://svgs.scryfall.io", self.base_url)
        return 200, json.loads(text), {}

    def _card_symbol(self, name: str) -> tuple[int, Any, dict[str, str]]:
        """One card symbol's SVG, as svgs.scryfall.io serves it."""
        from tests.data import CARD_SYMBOLS

        with self._lock:
            served = self.symbol_answers.get(name)
        if served is not None:
            return served.status, served, {}
        path = CARD_SYMBOLS / f"{name}.svg"
        if not path.is_file():
            return 404, Fault(404, "text/html; charset=utf-8", b"<html><body>Not Found</body></html>"), {}
        return 200, Fault(200, "image/svg+xml", path.read_bytes()), {}

    def _set(self, code: str) -> tuple[int, dict[str, Any], dict[str, str]]:
        """A set object for a code some card is printed in (Scryfall answers a set's code or its id)."""
        printed = [card for card in self.cards if card.get("set") == code.lower()]
        if not printed:
            return 404, error_object(404, "not_found", "No Magic set found for the given ID or code."), {}
        card = printed[0]
        return (
            200,
            {
                "object": "set",
                "id": card.get("set_id") or "00000000-0000-4000-8000-000000000000",
                "code": card["set"],
                "name": card.get("set_name") or card["set"].upper(),
                "set_type": card.get("set_type") or "expansion",
                "card_count": len(printed),
                "digital": bool(card.get("digital")),
                "search_uri": f"{SCRYFALL}/cards/search?order=set&q=e%3A{card['set']}&unique=prints",
            },
            {},
        )

    @staticmethod
    def _newest(cards: Iterable[dict[str, Any]]) -> dict[str, Any]:
        return max(cards, key=lambda card: card.get("released_at") or "")

    def _named(self, query: dict[str, str]) -> tuple[int, dict[str, Any], dict[str, str]]:
        set_code = (query.get("set") or "").lower()
        pool = [c for c in self.cards if not set_code or c["set"] == set_code]
        if "exact" in query:
            wanted = query["exact"].strip().lower()
            found = [c for c in pool if any(name.lower() == wanted for name in face_names(c))]
            if found:
                return 200, self._newest(found), {}
            return 404, error_object(404, "not_found", f"No cards found matching “{query['exact']}”"), {}
        if "fuzzy" not in query:
            return 400, error_object(400, "bad_request", "You must provide an exact or fuzzy name."), {}
        wanted = normalise(query["fuzzy"])
        if not wanted:
            return 404, error_object(404, "not_found", f"No cards found matching “{query['fuzzy']}”"), {}
        exact = [c for c in pool if any(normalise(name) == wanted for name in face_names(c))]
        if exact:
            return 200, self._newest(exact), {}
        by_name: dict[str, list[dict[str, Any]]] = {}
        for card in pool:
            names = [normalise(name) for name in face_names(card)]
            if any(name.startswith(wanted) or wanted in name for name in names) or all(
                any(word in name for name in names) for word in wanted.split()
            ):
                by_name.setdefault(card["name"], []).append(card)
        if len(by_name) == 1:
            return 200, self._newest(next(iter(by_name.values()))), {}
        if len(by_name) > 1:
            details = f"Too many cards match ambiguous name “{query['fuzzy']}”. Add more words to refine your search."
            return 404, error_object(404, "not_found", details, type="ambiguous"), {}
        return 404, error_object(404, "not_found", f"No cards found matching “{query['fuzzy']}”"), {}

    def _autocomplete(self, text: str) -> tuple[int, dict[str, Any], dict[str, str]]:
        wanted = normalise(text)
        names: list[str] = []
        if len(wanted) >= 2:
            all_names = sorted({card["name"] for card in self.cards})
            starts = [name for name in all_names if normalise(name).startswith(wanted)]
            contains = [name for name in all_names if wanted in normalise(name) and name not in starts]
            names = (starts + contains)[:AUTOCOMPLETE_SIZE]
        return 200, {"object": "catalog", "total_values": len(names), "data": names}, {}

    def _matching(self, text: str) -> tuple[list[dict[str, Any]], list[str]]:
        """Cards matching a query and the warnings for ignored terms; raises QueryError."""
        parser = QueryParser(text)
        predicate = parser.parse()
        if predicate is None:
            raise QueryError("All of your terms were ignored.", parser.warnings)
        return [card for card in self.cards if predicate(card)], parser.warnings

    def _search(self, query: dict[str, str]) -> tuple[int, dict[str, Any], dict[str, str]]:
        text = query.get("q", "").strip()
        if not text:
            return 400, error_object(400, "bad_request", "You didn’t enter anything to search for."), {}
        try:
            found, warnings = self._matching(text)
        except QueryError as exc:
            warnings = exc.args[1] if len(exc.args) > 1 else []
            return 400, error_object(400, "bad_request", str(exc.args[0]), warnings=warnings), {}
        if query.get("unique", "cards") == "cards":
            seen: dict[str, dict[str, Any]] = {}
            for card in found:
                seen.setdefault(card.get("oracle_id") or card["name"], card)
            found = list(seen.values())
        order = query.get("order", "name")
        keys: dict[str, Callable[[dict[str, Any]], Any]] = {
            "name": lambda c: c["name"].lower(),
            "cmc": lambda c: (c.get("cmc") or 0, c["name"].lower()),
            "set": lambda c: (c["set"], c["collector_number"].zfill(6)),
            "released": lambda c: (c.get("released_at") or "", c["name"].lower()),
            "color": lambda c: ("".join(sorted(card_colors(c))), c["name"].lower()),
            "rarity": lambda c: (c.get("rarity") or "", c["name"].lower()),
        }
        found.sort(key=keys.get(order, keys["name"]), reverse=query.get("dir") == "desc")
        if not found:
            extra = {"warnings": warnings} if warnings else {}
            return 404, error_object(404, "not_found", NO_MATCH, **extra), {}
        try:
            page = max(1, int(query.get("page", "1")))
        except ValueError:
            return 422, error_object(422, "bad_request", "The page parameter must be a number."), {}
        start = (page - 1) * PAGE_SIZE
        if start >= len(found):
            return 422, error_object(422, "bad_request", "You have paginated beyond the end of the results."), {}
        body: dict[str, Any] = {
            "object": "list",
            "total_cards": len(found),
            "has_more": start + PAGE_SIZE < len(found),
            "data": found[start : start + PAGE_SIZE],
        }
        if body["has_more"]:
            # Scryfall's own next_page URLs carry extra parameters; clients must follow them as given.
            params = {
                "format": "json",
                "include_extras": "false",
                "include_multilingual": "false",
                "include_variations": "false",
                "order": order,
                "page": str(page + 1),
                "q": text,
                "unique": query.get("unique", "cards"),
            }
            body["next_page"] = f"{SCRYFALL}/cards/search?{urlencode(params)}"
        if warnings:
            body["warnings"] = warnings
        return 200, body, {}

    def _random(self, query: dict[str, str]) -> tuple[int, dict[str, Any], dict[str, str]]:
        pool = self.cards
        if query.get("q"):
            try:
                pool, _ = self._matching(query["q"])
            except QueryError as exc:
                return 400, error_object(400, "bad_request", str(exc.args[0])), {}
        if not pool:
            return 404, error_object(404, "not_found", NO_MATCH), {}
        return 200, random.choice(pool), {}

    def _collection(self, body: bytes) -> tuple[int, dict[str, Any], dict[str, str]]:
        try:
            identifiers = json.loads(body or b"null")["identifiers"]
            if not isinstance(identifiers, list):
                raise TypeError
        except (ValueError, KeyError, TypeError):
            return 400, error_object(400, "bad_request", "The JSON you submitted is invalid."), {}
        if len(identifiers) > COLLECTION_MAX:
            details = f"Too many identifiers: at most {COLLECTION_MAX} are allowed per request."
            return 422, error_object(422, "bad_request", details), {}
        data, not_found = [], []
        for index, identifier in enumerate(identifiers):
            if not isinstance(identifier, dict):
                return 422, error_object(422, "bad_request", f"Identifier {index} is not an object."), {}
            card = self._identify(identifier)
            if card is None:
                not_found.append(identifier)
            else:
                data.append(card)
        return 200, {"object": "list", "not_found": not_found, "data": data}, {}

    def _identify(self, identifier: dict[str, Any]) -> dict[str, Any] | None:
        keys = set(identifier)
        if keys == {"id"}:
            return self.by_id.get(str(identifier["id"]))
        if keys == {"oracle_id"}:
            found = [c for c in self.cards if c.get("oracle_id") == identifier["oracle_id"]]
        elif keys == {"multiverse_id"}:
            found = [c for c in self.cards if identifier["multiverse_id"] in (c.get("multiverse_ids") or [])]
        elif keys == {"mtgo_id"}:
            found = [c for c in self.cards if c.get("mtgo_id") == identifier["mtgo_id"]]
        elif keys == {"set", "collector_number"}:
            found = [
                c
                for c in self.cards
                if c["set"] == str(identifier["set"]).lower()
                and c["collector_number"] == str(identifier["collector_number"])
            ]
        elif keys in ({"name"}, {"name", "set"}):
            wanted = str(identifier["name"]).strip().lower()
            set_code = str(identifier.get("set", "")).lower()
            found = [
                c
                for c in self.cards
                if any(name.lower() == wanted for name in face_names(c)) and (not set_code or c["set"] == set_code)
            ]
        else:
            return None
        return self._newest(found) if found else None


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_fake: FakeScryfall

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - silence the default stderr log
        pass

    def _serve(self) -> None:
        started = time.monotonic()
        parts = urlsplit(self.path)
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        fake = self.server_fake
        request = RecordedRequest(
            method=self.command,
            path=parts.path,
            query={key: values[-1] for key, values in parse_qs(parts.query, keep_blank_values=True).items()},
            raw_query=parts.query,
            headers={key.lower(): value for key, value in self.headers.items()},
            time=started,
            klass=endpoint_class(parts.path),
            body=body,
        )
        status, payload, headers = fake.handle(request)
        request.status = status
        if isinstance(payload, Fault):
            self._write_fault(payload, headers)
            return
        content = json.dumps(payload, ensure_ascii=False).replace(SCRYFALL, fake.base_url).encode("utf-8")
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json; charset=utf-8")
            self.send_header("Content-Length", str(len(content)))
            for key, value in headers.items():
                self.send_header(key, value)
            self.end_headers()
            self.wfile.write(content)
        except (BrokenPipeError, ConnectionResetError):  # the client gave up (a timeout)
            self.close_connection = True

    def _write_fault(self, fault: Fault, headers: dict[str, str]) -> None:
        try:
            self.send_response(fault.status)
            self.send_header("Content-Type", fault.content_type)
            if fault.stream is not None and fault.length is None:
                self.send_header("Connection", "close")
                self.close_connection = True
            else:
                self.send_header("Content-Length", str(fault.length if fault.length is not None else len(fault.body)))
            for key, value in {**headers, **fault.headers}.items():
                self.send_header(key, value)
            self.end_headers()
            if fault.stream is None:
                self.wfile.write(fault.body)
                return
            for chunk in fault.stream():
                self.wfile.write(chunk)
                self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):  # the client gave up
            self.close_connection = True

    do_GET = _serve
    do_POST = _serve
