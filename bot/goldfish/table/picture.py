"""A picture of the goldfish table: a pure function of a :class:`~bot.goldfish.table.view.TableView`, the card images
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

import io
from collections.abc import Mapping
from dataclasses import dataclass, field

from PIL import Image, ImageDraw

from bot import limits
from bot.goldfish.table.drawing import (
    BACKGROUND,
    BADGE,
    CARD_BACK,
    FELT_LINE,
    FRAME,
    FRAME_EDGE,
    INK,
    LOSS,
    MUTED,
    SMALLEST_FONT,
    TOKEN_FRAME,
    Pen,
    draw_symbols,
    fit,
    font,
    symbols_in,
    thumbnail,
    wrap,
)
from bot.goldfish.table.view import CardFace, CardKey, Pile, TableView

__all__ = ["SMALLEST_FONT", "Pen", "draw_symbols", "font", "thumbnail", "wrap", "draw_table", "render_table"]

WIDTH = 720
PHONE_WIDTH = limits.PHONE_IMAGE_WIDTH
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
        own.text((6, h - line - 3), fit(kind, SMALLEST_FONT, w - 12), SMALLEST_FONT, MUTED)
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
    pen.text((MARGIN, MARGIN), fit(status, TITLE_FONT, WIDTH - 2 * MARGIN), TITLE_FONT)
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
    pen.text((MARGIN, y), fit(detail, SMALLEST_FONT, WIDTH - 2 * MARGIN), SMALLEST_FONT, MUTED)
    pen.draw.line((MARGIN, HEADER - 4, WIDTH - MARGIN, HEADER - 4), fill=FELT_LINE, width=2)


def _hand_rows(count: int) -> list[int]:
    """How many hand cards each row holds: five a row, at most :data:`HAND_ROWS` rows (then they overlap)."""
    per_row = max(5, -(-count // HAND_ROWS))
    return [min(per_row, count - start) for start in range(0, count, per_row)] or [0]


def _cycling_badge(pen: Pen, card: CardFace, x: int, bottom: int, symbols: Mapping[str, bytes]) -> None:
    """A hand card's cycling costs over its foot, beside the printed cast cost at its top: "Cycling" and the symbols
    (or "2 life", "sac. a land"), one row an ability, two at most. The cycling text printed on a card is a few
    pixels high on a phone."""
    if not card.cycling:
        return
    w, size = HAND_CARD[0], SMALLEST_FONT
    shown = card.cycling[:2]
    top = bottom - 4 - (size + 6) - len(shown) * (CARD_SYMBOL + 4) - 4
    pen.draw.rounded_rectangle((x + 4, top, x + w - 4, bottom - 4), radius=6, fill=BADGE)
    pen.text((x + 9, top + 3), "Cycling", size, MUTED)
    y = top + size + 8
    for cost in shown:
        end = draw_symbols(pen, symbols, symbols_in(cost.mana)[:4], x + 9, y, CARD_SYMBOL) if cost.mana else x + 9
        if cost.other:
            pen.text((end + (4 if cost.mana else 0), y), fit(cost.other, size, x + w - 9 - end), size)
        y += CARD_SYMBOL + 4


def _hand(pen: Pen, view: TableView, images: Mapping[CardKey, bytes], y0: int, symbols) -> None:
    pen.text((MARGIN, y0), f"Hand ({len(view.hand)})", SMALLEST_FONT, MUTED)
    y = y0 + SMALLEST_FONT + 8
    w = HAND_CARD[0]
    room = WIDTH - 2 * MARGIN - w
    cards = iter(view.hand)
    for count in _hand_rows(len(view.hand)):
        step = min(w + GAP, room / (count - 1)) if count > 1 else 0
        for index in range(count):
            card = next(cards)
            image = card_image(card, images, HAND_CARD, pen=pen, symbols=symbols)
            pen.canvas.paste(image, (int(MARGIN + index * step), y))
            _cycling_badge(pen, card, int(MARGIN + index * step), y + HAND_CARD[1], symbols)
        y += HAND_CARD[1] + GAP
    if not view.hand:
        pen.text((MARGIN, y0 + SMALLEST_FONT + 16), "empty", SMALLEST_FONT, MUTED)


@dataclass
class Picture:
    """The drawn table, every font size it used (``min(font_sizes)`` is what a phone must be able to read) and every
    text it wrote, in order."""

    image: Image.Image
    font_sizes: set[int] = field(default_factory=set)
    texts: list[str] = field(default_factory=list)

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
    pen.texts += scratch.texts
    _header(pen, view, symbols)
    y = HEADER + GAP
    label = "Battlefield" if view.lands or view.permanents else "Battlefield: empty"
    pen.text((MARGIN, y), label, SMALLEST_FONT, MUTED)
    below = _draw_rows(pen, rows, MARGIN, y + SMALLEST_FONT + 8)
    hand_top = below + GAP
    pen.draw.line((MARGIN, hand_top - 6, WIDTH - MARGIN, hand_top - 6), fill=FELT_LINE, width=2)
    _hand(pen, view, images, hand_top, symbols)
    return Picture(canvas, pen.sizes, pen.texts)


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
