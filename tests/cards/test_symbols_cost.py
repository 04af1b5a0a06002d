"""Symbols cost what they are worth: an SVG that passes the allowlist and still takes all of its CPU to draw is drawn
once and remembered by its digest (downloaded again after a day, never drawn again unless it changes), and the
drawing stops after three such symbols, the rest waiting for the next start."""

from __future__ import annotations

import hashlib
import json
import logging
from dataclasses import replace

import pytest

import bot.hosts.symbols
from bot.hosts.svg import sanitise
from bot.hosts.symbols import COSTLY_PER_START, DIRECTORY, DRAW_LIMITS, MANIFEST, Kept, SymbolsUnavailable, prepare
from bot.runtime import SandboxError
from bot.scryfall import ScryfallClient
from tests.support.hostile_svgs import DASHES

COSTLY = {"{T}": "tap", "{Q}": "untap", "{E}": "energy", "{PW}": "planeswalker"}


@pytest.fixture
async def client(fake_scryfall, data_dir):
    scryfall = ScryfallClient(fake_scryfall.base_url, data_dir)
    yield scryfall
    await scryfall.close()


@pytest.fixture
def draws(monkeypatch) -> list[int]:
    """How many symbols each sandboxed child was asked to draw, in order."""
    counted: list[int] = []
    real = bot.hosts.symbols.run_limited

    async def counting(func, svgs, *, limits):
        counted.append(len(svgs))
        return await real(func, svgs, limits=limits)

    monkeypatch.setattr(bot.hosts.symbols, "run_limited", counting)
    return counted


def listing(fake, monkeypatch, symbols: list[str]) -> None:
    """The fake's symbology, cut down to ``symbols`` (drawing all 75 again would only cost the suite time)."""
    real = fake._symbology

    def cut():
        status, symbology, headers = real()
        symbology["data"] = [item for item in symbology["data"] if item["symbol"] in symbols]
        return status, symbology, headers

    monkeypatch.setattr(fake, "_symbology", cut)


def manifest(data_dir) -> dict:
    return json.loads((data_dir / DIRECTORY / MANIFEST).read_text(encoding="utf-8"))


def a_day_later(data_dir) -> None:
    kept = manifest(data_dir)
    for item in kept["failed"].values():
        item["at"] -= 25 * 3600
    (data_dir / DIRECTORY / MANIFEST).write_text(json.dumps(kept), encoding="utf-8")


def svg_requests(fake) -> list[str]:
    return [request.path for request in fake.requests if request.path.startswith("/card-symbols/")]


async def test_an_svg_that_takes_all_of_its_cpu_is_drawn_once_and_remembered_by_its_digest(
    fake_scryfall, client, data_dir, draws, monkeypatch, caplog
):
    monkeypatch.setattr(bot.hosts.symbols, "DRAW_LIMITS", replace(DRAW_LIMITS, cpu=1))  # the least a limit can be
    listing(fake_scryfall, monkeypatch, ["{T}", "{E}"])
    fake_scryfall.serve_symbol("E", DASHES)

    with caplog.at_level(logging.WARNING, logger="bot.hosts.symbols"):
        images = await prepare(data_dir, client)

    assert sorted(images) == ["{T}"]
    assert draws == [2, 1, 1], "the batch, then each symbol alone: only the culprit fails"
    failed = manifest(data_dir)["failed"]["energy"]
    assert failed["why"] == "drawing it took all of its 1 s of CPU"
    assert failed["costly"] == hashlib.sha256(sanitise(DASHES)).hexdigest()
    assert [r.getMessage() for r in caplog.records] == [
        "1 card symbol stays as text for a day: {E} (drawing it took all of its 1 s of CPU)"
    ]

    fake_scryfall.reset()
    assert sorted(await prepare(data_dir, client)) == ["{T}"]  # within the day: nothing asked, nothing drawn
    assert svg_requests(fake_scryfall) == [] and len(draws) == 3

    a_day_later(data_dir)
    assert sorted(await prepare(data_dir, client)) == ["{T}"]
    assert svg_requests(fake_scryfall) == ["/card-symbols/E.svg"], "its SVG is asked for again"
    assert len(draws) == 3, "the same SVG: not drawn again"
    assert manifest(data_dir)["failed"]["energy"]["at"] > failed["at"], "and remembered for another day"

    fake_scryfall.forget_symbols()  # Scryfall's own SVG again: a change, so it is drawn
    a_day_later(data_dir)
    assert sorted(await prepare(data_dir, client)) == ["{E}", "{T}"]
    assert manifest(data_dir)["failed"] == {}


async def test_the_drawing_stops_after_three_symbols_that_take_all_of_their_cpu(
    fake_scryfall, client, data_dir, monkeypatch, caplog
):
    listed = [*COSTLY, "{CHAOS}", "{A}"]
    listing(fake_scryfall, monkeypatch, listed)
    for symbol in COSTLY:
        fake_scryfall.serve_symbol(symbol.strip("{}"), DASHES)
    real = bot.hosts.symbols.run_limited

    async def spent(func, svgs, *, limits):
        # What the sandbox answers for a child that used all of its CPU (as the test above sees it do for real),
        # without spending it four times over.
        if sanitise(DASHES) in svgs:
            raise SandboxError("cpu", f"render_many used more than {limits.cpu} s of CPU")
        return await real(func, svgs, limits=limits)

    monkeypatch.setattr(bot.hosts.symbols, "run_limited", spent)

    with caplog.at_level(logging.WARNING, logger="bot.hosts.symbols"), pytest.raises(SymbolsUnavailable):
        await prepare(data_dir, client)

    failed = manifest(data_dir)["failed"]
    assert sorted(failed) == sorted(list(COSTLY.values())[:COSTLY_PER_START]) and all(
        item["costly"] for item in failed.values()
    )
    assert Kept.read(data_dir).waiting(0.0) == ["planeswalker", "chaos", "acorn"], "the rest waits, not failed"
    assert caplog.records[-1].getMessage() == (
        "Drawing the mana symbols stopped (3 of them took all of their CPU to draw): the rest waits for the next start"
    )


async def test_a_machine_too_busy_to_draw_in_time_holds_nothing_against_the_symbols(
    fake_scryfall, client, data_dir, monkeypatch, caplog
):
    listing(fake_scryfall, monkeypatch, [*COSTLY, "{CHAOS}", "{A}"])

    async def out_of_time(func, svgs, *, limits):
        raise SandboxError("timeout", f"render_many took more than {limits.wall:g} s")

    monkeypatch.setattr(bot.hosts.symbols, "run_limited", out_of_time)
    with caplog.at_level(logging.WARNING, logger="bot.hosts.symbols"), pytest.raises(SymbolsUnavailable):
        await prepare(data_dir, client)

    assert manifest(data_dir)["failed"] == {} and len(Kept.read(data_dir).waiting(0.0)) == 6
    assert [r.getMessage() for r in caplog.records] == [
        f"Drawing the mana symbols stopped (the machine was too busy to draw them within {DRAW_LIMITS.wall:g} s): "
        "the rest waits for the next start"
    ]
