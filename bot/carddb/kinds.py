"""The kinds of cycling /cycling offers, decided once per card at import (CR 702.29).

They mirror the Scryfall queries of the /cycling command keyword for keyword, so that a kind
answered locally lists the same cards Scryfall would.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from bot.cycling import CyclingAbility

BASIC_LAND_TYPES = ("plains", "island", "swamp", "mountain", "forest")
LANDTYPE_KEYWORDS = frozenset(f"{land}cycling" for land in BASIC_LAND_TYPES)
ANY_KEYWORDS = frozenset({"cycling", "typecycling", "landcycling", "basic landcycling"})

_KIND_TESTS: dict[str, Callable[[frozenset[str]], bool]] = {
    "any": lambda k: bool(k & ANY_KEYWORDS),
    "plain": lambda k: "cycling" in k and "typecycling" not in k and "landcycling" not in k,
    "typecycling": lambda k: "typecycling" in k or "landcycling" in k,
    "basic": lambda k: "basic landcycling" in k,
    "landtype": lambda k: bool(k & LANDTYPE_KEYWORDS),
    "creature": lambda k: "typecycling" in k and "landcycling" not in k,
}
KINDS: tuple[str, ...] = tuple(_KIND_TESTS)


def keyword_set(keywords: Iterable[str], abilities: Iterable[CyclingAbility] = ()) -> frozenset[str]:
    """A card's Scryfall ``keywords``, lower case.

    Older card objects lack ``keywords``; their parsed abilities stand in, tagged the way Scryfall
    tags them (a typecycler is also "Cycling" and "Typecycling"; Plainscycling and basic landcycling also
    "Landcycling").
    """
    words = {keyword.lower() for keyword in keywords}
    for ability in abilities if not words else ():
        keyword = ability.keyword.lower()
        words.add(keyword)
        if keyword != "cycling":
            words.update(("cycling", "typecycling"))
            if keyword.endswith("landcycling") or keyword in LANDTYPE_KEYWORDS:
                words.add("landcycling")
    return frozenset(words)


def cycling_kinds(keywords: Iterable[str], abilities: Iterable[CyclingAbility] = ()) -> list[str]:
    """The kinds a card with these Scryfall ``keywords`` belongs to (see :func:`keyword_set`)."""
    found = keyword_set(keywords, abilities)
    return [kind for kind, test in _KIND_TESTS.items() if test(found)]
