"""``cyclebot`` (and ``python -m bot``): the bot and its terminal commands.

This module imports nothing but the standard library before it starts, so a Python without the bot's
dependencies gets one sentence saying what to do instead of a traceback.
"""

from __future__ import annotations

import sys

EXIT_MISSING_DEPENDENCY = 2


def main(argv: list[str] | None = None) -> int:
    try:
        from bot.cli import main as run

        return run(argv)
    except ModuleNotFoundError as error:
        # A module of the bot itself missing is a bug, and keeps its traceback.
        if not error.name or error.name.split(".")[0] in {"bot", "cogs"}:
            raise
        print(
            f"error: this Python lacks {error.name.split('.')[0]!r}, one of Cyclebot's dependencies: "
            "run `make install` in the project's folder, then use .venv/bin/cyclebot.",
            file=sys.stderr,
        )
        return EXIT_MISSING_DEPENDENCY


if __name__ == "__main__":
    sys.exit(main())
