"""One import of the printed names in a fresh process, for ``bench_languages.py``:
``python benchmarks/_printed_import.py API_URL DATA_DIR LANGUAGES`` checks the listing at API_URL and imports its All
Cards file into DATA_DIR as the bot does, then prints one JSON line: how far the resident size rose during the import
at its peak (MB; the kernel's ``VmHWM``, reset once the libraries are loaded), its seconds, the names by language and
the index's size."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.carddb.printed import FILE_NAME, update_printed  # noqa: E402
from tests.support.peak_memory import peak_mb, start_measuring  # noqa: E402


def main(api_url: str, data_dir: str, languages: str) -> None:
    import aiohttp  # noqa: F401 - the download's libraries in place before measuring, as in a running bot
    import ijson  # noqa: F401
    import orjson  # noqa: F401

    before = start_measuring()
    started = time.perf_counter()
    outcome = update_printed(Path(data_dir) / FILE_NAME, api_url, languages.split(","))
    seconds = time.perf_counter() - started
    result = outcome.result
    print(
        json.dumps(
            {
                "grew_mb": round(peak_mb() - before, 1),
                "seconds": round(seconds, 1),
                "counts": result.counts if result else {},
                "cards": result.cards if result else 0,
                "index_mb": round((Path(data_dir) / FILE_NAME).stat().st_size / 1e6, 1),
            }
        )
    )


if __name__ == "__main__":
    main(*sys.argv[1:])
