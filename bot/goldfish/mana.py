"""Mana for goldfish games: what lands make, and paying a cost so the rest stays flexible (CR 106, 107.4, 601.2g)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from bot.cycling import mana_symbols

COLOURS = "WUBRG"
BASIC_TYPES = {"plains": "W", "island": "U", "swamp": "B", "mountain": "R", "forest": "G"}
ADD_PHRASE = re.compile(r"add ((?:\{[wubrgc]\}(?:,? (?:or )?)?)+)", re.IGNORECASE)
ANY_COLOUR = re.compile(r"add one mana of any (?:one )?colou?r", re.IGNORECASE)
ENTERS_TAPPED = re.compile(r"enters(?: the battlefield)? tapped", re.IGNORECASE)


def land_colours(card: Mapping[str, Any]) -> frozenset[str]:
    """The mana a land taps for: its basic land types (305.6) and its "Add {X}" text; ``C`` for colourless."""
    colours: set[str] = set()
    type_line = (card.get("type_line") or "").lower()
    for word in type_line.replace("—", " ").split():
        if word in BASIC_TYPES:
            colours.add(BASIC_TYPES[word])
    text = card.get("oracle_text") or ""
    for phrase in ADD_PHRASE.findall(text):
        colours.update(symbol for symbol in mana_symbols(phrase))
    if ANY_COLOUR.search(text):
        colours.update(COLOURS)
    return frozenset(colours)


def enters_tapped(card: Mapping[str, Any]) -> bool:
    return bool(ENTERS_TAPPED.search(card.get("oracle_text") or ""))


def symbol_text(colours: frozenset[str]) -> str:
    """``{W}`` for a one-colour land, ``{W/R}`` for a land that makes either."""
    ordered = [c for c in COLOURS + "C" if c in colours]
    return "{" + "/".join(ordered) + "}" if ordered else "{C}"


def cost_symbols(cost: Sequence[str], *, x: int = 0, reduction: int = 0) -> tuple[str, ...]:
    """Expand a cost to one symbol per mana: generic as ``"1"`` each, X replaced by ``x``, generic reduced."""
    generic = 0
    others: list[str] = []
    for symbol in cost:
        if symbol.isdigit():
            generic += int(symbol)
        elif symbol == "X":
            generic += x
        else:
            others.append(symbol)
    generic = max(0, generic - reduction)
    return tuple(others) + ("1",) * generic


def cost_text(symbols: Sequence[str]) -> str:
    generic = sum(1 for s in symbols if s == "1")
    others = [s for s in symbols if s != "1"]
    text = f"{{{generic}}}" if generic or not others else ""
    return text + "".join("{" + s + "}" for s in others)


def _can_pay(symbol: str, colours: frozenset[str]) -> bool:
    if symbol == "1":
        return True
    if "/" in symbol:
        return any(part in colours for part in symbol.split("/") if not part.isdigit()) or any(
            part.isdigit() for part in symbol.split("/")
        )
    return symbol in colours


def _score(classes: tuple[frozenset[str], ...], counts: tuple[int, ...]) -> tuple[int, int, int]:
    union: set[str] = set()
    total = 0
    lands = 0
    for colours, count in zip(classes, counts, strict=True):
        if count:
            union |= colours
            total += count * len(colours)
            lands += count
    return (len(union - {"C"}), total, lands)


def plan_payment(symbols: Sequence[str], sources: Sequence[tuple[int, frozenset[str]]]) -> list[int] | None:
    """The untapped sources (``(iid, colours)``) to tap for ``symbols``, or ``None`` if they can't pay.

    Among all ways to pay, the chosen one leaves the most colours available, then the most
    colour options in total; identical lands are interchangeable, so the search runs over
    groups of lands and stays small.
    """
    if len(symbols) > len(sources):
        return None
    if not symbols:
        return []
    groups: dict[frozenset[str], list[int]] = {}
    for iid, colours in sources:
        groups.setdefault(colours, []).append(iid)
    classes = tuple(sorted(groups, key=lambda c: (len(c), "".join(sorted(c)))))
    # Most constrained symbols first: coloured, then hybrid, then generic.
    order = sorted(
        symbols,
        key=lambda s: (s == "1", "/" in s, sum(1 for c in classes if _can_pay(s, c))),
    )
    reqs = tuple(order)
    start = tuple(len(groups[c]) for c in classes)

    @cache
    def best(index: int, counts: tuple[int, ...]) -> tuple[tuple[int, int, int], tuple[int, ...]] | None:
        if index == len(reqs):
            return _score(classes, counts), ()
        found = None
        for k, colours in enumerate(classes):
            if counts[k] and _can_pay(reqs[index], colours):
                rest = best(index + 1, counts[:k] + (counts[k] - 1,) + counts[k + 1 :])
                if rest is not None and (found is None or rest[0] > found[0]):
                    found = (rest[0], (k,) + rest[1])
        return found

    plan = best(0, start)
    if plan is None:
        return None
    used: dict[int, int] = {}
    chosen = []
    for k in plan[1]:
        chosen.append(groups[classes[k]][used.get(k, 0)])
        used[k] = used.get(k, 0) + 1
    return chosen


def explain_shortfall(symbols: Sequence[str], sources: Sequence[tuple[int, frozenset[str]]]) -> str:
    """Why ``symbols`` can't be paid from ``sources``, for the player."""
    needed = cost_text(symbols)
    if not sources:
        return f"it costs {needed} and you have no untapped lands"
    have = "".join(symbol_text(colours) for _, colours in sources)
    if len(symbols) > len(sources):
        return f"it costs {needed} and you have only {len(sources)} untapped land(s) ({have})"
    return f"it costs {needed} and your untapped lands ({have}) can't make those colours"
