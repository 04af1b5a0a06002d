"""Card images as pixels: the bot's own pixel limit, images read near the size they are drawn at, and the
decoded images remembered within a byte cap. Pillow only: nothing here knows Discord or the network.

:data:`MAX_IMAGE_PIXELS` is the bot's limit for a card image, checked on the image's header before any pixel
is decoded. Pillow's process-wide ``Image.MAX_IMAGE_PIXELS`` is left as it is: matplotlib's charts share it.

:func:`decode_near` reads an image no larger than it must: a JPEG is decoded at a reduced scale (1/2, 1/4 or
1/8, Pillow's ``draft``), anything else reduced by a whole factor (``reduce``) before the final resize. A
2048×2048 JPEG drawn at 146×204 is decoded at 256×256. :data:`thumbnails` keeps what was drawn, keyed by a
digest of the image's bytes and the size (never the bytes themselves), within :data:`THUMBNAIL_BYTES`.
"""

from __future__ import annotations

import hashlib
import io
import threading

from PIL import Image

from bot.hosts.kept import Kept

MAX_IMAGE_PIXELS = 2048 * 2048  # a card image is a few hundred pixels a side; anything far bigger is not a card
THUMBNAIL_BYTES = 8 * 1024 * 1024
UNREADABLE = (OSError, ValueError, SyntaxError, Image.DecompressionBombError)


class NotACardImage(ValueError):
    """``str(e)`` says why the bytes are not a card image the bot will draw (never the bytes)."""


def _open(data: bytes) -> Image.Image:
    try:
        image = Image.open(io.BytesIO(data))
    except UNREADABLE as error:
        raise NotACardImage(f"not an image ({type(error).__name__})") from None
    if image.width * image.height > MAX_IMAGE_PIXELS:
        image.close()
        raise NotACardImage(f"{image.width}×{image.height} pixels is not a card image")
    return image


def check_image(data: bytes) -> None:
    """Raise :class:`NotACardImage` unless ``data`` is a whole image of a card's sensible size. A JPEG is decoded
    at its smallest scale (its whole stream is still read); other formats are verified without decoding pixels."""
    with _open(data) as image:
        try:
            if image.format == "JPEG":
                image.draft("RGB", (1, 1))
                image.load()
            else:
                image.verify()
        except UNREADABLE as error:
            raise NotACardImage(f"not an image ({type(error).__name__})") from None


def decode_near(data: bytes, size: tuple[int, int]) -> Image.Image:
    """``data`` decoded and scaled to ``size`` (RGB), reading no more pixels than it must; raises
    :class:`NotACardImage`."""
    with _open(data) as image:
        try:
            image.draft("RGB", size)  # JPEG: decode at the smallest scale still at least ``size``
            factor = min(image.width // size[0], image.height // size[1])
            reduced = image.reduce(factor) if factor >= 2 else image
            return reduced.convert("RGB").resize(size, Image.Resampling.BILINEAR, reducing_gap=2.0)
        except UNREADABLE as error:
            raise NotACardImage(f"not an image ({type(error).__name__})") from None


def digest(data: bytes) -> bytes:
    return hashlib.blake2b(data, digest_size=16).digest()


class Thumbnails(Kept[tuple[bytes, tuple[int, int]], "Image.Image | None"]):
    """Decoded images by (digest of the source's bytes, size), least recently used out past ``max_bytes`` of
    pixels. Safe to use from several drawing threads at once."""

    def __init__(self, max_bytes: int = THUMBNAIL_BYTES) -> None:
        super().__init__(max_bytes, _bytes_of)
        self._lock = threading.Lock()

    def __call__(self, data: bytes, size: tuple[int, int]) -> Image.Image | None:
        """``data`` at ``size``, or None when it is not a card image (remembered either way)."""
        key = (digest(data), size)
        with self._lock:
            if key in self:
                return self.get(key)
        try:
            image: Image.Image | None = decode_near(data, size)
        except NotACardImage:
            image = None
        with self._lock:
            self.put(key, image)
        return image

    def clear(self) -> None:
        with self._lock:
            super().clear()


def _bytes_of(image: Image.Image | None) -> int:
    return image.width * image.height * len(image.getbands()) if image is not None else 0


thumbnails = Thumbnails()
