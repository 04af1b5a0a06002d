"""A picture of the goldfish table: a pure function of a :class:`~bot.goldfish.tableview.TableView` and the card
images it names, drawn with Pillow. Nothing here knows Discord or the network: the images come in as bytes.

The layout, top to bottom: a header (turn, phase, life totals), the battlefield (lands grouped with a count,
tapped ones turned sideways; other permanents with power/toughness; tokens as labelled frames), the library
and the graveyard's top card on the right, and the hand in a row (overlapping when it is long). A card whose
image is missing or unreadable is drawn as a frame with its name, cost and type.
"""

from __future__ import annotations

import importlib.util
import io
import textwrap
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from bot.goldfish.tableview import CardFace, CardKey, Pile, TableView
from bot.imaging import thumbnails as thumbnail  # decoded near the size drawn, kept by digest within a byte cap

WIDTH = 1100
MARGIN = 16
GAP = 10
HEADER = 70
HAND_CARD = (146, 204)
FIELD_CARD = (104, 145)
SIDE_CARD = (112, 156)
SIDE_WIDTH = SIDE_CARD[0] + 2 * GAP
FIELD_ROWS = 4
MAX_BYTES = 1024 * 1024

BACKGROUND = (22, 48, 40)
FELT_LINE = (44, 84, 70)
INK = (240, 240, 232)
MUTED = (170, 196, 184)
FRAME = (58, 52, 46)
FRAME_EDGE = (196, 170, 120)
TOKEN_FRAME = (70, 70, 88)
BADGE = (12, 12, 12)
LOSS = (220, 90, 80)
CARD_BACK = (92, 58, 36)


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


def _text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int, fill=INK, **kw) -> None:
    draw.text(xy, text, font=font(size), fill=fill, **kw)


def _fit(text: str, size: int, width: int) -> str:
    """``text`` cut with an ellipsis to fit ``width`` pixels at ``size``."""
    measure = font(size).getlength
    if measure(text) <= width:
        return text
    while text and measure(text + "…") > width:
        text = text[:-1]
    return text.rstrip() + "…"


def drawn_card(card: CardFace, size: tuple[int, int], *, token: bool = False) -> Image.Image:
    """A card without an image (or a token): a frame with its name, cost and type line."""
    w, h = size
    image = Image.new("RGB", size, BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((0, 0, w - 1, h - 1), radius=8, fill=TOKEN_FRAME if token else FRAME, outline=FRAME_EDGE)
    big = max(10, w // 9)
    small = max(9, w // 12)
    chars = max(6, int(w / (big * 0.55)))
    y = 8
    for line in textwrap.wrap(card.title, chars)[:4]:
        _text(draw, (8, y), _fit(line, big, w - 14), big)
        y += big + 3
    if card.cost:
        _text(draw, (8, y + 2), _fit(card.cost, small, w - 14), small, MUTED)
    if card.type_line:
        _text(draw, (8, h - small - 10), _fit(card.type_line, small, w - 14), small, MUTED)
    return image


def card_image(card: CardFace, images: Mapping[CardKey, bytes], size: tuple[int, int]) -> Image.Image:
    data = images.get(card.key) if card.key is not None else None
    image = thumbnail(data, size) if data else None
    return image if image is not None else drawn_card(card, size, token=card.key is None)


def _badge(draw: ImageDraw.ImageDraw, right: int, bottom: int, text: str, size: int = 18, fill=INK) -> None:
    """A dark label whose bottom-right corner is at (right, bottom): counts, power/toughness."""
    width = int(font(size).getlength(text)) + 10
    box = (right - width, bottom - size - 8, right, bottom)
    draw.rounded_rectangle(box, radius=5, fill=BADGE)
    _text(draw, (box[0] + 5, box[1] + 3), text, size, fill)


@dataclass
class _Tile:
    """One thing drawn on the battlefield: a card (turned when tapped) and its labels."""

    image: Image.Image
    labels: tuple[str, ...]

    @property
    def size(self) -> tuple[int, int]:
        return self.image.size


def _tiles(piles: tuple[Pile, ...], images: Mapping[CardKey, bytes]) -> list[_Tile]:
    tiles = []
    for pile in piles:
        card = card_image(pile.card, images, FIELD_CARD)
        extra = []
        if pile.power is not None:
            extra.append(f"{pile.power}/{pile.toughness}")
        if pile.echo:
            extra.append("echo")
        if pile.untapped:
            count = (f"×{pile.untapped}",) if pile.count > 1 else ()
            tiles.append(_Tile(card, (*count, *extra)))
        if pile.tapped:
            turned = card.transpose(Image.Transpose.ROTATE_270)
            count = f"×{pile.tapped} tapped" if pile.count > 1 else "tapped"
            tiles.append(_Tile(turned, (count, *extra)))
    return tiles


def _flow(tiles: list[_Tile], width: int) -> list[list[_Tile]]:
    """Tiles in rows of at most ``width`` pixels, at most ``FIELD_ROWS`` rows (the rest summed up in a frame)."""
    rows: list[list[_Tile]] = [[]]
    used = 0
    for index, tile in enumerate(tiles):
        if rows[-1] and used + tile.size[0] > width:
            if len(rows) == FIELD_ROWS:
                more = len(tiles) - index + 1
                rows[-1][-1] = _Tile(drawn_card(CardFace(f"+{more} more", "", "", None), FIELD_CARD), ())
                return rows
            rows.append([])
            used = 0
        rows[-1].append(tile)
        used += tile.size[0] + GAP
    return [row for row in rows if row]


def _draw_rows(canvas: Image.Image, rows: list[list[_Tile]], x0: int, y0: int) -> int:
    """Paste ``rows`` from (x0, y0); return the y below them."""
    draw = ImageDraw.Draw(canvas)
    y = y0
    for row in rows:
        height = max(FIELD_CARD[1], *(t.size[1] for t in row))
        x = x0
        for tile in row:
            w, h = tile.size
            top = y + (height - h) // 2
            canvas.paste(tile.image, (x, top))
            bottom = top + h - 4
            for label in reversed(tile.labels):
                _badge(draw, x + w - 4, bottom, label, 16)
                bottom -= 26
            x += w + GAP
        y += height + GAP
    return y


def _header(canvas: Image.Image, view: TableView) -> None:
    draw = ImageDraw.Draw(canvas)
    side = "on the play" if view.on_the_play else "on the draw"
    if view.phase == "over":
        status = f"Game over after turn {view.turn}"
    elif view.phase == "mulligan":
        status = f"Mulligan · {side}"
    else:
        land = "land played" if view.land_played else "land drop available"
        status = f"Turn {view.turn} · {view.phase_label} · {land}"
    _text(draw, (MARGIN, 10), _fit(status, 28, WIDTH - 420), 28)
    _text(draw, (MARGIN, 44), _fit(view.deck_name, 17, WIDTH - 420), 17, MUTED)
    lives = f"You {view.life}   Opponent {view.opponent_life}"
    size = 28
    x = WIDTH - MARGIN - font(size).getlength(lives)
    _text(draw, (x, 10), lives, size, LOSS if view.life <= 0 else INK)
    if view.result:
        _text(draw, (WIDTH - MARGIN, 46), _fit(view.result, 16, 380), 16, MUTED, anchor="ra")
    draw.line((MARGIN, HEADER - 2, WIDTH - MARGIN, HEADER - 2), fill=FELT_LINE, width=2)


def _side(canvas: Image.Image, view: TableView, images: Mapping[CardKey, bytes], y0: int) -> int:
    """The library and the graveyard's top card, on the right; return the y below them."""
    draw = ImageDraw.Draw(canvas)
    x = WIDTH - MARGIN - SIDE_CARD[0]
    w, h = SIDE_CARD
    draw.rounded_rectangle((x, y0, x + w - 1, y0 + h - 1), radius=8, fill=CARD_BACK, outline=FRAME_EDGE, width=2)
    _text(draw, (x + w / 2, y0 + h / 2 - 14), "Library", 17, anchor="mm")
    _text(draw, (x + w / 2, y0 + h / 2 + 12), str(view.library_count), 30, anchor="mm")
    y = y0 + h + 8
    _text(draw, (x, y), f"Graveyard {view.graveyard_count}", 16, MUTED)
    y += 24
    if view.graveyard_top is not None:
        canvas.paste(card_image(view.graveyard_top, images, SIDE_CARD), (x, y))
    else:
        draw.rounded_rectangle((x, y, x + w - 1, y + h - 1), radius=8, outline=FELT_LINE, width=2)
    return y + h + GAP


def _hand(canvas: Image.Image, view: TableView, images: Mapping[CardKey, bytes], y0: int) -> None:
    draw = ImageDraw.Draw(canvas)
    _text(draw, (MARGIN, y0), f"Hand ({len(view.hand)})", 18, MUTED)
    y = y0 + 26
    w = HAND_CARD[0]
    room = WIDTH - 2 * MARGIN - w
    count = len(view.hand)
    step = min(w + GAP, room / (count - 1)) if count > 1 else 0
    for index, card in enumerate(view.hand):
        canvas.paste(card_image(card, images, HAND_CARD), (int(MARGIN + index * step), y))
    if not view.hand:
        _text(draw, (MARGIN, y + 8), "empty", 18, MUTED)


def render_table(view: TableView, images: Mapping[CardKey, bytes], *, fmt: str = "webp") -> bytes:
    """The picture of ``view`` as WebP (or ``fmt="png"``) bytes, at most :data:`MAX_BYTES`; ``images`` holds the
    encoded image of each :class:`CardKey` that has one (missing or unreadable ones are drawn as frames)."""
    field_width = WIDTH - 2 * MARGIN - SIDE_WIDTH
    land_rows = _flow(_tiles(view.lands, images), field_width)
    other_rows = _flow(_tiles(view.permanents, images), field_width)
    rows_height = sum(max(FIELD_CARD[1], *(t.size[1] for t in row)) + GAP for row in land_rows + other_rows)
    field_height = max(rows_height + 26, SIDE_CARD[1] * 2 + 40 + GAP)
    height = HEADER + GAP + field_height + 26 + HAND_CARD[1] + MARGIN + 30
    canvas = Image.new("RGB", (WIDTH, height), BACKGROUND)
    _header(canvas, view)
    draw = ImageDraw.Draw(canvas)
    y = HEADER + GAP
    _text(draw, (MARGIN, y), "Battlefield" if land_rows or other_rows else "Battlefield: empty", 18, MUTED)
    _side(canvas, view, images, y)
    below = _draw_rows(canvas, land_rows, MARGIN, y + 26)
    _draw_rows(canvas, other_rows, MARGIN, below)
    hand_top = HEADER + GAP + field_height + 4
    draw.line((MARGIN, hand_top - 4, WIDTH - MARGIN, hand_top - 4), fill=FELT_LINE, width=2)
    _hand(canvas, view, images, hand_top)
    return encode(canvas, fmt)


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
