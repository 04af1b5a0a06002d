"""A two-column result table, as the benchmarks print it."""

from __future__ import annotations


def print_table(title: str, rows: list[tuple[str, str]]) -> None:
    width = max(len(name) for name, _ in rows)
    print(f"{title:<{width}}  result")
    print("-" * (width + 2 + max(len(value) for _, value in rows)))
    for name, value in rows:
        print(f"{name:<{width}}  {value}")
