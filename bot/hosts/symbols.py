"""Mana and card symbols as pictures: Scryfall's symbology drawn to PNG, kept in the data folder as each is done.

``await prepare(data_dir, client)`` asks Scryfall's ``GET /symbology`` for every symbol and its SVG, checks each SVG
against an allowlist (:func:`bot.hosts.svg.sanitise`), draws it as a PNG with resvg in a sandboxed child process
(:mod:`bot.runtime.sandbox`: a symbol that freezes, crashes or fills the renderer takes only the child with it), and
keeps each PNG in ``BOT_DATA_DIR/symbols`` the moment it is drawn. Every SVG is downloaded through
:mod:`bot.hosts.download`: a deadline, a minimum rate, a 256 KB cap while it streams, and only from Scryfall's SVG
host (or the API's own).

A symbol that can't be made is skipped (its text form stays) and the failure is remembered for a day
(:data:`FAILURE_DAYS`). The manifest names every symbol the symbology listed, so a later start knows a partial set
for what it is: it draws only the symbols missing and those whose failure is more than a day old, and asks Scryfall
nothing when there are none. A download that fails for a passing reason (a timeout, a 5xx) is not remembered: the
symbol is missing, tried again at the next start.

Drawing costs what a symbol is worth: the child drawing a batch may use :data:`DRAW_LIMITS`' CPU seconds (Scryfall's
real symbols need a tenth of it) at the lowest priority. A symbol whose SVG passes the allowlist and still takes all
of it, drawn alone, is remembered by its SVG's digest: it is downloaded again after a day, and drawn again only if
its SVG has changed. After :data:`COSTLY_PER_START` such symbols the drawing stops, and the rest waits for the next
start.

The Discord side (``bot.frame.app_emoji``) uploads the PNGs as the application's emoji; the goldfish picture draws
them itself. :class:`SymbolText` turns ``{2}{G}`` into whatever stands for each symbol where it is shown (the
emoji's markup on Discord); a symbol it has nothing for stays text, and so does all of it in the terminal. Nothing
here imports discord.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import re
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from bot.hosts.download import Downloader, DownloadFailed, Limits
from bot.hosts.origins import SYMBOL_SVGS, from_scryfall
from bot.hosts.svg import SvgRefused, render_many, sanitise
from bot.runtime import (
    BACKGROUND_NICE,
    SandboxError,
    SandboxLimits,
    remove_leftovers,
    run_limited,
    store_atomically,
)
from bot.scryfall import default_user_agent

if TYPE_CHECKING:
    from bot.scryfall import ScryfallClient

log = logging.getLogger(__name__)

DIRECTORY = "symbols"
MANIFEST = "symbols.json"
MAX_SVG_BYTES = 256 * 1024
SVG_LIMITS = Limits(deadline=20.0, min_rate=1024, grace=5.0, max_bytes=MAX_SVG_BYTES)
# A batch of symbols is drawn by one child; real ones take 2 ms each at the median. When a batch fails, each of its
# symbols is drawn alone, so one hostile SVG costs only itself.
BATCH = 15
# A child drawing a batch of 15 of Scryfall's real symbols uses 0.3 s of CPU (0.26 s of it starting the interpreter
# and importing resvg; a symbol takes 2 ms at the median and 10 ms at most), all 75 in one child 0.46 s: the cap is
# about seven times a batch's need (RLIMIT_CPU counts whole seconds). The wall clock is generous: the child steps
# aside for everything else the bot does, so a busy bot makes it wait, not fail.
DRAW_LIMITS = SandboxLimits(wall=60.0, cpu=2, memory=512 << 20, nice=BACKGROUND_NICE)
COSTLY_PER_START = 3  # symbols that took all of their CPU: then the drawing stops until the next start
FAILURE_DAYS = 1.0
PASSING_FAILURES_IN_A_ROW = 3  # then the SVG host is down: the rest waits for the next start
# A card symbol: ``{G}``, ``{2/W}``. A brace a player typed carries a word joiner after it (``bot.text.escape``'s
# ``typed``): it only looks like a symbol, and is never one.
SYMBOL = re.compile(r"\{[^{}\s\u2060]{1,12}\}")
# An emoji made by this module (its name from :func:`emoji_name`), as Discord's markup.
SYMBOL_EMOJI = re.compile(r"<a?:(?:mana_\w+|tap|untap|energy|planeswalker|chaos|acorn|ticket):\d+>")
# Symbols that are not mana get a word a screen reader says well.
WORDS = {
    "T": "tap",
    "Q": "untap",
    "E": "energy",
    "PW": "planeswalker",
    "CHAOS": "chaos",
    "A": "acorn",
    "TK": "ticket",
    "½": "half",
    "∞": "infinity",
    "H": "half",
}
# Between two SVG downloads: Scryfall asks for 50-100 ms between requests.
SVG_PAUSE = 0.05


class SymbolsUnavailable(Exception):
    """No symbol could be made; ``str(e)`` says why (the text form is used instead)."""


def emoji_name(symbol: str) -> str:
    """The emoji's name for a symbol, read sensibly by a screen reader and valid for Discord (2–32 characters of
    letters, digits and underscores): ``{G}`` → ``mana_G``, ``{2}`` → ``mana_2``, ``{W/U}`` → ``mana_WU``,
    ``{G/P}`` → ``mana_GP``, ``{T}`` → ``tap``, ``{½}`` → ``mana_half``."""
    inner = symbol.strip("{}")
    if inner in WORDS and inner not in ("½", "∞", "H"):
        return WORDS[inner]
    parts = [WORDS.get(part, part) for part in inner.split("/")]
    name = "mana_" + "".join(re.sub(r"[^A-Za-z0-9_]", "", part) for part in parts)
    return name[:32] if len(name) > len("mana_") else ""


@dataclass(frozen=True)
class SymbolImage:
    """One symbol's picture: ``{G}``, its emoji name, Scryfall's words for it, and its PNG file."""

    symbol: str
    name: str
    english: str
    path: Path

    def png(self) -> bytes:
        return self.path.read_bytes()


@dataclass
class Kept:
    """What the symbols folder holds: the names the symbology listed (None before it was first read), the symbols
    drawn, and the failures with when they happened and why."""

    folder: Path
    listed: list[str] | None = None
    drawn: dict[str, dict] = field(default_factory=dict)  # by emoji name: symbol, name, english, file
    failed: dict[str, dict] = field(default_factory=dict)  # by emoji name: symbol, at, why

    @classmethod
    def read(cls, data_dir: Path) -> Kept:
        folder = Path(data_dir) / DIRECTORY
        try:
            manifest = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
            listed = manifest.get("listed")
            drawn = {item["name"]: item for item in manifest["symbols"] if (folder / item["file"]).is_file()}
            failed = {
                name: item
                for name, item in (manifest.get("failed") or {}).items()
                if isinstance(item, dict) and isinstance(item.get("at"), int | float)
            }
            return cls(folder, [str(name) for name in listed] if isinstance(listed, list) else None, drawn, failed)
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return cls(folder)

    def images(self) -> dict[str, SymbolImage]:
        return {
            item["symbol"]: SymbolImage(
                item["symbol"], item["name"], item.get("english", ""), self.folder / item["file"]
            )
            for item in self.drawn.values()
        }

    def waiting(self, now: float) -> list[str] | None:
        """The listed names to draw now (missing, or failed more than a day ago); None when the list is unknown."""
        if self.listed is None:
            return None
        recent = {name for name, item in self.failed.items() if now - item["at"] < FAILURE_DAYS * 86400}
        return [name for name in self.listed if name not in self.drawn and name not in recent]

    def keep(self, symbol: dict, png: bytes) -> None:
        name = emoji_name(symbol["symbol"])
        store_atomically(self.folder / f"{name}.png", png)
        self.drawn[name] = {
            "symbol": symbol["symbol"],
            "name": name,
            "english": symbol.get("english") or "",
            "file": f"{name}.png",
        }
        self.failed.pop(name, None)
        self.write()

    def fail(self, symbol: dict, why: str, now: float) -> None:
        self.failed[emoji_name(symbol["symbol"])] = {"symbol": symbol["symbol"], "at": now, "why": why}
        self.write()

    def costly(self, symbol: dict, svg: bytes) -> bool:
        """Whether ``svg`` is the very SVG of ``symbol`` that took all of its CPU to draw before."""
        item = self.failed.get(emoji_name(symbol["symbol"]))
        return item is not None and item.get("costly") == digest(svg)

    def too_costly(self, symbol: dict, svg: bytes, now: float) -> None:
        """Remember that drawing ``svg`` took all of its CPU: as a failure, with the SVG's digest."""
        why = f"drawing it took all of its {DRAW_LIMITS.cpu} s of CPU"
        item = {"symbol": symbol["symbol"], "at": now, "why": why, "costly": digest(svg)}
        self.failed[emoji_name(symbol["symbol"])] = item
        self.write()

    def write(self) -> None:
        manifest = {"listed": self.listed, "symbols": list(self.drawn.values()), "failed": self.failed}
        store_atomically(self.folder / MANIFEST, json.dumps(manifest, ensure_ascii=False, indent=1).encode("utf-8"))


def digest(svg: bytes) -> str:
    return hashlib.sha256(svg).hexdigest()


def load(data_dir: Path) -> dict[str, SymbolImage]:
    """The symbols drawn before (whatever part of the set was made; empty when none, or the folder is damaged)."""
    return Kept.read(data_dir).images()


def remove_interrupted(data_dir: Path) -> int:
    """Delete the temporary files of interrupted writes in the symbols folder; how many there were."""
    folder = Path(data_dir) / DIRECTORY
    old = folder / (MANIFEST + ".writing")  # what earlier versions wrote the manifest to first
    found = old.is_file()
    old.unlink(missing_ok=True)
    return remove_leftovers(folder) + found


def downloader() -> Downloader:
    return Downloader({"User-Agent": default_user_agent(), "Accept": "image/svg+xml"}, name="symbol-downloads")


async def fetch_svg(svgs: Downloader, url: str, api_url: str) -> bytes:
    """One SVG, from Scryfall's SVG host or the API's own host (a test double, a proxy) and nowhere else; raises
    DownloadFailed."""
    return await svgs.get_async(url, SVG_LIMITS, allowed_hosts=from_scryfall(SYMBOL_SVGS, api_url))


async def _listed(client: ScryfallClient) -> list[dict]:
    answer = await client.get_uri(f"{client.base_url}/symbology")
    symbols, seen = [], set()
    for item in answer.data.get("data") or []:
        if not isinstance(item, dict) or not SYMBOL.fullmatch(str(item.get("symbol") or "")):
            continue
        name = emoji_name(item["symbol"])
        if name and name not in seen and isinstance(item.get("svg_uri"), str):
            seen.add(name)
            symbols.append(item)
    if not symbols:
        raise SymbolsUnavailable("Scryfall's symbology listed no symbols")
    return symbols


async def _download(kept: Kept, symbols: list[dict], api_url: str) -> list[tuple[dict, bytes]]:
    """The waiting symbols' SVGs, checked; each refused one remembered as failed."""
    clean: list[tuple[dict, bytes]] = []
    svgs = downloader()
    passing = 0
    try:
        for symbol in symbols:
            try:
                clean.append((symbol, sanitise(await fetch_svg(svgs, symbol["svg_uri"], api_url))))
                passing = 0
            except SvgRefused as refused:
                await asyncio.to_thread(kept.fail, symbol, f"its SVG holds {refused}", time.time())
            except DownloadFailed as error:
                if error.passing:
                    passing += 1
                    log.info("Mana symbol %s not downloaded (%s); tried at the next start", symbol["symbol"], error)
                    if passing >= PASSING_FAILURES_IN_A_ROW:
                        log.warning("Scryfall's symbol host is failing (%s): the rest waits for the next start", error)
                        break
                else:
                    why = f"its SVG could not be downloaded ({error})"
                    await asyncio.to_thread(kept.fail, symbol, why, time.time())
            await asyncio.sleep(SVG_PAUSE)
    finally:
        await asyncio.to_thread(svgs.close)
    return clean


@dataclass
class _Round:
    """One start's drawing: the symbols that took all of their CPU alone, and why it stopped, if it did."""

    costly: list[str] = field(default_factory=list)
    stopped: str | None = None


async def _draw(kept: Kept, batch: list[tuple[dict, bytes]], drawing: _Round) -> None:
    """Draw ``batch`` in one sandboxed child; when it fails, each symbol alone, so that only the culprit fails. A
    child out of time (the machine too busy for one that steps aside) or the :data:`COSTLY_PER_START`-th symbol that
    took all of its CPU stops the round: what is left waits for the next start."""
    try:
        drawn = await run_limited(render_many, [svg for _, svg in batch], limits=DRAW_LIMITS)
    except SandboxError as error:
        if error.reason == "timeout":  # the machine's doing, not the symbols': nothing is held against them
            drawing.stopped = f"the machine was too busy to draw them within {DRAW_LIMITS.wall:g} s"
            return
        if len(batch) > 1:
            for one in batch:
                if drawing.stopped is None:
                    await _draw(kept, [one], drawing)
            return
        (symbol, svg), now = batch[0], time.time()
        if error.reason != "cpu":
            await asyncio.to_thread(kept.fail, symbol, f"it could not be drawn: {error}", now)
            return
        await asyncio.to_thread(kept.too_costly, symbol, svg, now)
        drawing.costly.append(symbol["symbol"])
        if len(drawing.costly) >= COSTLY_PER_START:
            drawing.stopped = f"{len(drawing.costly)} of them took all of their CPU to draw"
        return
    for (symbol, _), png in zip(batch, drawn, strict=True):
        if isinstance(png, bytes):
            await asyncio.to_thread(kept.keep, symbol, png)
        else:
            await asyncio.to_thread(kept.fail, symbol, f"it could not be drawn: {png}", time.time())


def refused_line(refused: list[dict], shown: int = 3) -> str:
    """One line for the symbols refused at a start: how many, the first few with why, how many more."""
    count = len(refused)
    named = "; ".join(f"{item['symbol']} ({item['why']})" for item in refused[:shown])
    more = f"; and {count - shown} more" if count > shown else ""
    said = "symbol stays" if count == 1 else "symbols stay"
    return f"{count} card {said} as text for a day: {named}{more}"


async def prepare(data_dir: Path, client: ScryfallClient) -> dict[str, SymbolImage]:
    """The symbols' PNGs: the kept ones, and those missing drawn now (each kept as soon as it is drawn).

    Raises SymbolsUnavailable (or the client's ScryfallErrors) when not one symbol can be had.
    """
    await asyncio.to_thread(remove_interrupted, data_dir)
    started = time.time()
    kept = await asyncio.to_thread(Kept.read, data_dir)
    if kept.waiting(time.time()) == []:
        return kept.images()
    symbols = await _listed(client)
    kept.listed = [emoji_name(symbol["symbol"]) for symbol in symbols]
    await asyncio.to_thread(kept.write)
    waiting = set(kept.waiting(time.time()) or ())
    clean = await _download(kept, [s for s in symbols if emoji_name(s["symbol"]) in waiting], client.base_url)
    for symbol, svg in [(symbol, svg) for symbol, svg in clean if kept.costly(symbol, svg)]:
        await asyncio.to_thread(kept.too_costly, symbol, svg, time.time())  # the same SVG: not drawn again
    clean = [(symbol, svg) for symbol, svg in clean if not kept.costly(symbol, svg)]
    drawing = _Round()
    for start in range(0, len(clean), BATCH):
        if drawing.stopped is None:
            await _draw(kept, clean[start : start + BATCH], drawing)
    if drawing.stopped is not None:
        log.warning("Drawing the mana symbols stopped (%s): the rest waits for the next start", drawing.stopped)
    images = kept.images()
    if not images:
        failures = "; ".join(f"{item['symbol']}: {item['why']}" for item in list(kept.failed.values())[:3])
        why = failures or drawing.stopped or "the SVG host is failing"
        raise SymbolsUnavailable(f"no symbol could be made ({why})")
    refused = [item for item in kept.failed.values() if item["at"] >= started]
    if refused:  # one line for the batch, however many
        log.warning("%s", refused_line(refused))
    log.info("%d of %d card symbols drawn from Scryfall's symbology", len(images), len(symbols))
    return images


class SymbolText:
    """``{2}{G}`` with each symbol replaced by what stands for it where the text is shown.

    ``SymbolText({"{G}": "<:mana_G:1>"})``; ``full`` converts a whole text or says it can't (a symbol without an
    entry), so that a message shows its symbols one way; ``SymbolText()`` changes nothing (the terminal, or before
    the emoji are uploaded).
    """

    def __init__(self, markup: Mapping[str, str] | None = None) -> None:
        self.markup = dict(markup or {})

    def __bool__(self) -> bool:
        return bool(self.markup)

    def full(self, text: str | None) -> str | None:
        """``text`` with every symbol replaced, or None when one of them has nothing to stand for it: a line must
        not show some symbols as pictures and others as braces, so the caller keeps the text form for all."""
        if not text or not self.markup or not SYMBOL.search(text):
            return text or ""
        missing = False

        def shown(match: re.Match[str]) -> str:
            nonlocal missing
            markup = self.markup.get(match.group(0).upper())
            missing = missing or markup is None
            return markup or match.group(0)

        converted = SYMBOL.sub(shown, text)
        return None if missing else converted

    def one(self, symbol: str) -> str | None:
        """The markup of one symbol (for a button or an option's ``emoji``), or None."""
        return self.markup.get(symbol.upper())


PLAIN = SymbolText()
