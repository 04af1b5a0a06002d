"""What the bot keeps of other hosts' bytes in memory: least recently used out past a byte budget, the newest always
kept. Card images as downloaded (``images``) and as decoded for a picture (``imaging``) are kept this way."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from typing import Generic, TypeVar

Key = TypeVar("Key", bound=Hashable)
Value = TypeVar("Value")


class Kept(Generic[Key, Value]):
    """``Kept(max_bytes, weigh)``: values by key, ``weigh(value)`` bytes each, at most ``max_bytes`` together (but
    for the newest, kept whatever it weighs). Not thread-safe: a user shared between threads holds a lock."""

    def __init__(self, max_bytes: int, weigh: Callable[[Value], int]) -> None:
        self.max_bytes = max_bytes
        self.weigh = weigh
        self.size = 0
        self._values: OrderedDict[Key, Value] = OrderedDict()

    def __contains__(self, key: Key) -> bool:
        return key in self._values

    def __len__(self) -> int:
        return len(self._values)

    def __iter__(self) -> Iterator[Key]:
        """The keys, least recently used first."""
        return iter(self._values)

    def get(self, key: Key) -> Value | None:
        """The value kept for ``key`` (now the most recently used), or None."""
        if key not in self._values:
            return None
        self._values.move_to_end(key)
        return self._values[key]

    def put(self, key: Key, value: Value) -> None:
        """Keep ``value`` (a key already kept keeps its first value), then drop the least recently used past the
        budget."""
        if key not in self._values:
            self._values[key] = value
            self.size += self.weigh(value)
        while self.size > self.max_bytes and len(self._values) > 1:
            _, old = self._values.popitem(last=False)
            self.size -= self.weigh(old)

    def clear(self) -> None:
        self._values.clear()
        self.size = 0
