"""Draw the goldfish table picture over real games, with the card images already at hand (a warm cache).

The mana symbols are drawn from their pictures (Scryfall's SVGs rendered as the bot renders them).

Targets: rendering (view + drawing + WebP encoding) ≤ 150 ms at the 99th percentile with a warm cache; the
smallest text at least 10 px when the picture is shown 360 px wide (a phone); every
picture ≤ 1 MB; memory bounded over 1,000 games, each drawn with images never seen before (the decoded-image
cache and the image cache's memory stay within their caps: resident memory grows by at most 40 MB between the
100th and the 1,000th game). The card images are card-sized JPEGs with a noisy art box, at least as hard to
encode as Scryfall's ``small`` images. Games are played by the simulation's policy, seeded.

Run: ``python benchmarks/bench_goldfish_picture.py``
"""

from __future__ import annotations

import gc
import io
import json
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from PIL import Image, ImageDraw, ImageFilter  # noqa: E402

from benchmarks._bench import Report, median, percentile  # noqa: E402
from bot.goldfish.decks import preset_decks  # noqa: E402
from bot.goldfish.engine import Game  # noqa: E402
from bot.goldfish.practice import policy_step  # noqa: E402
from bot.goldfish.table import MAX_BYTES, PHONE_WIDTH, CardKey, draw_table, render_table, table_view  # noqa: E402
from bot.hosts.images import CardImages  # noqa: E402
from bot.hosts.svg import render_png  # noqa: E402
from tests.data import CARD_SYMBOLS, SYMBOLOGY  # noqa: E402

TIMED_GAMES = 30  # per deck
TURNS = 10
MEMORY_GAMES = 1000
TARGET_P99_MS = 150.0
TARGET_GROWTH_MB = 40.0
_BLUR = ImageFilter.GaussianBlur(1.2)


def card_jpeg(seed: int) -> bytes:
    """A 146×204 card: a frame, a title bar, a noisy art box and text lines (about a real small image's size)."""
    rng = random.Random(seed)
    image = Image.new("RGB", (146, 204), tuple(rng.randrange(60, 200) for _ in range(3)))
    draw = ImageDraw.Draw(image)
    draw.rectangle((6, 6, 139, 20), fill=(235, 230, 215))
    art = Image.frombytes("RGB", (130, 92), rng.randbytes(130 * 92 * 3)).filter(_BLUR)
    image.paste(art, (8, 24))
    for line in range(6):
        draw.line((10, 130 + line * 10, 10 + rng.randrange(60, 125), 130 + line * 10), fill=(30, 30, 30), width=2)
    out = io.BytesIO()
    image.save(out, "JPEG", quality=85)
    return out.getvalue()


def rss_mb() -> float:
    with open("/proc/self/statm") as statm:
        pages = int(statm.read().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 1e6


def games(key: str, count: int, seed_base: int):
    """Seeded games of ``key`` played by the policy; yields each game after every action, up to ``TURNS``."""
    for seed in range(seed_base, seed_base + count):
        game = Game.new(preset_decks()[key], seed=seed)
        while game.phase != "over" and game.turn <= TURNS:
            policy_step(game)
            yield game


def symbol_pngs() -> dict[str, bytes]:
    """Every mana symbol's picture, rendered from Scryfall's real SVGs the way the bot renders them."""
    return {
        item["symbol"]: render_png((CARD_SYMBOLS / item["svg_uri"].rsplit("/", 1)[1]).read_bytes())
        for item in json.loads(SYMBOLOGY.read_text(encoding="utf-8"))["data"]
    }


def timed(report: Report) -> None:
    images: dict[CardKey, bytes] = {}
    symbols = symbol_pngs()
    smallest: list[float] = []
    times, sizes = [], []
    for key in preset_decks():
        for name in preset_decks()[key].cards:
            images[CardKey(name)] = card_jpeg(hash(name) & 0xFFFF)
        for game in games(key, 2, 10_000):  # warm-up: every card decoded and scaled once
            render_table(table_view(game), images, symbols=symbols)
        for index, game in enumerate(games(key, TIMED_GAMES, 0)):
            if index % 3:
                continue  # a third of the positions is plenty, and keeps the run short
            start = time.perf_counter()
            data = render_table(table_view(game), images, symbols=symbols)
            times.append((time.perf_counter() - start) * 1000)
            sizes.append(len(data))
            if index % 30 == 0:  # the layout's smallest text, as a phone 360 px wide shows it
                smallest.append(draw_table(table_view(game), images, symbols).smallest_font_at(PHONE_WIDTH))
    report.add("renders timed", len(times))
    report.add("render median", median(times), " ms")
    report.add("render p99 (warm cache)", percentile(times, 0.99), " ms", at_most=TARGET_P99_MS)
    report.add("picture median", median(sizes) / 1024, " KB")
    report.add("picture largest", max(sizes) / 1024, " KB", at_most=MAX_BYTES / 1024)
    report.add(f"smallest text at {PHONE_WIDTH} px wide", min(smallest), " px", at_least=10)


def memory(report: Report) -> None:
    """1,000 games, each drawn once with images it alone has: the caches must stay within their caps."""
    cache = CardImages(Path("/nonexistent"), (), memory_bytes=8 * 1024 * 1024)
    decks = list(preset_decks())
    marks = {}
    largest = 0
    for index in range(MEMORY_GAMES):
        key = decks[index % len(decks)]
        game = Game.new(preset_decks()[key], seed=50_000 + index)
        while game.phase != "over" and game.turn < 4:
            policy_step(game)
        view = table_view(game)
        images = {card: card_jpeg(index * 1000 + n) for n, card in enumerate(sorted(view.keys(), key=str))}
        for card, data in images.items():
            cache._remember(f"https://cards.scryfall.io/small/{index}/{card.name}.jpg", data)
        largest = max(largest, len(render_table(view, images)))
        if index + 1 in (100, MEMORY_GAMES):
            gc.collect()
            marks[index + 1] = rss_mb()
    report.add("resident memory after 100 games", marks[100], " MB")
    report.add(f"resident memory after {MEMORY_GAMES} games", marks[MEMORY_GAMES], " MB")
    report.add("growth", marks[MEMORY_GAMES] - marks[100], " MB", at_most=TARGET_GROWTH_MB)
    report.check("image cache within its memory cap", cache._memory.size <= cache.memory_bytes)
    report.add("largest picture over those games", largest / 1024, " KB", at_most=MAX_BYTES / 1024)


def main() -> int:
    report = Report("Goldfish table picture: rendering with a warm cache, size, memory over 1,000 games")
    timed(report)
    memory(report)
    report.print()
    return report.exit_code()


if __name__ == "__main__":
    raise SystemExit(main())
