"""How much a download of a hostile body grows a fresh process: ``python -m tests.support.peak_memory KIND URL
WARM_URL DATA_DIR`` downloads WARM_URL first (so that the libraries, the downloads' thread and its loop are in
place), then URL as the bot would (KIND: ``rules`` or ``symbol``), and prints one JSON line: how far the resident
size rose during the download at its peak, in MB; what the download raised; and how long it took. Linux: the peak
is the kernel's (``VmHWM``), reset just before the download."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path


def _status_mb(field: str) -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024  # kB
    raise LookupError(field)


def start_measuring() -> float:
    """The resident size now, with the kernel's record of the peak reset to it (``clear_refs`` 5), so that the peak
    read afterwards is this download's, not the imports' before it."""
    Path("/proc/self/clear_refs").write_text("5")
    return _status_mb("VmRSS")


def peak_mb() -> float:
    return _status_mb("VmHWM")


def main(kind: str, url: str, warm_url: str, data_dir: str) -> None:
    if kind == "rules":
        from bot.rules.editions.updater import UpdateError, update_rules

        def attempt(address: str) -> None:
            update_rules(Path(data_dir), address)

        expected: tuple[type[Exception], ...] = (UpdateError,)
    else:
        import asyncio

        from bot.hosts.download import DownloadFailed
        from bot.hosts.symbols import downloader, fetch_svg

        svgs = downloader()

        def attempt(address: str) -> None:
            asyncio.run(fetch_svg(svgs, address, address))

        expected = (DownloadFailed,)
    try:
        attempt(warm_url)
    except expected:
        pass
    before = start_measuring()
    started = time.monotonic()
    error = ""
    try:
        attempt(url)
    except expected as raised:
        error = str(raised)
    print(json.dumps({"grew_mb": round(peak_mb() - before, 1), "error": error, "seconds": time.monotonic() - started}))


if __name__ == "__main__":
    main(*sys.argv[1:])
