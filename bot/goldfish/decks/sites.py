"""Decks read from the sites players keep them on, by the link to a deck's public page.

Archidekt (``https://archidekt.com/decks/<id>/…``, read as JSON from ``{ARCHIDEKT_URL}/api/decks/<id>/``) and
TappedOut (``https://tappedout.net/mtg-decks/<slug>/``, read as text from
``{TAPPEDOUT_URL}/mtg-decks/<slug>/?fmt=txt``). A link names the real site, matched by its host exactly; the
settings only say where the bot reads it (a test's fake, a mirror). Moxfield and MTGGoldfish refuse programs, so
their links are answered with how to export the list; any other host is refused before anything is sent.

Every read goes through the one downloader (a deadline, a byte cap, each redirect checked to stay on the same
site) and at most one read a second goes to each site (:class:`~bot.serving.Pace`), whoever asks.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import orjson

from bot import BOT_NAME, __version__
from bot.config import DEFAULT_ARCHIDEKT_URL, DEFAULT_TAPPEDOUT_URL
from bot.goldfish.decks.decklist import HEADERS, checked, make_line, parse_decklist
from bot.goldfish.decks.files import MAX_FILE_BYTES, decode, file_type, read_file
from bot.goldfish.decks.model import COMMANDER, MAIN, DeckProblem, DeckText, Line
from bot.hosts import Downloader, DownloadFailed, Limits, host_of
from bot.serving import Pace, monotonic

READ_SECONDS = 10.0
MAX_BYTES = 2 * 1024 * 1024
SITE_READS_PER_SECOND = 1
SITE_WAIT = 5.0  # seconds a read may wait for its site's turn before the player is told to try again
ARCHIDEKT, TAPPEDOUT = "Archidekt", "TappedOut"
SITES = {
    "archidekt.com": ARCHIDEKT,
    "www.archidekt.com": ARCHIDEKT,
    "tappedout.net": TAPPEDOUT,
    "www.tappedout.net": TAPPEDOUT,
}
# Sites that refuse programs: the player is asked for the list their export gives.
REFUSING = {
    "moxfield.com": ("Moxfield", "More › Export › Copy for MTGA (or Download for MTGO)"),
    "www.moxfield.com": ("Moxfield", "More › Export › Copy for MTGA (or Download for MTGO)"),
    "mtggoldfish.com": ("MTGGoldfish", "Download › Arena or MTGO"),
    "www.mtggoldfish.com": ("MTGGoldfish", "Download › Arena or MTGO"),
}
USER_AGENT = f"{BOT_NAME}/{__version__} (Discord bot for Magic: The Gathering players; deck lists)"
LINK_SHAPES = "an Archidekt deck (https://archidekt.com/decks/…) or a TappedOut one (https://tappedout.net/mtg-decks/…)"


@dataclass(frozen=True)
class DeckLink:
    """A deck's page on a site: ``key`` is Archidekt's deck number or TappedOut's slug."""

    site: str
    key: str


def read_link(text: str) -> DeckLink:
    """The deck a link names; :class:`DeckProblem` (one line, nothing sent anywhere) for anything else."""
    link = text.strip().removeprefix("<").removesuffix(">")
    try:
        parts = urlsplit(link if "://" in link else f"https://{link}")
        host = (parts.hostname or "").lower()
        if parts.scheme.lower() not in ("http", "https") or parts.port not in (None, 80, 443):
            host = ""
    except ValueError:  # a port that is no number, brackets that close nothing
        host, parts = "", urlsplit("")
    if host in REFUSING:
        site, how = REFUSING[host]
        raise DeckProblem(
            f"{site} doesn't let programs read its decks: export the list ({how}) and paste it in `decklist:`, "
            "upload the file with `file:`, or save it with `/deck save` and paste it in the form."
        )
    site = SITES.get(host)
    path = [part for part in parts.path.split("/") if part]
    if site == ARCHIDEKT and len(path) >= 2 and path[0] == "decks" and path[1].isdigit() and len(path[1]) <= 12:
        return DeckLink(ARCHIDEKT, path[1])
    if site == TAPPEDOUT and len(path) >= 2 and path[0] == "mtg-decks" and _slug(path[1]):
        return DeckLink(TAPPEDOUT, path[1])
    if site is not None:
        raise DeckProblem(f"That {site} link doesn't name a deck: use the link to the deck's own page.")
    raise DeckProblem(f"I read decks from {LINK_SHAPES}; I don't read other sites' links.")


def _slug(text: str) -> bool:
    return 0 < len(text) <= 120 and all(c.isascii() and (c.isalnum() or c in "-_") for c in text)


def same_site(url: str) -> frozenset[str]:
    """The hosts a read from ``url`` may be redirected to: its own, with or without ``www.``."""
    host = host_of(url)
    bare = host.removeprefix("www.")
    return frozenset({host, bare, f"www.{bare}"})


class DeckSites:
    """``await sites.read(link)`` → the deck's list; the settings say where each site is read."""

    def __init__(
        self,
        archidekt_url: str = DEFAULT_ARCHIDEKT_URL,
        tappedout_url: str = DEFAULT_TAPPEDOUT_URL,
    ) -> None:
        self.urls = {ARCHIDEKT: archidekt_url.rstrip("/"), TAPPEDOUT: tappedout_url.rstrip("/")}
        self.downloader = Downloader({"User-Agent": USER_AGENT}, name="deck-site-reads")
        self.pace = Pace(SITE_READS_PER_SECOND, 1.0, SITE_WAIT)

    def address(self, link: DeckLink) -> str:
        if link.site == ARCHIDEKT:
            return f"{self.urls[ARCHIDEKT]}/api/decks/{link.key}/"
        return f"{self.urls[TAPPEDOUT]}/mtg-decks/{link.key}/?fmt=txt"

    async def read(self, link: DeckLink) -> DeckText:
        """The deck's list, read in the site's turn; :class:`DeckProblem` saying what went wrong."""
        turn = self.pace.turn(link.site)
        if turn is None:
            raise DeckProblem(f"Many decks are being read from {link.site} right now: try again in a few seconds.")
        await asyncio.sleep(max(0.0, turn - monotonic()))
        url = self.address(link)
        answered: dict[str, str] = {}
        try:
            body = await self.downloader.get_async(
                url,
                Limits(deadline=READ_SECONDS, min_rate=1.0, grace=READ_SECONDS, max_bytes=MAX_BYTES),
                allowed_hosts=same_site(url),
                on_response=lambda _, headers: answered.update(type=headers.get("Content-Type", "")),
            )
        except DownloadFailed as failed:
            raise DeckProblem(failure_text(link, failed)) from None
        if answered.get("type", "").lower().startswith("text/html") or body.lstrip()[:1] == b"<":
            raise DeckProblem(f"{link.site} answered with a web page, not the deck's list: try again later.")
        if link.site == ARCHIDEKT:
            return archidekt_list(body)
        try:
            return parse_decklist(decode(body))
        except DeckProblem as problem:
            raise DeckProblem(f"{TAPPEDOUT} sent a list I can't read: {problem}") from None

    async def read_upload(self, url: str, filename: str, size: int, hosts: frozenset[str]) -> DeckText:
        """An uploaded file's list, from the address Discord gives it (on ``hosts`` only): its type and its size
        checked before anything is downloaded, the download capped at that size."""
        file_type(filename)
        if size > MAX_FILE_BYTES:
            raise DeckProblem(f"That file is {size // 1024:,} KB: a deck file has at most {MAX_FILE_BYTES // 1024} KB.")
        if size <= 0:
            raise DeckProblem("That file is empty: export your deck again and upload the file it gives.")
        try:
            body = await self.downloader.get_async(
                url,
                # No more than the size Discord gave: a file larger than it said is not the file that was checked.
                Limits(deadline=READ_SECONDS, min_rate=1.0, grace=READ_SECONDS, max_bytes=size),
                allowed_hosts=hosts,
            )
        except DownloadFailed as failed:
            raise DeckProblem(f"I couldn't download that file ({failed}): upload it again.") from None
        return read_file(filename, body)

    def close(self) -> None:
        self.downloader.close()


def failure_text(link: DeckLink, failed: DownloadFailed) -> str:
    """The one line that says why a site's deck could not be read."""
    site = link.site
    if failed.status in (401, 403, 404):
        return f"{site} shows no public deck at that link: check it, and that the deck is public (not private)."
    if failed.status is not None:
        return f"{site} didn't give the deck (HTTP {failed.status}): try again later, or paste the list."
    reason = str(failed)
    if f"more than {MAX_BYTES}" in reason:  # the downloader's cap, declared or reached
        return f"{site} sent more than {MAX_BYTES // (1024 * 1024)} MB for that deck: that is no deck list."
    if "not an allowed host" in reason:
        return f"{site} sent that link elsewhere: I only read decks from {site} itself."
    if failed.unreachable:
        return f"I couldn't reach {site}: try again later, or paste the list."
    return f"{site} didn't answer within {READ_SECONDS:g} s: try again later, or paste the list."


def archidekt_list(body: bytes) -> DeckText:
    """Archidekt's deck JSON: ``cards[]`` (``quantity``, ``categories``, ``card.oracleCard.name``, the printing in
    ``card.edition.editioncode`` and ``card.collectorNumber``), and the deck's ``categories`` with
    ``includedInDeck``. A card in the premier category (Commander) is the commander; one whose first category is
    left out of the deck is the sideboard's when that category is Sideboard, else not in the deck (Maybeboard)."""
    try:
        deck = orjson.loads(body)
        categories = {c["name"]: c for c in deck.get("categories") or () if isinstance(c, dict) and "name" in c}
        lines = [
            line
            for number, card in enumerate(deck["cards"], start=1)
            if (line := _archidekt_line(number, card, categories)) is not None
        ]
    except (orjson.JSONDecodeError, KeyError, TypeError, AttributeError):
        raise DeckProblem(f"{ARCHIDEKT} sent something that isn't a deck I can read: try again later.") from None
    return checked(DeckText(tuple(lines), str(deck.get("name") or "").strip() or None))


def _archidekt_line(number: int, entry: dict[str, Any], categories: Mapping[str, dict]) -> Line | None:
    names = [str(name) for name in entry.get("categories") or ()]
    card = entry["card"]
    section: str | None = MAIN
    if any(categories.get(name, {}).get("isPremier") for name in names):
        section = COMMANDER
    elif names and categories.get(names[0], {}).get("includedInDeck") is False:
        # Out of the deck: the sideboard (or a companion) is kept apart, a maybeboard dropped.
        section = HEADERS.get(names[0].lower()) if names[0].lower() in ("sideboard", "companion") else None
    if section is None:
        return None
    edition = card.get("edition") or {}
    return make_line(
        number,
        str(entry.get("quantity", "")),
        str(card["oracleCard"]["name"]),
        section,
        str(edition.get("editioncode") or "") or None,
        str(card.get("collectorNumber") or "") or None,
    )
