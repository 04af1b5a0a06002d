"""Making the mana symbols when the symbol host is hostile, broken or interrupted: a symbol that fails is skipped and
remembered for a day, each drawn symbol is kept at once, and a later start draws only what is missing."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

import bot.hosts.symbols
from bot.hosts import host_of
from bot.hosts.symbols import DIRECTORY, MANIFEST, MAX_SVG_BYTES, Kept, load, prepare
from bot.scryfall import ScryfallClient
from tests.data import CARD_SYMBOLS
from tests.support.fake_images import FakeImageHost
from tests.support.hostile_svgs import HOSTILE, local_image
from tests.support.processes import linux_only
from tests.support.waits import CEILING

ROOT = Path(__file__).resolve().parents[2]
ALL = 75


@pytest.fixture
async def client(fake_scryfall, data_dir):
    scryfall = ScryfallClient(fake_scryfall.base_url, data_dir)
    yield scryfall
    await scryfall.close()


def svg_requests(fake) -> list[str]:
    return [request.path for request in fake.requests if request.path.startswith("/card-symbols/")]


def manifest(data_dir: Path) -> dict:
    return json.loads((data_dir / DIRECTORY / MANIFEST).read_text(encoding="utf-8"))


@pytest.mark.parametrize("hostile", sorted(HOSTILE))
async def test_a_hostile_svg_leaves_its_symbol_as_text_and_every_other_one_drawn(
    hostile, fake_scryfall, client, data_dir, caplog
):
    fake_scryfall.serve_symbol("G", HOSTILE[hostile])
    with caplog.at_level(logging.WARNING, logger="bot.hosts.symbols"):
        async with asyncio.timeout(CEILING):
            images = await prepare(data_dir, client)

    assert len(images) == ALL - 1 and "{G}" not in images and "{U}" in images
    [line] = [r.getMessage() for r in caplog.records if r.name == "bot.hosts.symbols"]
    assert line.startswith("1 card symbol stays as text for a day: {G} (its SVG holds ")
    assert manifest(data_dir)["failed"]["mana_G"]["symbol"] == "{G}"


async def test_a_batch_of_refused_symbols_is_one_summary_line_at_start(fake_scryfall, client, data_dir, caplog):
    refused = ["W", "U", "B", "R", "G"]
    for name in refused:
        fake_scryfall.serve_symbol(name, local_image("/dev/zero"))
    with caplog.at_level(logging.DEBUG, logger="bot.hosts.symbols"):
        images = await prepare(data_dir, client)

    assert len(images) == ALL - len(refused)
    [line] = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert line.startswith("5 card symbols stay as text for a day: {W} (its SVG holds ")
    assert line.endswith("; and 2 more") and "{R}" not in line
    caplog.clear()
    assert len(await prepare(data_dir, client)) == ALL - len(refused)  # the next start, within the day
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]


async def test_a_local_file_named_by_a_symbol_is_never_drawn(fake_scryfall, client, data_dir, tmp_path):
    secret = tmp_path / "secret.png"
    Image.new("RGB", (100, 100), (255, 0, 255)).save(secret)  # magenta: in no real symbol
    for name in ("G", "U"):
        fake_scryfall.serve_symbol(name, local_image(str(secret), "xlink:href" if name == "U" else "href"))

    images = await prepare(data_dir, client)

    assert "{G}" not in images and "{U}" not in images
    for image in images.values():
        colours = Image.open(io.BytesIO(image.png())).convert("RGB").getcolors(maxcolors=1 << 16)
        assert (255, 0, 255) not in {colour for _, colour in colours}, image.symbol


async def test_a_symbol_listed_on_another_port_of_the_configured_host_is_never_asked(
    fake_scryfall, client, data_dir, monkeypatch
):
    listed = fake_scryfall._symbology

    def moved():
        status, symbology, headers = listed()
        for item in symbology["data"]:
            if item["symbol"] == "{G}":
                item["svg_uri"] = f"{elsewhere.base_url}/card-symbols/G.svg"  # the same machine, another port
        return status, symbology, headers

    with FakeImageHost() as elsewhere:
        monkeypatch.setattr(fake_scryfall, "_symbology", moved)
        images = await prepare(data_dir, client)

    assert len(images) == ALL - 1 and "{G}" not in images and elsewhere.requests == []
    why = manifest(data_dir)["failed"]["mana_G"]["why"]
    assert why == f"its SVG could not be downloaded (refusing {host_of(elsewhere.base_url)}: not an allowed host)"


async def test_a_failure_is_remembered_for_a_day_then_tried_again(fake_scryfall, client, data_dir):
    fake_scryfall.serve_symbol("G", HOSTILE["turbulence"])
    assert len(await prepare(data_dir, client)) == ALL - 1
    fake_scryfall.forget_symbols()  # the host is mended
    fake_scryfall.reset()

    again = await prepare(data_dir, client)  # within the day: nothing is asked for
    assert len(again) == ALL - 1 and fake_scryfall.requests == []

    kept = manifest(data_dir)
    kept["failed"]["mana_G"]["at"] -= 25 * 3600
    (data_dir / DIRECTORY / MANIFEST).write_text(json.dumps(kept), encoding="utf-8")
    later = await prepare(data_dir, client)

    assert len(later) == ALL and "{G}" in later
    assert svg_requests(fake_scryfall) == ["/card-symbols/G.svg"]
    assert manifest(data_dir)["failed"] == {}


async def test_symbols_are_kept_as_they_are_drawn_and_a_partial_set_is_finished_later(fake_scryfall, client, data_dir):
    started = asyncio.create_task(prepare(data_dir, client))
    async with asyncio.timeout(CEILING):
        while len(load(data_dir)) < bot.hosts.symbols.BATCH:  # noqa: ASYNC110 (files another task writes)
            await asyncio.sleep(0.01)
    started.cancel()  # the bot stopped half-way
    with pytest.raises(asyncio.CancelledError):
        await started
    partial = load(data_dir)
    assert bot.hosts.symbols.BATCH <= len(partial) < ALL
    assert Kept.read(data_dir).waiting(0.0), "a partial set is not taken for a complete one"
    fake_scryfall.reset()

    images = await prepare(data_dir, client)

    assert len(images) == ALL
    assert len(svg_requests(fake_scryfall)) == ALL - len(partial)
    assert not {f"/card-symbols/{Path(i.path).stem}.svg" for i in partial.values()} & set(svg_requests(fake_scryfall))


async def test_a_renderer_crash_costs_only_the_symbol_that_caused_it(fake_scryfall, client, data_dir, monkeypatch):
    from tests.support import sandboxed

    monkeypatch.setattr(bot.hosts.symbols, "render_many", sandboxed.draw_unless_told_to_crash)
    real = (CARD_SYMBOLS / "R.svg").read_bytes()
    fake_scryfall.serve_symbol("R", real.replace(b"<g", b"<title>crash</title><g", 1))

    images = await prepare(data_dir, client)

    assert len(images) == ALL - 1 and "{R}" not in images
    why = manifest(data_dir)["failed"]["mana_R"]["why"]
    assert why == "it could not be drawn: draw_unless_told_to_crash crashed (SIGSEGV)"


async def test_a_symbol_host_that_is_down_is_not_remembered_and_the_rest_waits(fake_scryfall, client, data_dir):
    fake_scryfall.fail_next(503, count=1000, path="^/card-symbols/")

    with pytest.raises(bot.hosts.symbols.SymbolsUnavailable, match="no symbol could be made"):
        await prepare(data_dir, client)

    assert len(svg_requests(fake_scryfall)) == bot.hosts.symbols.PASSING_FAILURES_IN_A_ROW
    assert manifest(data_dir)["failed"] == {}
    fake_scryfall.reset()
    assert len(await prepare(data_dir, client)) == ALL


async def test_a_symbol_larger_than_the_cap_is_refused_while_it_streams(fake_scryfall, client, data_dir):
    def endless():
        yield b'<svg xmlns="http://www.w3.org/2000/svg"><title>'
        while True:
            yield b"x" * 65536

    fake_scryfall.serve_symbol("G", stream=endless)

    images = await prepare(data_dir, client)

    assert len(images) == ALL - 1
    assert f"more than {MAX_SVG_BYTES} bytes" in manifest(data_dir)["failed"]["mana_G"]["why"]


@linux_only
def test_a_300_mb_symbol_grows_a_fresh_process_by_at_most_50_mb(fake_scryfall):
    def huge():
        yield b'<svg xmlns="http://www.w3.org/2000/svg"><title>'
        for _ in range(300 * 16):
            yield b"x" * 65536

    fake_scryfall.serve_symbol("G", stream=huge)
    measured = subprocess.run(
        [sys.executable, "-m", "tests.support.peak_memory", "symbol", f"{fake_scryfall.base_url}/card-symbols/G.svg"]
        + [f"{fake_scryfall.base_url}/card-symbols/U.svg", "-"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=2 * CEILING,
        check=True,
    )
    figures = json.loads(measured.stdout)
    assert figures["error"] == f"more than {MAX_SVG_BYTES} bytes"
    assert figures["grew_mb"] <= 50, figures


async def test_temporary_files_of_an_interrupted_drawing_are_removed_at_start(fake_scryfall, client, data_dir):
    folder = data_dir / DIRECTORY
    folder.mkdir()
    leftovers = [folder / ".mana_G.png.x1y2.tmp", folder / f".{MANIFEST}.a9b8.tmp", folder / f"{MANIFEST}.writing"]
    for leftover in leftovers:
        leftover.write_bytes(b"half")

    await prepare(data_dir, client)

    assert not any(leftover.exists() for leftover in leftovers)
