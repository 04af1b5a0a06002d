"""The words players use for each entry of a document, written down: a field of its own beside each entry's text.

Document expansion, as doc2query does for search engines, written here instead of generated: for a rule, the
short forms and slang players use for it ("chump block", "LTB", "mill") and the questions they ask about it.
The data is a folder of TOML files, keyed by entry (the Comprehensive Rules' is ``bot/data/phrasings/``, one
file a section)::

    ["505.6b"]
    words = ["land drop", "play a land"]
    asks = ["when can i play a land", "can i play my land during combat"]

Nothing here is particular to one document: a key is whatever names an entry of the document the index is built
over, and each document names its own folder. ``scripts/check_phrasings.py`` checks every key of the rules'
phrasings against an edition and follows renumbered rules.
"""

from __future__ import annotations

import functools
import logging
import random
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Phrasing:
    """What players call one entry and ask about it; ``files`` names where it was written."""

    key: str
    words: tuple[str, ...] = ()
    asks: tuple[str, ...] = ()
    files: tuple[str, ...] = ()

    @property
    def texts(self) -> tuple[str, ...]:
        return self.words + self.asks


class PhrasingError(ValueError):
    """A phrasing file that does not have the documented shape."""


def read_file(path: Path) -> dict[str, Phrasing]:
    """One file's entries; :class:`PhrasingError` when it is not TOML of the documented shape."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        raise PhrasingError(f"{path.name}: {error}") from error
    found: dict[str, Phrasing] = {}
    for key, entry in data.items():
        if not isinstance(entry, dict) or not set(entry) <= {"words", "asks"}:
            raise PhrasingError(f"{path.name}: [{key!r}] should hold only words = […] and asks = […]")
        texts = []
        for name in ("words", "asks"):
            values = entry.get(name, [])
            if not isinstance(values, list) or not all(isinstance(value, str) for value in values):
                raise PhrasingError(f"{path.name}: [{key!r}] {name} should be a list of strings")
            texts.append(tuple(" ".join(value.split()) for value in values if value.strip()))
        found[key] = Phrasing(key, texts[0], texts[1], (path.name,))
    return found


def merge(into: dict[str, Phrasing], found: Mapping[str, Phrasing]) -> None:
    """``found`` added to ``into``; an entry written in two files keeps the words of both."""
    for key, phrasing in found.items():
        old = into.get(key)
        if old is None:
            into[key] = phrasing
        else:
            into[key] = Phrasing(
                key,
                tuple(dict.fromkeys(old.words + phrasing.words)),
                tuple(dict.fromkeys(old.asks + phrasing.asks)),
                old.files + phrasing.files,
            )


def load_phrasings(folder: Path) -> dict[str, Phrasing]:
    """Every entry of every file in ``folder`` (none when it is missing). A file that cannot be read is left out
    with one log line: answers go on without its words."""
    found: dict[str, Phrasing] = {}
    if not folder.is_dir():
        return found
    for path in sorted(folder.glob("*.toml")):
        try:
            merge(found, _read_unless_read(path))
        except PhrasingError as error:
            log.warning("Phrasings left out: %s", error)
    return found


def _read_unless_read(path: Path) -> dict[str, Phrasing]:
    """:func:`read_file`, once a process for a file unchanged since: an index is built for each edition, and the
    files are the same for all of them."""
    try:
        info = path.stat()
    except OSError:
        return read_file(path)
    return _read_file_as_of(path, info.st_mtime_ns, info.st_size)


@functools.lru_cache(maxsize=64)
def _read_file_as_of(path: Path, _modified: int, _size: int) -> dict[str, Phrasing]:
    return read_file(path)  # a file that cannot be read raises, and is not kept: it is tried (and logged) again


def sample(phrasings: Mapping[str, Phrasing], share: float, seed: int = 0) -> dict[str, Phrasing]:
    """A seeded random ``share`` of the entries, whole (for the learning curve: how much each share helps)."""
    keys = sorted(phrasings)
    chosen = random.Random(seed).sample(keys, round(share * len(keys)))
    return {key: phrasings[key] for key in sorted(chosen)}
