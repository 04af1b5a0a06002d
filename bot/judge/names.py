"""The names judges use for the IPG's infractions (bot/data/judge/ipg-names.json): short names ("hce", "grv",
"usc minor") and former names ("d/dlp", "dec"), each resolved to the sections of the version loaded; and the
penalties by the names judges ask with ("game loss", "gl", "dq"), which list the infractions that carry them.

Entries name infractions by title, since numbers move between versions: "Deck Problem" is whatever section of the
loaded IPG is titled so, and the number recorded (as of the version the list was checked against) is used only
when no title matches.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from bot.documents import Document, Section, normal, words

NAMES_FILE = Path(__file__).resolve().parent.parent / "data" / "judge" / "ipg-names.json"
# Words around a penalty that ask for it all the same: "infractions with a game loss", "what gets a DQ".
AROUND_PENALTY = frozenset(
    "a all an for get gets give gives infraction infractions list of penalty that the what which with".split()
)


def penalty_key(text: str) -> str:
    """What of ``text`` can name a penalty: its words, less those said around one."""
    return " ".join(word for word in words(text) if word not in AROUND_PENALTY)


@dataclass(frozen=True, slots=True)
class Former:
    """An infraction since renamed, merged or split: what it was called and what became of it."""

    was: str
    change: str  # "split into Decklist Problem and Deck Problem"
    numbers: tuple[str, ...]

    def sentence(self) -> str:
        return f"{self.was} was {self.change}."


@dataclass
class Names:
    short: dict[str, tuple[str, ...]]  # a short name → the sections it stands for
    former: dict[str, Former]  # a former name → what became of it
    checked_against: str  # the IPG version the list was checked against (ISO date)
    penalties: dict[str, str] = field(default_factory=dict)  # a penalty's name or short form → the penalty

    def penalty(self, text: str) -> str:
        """The penalty ``text`` asks for ("Game Loss" for "gl" or "game loss infractions"), or ""."""
        return self.penalties.get(normal(text)) or self.penalties.get(penalty_key(text)) or ""

    def all(self) -> dict[str, tuple[str, ...]]:
        """Every name, short and former, with its sections (for the document's index)."""
        return {**self.short, **{name: former.numbers for name, former in self.former.items()}}


def _titled(document: Document, title: str) -> Section | None:
    wanted = normal(title)
    for section in document.sections:
        own = normal(section.title.rsplit("—", 1)[-1])
        if own == wanted or normal(section.title) == wanted:
            return section
    return None


def load_names(document: Document, path: Path = NAMES_FILE) -> Names:
    """The names of ``document``'s sections (an IPG); names whose infraction it lacks are left out."""
    data = json.loads(path.read_text(encoding="utf-8"))
    short: dict[str, tuple[str, ...]] = {}
    for entry in data["names"]:
        section = _titled(document, entry["title"]) or document.get(entry["number"])
        if section is not None:
            for name in entry["short"]:
                short[name] = (section.number,)
    former: dict[str, Former] = {}
    for entry in data["former"]:
        found = [_titled(document, title) for title in entry["now"]]
        numbers = tuple(section.number for section in found if section is not None)
        if numbers:
            for name in entry["names"]:
                former[name] = Former(entry["was"], entry["change"], numbers)
    penalties: dict[str, str] = {}
    for entry in data.get("penalties", []):
        for name in [entry["penalty"], *entry["short"]]:
            for key in (normal(name), penalty_key(name)):
                if key:
                    penalties.setdefault(key, entry["penalty"])
    return Names(short, former, data["checked_against"], penalties)
