"""Scryfall search queries for /cycling, one per kind of cycling (CR 702.29)."""

from __future__ import annotations

from dataclasses import dataclass

MAX_EXTRA_QUERY = 200

BASIC_LAND_TYPES = ("plains", "island", "swamp", "mountain", "forest")


@dataclass(frozen=True)
class CyclingKind:
    value: str
    label: str
    query: str


def _any_of(*terms: str) -> str:
    return "(" + " or ".join(terms) + ")"


# Scryfall tags every typecycler with "Typecycling" and "Cycling" too, and landcyclers with
# "Landcycling"; plain cycling is therefore cycling without either.
KINDS: dict[str, CyclingKind] = {
    kind.value: kind
    for kind in (
        CyclingKind(
            "any",
            "any cycling",
            _any_of("keyword:cycling", "keyword:typecycling", "keyword:landcycling", 'keyword:"basic landcycling"'),
        ),
        CyclingKind("plain", "plain cycling", "keyword:cycling -keyword:typecycling -keyword:landcycling"),
        CyclingKind("typecycling", "typecycling", _any_of("keyword:typecycling", "keyword:landcycling")),
        CyclingKind("basic", "basic landcycling", 'keyword:"basic landcycling"'),
        CyclingKind(
            "landtype",
            "landcycling by land type",
            _any_of(*(f"keyword:{land}cycling" for land in BASIC_LAND_TYPES)),
        ),
        CyclingKind("creature", "creature-type cycling", "keyword:typecycling -keyword:landcycling"),
    )
}
DEFAULT_KIND = "any"


class QueryTooLong(ValueError):
    pass


def clean_extra(extra: str | None, limit: int = MAX_EXTRA_QUERY) -> str:
    """The user's extra search terms on one line; too long raises :class:`QueryTooLong`."""
    extra = " ".join((extra or "").split())
    if len(extra) > limit:
        raise QueryTooLong(f"Keep the extra search terms under {limit} characters (got {len(extra)}).")
    return extra


def cycling_query(kind: str = DEFAULT_KIND, extra: str | None = None) -> str:
    """The full Scryfall query for cards with ``kind`` of cycling, narrowed by ``extra`` terms."""
    try:
        base = KINDS[kind].query
    except KeyError:
        raise ValueError(f"unknown cycling kind {kind!r}; one of {', '.join(KINDS)}") from None
    extra = clean_extra(extra)
    # Parenthesised so an "or" in the extra terms cannot widen the cycling filter.
    return f"{base} ({extra})" if extra else base


def check_syntax(query: str) -> None:
    """Raise the search's ``QueryError`` when ``query`` can't be read at all (an unclosed quote, a stray ``or``):
    cheap enough to decide before a search is queued, so the asker alone hears about it at once."""
    from bot.carddb.query import parse_query as parse

    parse(query)
