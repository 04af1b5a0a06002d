"""Colours and colour identity in a search: ``c:azorius``, ``id<=esper``, ``c:m``, ``c=rg``, as SQL on a bit mask."""

from __future__ import annotations

from bot.carddb.query.vocab import ALL_COLOURS, COLOUR_BITS, COLOUR_NAMES

MULTI = "multi"
Sql = tuple[str, list[object]]


def colour_mask(value: str) -> int | str | None:
    """The colours ``value`` names as a bit mask, ``MULTI`` for multicoloured, or None for no colour."""
    text = value.lower()
    if text in ("c", "colorless", "colourless"):
        return 0
    if text in ("m", "multicolor", "multicolour", "multi", "gold"):
        return MULTI
    letters = COLOUR_NAMES.get(text, text)
    if letters and all(letter in COLOUR_BITS for letter in letters):
        return sum({COLOUR_BITS[letter] for letter in letters})
    return None


SQL_OPS = {":": "=", "=": "=", "!=": "<>", "<": "<", "<=": "<=", ">": ">", ">=": ">="}


def count_condition(column: str, op: str, count: int) -> Sql:
    """``c>=2``: how many colours, counted from the bit mask."""
    bits = " + ".join(f"(({column} >> {bit}) & 1)" for bit in range(5))
    return f"({bits}) {SQL_OPS[op]} ?", [count]


def colour_condition(column: str, op: str, mask: int | str, default: str, *, everything: int = ALL_COLOURS) -> Sql:
    """``column`` (a colour bit mask) compared with ``mask``: ``:`` means ``default`` (``>=`` for colours,
    ``<=`` for identity), except colourless, which is exact."""
    if mask == MULTI:
        sql = f"({column} & ({column} - 1)) != 0"
        return (f"NOT ({sql})", []) if op == "!=" else (sql, [])
    chosen = default if op == ":" else op
    if mask == 0 and op == ":":
        chosen = "="
    inverse = everything & ~mask
    sql = {
        "=": f"{column} = ?",
        "!=": f"{column} != ?",
        ">=": f"({column} & ?) = ?",
        ">": f"({column} & ?) = ? AND {column} != ?",
        "<=": f"({column} & ?) = 0",
        "<": f"({column} & ?) = 0 AND {column} != ?",
    }[chosen]
    params = {
        "=": [mask],
        "!=": [mask],
        ">=": [mask, mask],
        ">": [mask, mask, mask],
        "<=": [inverse],
        "<": [inverse, mask],
    }[chosen]
    return sql, params
