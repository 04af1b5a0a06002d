"""The terminal's side of the printed names: ``cyclebot cards update --languages`` (with a progress bar) and the
lines ``cyclebot cards info`` adds about them."""

from __future__ import annotations

import sys
from typing import Any

from bot.carddb.bulk import BulkError
from bot.carddb.printed.build import stored_counts, stored_meta
from bot.carddb.printed.languages import choose, language_name
from bot.carddb.printed.update import FILE_NAME, update_printed
from bot.config import Config

EXIT_OK = 0
EXIT_FAILED = 1


def _counts(counts: dict[str, int]) -> str:
    return ", ".join(f"{language_name(code)} {count:,}" for code, count in sorted(counts.items())) or "none"


def update_languages(config: Config, listed: str = "", *, force: bool = False) -> int:
    """Bring the printed names to the languages ``listed`` names (``CARD_LANGUAGES`` when empty), from Scryfall's
    All Cards file; the exit code."""
    words = listed.replace(",", " ").split() if listed.strip() else list(config.card_languages)
    choice = choose(words)
    if choice.unknown:
        print(f"warning: no language Scryfall prints cards in: {', '.join(choice.unknown)} (ignored)", file=sys.stderr)
    path = config.data_dir / FILE_NAME
    bar = ProgressBar()
    try:
        outcome = update_printed(path, config.scryfall_api_url, choice.codes, force=force, progress=bar)
    except BulkError as error:
        print(f"error: {error}; the stored printed names are unchanged", file=sys.stderr)
        return EXIT_FAILED
    finally:
        bar.close()
    if outcome.dropped:
        print(f"Dropped the printed names of {', '.join(language_name(code) for code in outcome.dropped)}.")
    if not choice.codes:
        print("No language chosen (CARD_LANGUAGES is empty): cards answer to their English names only.")
    elif outcome.result is None:
        print(f"Printed names are current (Scryfall's All Cards file of {outcome.stored_updated_at}).")
    else:
        result = outcome.result
        print(
            f"Imported {result.total:,} printed names ({_counts(result.counts)}) from {result.cards:,} card objects "
            f"as of {result.updated_at} in {result.seconds:.1f} s."
        )
    return EXIT_OK


def languages_info(config: Config) -> str:
    """The line ``cards info`` prints about the printed names: their languages and counts, or why there are none."""
    chosen = choose(config.card_languages).codes
    meta = stored_meta(config.data_dir / FILE_NAME)
    if not chosen:
        return "Printed names: none (CARD_LANGUAGES is empty: English names only)"
    if not meta:
        return f"Printed names of {', '.join(chosen)}: not downloaded yet (run `cyclebot cards update --languages`)"
    size = (config.data_dir / FILE_NAME).stat().st_size
    counts = stored_counts(meta)
    return f"Printed names: {_counts(counts)} ({size / 1e6:.1f} MB, Scryfall's All Cards file of {meta['updated_at']})"


class ProgressBar:
    """A progress bar on the terminal (tqdm, on standard error, only where it is a terminal) for what a refresh
    reports: the download's bytes, then the card objects read."""

    def __init__(self) -> None:
        from tqdm import tqdm  # here, before anything is downloaded: a Python without it is told at once

        self._tqdm = tqdm
        self._bar: Any = None
        self._stage = ""

    def __call__(self, stage: str, done: int, total: int | None) -> None:
        if stage != self._stage:
            self.close()
            self._stage = stage
            kind = {"unit": "B", "unit_scale": True} if stage == "download" else {"unit": " cards", "unit_scale": True}
            self._bar = self._tqdm(total=total, desc=stage.capitalize(), file=sys.stderr, disable=None, **kind)
        if self._bar is not None:
            self._bar.update(done - self._bar.n)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None
