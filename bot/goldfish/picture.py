"""A picture of the goldfish table: a pure function of a :class:`~bot.goldfish.tableview.TableView`, the card images
it names and the mana symbols' pictures, drawn with Pillow. Nothing here knows Discord or the network: the images
come in as bytes.

Laid out for a phone, where most players see it about 360 px wide: :data:`WIDTH` is 720, so every text is at least
:data:`SMALLEST_FONT` (20 px) to stay 10 px or more on the phone. Top to bottom, using the whole width:

* a header: turn and phase; life totals with the mana the untapped lands make, drawn as symbols; the deck;
* the battlefield in rows of five cards: lands grouped with a count, tapped ones turned; other permanents with
  power and toughness; then the library (a card back with its count) and the graveyard's top card;
* the hand in rows of five, side by side (overlapping only past fifteen cards).

A card whose image is missing or unreadable (and a token) is drawn as a frame with its whole name (wrapped, never
clipped; a tapped one stays readable, drawn sideways rather than turned), its cost as symbols and its type. Each
symbol is drawn from its picture with a dark outline that reads on the felt, or as a coloured disc when there is
none. :func:`draw_table` gives the image with the font sizes it used, so tests measure legibility from the
picture's own layout.
"""

from __future__ import annotations

import importlib.util
import io
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from bot.goldfish.tableview import CardFace, CardKey, Pile, TableView

WIDTH = 720
PHONE_WIDTH = 360
SMALLEST_FONT = 20  # px at WIDTH: 10 px on a 360 px wide phone
TITLE_FONT = 32
TEXT_FONT = 24
MARGIN = 14
GAP = 8
HAND_CARD = (132, 184)  # five a row across WIDTH
FIELD_CARD = (132, 184)
HAND_ROWS = 3
HEADER_SYMBOL = 30
CARD_SYMBOL = 24
FIELD_ROWS = 4
MAX_BYTES = 1024 * 1024
# A card image is a few hundred pixels a side; anything far bigger is not a card (or is a decompression bomb).
MAX_SOURCE_PIXELS = 2048 * 2048
THUMBNAILS = 192
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


@lru_cache(maxsize=THUMBNAILS)
def thumbnail(data: bytes, size: tuple[int, int]) -> Image.Image | None:
    """``data`` decoded and scaled to ``size``, or None when it is not a readable image of sensible size.
    Remembered (bounded): a table redrawn after each action draws the same cards again."""
    try:
        with Image.open(io.BytesIO(data)) as image:
            if image.width * image.height > MAX_SOURCE_PIXELS:
                return None
            image.draft("RGB", size)  # JPEG: decode at a reduced scale, much faster
            return image.convert("RGB").resize(size, Image.Resampling.BILINEAR, reducing_gap=2.0)
    except (OSError, ValueError, Image.DecompressionBombError, SyntaxError):
        return None


@lru_cache(maxsize=256)
def _symbol_image(data: bytes, size: int) -> Image.Image | None:
    """A symbol's PNG at ``size`` px, ringed with a dark outline so it reads on the felt; None when unreadable."""
    try:
        with Image.open(io.BytesIO(data)) as image:
            if image.width * image.height > MAX_SOURCE_PIXELS:
                return None
            inner = image.convert("RGBA").resize((size - 4, size - 4), Image.Resampling.LANCZOS)
    except (OSError, ValueError, Image.DecompressionBombError, SyntaxError):
        return None
    ringed = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    ImageDraw.Draw(ringed).ellipse((0, 0, size - 1, size - 1), fill=OUTLINE)
    ringed.alpha_composite(inner, (2, 2))
    return ringed


class Pen:
    """Draws text on one canvas and remembers every font size it used (what a phone has to be able to read)."""

    def __init__(self, canvas: Image.Image) -> None:
        self.canvas = canvas
        self.draw = ImageDraw.Draw(canvas)
        self.sizes: set[int] = set()

    def text(self, xy: tuple[float, float], text: str, size: int, fill=INK, **kw) -> None:
        self.sizes.add(size)
        self.draw.text(xy, text, font=font(size), fill=fill, **kw)

    def on(self, canvas: Image.Image) -> Pen:
        """A pen for another canvas (a card drawn apart) whose font sizes count with this one's."""
        pen = Pen(canvas)
        pen.sizes = self.sizes
        return pen


def _fit(text: str, size: int, width: int) -> str:
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


def drawn_card(
    card: CardFace,
    size: tuple[int, int],
    *,
    token: bool = False,
    pen: Pen | None = None,
    symbols: Mapping[str, bytes] | None = None,
) -> Image.Image:
    """A card without an image (or a token): a frame with its whole name, its cost as symbols and its type."""
    w, h = size
    image = Image.new("RGB", size, BACKGROUND)
    own = pen.on(image) if pen is not None else Pen(image)
    own.draw.rounded_rectangle((0, 0, w - 1, h - 1), radius=8, fill=TOKEN_FRAME if token else FRAME, outline=FRAME_EDGE)
    line = SMALLEST_FONT + 3
    y = 6
    cost = symbols_in(card.cost)
    name_room = h - 12 - (CARD_SYMBOL + 4 if cost else 0) - (line if card.type_line else 0)
    for text in wrap(card.title, SMALLEST_FONT, w - 12)[: max(1, name_room // line)]:
        own.text((6, y), text, SMALLEST_FONT)
        y += line
    if cost:
        per_row = max(1, (w - 12) // (CARD_SYMBOL + 3))
        draw_symbols(own, symbols or {}, cost[:per_row], 6, y + 2, CARD_SYMBOL)
    if card.type_line:
        kind = card.type_line.split(" — ")[0]
        own.text((6, h - line - 3), _fit(kind, SMALLEST_FONT, w - 12), SMALLEST_FONT, MUTED)
    return image


def card_image(
    card: CardFace,
    images: Mapping[CardKey, bytes],
    size: tuple[int, int],
    *,
    pen: Pen | None = None,
    symbols: Mapping[str, bytes] | None = None,
) -> Image.Image:
    data = images.get(card.key) if card.key is not None else None
    image = thumbnail(data, size) if data else None
    if image is not None:
        return image
    return drawn_card(card, size, token=card.key is None, pen=pen, symbols=symbols)


def _badge(pen: Pen, right: int, bottom: int, text: str, fill=INK) -> None:
    """A dark label whose bottom-right corner is at (right, bottom): counts, power/toughness."""
    size = SMALLEST_FONT
    width = int(font(size).getlength(text)) + 10
    box = (right - width, bottom - size - 8, right, bottom)
    pen.draw.rounded_rectangle(box, radius=5, fill=BADGE)
    pen.text((box[0] + 5, box[1] + 3), text, size, fill)


@dataclass
class _Tile:
    """One thing drawn on the battlefield: a card (turned when tapped) and its labels."""

    image: Image.Image
    labels: tuple[str, ...]

    @property
    def size(self) -> tuple[int, int]:
        return self.image.size


def _tiles(piles: tuple[Pile, ...], images: Mapping[CardKey, bytes], pen: Pen, symbols) -> list[_Tile]:
    tiles = []
    for pile in piles:
        extra = []
        if pile.power is not None:
            extra.append(f"{pile.power}/{pile.toughness}")
        if pile.echo:
            extra.append("echo")
        if pile.untapped:
            card = card_image(pile.card, images, FIELD_CARD, pen=pen, symbols=symbols)
            count = (f"×{pile.untapped}",) if pile.count > 1 else ()
            tiles.append(_Tile(card, (*count, *extra)))
        if pile.tapped:
            data = images.get(pile.card.key) if pile.card.key is not None else None
            picture = thumbnail(data, FIELD_CARD) if data else None
            # An image is turned like the card; a drawn frame is drawn sideways so its name stays readable.
            sideways = (FIELD_CARD[1], FIELD_CARD[0])
            if picture is not None:
                turned = picture.transpose(Image.Transpose.ROTATE_270)
            else:
                turned = drawn_card(pile.card, sideways, token=pile.card.key is None, pen=pen, symbols=symbols)
            count = f"×{pile.tapped} tapped" if pile.count > 1 else "tapped"
            tiles.append(_Tile(turned, (count, *extra)))
    return tiles


def _zone_tiles(view: TableView, images: Mapping[CardKey, bytes], pen: Pen, symbols) -> list[_Tile]:
    """The library (a card back with its count) and the graveyard's top card (or an empty outline)."""
    w, h = FIELD_CARD
    back = Image.new("RGB", FIELD_CARD, BACKGROUND)
    own = pen.on(back)
    own.draw.rounded_rectangle((0, 0, w - 1, h - 1), radius=8, fill=CARD_BACK, outline=FRAME_EDGE, width=2)
    own.text((w / 2, h / 2 - 16), "Library", SMALLEST_FONT, anchor="mm")
    own.text((w / 2, h / 2 + 16), str(view.library_count), TITLE_FONT, anchor="mm")
    if view.graveyard_top is not None:
        top = card_image(view.graveyard_top, images, FIELD_CARD, pen=pen, symbols=symbols)
    else:
        top = Image.new("RGB", FIELD_CARD, BACKGROUND)
        ImageDraw.Draw(top).rounded_rectangle((0, 0, w - 1, h - 1), radius=8, outline=FELT_LINE, width=2)
    return [_Tile(back, ()), _Tile(top, (f"Graveyard {view.graveyard_count}",))]


def _flow(tiles: list[_Tile], width: int, pen: Pen) -> list[list[_Tile]]:
    """Tiles in rows of at most ``width`` pixels, at most ``FIELD_ROWS`` rows (the rest summed up in a frame)."""
    rows: list[list[_Tile]] = [[]]
    used = 0
    for index, tile in enumerate(tiles):
        if rows[-1] and used + tile.size[0] > width:
            if len(rows) == FIELD_ROWS:
                more = len(tiles) - index + 1
                rows[-1][-1] = _Tile(drawn_card(CardFace(f"+{more} more", "", "", None), FIELD_CARD, pen=pen), ())
                return rows
            rows.append([])
            used = 0
        rows[-1].append(tile)
        used += tile.size[0] + GAP
    return [row for row in rows if row]


def _rows_height(rows: list[list[_Tile]]) -> int:
    return sum(max(FIELD_CARD[1], *(t.size[1] for t in row)) + GAP for row in rows)


def _draw_rows(pen: Pen, rows: list[list[_Tile]], x0: int, y0: int) -> int:
    """Paste ``rows`` from (x0, y0); return the y below them."""
    y = y0
    for row in rows:
        height = max(FIELD_CARD[1], *(t.size[1] for t in row))
        x = x0
        for tile in row:
            w, h = tile.size
            top = y + (height - h) // 2
            pen.canvas.paste(tile.image, (x, top))
            bottom = top + h - 4
            for label in reversed(tile.labels):
                _badge(pen, x + w - 4, bottom, label)
                bottom -= SMALLEST_FONT + 10
            x += w + GAP
        y += height + GAP
    return y


HEADER = MARGIN + TITLE_FONT + 8 + HEADER_SYMBOL + 8 + SMALLEST_FONT + 10


def _header(pen: Pen, view: TableView, symbols: Mapping[str, bytes]) -> None:
    side = "on the play" if view.on_the_play else "on the draw"
    if view.phase == "over":
        status = f"Game over after turn {view.turn}"
    elif view.phase == "mulligan":
        status = f"Mulligan · {side}"
    else:
        status = f"Turn {view.turn} · {view.phase_label}"
    pen.text((MARGIN, MARGIN), _fit(status, TITLE_FONT, WIDTH - 2 * MARGIN), TITLE_FONT)
    y = MARGIN + TITLE_FONT + 8
    players = "Players" if view.shared else "You"
    lives = f"{players} {view.life} · Opponent {view.opponent_life}"
    pen.text((MARGIN, y + 2), lives, TEXT_FONT, LOSS if view.life <= 0 else INK)
    if view.mana:
        row = list(view.mana)[: (WIDTH // 2) // (HEADER_SYMBOL + 3)]
        x = WIDTH - MARGIN - len(row) * (HEADER_SYMBOL + 3)
        draw_symbols(pen, symbols, row, x, y, HEADER_SYMBOL)
    y += HEADER_SYMBOL + 8
    if view.result:
        detail = view.result
    elif view.phase == "mulligan":
        detail = view.deck_name
    else:
        detail = f"{'land played' if view.land_played else 'land drop available'} · {view.deck_name}"
    pen.text((MARGIN, y), _fit(detail, SMALLEST_FONT, WIDTH - 2 * MARGIN), SMALLEST_FONT, MUTED)
    pen.draw.line((MARGIN, HEADER - 4, WIDTH - MARGIN, HEADER - 4), fill=FELT_LINE, width=2)


def _hand_rows(count: int) -> list[int]:
    """How many hand cards each row holds: five a row, at most :data:`HAND_ROWS` rows (then they overlap)."""
    per_row = max(5, -(-count // HAND_ROWS))
    return [min(per_row, count - start) for start in range(0, count, per_row)] or [0]


def _hand(pen: Pen, view: TableView, images: Mapping[CardKey, bytes], y0: int, symbols) -> None:
    pen.text((MARGIN, y0), f"Hand ({len(view.hand)})", SMALLEST_FONT, MUTED)
    y = y0 + SMALLEST_FONT + 8
    w = HAND_CARD[0]
    room = WIDTH - 2 * MARGIN - w
    cards = iter(view.hand)
    for count in _hand_rows(len(view.hand)):
        step = min(w + GAP, room / (count - 1)) if count > 1 else 0
        for index in range(count):
            image = card_image(next(cards), images, HAND_CARD, pen=pen, symbols=symbols)
            pen.canvas.paste(image, (int(MARGIN + index * step), y))
        y += HAND_CARD[1] + GAP
    if not view.hand:
        pen.text((MARGIN, y0 + SMALLEST_FONT + 16), "empty", SMALLEST_FONT, MUTED)


@dataclass
class Picture:
    """The drawn table and every font size it used (``min(font_sizes)`` is what a phone must be able to read)."""

    image: Image.Image
    font_sizes: set[int] = field(default_factory=set)

    def smallest_font_at(self, width: int = PHONE_WIDTH) -> float:
        """The smallest text's height when the picture is shown ``width`` pixels wide."""
        return min(self.font_sizes) * width / self.image.width


def draw_table(view: TableView, images: Mapping[CardKey, bytes], symbols: Mapping[str, bytes] | None = None) -> Picture:
    """The table of ``view`` drawn: card images by :class:`CardKey` (missing or unreadable ones are drawn as
    frames), the symbols' PNGs by ``{G}``."""
    symbols = symbols or {}
    scratch = Pen(Image.new("RGB", (1, 1)))
    field_width = WIDTH - 2 * MARGIN
    tiles = _tiles(view.lands, images, scratch, symbols) + _tiles(view.permanents, images, scratch, symbols)
    rows = _flow(tiles + _zone_tiles(view, images, scratch, symbols), field_width, scratch)
    field_height = SMALLEST_FONT + 8 + _rows_height(rows)
    hand_height = SMALLEST_FONT + 8 + len(_hand_rows(len(view.hand))) * (HAND_CARD[1] + GAP)
    height = HEADER + GAP + field_height + GAP + hand_height + MARGIN
    canvas = Image.new("RGB", (WIDTH, height), BACKGROUND)
    pen = Pen(canvas)
    pen.sizes |= scratch.sizes
    _header(pen, view, symbols)
    y = HEADER + GAP
    label = "Battlefield" if view.lands or view.permanents else "Battlefield: empty"
    pen.text((MARGIN, y), label, SMALLEST_FONT, MUTED)
    below = _draw_rows(pen, rows, MARGIN, y + SMALLEST_FONT + 8)
    hand_top = below + GAP
    pen.draw.line((MARGIN, hand_top - 6, WIDTH - MARGIN, hand_top - 6), fill=FELT_LINE, width=2)
    _hand(pen, view, images, hand_top, symbols)
    return Picture(canvas, pen.sizes)


def render_table(
    view: TableView, images: Mapping[CardKey, bytes], *, fmt: str = "webp", symbols: Mapping[str, bytes] | None = None
) -> bytes:
    """The picture of ``view`` as WebP (or ``fmt="png"``) bytes, at most :data:`MAX_BYTES`; ``images`` holds the
    encoded image of each :class:`CardKey` that has one, ``symbols`` the PNG of each mana symbol that has one."""
    return encode(draw_table(view, images, symbols).image, fmt)


def encode(canvas: Image.Image, fmt: str = "webp") -> bytes:
    """``canvas`` encoded within :data:`MAX_BYTES` (a lower quality, then a smaller size, if it must)."""
    quality, scale = 80, 1.0
    while True:
        out = io.BytesIO()
        image = canvas if scale == 1.0 else canvas.resize((int(canvas.width * scale), int(canvas.height * scale)))
        if fmt == "png":
            image.quantize(256, method=Image.Quantize.FASTOCTREE).save(out, "PNG", compress_level=6)
        else:
            image.save(out, "WEBP", quality=quality, method=2)
        data = out.getvalue()
        if len(data) <= MAX_BYTES or scale < 0.3:
            return data
        if fmt != "png" and quality > 50:
            quality -= 15
        else:
            scale *= 0.75
