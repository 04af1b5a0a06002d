"""Mana for goldfish games: what lands make, and paying a cost so the rest stays flexible (CR 106, 107.4, 601.2g)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from bot.cycling import mana_symbols
from bot.text import plural

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
    return _cost_text(tuple(symbols))


@lru_cache(maxsize=4096)
def _cost_text(symbols: tuple[str, ...]) -> str:
    generic = sum(1 for s in symbols if s == "1")
    others = [s for s in symbols if s != "1"]
    text = f"{{{generic}}}" if generic or not others else ""
    return text + "".join("{" + s + "}" for s in others)


def _can_pay(symbol: str, colours: frozenset[str]) -> bool:
    if symbol == "1":
        return True
    if "/" in symbol:
        return any(part in colours for part in symbol.split("/"))
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


@dataclass(frozen=True)
class Payment:
    """How a cost is paid: the lands to tap and the life paid for Phyrexian symbols (107.4f)."""

    lands: tuple[int, ...]
    life: int = 0


Sources = Sequence[tuple[int, frozenset[str]]]
MAX_ALTERNATIVES = 64


def _alternatives(symbols: Sequence[str], life: int) -> list[tuple[tuple[str, ...], int]]:
    """Each way to read the cost as plain symbols plus life: {2/W} is {W} or {2} (107.4e), {W/P} is {W} or
    2 life (107.4f); paying life needs that much life (119.4)."""
    ways: list[tuple[tuple[str, ...], int]] = [((), 0)]
    for symbol in symbols:
        parts = symbol.split("/")
        if len(parts) == 2 and parts[0].isdigit():
            options = [((parts[1],), 0), (("1",) * int(parts[0]), 0)]
        elif len(parts) == 2 and parts[1] == "P":
            options = [((parts[0],), 0), ((), 2)]
        else:
            options = [((symbol,), 0)]
        ways = [(done + more, paid + extra) for done, paid in ways for more, extra in options]
        ways = [(done, paid) for done, paid in ways if paid <= life][:MAX_ALTERNATIVES]
    return ways


def _groups(sources: Sources) -> tuple[tuple[frozenset[str], ...], dict[frozenset[str], list[int]]]:
    groups: dict[frozenset[str], list[int]] = {}
    for iid, colours in sources:
        groups.setdefault(colours, []).append(iid)
    return tuple(sorted(groups, key=lambda c: (len(c), "".join(sorted(c))))), groups


def _feasible(reqs: tuple[str, ...], classes: tuple[frozenset[str], ...], counts: tuple[int, ...]) -> bool:
    """Whether ``counts`` lands of each class can pay ``reqs`` (plain symbols, most constrained first)."""
    if not reqs:
        return True
    if len(reqs) > sum(counts):
        return False
    head, rest = reqs[0], reqs[1:]
    return any(
        counts[k]
        and _can_pay(head, colours)
        and _feasible(rest, classes, counts[:k] + (counts[k] - 1,) + counts[k + 1 :])
        for k, colours in enumerate(classes)
    )


def _ordered(symbols: Sequence[str], classes: tuple[frozenset[str], ...]) -> tuple[str, ...]:
    # Most constrained symbols first: coloured, then hybrid, then generic.
    return tuple(sorted(symbols, key=lambda s: (s == "1", "/" in s, sum(1 for c in classes if _can_pay(s, c)))))


def plan(
    symbols: Sequence[str], sources: Sources, *, life: int = 0, keep: Sequence[Sequence[str]] = ()
) -> Payment | None:
    """The best way to pay ``symbols`` from the untapped ``sources`` (``(iid, colours)``), or ``None``.

    Among all ways to pay, the chosen one leaves the most of the ``keep`` costs (the other cards in
    hand) still payable, then pays the least life, then leaves the most colours and colour options
    available. Identical lands are interchangeable, so the search runs over groups of lands.
    """
    classes, groups = _groups(sources)
    start = tuple(len(groups[c]) for c in classes)
    best_found = _best_plan(tuple(symbols), classes, start, life, tuple(tuple(cost) for cost in keep))
    if best_found is None:
        return None
    used: dict[int, int] = {}
    chosen = []
    for k in best_found[1]:
        chosen.append(groups[classes[k]][used.get(k, 0)])
        used[k] = used.get(k, 0) + 1
    return Payment(tuple(chosen), best_found[2])


@lru_cache(maxsize=8192)
def _best_plan(
    symbols: tuple[str, ...],
    classes: tuple[frozenset[str], ...],
    start: tuple[int, ...],
    life: int,
    keep: tuple[tuple[str, ...], ...],
) -> tuple[tuple, tuple[int, ...], int] | None:
    """The search behind :func:`plan` over classes of identical lands; it depends only on its arguments,
    so a game that asks the same question again (the policy, then the action) gets the same answer."""
    total = sum(start)

    @cache
    def value(counts: tuple[int, ...]) -> int:
        return sum(1 for cost in keep if _payable_counts(cost, classes, counts, life))

    best_found: tuple[tuple, tuple[int, ...], int] | None = None
    for way, life_paid in _alternatives(symbols, life):
        reqs = _ordered(way, classes)
        if len(reqs) > total:
            continue

        @cache
        def search(index: int, counts: tuple[int, ...], reqs=reqs, paid=life_paid):
            if index == len(reqs):
                return (value(counts), -paid, *_score(classes, counts)), ()
            found = None
            for k, colours in enumerate(classes):
                if counts[k] and _can_pay(reqs[index], colours):
                    rest = search(index + 1, counts[:k] + (counts[k] - 1,) + counts[k + 1 :])
                    if rest is not None and (found is None or rest[0] > found[0]):
                        found = (rest[0], (k,) + rest[1])
            return found

        result = search(0, start)
        if result is not None and (best_found is None or result[0] > best_found[0]):
            best_found = (result[0], result[1], life_paid)
    return best_found


@lru_cache(maxsize=65536)
def _payable_counts(
    symbols: tuple[str, ...], classes: tuple[frozenset[str], ...], counts: tuple[int, ...], life: int
) -> bool:
    return any(_feasible(_ordered(way, classes), classes, counts) for way, _ in _alternatives(symbols, life))


def payable(symbols: Sequence[str], sources: Sources, life: int = 0) -> bool:
    """Whether ``sources`` (and life, for Phyrexian symbols) can pay ``symbols``; quicker than :func:`plan`."""
    if not symbols:
        return True
    # Life matters only up to what the Phyrexian symbols could cost.
    return _payable_from(tuple(symbols), tuple(colours for _, colours in sources), min(life, 2 * len(symbols)))


@lru_cache(maxsize=16384)
def _payable_from(symbols: tuple[str, ...], colours_seq: tuple[frozenset[str], ...], life: int) -> bool:
    counts: dict[frozenset[str], int] = {}
    for colours in colours_seq:
        counts[colours] = counts.get(colours, 0) + 1
    return _payable(symbols, tuple(sorted(counts.items(), key=_class_key)), life)


def _class_key(item: tuple[frozenset[str], int]) -> tuple:
    return (len(item[0]), "".join(sorted(item[0])), item[1])


@lru_cache(maxsize=16384)
def _payable(symbols: tuple[str, ...], counted: tuple[tuple[frozenset[str], int], ...], life: int) -> bool:
    classes = tuple(colours for colours, _ in counted)
    counts = tuple(count for _, count in counted)
    return any(_feasible(_ordered(way, classes), classes, counts) for way, _ in _alternatives(symbols, life))


def plan_payment(symbols: Sequence[str], sources: Sources) -> list[int] | None:
    """The untapped sources to tap for ``symbols`` with no life to pay, or ``None`` if they can't pay."""
    payment = plan(symbols, sources)
    return None if payment is None else list(payment.lands)


def plan_with(symbols: Sequence[str], chosen: Sources, *, life: int = 0) -> Payment | None:
    """Pay ``symbols`` with exactly the ``chosen`` lands (the player's choice), or ``None`` if they don't fit."""
    for way, life_paid in _alternatives(symbols, life):
        if len(way) == len(chosen):
            classes, groups = _groups(chosen)
            if _feasible(_ordered(way, classes), classes, tuple(len(groups[c]) for c in classes)):
                return Payment(tuple(iid for iid, _ in chosen), life_paid)
    return None


def mana_text(sources: Sources) -> str:
    """The mana the lands can make, for people: sorted WUBRG, a dual land as ``{U} or {B}``."""

    def order(colours: frozenset[str]) -> tuple:
        return (min((COLOURS + "C").index(c) for c in colours) if colours else 6, len(colours))

    parts = []
    for colours in sorted((c for _, c in sources), key=order):
        symbols = ["{" + c + "}" for c in COLOURS + "C" if c in colours] or ["{C}"]
        parts.append(" or ".join(symbols) if len(symbols) <= 2 else "any of " + "".join(symbols))
    single = [p for p in parts if " " not in p]
    multi = [p for p in parts if " " in p]
    return ", ".join(filter(None, ["".join(single), *multi]))


def explain_shortfall(symbols: Sequence[str], sources: Sequence[tuple[int, frozenset[str]]]) -> str:
    """Why ``symbols`` can't be paid from ``sources``, for the player."""
    return _explain_shortfall(tuple(symbols), tuple(colours for _, colours in sources))


@lru_cache(maxsize=4096)
def _explain_shortfall(symbols: tuple[str, ...], colours_seq: tuple[frozenset[str], ...]) -> str:
    sources = [(0, colours) for colours in colours_seq]
    needed = cost_text(symbols)
    missing = [s for s in symbols if len(s) == 1 and s in COLOURS + "C" and not any(s in c for _, c in sources)]
    if not sources:
        return f"it costs {needed} and you have no untapped lands"
    have = "".join(symbol_text(colours) for _, colours in sources)
    if len(symbols) > len(sources):
        return f"it costs {needed} and you have only {plural(len(sources), 'untapped land')} ({have})"
    if missing:
        return f"it costs {needed} and you have no untapped land for {{{missing[0]}}}: not enough {{{missing[0]}}}"
    return f"it costs {needed} and your untapped lands ({have}) can't make those colours"


def shortfall(symbols: Sequence[str], sources: Sequence[tuple[int, frozenset[str]]]) -> str:
    """What is missing to pay ``symbols`` from ``sources``, in a few words with the symbols: ``needs {R}``,
    ``needs {R}{R}``, ``needs 2 more mana`` (for a line of the hand, where the full reason would not fit)."""
    return _shortfall(tuple(symbols), tuple(colours for _, colours in sources))


@lru_cache(maxsize=4096)
def _shortfall(symbols: tuple[str, ...], colours_seq: tuple[frozenset[str], ...]) -> str:
    # The coloured symbols no untapped land can make, each as many times as the cost has it beyond what the
    # lands of that colour make.
    missing: list[str] = []
    for colour in COLOURS + "C":
        wanted = symbols.count(colour)
        can = sum(1 for colours in colours_seq if colour in colours)
        missing += [colour] * max(0, wanted - can)
    # A hybrid symbol ({U/R}) no untapped land can pay either way is missing as itself, not as "more mana" that a
    # Forest would seem to pay. (Twobrid and Phyrexian symbols can always be paid otherwise.)
    for hybrid in dict.fromkeys(s for s in symbols if "/" in s and all(part in COLOURS for part in s.split("/"))):
        can = sum(1 for colours in colours_seq if any(part in colours for part in hybrid.split("/")))
        missing += [hybrid] * max(0, symbols.count(hybrid) - can)
    short = len(symbols) - len(colours_seq) - len(missing)  # mana missing besides those colours
    if missing:
        more = f" and {short} more mana" if short > 0 else ""
        return "needs " + "".join("{" + colour + "}" for colour in missing) + more
    if short > 0:
        return f"needs {short} more mana"
    return "needs other colours"
