"""The drawing tools of the goldfish picture: its font, its colours, card images scaled once, text that wraps
instead of being clipped, and mana symbols drawn from their pictures with an outline that reads on the felt.

A :class:`Pen` draws text and remembers every font size it used, so a test can measure the smallest text of a
picture from its own layout. Nothing here knows the table's layout (:mod:`bot.goldfish.table.picture`), Discord or the
network.
"""

from __future__ import annotations

import importlib.util
import io
import re
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from bot.hosts import MAX_IMAGE_PIXELS, thumbnails

SMALLEST_FONT = 20  # px on the 720 px picture: 10 px on a 360 px wide phone
# A card image decoded near the size it is drawn at, remembered by a digest of its bytes within a byte cap
# (the bot's own pixel limit applies: bot.hosts.imaging).
thumbnail = thumbnails
SYMBOL_TEXT = re.compile(r"\{[^{}]{1,12}\}")

BACKGROUND = (22, 48, 40)
FELT_LINE = (44, 84, 70)
INK = (240, 240, 232)
MUTED = (176, 202, 190)
FRAME = (58, 52, 46)
FRAME_EDGE = (196, 170, 120)
TOKEN_FRAME = (70, 70, 88)
BADGE = (12, 12, 12)
OUTLINE = (8, 8, 8)
LOSS = (226, 98, 88)
CARD_BACK = (92, 58, 36)
# Discs for symbols without a picture: Scryfall's own symbol colours.
SYMBOL_COLOURS = {
    "W": (255, 251, 213),
    "U": (170, 224, 250),
    "B": (203, 194, 191),
    "R": (249, 170, 143),
    "G": (155, 211, 174),
}
GENERIC = (204, 194, 192)


@lru_cache(maxsize=1)
def _font_file() -> str | None:
    """DejaVu Sans, which matplotlib (a dependency) ships: it has the accents, dashes and signs card names use."""
    spec = importlib.util.find_spec("matplotlib")
    for folder in (spec.submodule_search_locations or []) if spec else []:
        path = Path(folder) / "mpl-data" / "fonts" / "ttf" / "DejaVuSans.ttf"
        if path.is_file():
            return str(path)
    return None


@lru_cache(maxsize=16)
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """The table's font at ``size`` pixels: DejaVu Sans, else Pillow's bundled one."""
    path = _font_file()
    if path is not None:
        try:
            return ImageFont.truetype(path, size)
        except OSError:
            pass
    return ImageFont.load_default(size)


@lru_cache(maxsize=256)
def _symbol_image(data: bytes, size: int) -> Image.Image | None:
    """A symbol's PNG at ``size`` px, ringed with a dark outline so it reads on the felt; None when unreadable."""
    try:
        with Image.open(io.BytesIO(data)) as image:
            if image.width * image.height > MAX_IMAGE_PIXELS:
                return None
            inner = image.convert("RGBA").resize((size - 4, size - 4), Image.Resampling.LANCZOS)
    except (OSError, ValueError, Image.DecompressionBombError, SyntaxError):
        return None
    ringed = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    ImageDraw.Draw(ringed).ellipse((0, 0, size - 1, size - 1), fill=OUTLINE)
    ringed.alpha_composite(inner, (2, 2))
    return ringed


class Pen:
    """Draws text on one canvas and remembers every font size it used (what a phone has to be able to read) and every
    text it wrote (what a test can look for)."""

    def __init__(self, canvas: Image.Image) -> None:
        self.canvas = canvas
        self.draw = ImageDraw.Draw(canvas)
        self.sizes: set[int] = set()
        self.texts: list[str] = []

    def text(self, xy: tuple[float, float], text: str, size: int, fill=INK, **kw) -> None:
        self.sizes.add(size)
        self.texts.append(text)
        self.draw.text(xy, text, font=font(size), fill=fill, **kw)

    def on(self, canvas: Image.Image) -> Pen:
        """A pen for another canvas (a card drawn apart) whose font sizes and texts count with this one's."""
        pen = Pen(canvas)
        pen.sizes, pen.texts = self.sizes, self.texts
        return pen


def fit(text: str, size: int, width: int) -> str:
    """``text`` cut with an ellipsis to fit ``width`` pixels at ``size`` (for the deck's name, never a card's)."""
    measure = font(size).getlength
    if measure(text) <= width:
        return text
    while text and measure(text + "…") > width:
        text = text[:-1]
    return text.rstrip() + "…"


def wrap(text: str, size: int, width: int) -> list[str]:
    """``text`` in lines of at most ``width`` pixels at ``size``, broken between words (a word too long for a line
    is broken inside, never clipped)."""
    measure = font(size).getlength
    lines: list[str] = []
    for word in text.split():
        if lines and measure(f"{lines[-1]} {word}") <= width:
            lines[-1] = f"{lines[-1]} {word}"
            continue
        while measure(word) > width and len(word) > 1:
            cut = max(1, next((i for i in range(len(word), 0, -1) if measure(word[:i] + "-") <= width), 1))
            lines.append(word[:cut] + "-")
            word = word[cut:]
        lines.append(word)
    return lines or [""]


def symbols_in(cost: str) -> list[str]:
    """``{3}{R}{R}`` → ``["{3}", "{R}", "{R}"]``."""
    return SYMBOL_TEXT.findall(cost or "")


def _symbol_png(symbols: Mapping[str, bytes], symbol: str) -> bytes | None:
    """A symbol's picture; a land's two colours may be written either way round (``{W/R}`` is Scryfall's ``{R/W}``)."""
    found = symbols.get(symbol.upper())
    if found is None and "/" in symbol:
        found = symbols.get("{" + "/".join(reversed(symbol.strip("{}").split("/"))).upper() + "}")
    return found


def draw_symbols(pen: Pen, symbols: Mapping[str, bytes], row: list[str], x: float, y: float, size: int) -> float:
    """Symbols side by side from (x, y); returns the x after them."""
    for symbol in row:
        data = _symbol_png(symbols, symbol)
        image = _symbol_image(data, size) if data else None
        if image is not None:
            pen.canvas.paste(image, (int(x), int(y)), image)
        else:
            inner = symbol.strip("{}")
            colours = [SYMBOL_COLOURS[c] for c in inner if c in SYMBOL_COLOURS]
            pen.draw.ellipse(
                (x, y, x + size - 1, y + size - 1), fill=colours[0] if colours else GENERIC, outline=OUTLINE, width=2
            )
            label = inner if len(inner) <= 2 else inner[:1]
            pen.text((x + size / 2, y + size / 2), label, max(SMALLEST_FONT, size * 2 // 3), fill=BADGE, anchor="mm")
        x += size + 3
    return x
