"""``cyclebot`` (and ``python -m bot``): the bot and its terminal commands.

This module imports nothing but the standard library before it starts, so a Python without the bot's
dependencies gets one sentence saying what to do instead of a traceback.
"""

from __future__ import annotations

import os
import sys

EXIT_MISSING_DEPENDENCY = 2
EXIT_BROKEN_PIPE = 141  # what a shell reports for a program stopped by SIGPIPE


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
    except BrokenPipeError:
        # The reader went away (`cyclebot rule 704.5 | head`): stop quietly, as command-line tools do.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_BROKEN_PIPE


if __name__ == "__main__":
    sys.exit(main())
