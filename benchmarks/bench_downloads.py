"""What a hostile host's body costs the bot: a 300 MB symbol SVG and a 300 MB rules text (its size declared, and
not), each downloaded by a fresh process as the bot downloads it, and the growth of that process's peak resident
memory measured (``tests/support/peak_memory.py``); and a rules host sending one byte every 5 s, timed until the
update gives up.

Targets: each 300 MB body refused, the process grown by ≤ 50 MB (before these caps: 739 MiB for the SVG, 672 MiB for
the rules); the dripping host let go within 60 s, in one line. Figures are medians of ``--runs`` runs.

Run from the project root: ``python benchmarks/bench_downloads.py [--runs N]``.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from _bench import Report, median  # noqa: E402

from bot.rules.editions.updater import UpdateError, update_rules  # noqa: E402
from tests.data import CR_DIR, SCRYFALL_CARDS  # noqa: E402
from tests.support.fake_scryfall import FakeScryfall  # noqa: E402
from tests.support.hostile_host import Body, Drip, HostileHost, Huge  # noqa: E402

HUGE = 300 * 1024 * 1024
TARGET_MB = 50.0
TARGET_DRIP_SECONDS = 60.0


def huge_svg():
    yield b'<svg xmlns="http://www.w3.org/2000/svg"><title>'
    for _ in range(HUGE // 65536):
        yield b"x" * 65536


def grown(kind: str, url: str, warm_url: str) -> tuple[float, str]:
    with tempfile.TemporaryDirectory() as folder:
        measured = subprocess.run(
            [sys.executable, "-m", "tests.support.peak_memory", kind, url, warm_url, folder],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        )
    figures = json.loads(measured.stdout)
    return figures["grew_mb"], figures["error"]


def main(runs: int) -> int:
    report = Report(f"Hostile bodies: memory and time (median of {runs} runs)")
    with FakeScryfall(SCRYFALL_CARDS) as scryfall, HostileHost() as host:
        scryfall.serve_symbol("G", stream=huge_svg)
        host.routes["/declared.txt"] = Huge(HUGE, declared=True)
        host.routes["/undeclared.txt"] = Huge(HUGE)
        host.routes["/warm.txt"] = Body(b"not the rules")
        host.routes["/drip.txt"] = Drip((CR_DIR / "MagicCompRules-2026-01-16.txt").read_bytes(), seconds=5.0)
        cases = {
            "300 MB symbol SVG": (
                "symbol",
                f"{scryfall.base_url}/card-symbols/G.svg",
                f"{scryfall.base_url}/card-symbols/U.svg",
            ),
            "300 MB rules, size declared": ("rules", f"{host.base_url}/declared.txt", f"{host.base_url}/warm.txt"),
            "300 MB rules, size not declared": (
                "rules",
                f"{host.base_url}/undeclared.txt",
                f"{host.base_url}/warm.txt",
            ),
        }
        for name, (kind, url, warm) in cases.items():
            results = [grown(kind, url, warm) for _ in range(runs)]
            report.add(f"{name}: the process grew", median([mb for mb, _ in results]), " MB", at_most=TARGET_MB)
            report.check(f"{name}: refused", all("more than" in error for _, error in results), results[0][1][:60])
        waits, lines = [], []
        for _ in range(runs):
            started = time.monotonic()
            with tempfile.TemporaryDirectory() as folder:
                try:
                    update_rules(Path(folder), f"{host.base_url}/drip.txt")
                except UpdateError as error:
                    lines.append(str(error))
            waits.append(time.monotonic() - started)
        report.add("a byte every 5 s: let go after", median(waits), " s", at_most=TARGET_DRIP_SECONDS)
        report.check("a byte every 5 s: one line", len(lines) == runs and all("\n" not in line for line in lines))
    report.print()
    return report.exit_code()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    raise SystemExit(main(parser.parse_args().runs))
