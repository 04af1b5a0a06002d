"""How much a download of a hostile body grows a fresh process: ``python -m tests.support.peak_memory KIND URL
WARM_URL DATA_DIR`` downloads WARM_URL first (so that the libraries, the downloads' thread and its loop are in
place), then URL as the bot would (KIND: ``rules`` or ``symbol``), and prints one JSON line: how far the peak
resident size rose above the resident size before, in MB; what the download raised; and how long it took. Linux
(``ru_maxrss`` in kilobytes, ``/proc/self/statm``)."""

from __future__ import annotations

import json
import resource
import sys
import time
from pathlib import Path


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def resident_mb() -> float:
    """The resident size now (the peak can be higher: what the imports held for a moment and let go)."""
    pages = int(Path("/proc/self/statm").read_text().split()[1])
    return pages * resource.getpagesize() / (1024 * 1024)


def main(kind: str, url: str, warm_url: str, data_dir: str) -> None:
    if kind == "rules":
        from bot.rules.updater import UpdateError, update_rules

        def attempt(address: str) -> None:
            update_rules(Path(data_dir), address)

        expected: tuple[type[Exception], ...] = (UpdateError,)
    else:
        import asyncio

        from bot.download import DownloadFailed
        from bot.symbols import downloader, fetch_svg

        svgs = downloader()

        def attempt(address: str) -> None:
            asyncio.run(fetch_svg(svgs, address, address))

        expected = (DownloadFailed,)
    try:
        attempt(warm_url)
    except expected:
        pass
    before = resident_mb()  # against the peak after: the growth at its largest
    started = time.monotonic()
    error = ""
    try:
        attempt(url)
    except expected as raised:
        error = str(raised)
    print(json.dumps({"grew_mb": round(peak_mb() - before, 1), "error": error, "seconds": time.monotonic() - started}))


if __name__ == "__main__":
    main(*sys.argv[1:])
