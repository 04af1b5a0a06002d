"""The live pagers of this process: the bot owns one ``Pagers`` (``bot.pagers``), every feature's
Previous/Next buttons find their pages there."""

from __future__ import annotations

import asyncio
import secrets
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

PAGER_SECONDS = 600.0
MAX_PAGERS = 512


@dataclass
class Pager:
    source: Any
    owner_id: int | None
    expires: float
    index: int = 0
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


class Pagers:
    """The live pagers of this process, bounded in number and age."""

    def __init__(self, seconds: float = PAGER_SECONDS, limit: int = MAX_PAGERS) -> None:
        self.seconds = seconds
        self.limit = limit
        self._pagers: OrderedDict[str, Pager] = OrderedDict()

    def add(self, source: Any, owner_id: int | None) -> str:
        key = secrets.token_hex(6)
        self._pagers[key] = Pager(source, owner_id, time.monotonic() + self.seconds)
        while len(self._pagers) > self.limit:
            self._pagers.popitem(last=False)
        return key

    def get(self, key: str) -> Pager | None:
        pager = self._pagers.get(key)
        if pager is not None and pager.expires < time.monotonic():
            del self._pagers[key]
            return None
        return pager

    def clear(self) -> None:
        self._pagers.clear()
