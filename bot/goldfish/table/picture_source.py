"""The card images a table picture needs: addresses from the local card data, bytes from the image cache.

One place decides which image a card is drawn with, for the bot and for the terminal alike: a card the card
data has no image for (or names one on a host the cache may not ask) is drawn as a frame; when the image
host fails to give an image it should have, :meth:`CardImageSource.images` answers None, so the caller
keeps the text table alone rather than draw a picture with holes.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from bot.carddb import CardData, CardDataUnavailable
from bot.goldfish.table.picture import render_table
from bot.goldfish.table.view import CardKey, TableView
from bot.hosts import IMAGES_DIRECTORY, CardImages, image_url
from bot.runtime import return_freed_memory

KNOWN_URLS = 4096


class CardImageSource:
    """``await source.images(view.keys())`` → the encoded image of each card that has one, or None."""

    def __init__(self, card_data: Any, cache: CardImages | None) -> None:
        self.card_data = card_data
        self.cache = cache
        self._urls: OrderedDict[CardKey, str | None] = OrderedDict()

    @property
    def ready(self) -> bool:
        """Whether card images can be had at all: a local copy of the card data is loaded and a cache is open."""
        return self.cache is not None and bool(getattr(self.card_data, "loaded", False))

    async def urls(self, keys: Iterable[CardKey]) -> dict[CardKey, str]:
        """The image address of each card the card data has one for (looked up once, then remembered)."""
        keys = list(keys)
        missing = [key for key in keys if key not in self._urls]
        if missing and self.card_data is not None:
            try:
                records = await self.card_data.collection(sorted({key.name for key in missing}))
            except CardDataUnavailable:
                records = None  # not loaded yet: drawn as frames now, looked up again next time
            for key in missing if records is not None else ():
                record = records.get(key.name)
                self._urls[key] = image_url(record.image_uris, record.faces, key.face) if record else None
            while len(self._urls) > KNOWN_URLS:
                self._urls.popitem(last=False)
        allowed = self.cache.allowed if self.cache is not None else (lambda url: False)
        return {key: url for key in keys if (url := self._urls.get(key)) and allowed(url)}

    async def images(self, keys: Iterable[CardKey]) -> dict[CardKey, bytes] | None:
        urls = await self.urls(keys)
        found = await self.cache.get_many(urls.values()) if urls else {}
        if any(url not in found for url in urls.values()):
            return None
        return {key: found[url] for key, url in urls.items()}


async def picture_file(view: TableView, data_dir: Path, api_url: str, *, fmt: str = "webp") -> bytes | None:
    """A picture of ``view`` drawn with the card data and image cache kept in ``data_dir`` (the terminal's way:
    opened and closed around one picture); None when the image host did not give the images."""
    return_freed_memory()
    card_data = await CardData.open(data_dir, api_url)
    cache = await CardImages.open(Path(data_dir) / IMAGES_DIRECTORY, api_url)
    try:
        images = await CardImageSource(card_data if card_data.loaded else None, cache).images(view.keys())
        if images is None:
            return None
        return await asyncio.to_thread(render_table, view, images, fmt=fmt)
    finally:
        await cache.close()
        await card_data.close()
