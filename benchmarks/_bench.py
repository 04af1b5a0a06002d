"""What every benchmark shares: percentiles, a results table, stated targets and the exit code.

A benchmark builds a ``Report``, adds each figure with its target (or none, for a figure that is
only reported), prints it and exits with ``report.exit_code()``: non-zero when any target was missed.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field


def percentile(values: Sequence[float], fraction: float) -> float:
    """The ``fraction`` percentile (0–1) by the nearest-rank method."""
    if not values:
        raise ValueError("no values")
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, round(fraction * len(ordered) + 0.5) - 1))
    return ordered[rank]


def median(values: Sequence[float]) -> float:
    return statistics.median(values)


@dataclass
class Row:
    name: str
    value: float
    unit: str
    target: str
    met: bool | None  # None: reported, no target


@dataclass
class Report:
    title: str
    rows: list[Row] = field(default_factory=list)

    def add(
        self, name: str, value: float, unit: str = "", *, at_most: float | None = None, at_least: float | None = None
    ) -> Row:
        """Record a figure; ``at_most``/``at_least`` state its target."""
        target, met = "", None
        if at_most is not None:
            target, met = f"≤ {at_most:g}{unit}", value <= at_most
        elif at_least is not None:
            target, met = f"≥ {at_least:g}{unit}", value >= at_least
        row = Row(name, value, unit, target, met)
        self.rows.append(row)
        return row

    def check(self, name: str, ok: bool, detail: str = "") -> Row:
        """A yes/no target (for example "no request reached the API")."""
        row = Row(name, float(ok), detail, "yes", ok)
        self.rows.append(row)
        return row

    @property
    def missed(self) -> list[Row]:
        return [row for row in self.rows if row.met is False]

    def print(self, out: Callable[[str], None] = print) -> None:
        def shown(row: Row) -> str:
            if row.target == "yes":
                return ("yes" if row.met else "no") + (f" ({row.unit})" if row.unit else "")
            return f"{row.value:.4g}{row.unit}"

        cells = [
            (row.name, shown(row), row.target or "—", {True: "met", False: "MISSED", None: ""}[row.met])
            for row in self.rows
        ]
        headers = ("figure", "value", "target", "")
        widths = [max(len(str(c[i])) for c in [headers, *cells]) for i in range(4)]
        out(f"\n{self.title}")
        out("  ".join(h.ljust(w) for h, w in zip(headers, widths, strict=True)).rstrip())
        out("  ".join("-" * w for w in widths))
        for cell in cells:
            out("  ".join(str(c).ljust(w) for c, w in zip(cell, widths, strict=True)).rstrip())
        if self.missed:
            out(f"MISSED {len(self.missed)} target(s): " + ", ".join(row.name for row in self.missed))

    def exit_code(self) -> int:
        return 1 if self.missed else 0
