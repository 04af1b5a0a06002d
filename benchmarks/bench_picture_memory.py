"""What one goldfish table drawn from the largest card images the bot accepts costs the process in memory.

A hostile or broken image host can answer every card of a table with an image at the bot's limits (2048×2048
pixels, up to 2 MB). The table is drawn the bot's way: addresses from the local card data, bytes fetched by the
image cache from a fake image host on 127.0.0.1, decoded and drawn in a thread. Each measurement runs in a fresh
process: a first table drawn from ordinary card images warms everything up (fonts, codecs, connections), then the
same table is drawn again from a new cache whose host answers with the largest images, and the resident memory is
compared before and after (after a garbage collection). The process is set up as the bot sets up its own
(:func:`bot.runtime.memory.return_freed_memory`; ``--allocator-default`` leaves glibc's thresholds moving, for
comparison). Two kinds of largest image: a JPEG with detail everywhere just under 2 MB, and a PNG that compresses
to kilobytes (no reduced decode for PNG: every pixel is read).

Target: one table of the largest images grows the process by at most 20 MB (median of ``--runs`` runs each).

Run: ``python benchmarks/bench_picture_memory.py [--runs N] [--allocator-default]``
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks._bench import Report, median  # noqa: E402

TARGET_GROWTH_MB = 20.0
KINDS = ("jpeg", "png")


def resident_mb() -> tuple[float, float]:
    """The process's resident memory now and at its peak, in MB."""
    found = {}
    with open("/proc/self/status") as status:
        for line in status:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                found[key] = int(value.split()[0]) / 1024
    return found["VmRSS"], found["VmHWM"]


async def one_table(kind: str, allocator_default: bool) -> dict[str, float]:
    from bot.carddb.service import CardData
    from bot.goldfish.decks import preset_decks
    from bot.goldfish.engine import Game
    from bot.goldfish.practice import policy_step
    from bot.goldfish.table import CardImageSource, render_table, table_view
    from bot.hosts.images import CardImages
    from bot.runtime.memory import return_freed_memory
    from tests.support.fake_images import FakeImageHost, card_jpeg, huge_jpeg, huge_png, import_cards_on

    if not allocator_default:
        return_freed_memory()  # as the bot does when it starts
    largest = {"jpeg": huge_jpeg, "png": huge_png}[kind]
    game = Game.new(preset_decks()["slide"], seed=3)
    while game.phase != "over" and game.turn < 6:
        policy_step(game)
    view = table_view(game)
    with tempfile.TemporaryDirectory() as temp, FakeImageHost(maker=card_jpeg) as host:
        folder = Path(temp)
        import_cards_on(host, folder)
        card_data = await CardData.open(folder, host.base_url)
        made = {}  # the largest images made before measuring, so making them is not counted

        def serve(path: str) -> bytes:
            return made[path] if path in made else card_jpeg(path)

        host.maker = serve
        try:
            warm = await CardImages.open(folder / "warm", host.base_url)
            images = await CardImageSource(card_data, warm).images(view.keys())
            assert images, "the warm-up table had no images"
            await asyncio.to_thread(render_table, view, images)
            await warm.close()
            del images, warm
            for path in {request.path.split("?")[0] for request in host.requests}:
                made[path] = largest(path)
            gc.collect()
            before, _ = resident_mb()
            cache = await CardImages.open(folder / "largest", host.base_url)
            images = await CardImageSource(card_data, cache).images(view.keys())
            assert images is not None and len(host.requests) == 2 * len(made), "images missing"
            picture = await asyncio.to_thread(render_table, view, images)
            del images
            gc.collect()
            after, peak = resident_mb()
            await cache.close()
        finally:
            await card_data.close()
    return {
        "growth": after - before,
        "peak_over": peak - before,
        "cards": len(made),
        "source_mb": sum(len(data) for data in made.values()) / 1e6,
        "picture_kb": len(picture) / 1024,
    }


def child(kind: str, allocator_default: bool) -> None:
    print(json.dumps(asyncio.run(one_table(kind, allocator_default))))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--allocator-default", action="store_true", help="leave glibc's thresholds moving")
    parser.add_argument("--child", choices=KINDS, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.allocator_default)
        return 0
    report = Report(f"One goldfish table of the largest accepted card images, medians of {args.runs} runs")
    for kind in KINDS:
        runs = []
        for _ in range(args.runs):
            done = subprocess.run(
                [
                    sys.executable,
                    __file__,
                    "--child",
                    kind,
                    *(["--allocator-default"] if args.allocator_default else []),
                ],
                capture_output=True,
                text=True,
                cwd=ROOT,
                env={**os.environ, "PYTHONPATH": str(ROOT)},
            )
            if done.returncode:
                print(done.stderr, file=sys.stderr)
                raise SystemExit(f"the {kind} run failed")
            runs.append(json.loads(done.stdout.strip().splitlines()[-1]))
            print(f"{kind}: {runs[-1]}", flush=True)
        first = runs[0]
        name = f"{first['cards']} cards, 2048² {kind.upper()} ({first['source_mb']:.1f} MB of sources)"
        report.add(f"{name}: growth", median([r["growth"] for r in runs]), " MB", at_most=TARGET_GROWTH_MB)
        report.add(f"{name}: peak over the start", median([r["peak_over"] for r in runs]), " MB")
    report.print()
    return report.exit_code()


if __name__ == "__main__":
    raise SystemExit(main())
