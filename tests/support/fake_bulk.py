"""A fake of Scryfall's bulk data: a real HTTP server on 127.0.0.1 in a background thread.

It serves ``/bulk-data``, ``/bulk-data/oracle-cards`` and the oracle-cards file itself, as
gzipped JSON Lines (``jsonl_download_uri``, Scryfall's format since July 2026) and as the older
JSON array (``download_uri``, sent with ``Content-Encoding: gzip`` as Scryfall does). The cards
are the real ones of a JSON-lines file plus the CONSTRUCTED ones below, in Scryfall's shape, for
the layouts and look-alike names the real sample lacks.

Tests script it through attributes: ``updated_at``, ``offer`` (``"jsonl"`` or ``"array"``),
``fault`` (``"truncated"``, ``"garbage"``, ``"error"``, ``"too_few"``, ``"trickle"``: the file at
``trickle_rate`` bytes a second, ``"oversized"``: the file, then zeros without end and no length declared,
or None), ``listing_fault`` (``"trickle"``: the descriptions at ``trickle_rate`` bytes a second) and ``cards``;
the rulings file through ``rulings`` (ruling objects), ``rulings_updated_at``, ``rulings_fault``
(``"truncated"``, ``"garbage"``, ``"error"``, ``"not_rulings"``, ``"unknown"`` or None) and
``list_rulings`` (whether ``/bulk-data`` lists it, as Scryfall does);
``info_changes`` (fields the oracle-cards description states instead of the true ones: a lying listing) and
``file_answer`` (status, headers and body sent for the oracle-cards file instead of it: a hostile host);
``requests`` records every request. All Cards (every printing, in every language: ``tests/support/fake_all_cards.py``)
is listed beside them, scripted through ``all_cards_updated_at``, ``all_cards_offer``, ``all_cards_fault`` (the
file's faults above, and ``"html"``: a web page with status 200), ``all_cards_changes`` (fields its description
states instead of the true ones) and ``all_cards_extra`` (its printings in other languages; by default those the
data holds for the fake's cards). Like Scryfall it answers 400 to a request without an
``Accept`` header or an application's ``User-Agent``. :meth:`FakeBulk.handle` answers a path without the server,
so its routes can be mounted on another fake.
"""

from __future__ import annotations

import gzip
import json
import re
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from tests.support.http_fake import ThreadedHTTPFake

SCRYFALL = "https://api.scryfall.com"
BULK_ID = "27bf3214-1271-490b-bdfe-c0be6c23d02e"
RULINGS_ID = "40a1b1b5-ce28-4c8a-9b3a-7c95b4e16e4f"
ALL_CARDS_ID = "922288cb-4bef-45e1-bb30-0c2bd3d3534f"
DEFAULT_UPDATED_AT = "2026-11-20T09:04:31.412+00:00"
FAULTS = (None, "truncated", "garbage", "error", "too_few", "trickle", "oversized")
TOO_FEW = 10

FORMATS = (
    "standard future historic timeless gladiator pioneer modern legacy pauper vintage penny commander "
    "oathbreaker standardbrawl brawl alchemy paupercommander duel oldschool premodern predh"
).split()


# --------------------------------------------------------------------------- CONSTRUCTED cards
# Card objects in Scryfall's real shape. Ids start "f00000b0"; prices, artists and numbers are made
# up, and "Nix", "Akki Boneflinger" and the playtest, rebalanced and memorabilia objects are
# fixtures standing for the kinds of objects users were given instead of the card they named.


def _image_uris(slug: str) -> dict[str, str]:
    base = "https://cards.scryfall.io/{size}/front/b/0/" + slug + ".jpg?1700000000"
    return {size: base.format(size=size) for size in ("small", "normal", "large", "png", "art_crop", "border_crop")}


def constructed(number: int, name: str, set_code: str, **fields: Any) -> dict[str, Any]:
    card_id = f"f00000b0-0000-4000-8000-{number:012d}"
    legal = fields.pop("legal", ("legacy", "vintage", "commander"))
    card: dict[str, Any] = {
        "object": "card",
        "id": card_id,
        "oracle_id": card_id.replace("f00000b0", "f11111b1"),
        "multiverse_ids": [],
        "name": name,
        "lang": "en",
        "released_at": "2024-01-01",
        "uri": f"{SCRYFALL}/cards/{card_id}",
        "scryfall_uri": f"https://scryfall.com/card/{set_code}/{number}?utm_source=api",
        "layout": "normal",
        "highres_image": True,
        "image_status": "highres_scan",
        "image_uris": _image_uris(f"{set_code}-{number}"),
        "mana_cost": "",
        "cmc": 0.0,
        "type_line": "",
        "oracle_text": "",
        "colors": [],
        "color_identity": [],
        "keywords": [],
        "legalities": {fmt: "legal" if fmt in legal else "not_legal" for fmt in FORMATS},
        "games": ["paper", "mtgo"],
        "reserved": False,
        "foil": False,
        "nonfoil": True,
        "finishes": ["nonfoil"],
        "oversized": False,
        "promo": False,
        "reprint": True,
        "variation": False,
        "set_id": f"f22222b2-0000-4000-8000-{number:012d}",
        "set": set_code,
        "set_name": f"Set {set_code.upper()}",
        "set_type": "expansion",
        "set_uri": f"{SCRYFALL}/sets/{set_code}",
        "set_search_uri": f"{SCRYFALL}/cards/search?order=set&q=e%3A{set_code}&unique=prints",
        "scryfall_set_uri": f"https://scryfall.com/sets/{set_code}?utm_source=api",
        "rulings_uri": f"{SCRYFALL}/cards/{card_id}/rulings",
        "prints_search_uri": f"{SCRYFALL}/cards/search?order=released&q=oracleid%3A{card_id}&unique=prints",
        "collector_number": str(number),
        "digital": False,
        "rarity": "common",
        "artist": "Constructed Fixture",
        "border_color": "black",
        "frame": "2015",
        "full_art": False,
        "textless": False,
        "booster": True,
        "story_spotlight": False,
        "prices": {"usd": "0.25", "usd_foil": None, "usd_etched": None, "eur": "0.20", "eur_foil": None, "tix": "0.03"},
        "related_uris": {},
    }
    card.update(fields)
    if card["layout"] in ("split", "adventure", "art_series"):
        del card["oracle_text"]  # on the faces only
    return card


def face(name: str, mana_cost: str, type_line: str, oracle_text: str, **fields: Any) -> dict[str, Any]:
    return {
        "object": "card_face",
        "name": name,
        "mana_cost": mana_cost,
        "type_line": type_line,
        "oracle_text": oracle_text,
        **fields,
    }


def _double_faced(number: int, name: str, set_code: str, faces: list[dict[str, Any]], **fields: Any) -> dict:
    card = constructed(number, name, set_code, card_faces=faces, **fields)
    # Double-faced cards carry their cost, text, colours and images on the faces only.
    for key in ("image_uris", "mana_cost", "oracle_text", "colors"):
        del card[key]
    for index, each in enumerate(faces):
        each["image_uris"] = _image_uris(f"{set_code}-{number}-{index}")
    return card


def _token(number: int, name: str, type_line: str, **fields: Any) -> dict[str, Any]:
    return constructed(
        number, name, "tdmu", layout="token", type_line=type_line, set_type="token", legal=(), rarity="common", **fields
    )


CONSTRUCTED_CARDS: list[dict[str, Any]] = [
    # Objects that are not real cards come first, so a lookup that takes the first hit fails.
    _token(
        1, "Phoenix", "Token Creature — Phoenix", oracle_text="Flying, haste", colors=["R"], power="4", toughness="4"
    ),
    # Two tokens of one name (as Scryfall has many): the one with deathtouch first, so "snake token" must choose.
    _token(
        7, "Snake", "Token Creature — Snake", oracle_text="Deathtouch", colors=["G"], power="1", toughness="1"
    ),
    _token(8, "Snake", "Token Creature — Snake", oracle_text="", colors=["G"], power="1", toughness="1"),
    constructed(
        2, "Lightning Bolt", "cmb1", set_type="funny", promo_types=["playtest"], mana_cost="{R}", cmc=1.0,
        type_line="Instant", oracle_text="Lightning Bolt deals 4 damage to any target. Playtest only.", colors=["R"],
        legal=(),
    ),
    constructed(
        3, "Black Lotus", "30a", set_type="memorabilia", mana_cost="{0}", type_line="Artifact", legal=(),
        oracle_text="{T}, Sacrifice Black Lotus: Add three mana of any one color.", border_color="gold",
    ),
    constructed(
        4, "A-Fling", "ymid", digital=True, games=["arena"], mana_cost="{R}", cmc=1.0, type_line="Instant",
        colors=["R"], legal=("alchemy", "historic"),
        oracle_text="As an additional cost to cast this spell, sacrifice a creature.\nA-Fling deals damage equal to "
        "the sacrificed creature's power to any target.",
    ),
    constructed(
        5, "Fling // Fling", "afr", layout="art_series", type_line="Card // Card", legal=(), set_type="memorabilia",
        card_faces=[face("Fling", "", "Card", ""), face("Fling", "", "Card", "")],
    ),
    constructed(
        6, "Chandra, Torch of Defiance Emblem", "tkld", layout="emblem", type_line="Emblem — Chandra", legal=(),
        set_type="token", oracle_text="Whenever you cast a spell, this emblem deals 5 damage to any target.",
    ),
    # Real cards the complaints were about, and their look-alikes.
    constructed(
        10, "Fling", "m20", mana_cost="{1}{R}", cmc=2.0, type_line="Instant", colors=["R"], color_identity=["R"],
        oracle_text="As an additional cost to cast this spell, sacrifice a creature.\nFling deals damage equal to the "
        "sacrificed creature's power to any target.",
    ),
    constructed(
        11, "Akki Boneflinger", "neo", mana_cost="{2}{R}", cmc=3.0, type_line="Creature — Goblin Warrior",
        colors=["R"], color_identity=["R"], power="2", toughness="2",
        oracle_text="When Akki Boneflinger enters the battlefield, it deals 1 damage to any target.",
    ),
    constructed(
        12, "Nix", "arc", mana_cost="{U}", cmc=1.0, type_line="Creature — Faerie Wizard", colors=["U"],
        color_identity=["U"], power="1", toughness="1",
        oracle_text="Counter target spell if no mana was spent to cast it.",
    ),
    constructed(
        13, "Chandra's Phoenix", "m12", mana_cost="{1}{R}{R}", cmc=3.0, type_line="Creature — Phoenix",
        colors=["R"], color_identity=["R"], power="2", toughness="2", keywords=["Flying", "Haste"],
        oracle_text="Flying\nHaste\nWhenever an opponent is dealt damage by a red instant or sorcery spell you "
        "control or by a red planeswalker you control, return Chandra's Phoenix from your graveyard to your hand.",
    ),
    constructed(
        14, "Black Lotus", "lea", mana_cost="{0}", type_line="Artifact", rarity="rare", reserved=True,
        legal=("vintage",), oracle_text="{T}, Sacrifice Black Lotus: Add three mana of any one color.",
        prices={"usd": None, "usd_foil": None, "usd_etched": None, "eur": None, "eur_foil": None, "tix": None},
    ),
    constructed(
        15, "Blacker Lotus", "ugl", set_type="funny", mana_cost="{0}", type_line="Artifact", rarity="rare",
        legal=(), oracle_text="{T}: Tear Blacker Lotus into pieces. Add four mana of any one color. Remove the "
        "pieces from the game afterwards.",
    ),
    constructed(
        16, "Lightning Bolt", "m10", mana_cost="{R}", cmc=1.0, type_line="Instant", colors=["R"],
        color_identity=["R"], oracle_text="Lightning Bolt deals 3 damage to any target.",
    ),
    constructed(
        17, "Lightning Helix", "rav", mana_cost="{R}{W}", cmc=2.0, type_line="Instant", colors=["R", "W"],
        color_identity=["R", "W"], oracle_text="Lightning Helix deals 3 damage to any target and you gain 3 life.",
    ),
    # One real card of each multi-faced layout.
    constructed(
        20, "Fire // Ice", "apc", layout="split", mana_cost="{1}{R} // {1}{U}", cmc=4.0,
        type_line="Instant // Instant", colors=["R", "U"], color_identity=["R", "U"], rarity="uncommon",
        card_faces=[
            face("Fire", "{1}{R}", "Instant", "Fire deals 2 damage divided as you choose among one or two targets."),
            face("Ice", "{1}{U}", "Instant", "Tap target permanent.\nDraw a card."),
        ],
    ),
    constructed(
        21, "Bonecrusher Giant // Stomp", "eld", layout="adventure", mana_cost="{2}{R} // {1}{R}", cmc=3.0,
        type_line="Creature — Giant // Instant — Adventure", colors=["R"], color_identity=["R"], rarity="rare",
        card_faces=[
            face(
                "Bonecrusher Giant", "{2}{R}", "Creature — Giant",
                "Whenever Bonecrusher Giant becomes the target of a spell, Bonecrusher Giant deals 2 damage to that "
                "spell's controller.", power="4", toughness="3",
            ),
            face(
                "Stomp", "{1}{R}", "Instant — Adventure",
                "Damage can't be prevented this turn. Stomp deals 2 damage to any target.",
            ),
        ],
    ),
    _double_faced(
        22, "Agadeem's Awakening // Agadeem, the Undercrypt", "znr",
        [
            face(
                "Agadeem's Awakening", "{X}{B}{B}{B}", "Sorcery", "Return from your graveyard to the battlefield any "
                "number of target creature cards that each have a different mana value X or less.", colors=["B"],
            ),
            face(
                "Agadeem, the Undercrypt", "", "Land", "As Agadeem, the Undercrypt enters the battlefield, you may "
                "pay 3 life. If you don't, it enters the battlefield tapped.\n{T}: Add {B}.", colors=[],
            ),
        ],
        layout="modal_dfc", cmc=3.0, type_line="Sorcery // Land", color_identity=["B"], rarity="mythic",
    ),
    _double_faced(
        23, "Delver of Secrets // Insectile Aberration", "isd",
        [
            face(
                "Delver of Secrets", "{U}", "Creature — Human Wizard", "At the beginning of your upkeep, look at the "
                "top card of your library. You may reveal that card. If an instant or sorcery card is revealed this "
                "way, transform Delver of Secrets.", colors=["U"], power="1", toughness="1",
            ),
            face(
                "Insectile Aberration", "", "Creature — Human Insect", "Flying", colors=["U"],
                color_indicator=["U"], power="3", toughness="2",
            ),
        ],
        layout="transform", cmc=1.0, type_line="Creature — Human Wizard // Creature — Human Insect",
        color_identity=["U"], keywords=["Flying", "Transform"],
    ),
]  # fmt: skip


# Rulings in Scryfall's shape for the cards served: the ones Wizards publishes for every card of a keyword,
# paraphrased and marked as made up, so the fake's rulings bulk file is never empty.
KEYWORD_RULINGS = {
    "Cycling": (
        "2017-04-18",
        "(Constructed ruling.) Cycling is an activated ability that works only while the card is in your hand. "
        "Effects that stop activated abilities of permanents don't stop cycling.",
    ),
    "Landcycling": (
        "2017-04-18",
        "(Constructed ruling.) You may cycle this card even if your library holds no card of the type named; "
        "you just search and find nothing.",
    ),
    "Flash": ("2021-03-19", "(Constructed ruling.) Flash lets you cast the card any time you could cast an instant."),
}


def ruling(oracle_id: str, published_at: str, comment: str, source: str = "wotc") -> dict[str, Any]:
    return {"object": "ruling", "oracle_id": oracle_id, "source": source, "published_at": published_at,
            "comment": comment}  # fmt: skip


def default_rulings(cards: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for card in cards:
        oracle_id = card.get("oracle_id")
        text = " ".join(str(part.get("oracle_text") or "") for part in [card, *(card.get("card_faces") or ())]).lower()
        keys = {"Landcycling" if word.lower().endswith("landcycling") else word for word in card.get("keywords") or ()}
        if "cycling" in text:
            keys.add("Cycling")  # Scryfall lists no keyword for a cycling cost that isn't mana (Street Wraith)
        if "landcycling" in text:
            keys.add("Landcycling")
        out += [
            ruling(oracle_id, *KEYWORD_RULINGS[key]) for key in sorted(keys) if oracle_id and key in KEYWORD_RULINGS
        ]
    return out


def load_cards(cards_path: Path | None) -> list[dict[str, Any]]:
    cards: list[dict[str, Any]] = []
    if cards_path is not None:
        with open(cards_path, encoding="utf-8") as lines:
            cards = [json.loads(line) for line in lines if line.strip()]
    return [json.loads(json.dumps(card)) for card in CONSTRUCTED_CARDS] + cards


Body = bytes | Iterator[bytes]  # a body sent at once, or as it is made (a slow or endless one)


@dataclass
class BulkRequest:
    method: str
    path: str
    status: int
    time: float
    headers: dict[str, str]


def _error(status: int, code: str, details: str) -> dict[str, Any]:
    return {"object": "error", "code": code, "status": status, "details": details}


class FakeBulk(ThreadedHTTPFake):
    """``with FakeBulk(cards_path) as fake: ... fake.base_url ...``"""

    thread_name = "fake-bulk"

    @property
    def handler(self) -> type[BaseHTTPRequestHandler]:
        return _Handler

    def __init__(self, cards_path: Path | None = None, *, updated_at: str = DEFAULT_UPDATED_AT) -> None:
        self.cards = load_cards(cards_path)
        self.updated_at = updated_at
        self.offer = "jsonl"
        self.fault: str | None = None
        self.listing_fault: str | None = None
        self.trickle_rate = 1.0
        self.info_status = 200
        self.rulings = default_rulings(self.cards)
        self.rulings_updated_at = updated_at
        self.rulings_fault: str | None = None
        self.list_rulings = True
        self.info_changes: dict[str, Any] = {}
        self.file_answer: tuple[int, dict[str, str], Body] | None = None
        self.all_cards_updated_at = updated_at
        self.all_cards_offer = "jsonl"
        self.all_cards_fault: str | None = None
        self.all_cards_changes: dict[str, Any] = {}
        self.all_cards_extra: list[dict[str, Any]] | None = None
        self.all_cards_file: Path | None = (
            None  # a gzipped JSON Lines file served instead (a benchmark's, too big to make)
        )
        self._lock = threading.Lock()
        self._made: dict[tuple, bytes] = {}  # the files as made for one version of the data (see _file_of)
        self._requests: list[BulkRequest] = []
        self._stopping = threading.Event()
        super().__init__()

    def stop(self) -> None:
        self._stopping.set()
        super().stop()

    # ------------------------------------------------------------------ test controls

    @property
    def requests(self) -> list[BulkRequest]:
        with self._lock:
            return list(self._requests)

    def requests_to(self, path_pattern: str) -> list[BulkRequest]:
        return [request for request in self.requests if re.search(path_pattern, request.path)]

    def file_downloads(self) -> list[BulkRequest]:
        """Downloads of the oracle-cards file."""
        return self.requests_to(r"^/file/oracle-cards-")

    def rulings_downloads(self) -> list[BulkRequest]:
        return self.requests_to(r"^/file/rulings-")

    def all_cards_downloads(self) -> list[BulkRequest]:
        return self.requests_to(r"^/file/all-cards-")

    def card_names(self) -> list[str]:
        return [card["name"] for card in self.cards]

    # ------------------------------------------------------------------ the files

    @property
    def stamp(self) -> str:
        return re.sub(r"\D", "", self.updated_at)[:14]

    def jsonl_bytes(self) -> bytes:
        return self._file_of("jsonl", self._jsonl)

    def array_bytes(self) -> bytes:
        return self._file_of("array", self._array)

    def _file_of(self, kind: str, make: Callable[[], bytes], updated_at: str | None = None) -> bytes:
        """Each file made once per version of the data, as Scryfall writes its files once a day and serves them:
        made on every request, tens of thousands of cards took seconds a description on a busy machine, past the
        bot's limits on a host that answers. A version is the date, the fault and the list of cards (a test
        that adds cards makes a new one; one that changes a card in place after it was served must change the
        date too, as Scryfall would)."""
        version = (kind, updated_at or self.updated_at, self.fault, id(self.cards), len(self.cards))
        version += (id(self.all_cards_extra), len(self.all_cards_extra or ()))
        with self._lock:
            made = self._made.get(version)
        if made is None:
            made = make()
            with self._lock:
                self._made = {version: made, **{k: v for k, v in self._made.items() if k[0] != kind}}
        return made

    def _jsonl(self) -> bytes:
        lines = "".join(json.dumps(card, ensure_ascii=False) + "\n" for card in self._served_cards())
        return gzip.compress(lines.encode("utf-8"), mtime=0)

    def _array(self) -> bytes:
        body = "[\n" + ",\n".join(json.dumps(card, ensure_ascii=False) for card in self._served_cards()) + "\n]"
        return body.encode("utf-8")

    def _served_cards(self) -> list[dict[str, Any]]:
        return self.cards[:TOO_FEW] if self.fault == "too_few" else self.cards

    def info(self) -> dict[str, Any]:
        """The bulk data object of the oracle cards, as ``/bulk-data/oracle-cards`` returns it."""
        info: dict[str, Any] = {
            "object": "bulk_data",
            "id": BULK_ID,
            "type": "oracle_cards",
            "updated_at": self.updated_at,
            "uri": f"{SCRYFALL}/bulk-data/{BULK_ID}",
            "name": "Oracle Cards",
            "description": "A JSON file containing one Scryfall card object for each Oracle ID on Scryfall.",
            "size": len(self.array_bytes()),
            "download_uri": f"{self.base_url}/file/oracle-cards-{self.stamp}.json",
            "content_type": "application/json",
            "content_encoding": "gzip",
        }
        if self.offer == "jsonl":
            info["jsonl_download_uri"] = f"{self.base_url}/file/oracle-cards-{self.stamp}.jsonl.gz"
        return {**info, **self.info_changes}

    # ------------------------------------------------------------------ All Cards

    def all_cards(self) -> list[dict[str, Any]]:
        """Every printing: the fake's cards in English, then their printings in other languages."""
        if self.all_cards_extra is None:
            from tests.support.fake_all_cards import localized_printings

            self.all_cards_extra = localized_printings(self.cards)
        return self._served_cards() + self.all_cards_extra

    def all_cards_jsonl(self) -> bytes:
        def make() -> bytes:
            lines = "".join(json.dumps(card, ensure_ascii=False) + "\n" for card in self.all_cards())
            return gzip.compress(lines.encode("utf-8"), mtime=0)

        return self._file_of("all-jsonl", make, self.all_cards_updated_at)

    def all_cards_array(self) -> bytes:
        def make() -> bytes:
            body = "[\n" + ",\n".join(json.dumps(card, ensure_ascii=False) for card in self.all_cards()) + "\n]"
            return body.encode("utf-8")

        return self._file_of("all-array", make, self.all_cards_updated_at)

    def all_cards_info(self) -> dict[str, Any]:
        stamp = re.sub(r"\D", "", self.all_cards_updated_at)[:14]
        info: dict[str, Any] = {
            "object": "bulk_data",
            "id": ALL_CARDS_ID,
            "type": "all_cards",
            "updated_at": self.all_cards_updated_at,
            "uri": f"{SCRYFALL}/bulk-data/{ALL_CARDS_ID}",
            "name": "All Cards",
            "description": "A JSON file containing every card object on Scryfall in every language.",
            "size": len(self.all_cards_array()),
            "download_uri": f"{self.base_url}/file/all-cards-{stamp}.json",
            "content_type": "application/json",
            "content_encoding": "gzip",
        }
        if self.all_cards_offer == "jsonl":
            info["jsonl_download_uri"] = f"{self.base_url}/file/all-cards-{stamp}.jsonl.gz"
        return {**info, **self.all_cards_changes}

    def _all_cards_file(self, path: str) -> tuple[int, dict[str, str], Body]:
        fault = self.all_cards_fault
        if fault == "error":
            return 503, {"Content-Type": "text/html"}, b"<html><body>503 Service Unavailable</body></html>"
        if fault == "html":
            return 200, {"Content-Type": "text/html"}, b"<!DOCTYPE html><html><body>Maintenance</body></html>" * 64
        if fault == "garbage":
            return 200, {"Content-Type": "application/octet-stream"}, b"\x00\x13garbage, not cards \xff\xfe" * 64
        if path.endswith(".jsonl.gz") and self.all_cards_file is not None:
            size = str(self.all_cards_file.stat().st_size)
            return 200, {"Content-Type": "application/gzip", "Content-Length": size}, self._read(self.all_cards_file)
        if path.endswith(".jsonl.gz"):
            body, headers = self.all_cards_jsonl(), {"Content-Type": "application/gzip"}
        elif path.endswith(".json"):
            body = gzip.compress(self.all_cards_array(), mtime=0)
            headers = {"Content-Type": "application/json", "Content-Encoding": "gzip"}
        else:
            return self._json(404, _error(404, "not_found", "Not found."))
        if fault == "truncated":
            body = body[: len(body) // 2]
        if fault == "trickle":
            return 200, {**headers, "Content-Length": str(len(body))}, self._trickle(body)
        if fault == "oversized":
            return 200, headers, self._endless(body)
        return 200, headers, body

    def rulings_bytes(self) -> bytes:
        rulings = list(self.rulings)
        if self.rulings_fault == "unknown":
            rulings += [ruling("deadbeef-0000-4000-8000-000000000000", "2020-01-01", "A card nobody holds.")] * 3
        if self.rulings_fault == "not_rulings":
            rulings = [["not", "a", "ruling"]] + rulings  # type: ignore[list-item]
        return ("[\n" + ",\n".join(json.dumps(item, ensure_ascii=False) for item in rulings) + "\n]").encode("utf-8")

    def rulings_info(self) -> dict[str, Any]:
        stamp = re.sub(r"\D", "", self.rulings_updated_at)[:14]
        return {
            "object": "bulk_data",
            "id": RULINGS_ID,
            "type": "rulings",
            "updated_at": self.rulings_updated_at,
            "uri": f"{SCRYFALL}/bulk-data/{RULINGS_ID}",
            "name": "Rulings",
            "description": "A JSON file containing all Rulings on Scryfall. Each ruling refers to cards via oracle_id.",
            "size": len(self.rulings_bytes()),
            "download_uri": f"{self.base_url}/file/rulings-{stamp}.json",
            "content_type": "application/json",
            "content_encoding": "gzip",
        }

    # ------------------------------------------------------------------ routes

    def handle(self, method: str, path: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], Body]:
        """Status, headers and body for ``method path`` sent with ``headers`` (lower-case names)."""
        headers = headers or {}
        for needed in ("user-agent", "accept"):
            if not headers.get(needed, "").strip():
                details = f"Your request must include a {needed.title()} header."
                return self._json(400, _error(400, "bad_request", details))
        if headers["user-agent"].lower().startswith(("python-requests", "python-urllib")):
            return self._json(400, _error(400, "bad_request", "Send a User-Agent naming your application."))
        if method != "GET":
            return self._json(405, _error(405, "method_not_allowed", "Only GET is allowed here."))
        if path in ("/bulk-data", "/bulk-data/"):
            listed = [self.info(), *([self.rulings_info()] if self.list_rulings else []), self.all_cards_info()]
            return self._json(200, {"object": "list", "has_more": False, "data": listed})
        if path in ("/bulk-data/rulings", f"/bulk-data/{RULINGS_ID}") and self.list_rulings:
            return self._json(200, self.rulings_info())
        if path in ("/bulk-data/oracle-cards", "/bulk-data/oracle_cards", f"/bulk-data/{BULK_ID}"):
            if self.info_status != 200:
                return self._json(self.info_status, _error(self.info_status, "unavailable", "Try again later."))
            return self._json(200, self.info())
        if path in ("/bulk-data/all-cards", "/bulk-data/all_cards", f"/bulk-data/{ALL_CARDS_ID}"):
            return self._json(200, self.all_cards_info())
        if path.startswith("/bulk-data/"):
            return self._json(404, _error(404, "not_found", "No bulk data of that type."))
        if path.startswith("/file/oracle-cards-"):
            return self._file(path)
        if path.startswith("/file/rulings-"):
            return self._rulings_file()
        if path.startswith("/file/all-cards-"):
            return self._all_cards_file(path)
        return self._json(404, _error(404, "not_found", "Not found."))

    def _json(self, status: int, payload: Any) -> tuple[int, dict[str, str], Body]:
        body = json.dumps(payload, ensure_ascii=False).replace(SCRYFALL, self.base_url).encode("utf-8")
        headers = {"Content-Type": "application/json; charset=utf-8"}
        if self.listing_fault == "trickle":
            return status, {**headers, "Content-Length": str(len(body))}, self._trickle(body)
        return status, headers, body

    def _trickle(self, body: bytes) -> Iterator[bytes]:
        """``body`` a byte at a time, ``trickle_rate`` bytes a second."""
        for index in range(len(body)):
            if self._stopping.wait(1 / self.trickle_rate):
                return
            yield body[index : index + 1]

    def _read(self, path: Path) -> Iterator[bytes]:
        """The file at ``path``, a megabyte at a time."""
        with open(path, "rb") as file:
            while chunk := file.read(1 << 20):
                if self._stopping.is_set():
                    return
                yield chunk

    def _endless(self, body: bytes) -> Iterator[bytes]:
        """``body``, then zeros until the client hangs up."""
        yield body
        while not self._stopping.is_set():
            yield b"\x00" * 65536

    def _file(self, path: str) -> tuple[int, dict[str, str], Body]:
        if self.file_answer is not None:
            return self.file_answer
        if self.fault == "error":
            return 503, {"Content-Type": "text/html"}, b"<html><body>503 Service Unavailable</body></html>"
        if self.fault == "garbage":
            return 200, {"Content-Type": "application/octet-stream"}, b"\x00\x13garbage, not cards \xff\xfe" * 64
        if path.endswith(".jsonl.gz"):
            body = self.jsonl_bytes()
            headers = {"Content-Type": "application/gzip"}
        elif path.endswith(".json"):
            body = gzip.compress(self.array_bytes(), mtime=0)
            headers = {"Content-Type": "application/json", "Content-Encoding": "gzip"}
        else:
            return self._json(404, _error(404, "not_found", "Not found."))
        if self.fault == "truncated":
            body = body[: len(body) // 2]
        if self.fault == "trickle":
            return 200, {**headers, "Content-Length": str(len(body))}, self._trickle(body)
        if self.fault == "oversized":
            return 200, headers, self._endless(body)
        return 200, headers, body

    def _rulings_file(self) -> tuple[int, dict[str, str], bytes]:
        if self.rulings_fault == "error":
            return 503, {"Content-Type": "text/html"}, b"<html><body>503 Service Unavailable</body></html>"
        if self.rulings_fault == "garbage":
            return (
                200,
                {"Content-Type": "application/json", "Content-Encoding": "gzip"},
                gzip.compress(b"<html>no</html>"),
            )
        body = gzip.compress(self.rulings_bytes(), mtime=0)
        if self.rulings_fault == "truncated":
            body = gzip.compress(self.rulings_bytes()[: len(self.rulings_bytes()) // 2], mtime=0)
        return 200, {"Content-Type": "application/json", "Content-Encoding": "gzip"}, body

    def _record(self, method: str, path: str, status: int, headers: dict[str, str]) -> None:
        with self._lock:
            self._requests.append(BulkRequest(method, path, status, time.monotonic(), headers))


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_fake: FakeBulk

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - silence the default stderr log
        pass

    def _serve(self) -> None:
        fake = self.server_fake
        path = urlsplit(self.path).path
        sent = {key.lower(): value for key, value in self.headers.items()}
        status, headers, body = fake.handle(self.command, path, sent)
        fake._record(self.command, path, status, sent)
        try:
            self.send_response(status)
            for key, value in headers.items():
                self.send_header(key, value)
            if isinstance(body, bytes):
                self.send_header("Content-Length", str(len(body)))
            elif "Content-Length" not in headers:  # no length: the body ends when the connection does
                self.send_header("Connection", "close")
                self.close_connection = True
            self.end_headers()
            for chunk in [body] if isinstance(body, bytes) else body:
                self.wfile.write(chunk)
                self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True

    do_GET = _serve
    do_POST = _serve
