"""/rule while a hostile symbol host's SVGs are drawn: the real bot process (``python -m bot``) against the fake
Discord on 127.0.0.1, making its mana emoji from a fake Scryfall that serves four hostile SVGs: a turbulence filter
of two billion octaves for {G} (it froze the bot's event loop), 8,800 nested groups for {U} (it crashed the
process), an image of /dev/zero for {B} (it read 2 GB), and for {R} a circle stroked with half a million dashes,
which passes the allowlist and costs minutes of CPU. A player asks ``/rule 702.29`` every 0.2 s meanwhile, and the
time from the interaction reaching the bot to its answer is measured, as are the gaps between gateway heartbeats
(sent every 0.5 s).

Two ways, each run ``--runs`` times (median of the runs' figures):

* **as shipped**: the allowlist refuses three SVGs, the sandbox stops the dashes at its CPU cap and draws the 71
  others;
* **sandbox alone**: the allowlist is taken out (``benchmarks/_unchecked_bot.py``), so resvg draws the hostile SVGs
  too, in its sandboxed child: the turbulence and the dashes until their CPU cap, the nesting until it crashes,
  /dev/zero until its memory limit. What the bot would face from a hostile SVG the allowlist did not foresee.

Targets, both ways: ``/rule`` p99 ≤ 1 s while the symbols are drawn; the bot stays up; 71 symbols uploaded; no
heartbeat gap over 3 s. Reported: how long the 75 symbols took.

And what Scryfall's real symbols (``tests/data``) cost to draw, the figures the sandbox's CPU cap is set from: each
symbol drawn in this process (CPU time, best of 5), and each batch of 15 drawn in a sandboxed child as the bot draws
them (the child's CPU time, its interpreter's start included). Target: the costliest batch within half the cap.

Run from the project root: ``python benchmarks/bench_symbols.py [--runs N]``.
"""

from __future__ import annotations

import argparse
import asyncio
import resource
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import discord  # noqa: E402, F401  (imported before the fakes, as the tests do)
from _bench import Report, median, percentile  # noqa: E402

from bot.hosts.svg import render_many, render_png, sanitise  # noqa: E402
from bot.hosts.symbols import BATCH, DRAW_LIMITS  # noqa: E402
from bot.runtime import run_limited_sync  # noqa: E402
from tests.data import CARD_SYMBOLS, SCRYFALL_CARDS  # noqa: E402
from tests.support.fake_discord import FakeDiscord  # noqa: E402
from tests.support.fake_scryfall import FakeScryfall  # noqa: E402
from tests.support.hostile_svgs import DASHES, TURBULENCE, local_image, nested_groups  # noqa: E402
from tests.wire.conftest import TOKEN, bot_environment  # noqa: E402

HOSTILE = {"G": TURBULENCE, "U": nested_groups(), "B": local_image("/dev/zero"), "R": DASHES}
SYMBOLS = 75
ASK_EVERY = 0.2
HEARTBEAT_MS = 500
TARGET_P99 = 1.0
TARGET_GAP = 3.0
CEILING = 300.0


async def ask_rule(fake: FakeDiscord) -> float:
    options = [{"name": "query", "type": 3, "value": "702.29"}]
    sent = time.perf_counter()
    interaction = await fake.send_interaction(fake.command_interaction("rule", options=options))
    answer = await fake.callback(interaction)
    took = time.perf_counter() - sent
    if answer["type"] == 5:
        await fake.followup(interaction)
        took = time.perf_counter() - sent
    return took


async def one_run(unchecked: bool) -> dict:
    fake = await FakeDiscord(TOKEN).start()
    fake.heartbeat_interval = HEARTBEAT_MS
    fake.wait_timeout = CEILING
    with FakeScryfall(SCRYFALL_CARDS) as scryfall, tempfile.TemporaryDirectory() as folder:
        for name, svg in HOSTILE.items():
            scryfall.serve_symbol(name, svg)
        env = bot_environment(fake, Path(folder) / "data", SCRYFALL_API_URL=scryfall.base_url, LOG_LEVEL="WARNING")
        env |= {"MANA_EMOJI": "1", "CARD_DATA_AUTO_UPDATE": "0", "RULES_AUTO_UPDATE": "0"}
        program = [str(ROOT / "benchmarks" / "_unchecked_bot.py")] if unchecked else ["-m", "bot"]
        with (Path(folder) / "bot.err").open("wb") as err:
            bot = await asyncio.create_subprocess_exec(
                sys.executable, *program, cwd=folder, env=env, stdin=asyncio.subprocess.DEVNULL, stderr=err
            )
        try:
            await fake.wait_until_connected()
            await fake.wait_for(lambda r: r.method == "PUT" and r.path.endswith("/commands"))
            started = time.monotonic()
            times = []
            while len(fake.application_emojis) < SYMBOLS - len(HOSTILE):
                if bot.returncode is not None or time.monotonic() - started > CEILING:
                    break
                times.append(await ask_rule(fake))
                await asyncio.sleep(ASK_EVERY)
            drawn = time.monotonic() - started
            beats = [at for at in fake.heartbeats if at >= started]
            gaps = [b - a for a, b in zip([started, *beats], [*beats, time.monotonic()], strict=True)]
            return {
                "p99": percentile(times, 0.99) if times else float("inf"),
                "p50": percentile(times, 0.5) if times else float("inf"),
                "samples": len(times),
                "gap": max(gaps),
                "up": bot.returncode is None,
                "uploaded": len(fake.application_emojis),
                "seconds": drawn,
            }
        finally:
            if bot.returncode is None:
                bot.terminate()
                await bot.wait()
            await fake.close()


def cpu_seconds(who: int) -> float:
    used = resource.getrusage(who)
    return used.ru_utime + used.ru_stime


def real_symbols_cost() -> dict:
    """What Scryfall's real symbols cost to draw: each in this process (best of 5), each batch in a sandboxed
    child as the bot draws them."""
    svgs = [sanitise(path.read_bytes()) for path in sorted(CARD_SYMBOLS.glob("*.svg"))]
    each = []
    for svg in svgs:
        runs = []
        for _ in range(5):
            started = cpu_seconds(resource.RUSAGE_SELF)
            render_png(svg)
            runs.append(cpu_seconds(resource.RUSAGE_SELF) - started)
        each.append(min(runs))
    batches = []
    for start in range(0, len(svgs), BATCH):
        started = cpu_seconds(resource.RUSAGE_CHILDREN)
        run_limited_sync(render_many, svgs[start : start + BATCH], limits=DRAW_LIMITS)
        batches.append(cpu_seconds(resource.RUSAGE_CHILDREN) - started)
    return {"count": len(svgs), "median": median(each), "most": max(each), "batches": batches}


async def main(runs: int) -> int:
    report = Report(f"/rule while four hostile symbol SVGs are drawn (median of {runs} runs)")
    cost = real_symbols_cost()
    report.add(f"Scryfall's {cost['count']} real symbols: one drawn, median", cost["median"] * 1000, " ms")
    report.add("Scryfall's real symbols: the costliest one drawn", cost["most"] * 1000, " ms")
    report.add(f"a child drawing {BATCH} real symbols: least CPU", min(cost["batches"]), " s")
    most = max(cost["batches"])
    report.add(f"a child drawing {BATCH} real symbols: most CPU", most, " s", at_most=DRAW_LIMITS.cpu / 2)
    for unchecked, way in ((False, "as shipped"), (True, "sandbox alone")):
        results = [await one_run(unchecked) for _ in range(runs)]
        report.add(f"{way}: /rule p99", median([r["p99"] for r in results]), " s", at_most=TARGET_P99)
        report.add(f"{way}: /rule p50", median([r["p50"] for r in results]), " s")
        report.add(f"{way}: /rule answers measured", min(r["samples"] for r in results), "", at_least=10)
        report.add(f"{way}: longest heartbeat gap", median([r["gap"] for r in results]), " s", at_most=TARGET_GAP)
        uploaded = min(r["uploaded"] for r in results)
        report.add(f"{way}: symbols uploaded", uploaded, "", at_least=SYMBOLS - len(HOSTILE))
        report.check(f"{way}: the bot stayed up", all(r["up"] for r in results))
        report.add(f"{way}: the 75 symbols took", median([r["seconds"] for r in results]), " s")
    report.print()
    return report.exit_code()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    raise SystemExit(asyncio.run(main(parser.parse_args().runs)))
