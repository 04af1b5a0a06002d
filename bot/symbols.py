"""Mana and card symbols as pictures: Scryfall's symbology rendered to PNG once, kept in the data folder.

``await prepare(data_dir, client)`` asks Scryfall's ``GET /symbology`` for every symbol and its SVG, renders each
SVG to a PNG with resvg (``resvg-py``: a self-contained wheel, no system library), and keeps the PNGs with a
manifest in ``BOT_DATA_DIR/symbols``. Later starts read the folder and ask Scryfall nothing. The Discord side
(``bot.app_emoji``) uploads the PNGs as the application's emoji; the goldfish picture draws them itself.

:class:`SymbolText` turns ``{2}{G}`` into whatever stands for each symbol where it is shown (the emoji's markup
on Discord); a symbol it has nothing for stays text, and so does all of it in the terminal. Nothing here imports
discord.
"""

from __future__ import annotations

import io
import json
import logging
import os
import re
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

import requests
from PIL import Image

from bot.scryfall import default_user_agent

if TYPE_CHECKING:
    from bot.scryfall import ScryfallClient

log = logging.getLogger(__name__)

DIRECTORY = "symbols"
MANIFEST = "symbols.json"
PNG_SIZE = 128  # Discord shows emoji at up to 48 px (96 on large screens); it keeps them at 128
MAX_SVG_BYTES = 256 * 1024
SVG_HOSTS = frozenset({"svgs.scryfall.io"})
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


class SymbolsUnavailable(Exception):
    """The symbols could not be fetched or rendered; ``str(e)`` says why (the text form is used instead)."""


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


def render_png(svg: bytes | str, size: int = PNG_SIZE) -> bytes:
    """An SVG drawn as a ``size``×``size`` PNG with a transparent background; raises SymbolsUnavailable."""
    import resvg_py

    text = svg.decode("utf-8") if isinstance(svg, bytes) else svg
    try:
        drawn = bytes(resvg_py.svg_to_bytes(svg_string=text, width=size, height=size, skip_system_fonts=True))
        with Image.open(io.BytesIO(drawn)) as image:
            if image.size == (size, size):
                return drawn
            # A symbol drawn a pixel short of square (its viewBox) is centred on a square, as emoji are.
            square = Image.new("RGBA", (size, size), (0, 0, 0, 0))
            square.paste(image.convert("RGBA"), ((size - image.width) // 2, (size - image.height) // 2))
    except (ValueError, OSError) as error:
        raise SymbolsUnavailable(f"an SVG could not be drawn ({error})") from None
    out = io.BytesIO()
    square.save(out, "PNG", optimize=True)
    return out.getvalue()


def load(data_dir: Path) -> dict[str, SymbolImage]:
    """The symbols rendered before (empty when there are none, or the folder is damaged)."""
    folder = Path(data_dir) / DIRECTORY
    try:
        manifest = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
        images = {
            item["symbol"]: SymbolImage(item["symbol"], item["name"], item.get("english", ""), folder / item["file"])
            for item in manifest["symbols"]
        }
    except (OSError, ValueError, KeyError, TypeError):
        return {}
    return images if all(image.path.is_file() for image in images.values()) else {}


# Between two SVG downloads: Scryfall asks for 50-100 ms between requests.
SVG_PAUSE = 0.05


def _svg_allowed(url: str, api_url: str) -> bool:
    """Scryfall's SVG host, or the API's own host (a test double, a proxy): nothing else is fetched."""
    parts, api = urlsplit(url), urlsplit(api_url)
    return parts.scheme in ("https", "http") and (parts.netloc in SVG_HOSTS or parts.netloc == api.netloc)


def _fetch_svgs(urls: list[str], api_url: str, *, timeout: float = 10.0) -> list[bytes]:
    """Each SVG, one after another (``SVG_PAUSE`` between them, to be polite), with the project's User-Agent."""
    with requests.Session() as session:
        session.headers.update({"User-Agent": default_user_agent(), "Accept": "image/svg+xml"})
        found = []
        for url in urls:
            if not _svg_allowed(url, api_url):
                raise SymbolsUnavailable(f"refusing an SVG from {urlsplit(url).netloc or 'nowhere'}")
            try:
                response = session.get(url, timeout=timeout, allow_redirects=False)
            except requests.RequestException as error:
                raise SymbolsUnavailable(f"an SVG could not be fetched ({type(error).__name__})") from None
            if response.status_code != 200 or len(response.content) > MAX_SVG_BYTES:
                raise SymbolsUnavailable(f"an SVG could not be fetched (HTTP {response.status_code})")
            found.append(response.content)
            time.sleep(SVG_PAUSE)
        return found


def _save(folder: Path, rendered: list[tuple[dict, bytes]]) -> dict[str, SymbolImage]:
    folder.mkdir(parents=True, exist_ok=True)
    items = []
    for symbol, png in rendered:
        name = emoji_name(symbol["symbol"])
        (folder / f"{name}.png").write_bytes(png)
        items.append(
            {"symbol": symbol["symbol"], "name": name, "english": symbol.get("english") or "", "file": f"{name}.png"}
        )
    temp = folder / (MANIFEST + ".writing")
    temp.write_text(json.dumps({"symbols": items}, ensure_ascii=False, indent=1), encoding="utf-8")
    os.replace(temp, folder / MANIFEST)  # the manifest last: a half-written folder is never read as complete
    return load(folder.parent)


def _render_all(symbols: list[dict], svgs: list[bytes]) -> list[tuple[dict, bytes]]:
    return [(symbol, render_png(svg)) for symbol, svg in zip(symbols, svgs, strict=True)]


async def prepare(data_dir: Path, client: ScryfallClient) -> dict[str, SymbolImage]:
    """The symbols' PNGs: the kept ones, else fetched from Scryfall's symbology and rendered now (once).

    Raises SymbolsUnavailable (or the client's ScryfallErrors) when they can't be made; nothing is kept then.
    """
    import asyncio

    kept = await asyncio.to_thread(load, data_dir)
    if kept:
        return kept
    answer = await client.get_uri(f"{client.base_url}/symbology")
    symbols = [
        item
        for item in answer.data.get("data") or []
        if isinstance(item, dict) and SYMBOL.fullmatch(str(item.get("symbol") or "")) and item.get("svg_uri")
    ]
    symbols = [item for item in symbols if emoji_name(item["symbol"])]
    if not symbols:
        raise SymbolsUnavailable("Scryfall's symbology listed no symbols")
    names = [emoji_name(item["symbol"]) for item in symbols]
    if len(set(names)) != len(names):
        seen: set[str] = set()
        symbols = [item for item, name in zip(symbols, names, strict=True) if not (name in seen or seen.add(name))]
    svgs = await asyncio.to_thread(_fetch_svgs, [item["svg_uri"] for item in symbols], client.base_url)
    rendered = await asyncio.to_thread(_render_all, symbols, svgs)
    images = await asyncio.to_thread(_save, Path(data_dir) / DIRECTORY, rendered)
    log.info("Rendered %d card symbols from Scryfall's symbology", len(images))
    return images


class SymbolText:
    """``{2}{G}`` with each symbol replaced by what stands for it where the text is shown.

    ``SymbolText({"{G}": "<:mana_G:1>"})``; a symbol without an entry stays as text, and ``SymbolText()`` changes
    nothing (the terminal, or before the emoji are uploaded).
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
