"""Cycling abilities read from Scryfall card objects (CR 702.29), shared by card lookups and goldfish.

Scryfall's ``keywords`` array is missing on older card objects and names typecycling
families (``Landcycling``, ``Typecycling``) that are never printed, so the printed
oracle text is the source of truth; the keywords only decide whether a card *has* cycling.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

Card = Mapping[str, Any]

MANA_SYMBOL = re.compile(r"\{([^}]+)\}")
REMINDER = re.compile(r"\([^()]*\)")
# "Cycling {2}", "Basic landcycling {1}{G}", "Plainscycling {W/U}", "Cycling—Pay 2 life."
ABILITY = re.compile(
    r"^(?P<keyword>(?:(?:basic|snow|legendary|artifact|creature) )?[a-z'\-]*cycling)"
    r"(?:\s+(?P<mana>(?:\{[^}]+\})+)|\s*[—–-]\s*(?P<other>[^,]+?))\.?$",
    re.IGNORECASE,
)
LIFE_COST = re.compile(r"^pay (?P<amount>\d+) life$", re.IGNORECASE)
SACRIFICE_COST = re.compile(r"^sacrifice an? (?P<what>[a-z ]+)$", re.IGNORECASE)
CYCLING_KEYWORDS = frozenset(
    {
        "cycling",
        "typecycling",
        "landcycling",
        "basic landcycling",
        "plainscycling",
        "islandcycling",
        "swampcycling",
        "mountaincycling",
        "forestcycling",
        "wizardcycling",
        "slivercycling",
        "artifact landcycling",
    }
)


def mana_symbols(cost: str) -> tuple[str, ...]:
    """``"{2}{W/U}"`` → ``("2", "W/U")``."""
    return tuple(symbol.upper() for symbol in MANA_SYMBOL.findall(cost))


@dataclass(frozen=True)
class CyclingCost:
    """The printed part of a cycling cost; discarding the card is always added (CR 702.29a)."""

    text: str
    mana: tuple[str, ...] = ()
    life: int = 0
    sacrifice: str | None = None

    @property
    def is_mana(self) -> bool:
        return not self.life and self.sacrifice is None and bool(self.mana)

    @property
    def has_x(self) -> bool:
        return "X" in self.mana

    @property
    def mana_value(self) -> int:
        """The mana value of the cost with X as 0 (hybrid counts once)."""
        total = 0
        for symbol in self.mana:
            if symbol.isdigit():
                total += int(symbol)
            elif symbol != "X":
                total += 1
        return total

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class CyclingAbility:
    """One cycling ability: plain cycling draws, typecycling searches for ``search`` (702.29e)."""

    keyword: str
    cost: CyclingCost
    search: str | None = None
    face: str | None = None

    @property
    def is_typecycling(self) -> bool:
        return self.search is not None

    def __str__(self) -> str:
        if self.cost.is_mana or not (self.cost.life or self.cost.sacrifice):
            return f"{self.keyword} {self.cost}"
        return f"{self.keyword}—{self.cost}"


def parse_cost(mana: str | None, other: str | None) -> CyclingCost | None:
    if mana:
        return CyclingCost(text=mana, mana=mana_symbols(mana))
    other = (other or "").strip().rstrip(".")
    if match := LIFE_COST.match(other):
        return CyclingCost(text=f"Pay {match['amount']} life", life=int(match["amount"]))
    if match := SACRIFICE_COST.match(other):
        what = match["what"].strip()
        article = "an" if what[:1] in "aeiou" else "a"
        return CyclingCost(text=f"Sacrifice {article} {what}", sacrifice=what.lower())
    return None


def _keyword_name(raw: str) -> tuple[str, str | None]:
    """``"plainscycling"`` → ``("Plainscycling", "Plains")``; ``"cycling"`` → ``("Cycling", None)``."""
    raw = " ".join(raw.split()).lower()
    keyword = raw[:1].upper() + raw[1:]
    prefix = raw[: -len("cycling")].strip()
    if not prefix:
        return keyword, None
    words = prefix.split()
    if len(words) == 1:
        return keyword, words[0].capitalize()
    return keyword, " ".join(words)


def abilities_in_text(text: str, face: str | None = None) -> list[CyclingAbility]:
    abilities = []
    for line in text.splitlines():
        line = REMINDER.sub("", line).strip()
        # Keyword lines list several abilities: "Plainscycling {2}, islandcycling {2}".
        for part in re.split(r",\s+", line):
            match = ABILITY.match(part.strip())
            if not match:
                continue
            cost = parse_cost(match["mana"], match["other"])
            if cost is None:
                cost = CyclingCost(text=match["other"].strip())
            keyword, search = _keyword_name(match["keyword"])
            abilities.append(CyclingAbility(keyword=keyword, cost=cost, search=search, face=face))
    return abilities


def card_faces(card: Card) -> list[Card]:
    faces = card.get("card_faces")
    return list(faces) if faces else [card]


def cycling_abilities(card: Card) -> list[CyclingAbility]:
    """Every cycling ability printed on the card, on any face, in printed order."""
    faces = card_faces(card)
    if len(faces) == 1:
        return abilities_in_text(faces[0].get("oracle_text") or "")
    found = []
    for face in faces:
        found.extend(abilities_in_text(face.get("oracle_text") or "", face=face.get("name")))
    return found


def has_cycling(card: Card) -> bool:
    """True for a card with any cycling ability, including one Scryfall tags only as landcycling."""
    keywords = {keyword.lower() for keyword in card.get("keywords") or ()}
    return bool(keywords & CYCLING_KEYWORDS) or bool(cycling_abilities(card))


def type_words(type_line: str) -> set[str]:
    """Supertypes, card types and subtypes of a type line, lower-cased (all faces of a ``//`` line)."""
    words: set[str] = set()
    for face in type_line.split("//"):
        words.update(word.lower() for word in face.replace("—", " ").split())
    return words


def matches_search(card: Card, search: str) -> bool:
    """Whether a card fits a typecycling search such as ``Plains``, ``basic land`` or ``Wizard``."""
    wanted = {word.lower() for word in search.split()}
    for face in card_faces(card) if card.get("layout") != "split" else [card]:
        if wanted <= type_words(face.get("type_line") or card.get("type_line") or ""):
            return True
    return False


def describe_abilities(abilities: Iterable[CyclingAbility]) -> str:
    return ", ".join(str(ability) for ability in abilities)
