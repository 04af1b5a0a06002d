"""Players' decks on a synthetic 35,000-card copy (Scryfall's size): reading a list and finding its cards, and a long
list pasted in /deck save's form then played.

* Parse + resolve, in every format a deck comes in (Arena, MTGO text as UTF-16, MTGO's .dek, Moxfield, one line,
  CSV, TappedOut, Archidekt's JSON), for 60-card lists (15 cards × 4) and 100-card ones (a commander and 99
  singletons), each format's bytes read as the bot reads them (a file's decoding included): p99 ≤ 50 ms of the
  process's CPU time (the card data's read thread included), since this machine is shared; the wall clock is
  reported too, and the median over every format. A list with three one-letter typos (looked up by the fuzzy step
  and read as their cards) is reported as well, with the share of its typos read as their card (the rest were as
  close to another card).
* A 100-card list pasted in the form of ``/deck save`` through discord.py (simcord), saved, then
  ``/goldfish start deck:`` from it: ≤ 1 s for both, measured around simcord's operations (so the bot's own time is
  at most this), p99 over the samples.

Parse + resolve runs with the printed names of all ten languages loaded (a synthetic index of Scryfall's size:
``_synthetic_all_cards.write_printed_index``), the resolver asking them after the local copy as the bot does, their
typos read by the one name matcher. 60-card lists written in printed names (each list in one language, Arena's
format) are timed too, against the same 50 ms, and lists with three one-letter typos of Latin or Cyrillic printed
names are reported with the share read as their card. The form's bot runs without them: simcord gives a bot's start
5 s to settle, and the matcher of ten languages' names takes longer to build (an English list never asks them).

Run from the project root: ``python benchmarks/bench_decks.py [--runs N] [--lists N] [--samples N]``; figures are
medians over the runs.
"""

from __future__ import annotations

import argparse
import asyncio
import csv
import io
import random
import shutil
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import orjson  # noqa: E402
import simcord  # noqa: E402
from _bench import Report, median, percentile  # noqa: E402
from _synthetic_all_cards import write_printed_index  # noqa: E402
from _synthetic_bulk import FULL_SIZE, synthetic_copy  # noqa: E402

from bot.carddb import FILE_NAME, CardData  # noqa: E402
from bot.carddb.printed import ALL  # noqa: E402
from bot.carddb.printed import FILE_NAME as PRINTED_FILE  # noqa: E402
from bot.carddb.update import update_from_file  # noqa: E402
from bot.cards.matchers import Matchers  # noqa: E402
from bot.client import CycleBot  # noqa: E402
from bot.config import Config  # noqa: E402
from bot.goldfish.decks import (  # noqa: E402
    DeckResolver,
    LocalCards,
    PrintedCards,
    parse_decklist,
    read_file,
    read_list,
)
from bot.goldfish.decks.sites import archidekt_list  # noqa: E402
from bot.text import fold, unspaced  # noqa: E402

TARGET_RESOLVE_MS = 50.0
TARGET_FORM_SECONDS = 1.0
Deck = dict[str, list[tuple[int, str]]]  # "commander", "main", "sideboard"


def arena(deck: Deck) -> bytes:
    parts = []
    for header, section in (("Commander", "commander"), ("Deck", "main"), ("Sideboard", "sideboard")):
        if deck[section]:
            parts += [header, *(f"{n} {name} (XYZ) {i + 1}" for i, (n, name) in enumerate(deck[section])), ""]
    return "\n".join(parts).encode()


def mtgo_text(deck: Deck) -> bytes:
    main = [f"{n} {name}" for n, name in deck["commander"] + deck["main"]]
    return "\r\n".join([*main, "", *(f"{n} {name}" for n, name in deck["sideboard"])]).encode("utf-16")


def mtgo_dek(deck: Deck) -> bytes:
    rows = [(n, name, "false") for n, name in deck["commander"] + deck["main"]]
    rows += [(n, name, "true") for n, name in deck["sideboard"]]
    cards = "".join(f'<Cards CatID="1" Quantity="{n}" Sideboard="{side}" Name="{name}" />' for n, name, side in rows)
    return f'<?xml version="1.0" encoding="utf-8"?>\n<Deck>{cards}</Deck>'.encode()


def moxfield(deck: Deck) -> bytes:
    main = [f"{n}x {name}" for n, name in deck["commander"] + deck["main"]]
    return "\n".join([*main, "", "SIDEBOARD:", *(f"{n}x {name}" for n, name in deck["sideboard"])]).encode()


def one_line(deck: Deck) -> bytes:
    main = ", ".join(f"{n} {name}" for n, name in deck["commander"] + deck["main"])
    return (main + ", Sideboard: " + ", ".join(f"{n} {name}" for n, name in deck["sideboard"])).encode()


def csv_export(deck: Deck) -> bytes:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["Quantity", "Name", "Set Code", "Categories"])
    for section in ("commander", "main", "sideboard"):
        writer.writerows([n, name, "xyz", section] for n, name in deck[section])
    return out.getvalue().encode()


def tappedout(deck: Deck) -> bytes:
    lines = [f"{n}x {name} *CMDR*" for n, name in deck["commander"]] + [f"{n}x {name}" for n, name in deck["main"]]
    return "\n".join([*lines, "", "Sideboard:", *(f"{n}x {name}" for n, name in deck["sideboard"])]).encode()


def archidekt(deck: Deck) -> bytes:
    kinds = {"commander": "Commander", "main": "Creature", "sideboard": "Sideboard"}
    categories = [{"name": "Commander", "isPremier": True, "includedInDeck": True}]
    categories += [{"name": "Sideboard", "isPremier": False, "includedInDeck": False}]
    cards = [
        {"quantity": n, "categories": [kinds[section]], "card": {"oracleCard": {"name": name}}}
        for section in kinds
        for n, name in deck[section]
    ]
    return orjson.dumps({"name": "bench", "categories": categories, "cards": cards})


FORMATS: dict[str, tuple[Callable[[Deck], bytes], Callable[[bytes], object]]] = {
    "Arena": (arena, lambda data: read_file("deck.txt", data)),
    "MTGO text, UTF-16": (mtgo_text, lambda data: read_file("deck.txt", data)),
    "MTGO .dek": (mtgo_dek, lambda data: read_file("deck.dek", data)),
    "Moxfield": (moxfield, lambda data: read_file("deck.txt", data)),
    "one line": (one_line, lambda data: read_list(data.decode())),
    "CSV": (csv_export, lambda data: read_file("deck.csv", data)),
    "TappedOut": (tappedout, lambda data: parse_decklist(data.decode())),
    "Archidekt": (archidekt, archidekt_list),
}


def sixty(names: list[str], rng: random.Random) -> Deck:
    picked = rng.sample(names, 18)
    return {"commander": [], "main": [(4, n) for n in picked[:15]], "sideboard": [(1, n) for n in picked[15:]]}


def hundred(names: list[str], rng: random.Random) -> Deck:
    picked = rng.sample(names, 100)
    return {"commander": [(1, picked[0])], "main": [(1, n) for n in picked[1:]], "sideboard": []}


def with_typos(deck: Deck, rng: random.Random) -> Deck:
    main = list(deck["main"])
    for index in rng.sample(range(len(main)), 3):
        count, name = main[index]
        cut = rng.randrange(1, len(name) - 1)
        main[index] = (count, name[:cut] + name[cut + 1 :])
    return deck | {"main": main}


def unique_printed(written, english: list[str]) -> dict[str, list[str]]:
    """By language, the printed names exactly one card has (a name several share is offered, never read) and no
    English name is."""
    cards: dict[str, set[str]] = {}
    for pairs in written.names.values():
        for oracle, name in pairs:
            cards.setdefault(fold(name), set()).add(oracle)
    taken = {fold(name) for name in english}
    return {
        lang: sorted(name for _, name in pairs if len(cards[fold(name)]) == 1 and fold(name) not in taken)
        for lang, pairs in written.names.items()
    }


async def printed_lists(resolver: DeckResolver, printed: dict[str, list[str]], lists: int, rng: random.Random):
    """Lists in printed names (one language each) and with three typos of Latin or Cyrillic ones: their p99 (CPU),
    and the share of the typos read as their card."""
    times, typo_times, read = [], [], 0
    for _ in range(lists):
        lang = rng.choice(sorted(printed))
        deck = sixty(printed[lang], rng)
        started = time.process_time()
        resolved = await resolver.resolve(read_file("deck.txt", arena(deck)), "printed")
        times.append(time.process_time() - started)
        if resolved.count() != 60:
            raise RuntimeError(f"a printed list came back with {resolved.counts_text()}")
    spaced = [lang for lang in sorted(printed) if not unspaced(printed[lang][0])]
    for _ in range(max(1, lists // 4)):
        deck = sixty(printed[rng.choice(spaced)], rng)
        lines = read_list(arena(with_typos(deck, rng)).decode()).lines
        started = time.process_time()
        _, readings = await resolver.cards([line.name for line in lines])
        typo_times.append(time.process_time() - started)
        read += sum(1 for reading in readings if reading.read_as is not None)
    return percentile(times, 0.99), percentile(typo_times, 0.99), read / (3 * len(typo_times))


async def resolving(
    data_dir: Path, names: list[str], printed: dict[str, list[str]], lists: int, rng: random.Random
) -> dict[str, float]:
    card_data = await CardData.open(data_dir, "http://127.0.0.1:9", languages=(ALL,))
    matchers = Matchers(lambda: card_data)
    figures: dict[str, float] = {}
    try:
        started = time.perf_counter()
        if not card_data.printed.loaded or await matchers.current() is None:
            raise RuntimeError("the printed names or the name matcher did not load")
        figures["matcher"] = time.perf_counter() - started
        resolver = DeckResolver([LocalCards(card_data), PrintedCards(card_data, matchers.printed)])
        await resolver.resolve(read_list("4 " + names[0]), "warm")  # the first read opens the copy's connection
        started = time.perf_counter()
        await resolver.cards([names[1][:-1]])  # the first typo builds the fuzzy index, once for the copy
        figures["first typo"] = time.perf_counter() - started
        for size, make in (("60", sixty), ("100", hundred)):
            decks = [make(names, rng) for _ in range(lists)]
            every: list[float] = []
            for kind, (written, read) in FORMATS.items():
                times = []
                for deck in decks:
                    data = written(deck)
                    started, cpu = time.perf_counter(), time.process_time()
                    resolved = await resolver.resolve(read(data), "bench")
                    times.append((time.process_time() - cpu, time.perf_counter() - started))
                    if resolved.count() + resolved.count("commander") != (60 if size == "60" else 100):
                        raise RuntimeError(f"{kind}: a {size}-card list came back with {resolved.counts_text()}")
                figures[f"{size} {kind}"] = percentile([cpu for cpu, _ in times], 0.99)
                every.extend(cpu for cpu, _ in times)
                figures[f"{size} {kind} wall"] = percentile([wall for _, wall in times], 0.99)
            figures[f"{size} median"] = median(every)
            typo_times, read = [], 0
            for deck in decks[: max(1, lists // 4)]:
                lines = read_list(arena(with_typos(deck, rng)).decode()).lines
                started, cpu = time.perf_counter(), time.process_time()
                _, readings = await resolver.cards([line.name for line in lines])
                typo_times.append(time.process_time() - cpu)
                read += sum(1 for reading in readings if reading.read_as is not None)
            figures[f"{size} typos read"] = read / (3 * len(typo_times))
            figures[f"{size} typos"] = percentile(typo_times, 0.99)
        figures["printed"], figures["printed typos"], figures["printed typos read"] = await printed_lists(
            resolver, printed, lists, rng
        )
    finally:
        await card_data.close()
    return figures


async def form_then_game(data_dir: Path, names: list[str], samples: int, rng: random.Random) -> list[float]:
    """Seconds from the form's submit to the saved deck, plus the /goldfish start from it, one sample a deck."""
    bot, timings = CycleBot(Config(data_dir=data_dir)), []
    try:
        async with simcord.run(bot) as env:
            guild = env.create_guild("bench")
            alice = guild.add_member(env.create_user("alice"))
            for sample in range(samples):
                channel = guild.create_text_channel(f"decks-{sample}")
                deck = hundred(names, rng)
                text = arena(deck).decode()
                shown = await alice.slash(channel, "deck save", name=f"Deck {sample}")
                started = time.perf_counter()
                saved = await alice.submit_modal(shown, {"decklist": text})
                game = await alice.slash(channel, "goldfish start", deck=f"Deck {sample}", seed=sample)
                timings.append(time.perf_counter() - started)
                said = (saved.response or saved.followups[-1]).content
                if not said.startswith(f"Saved **Deck {sample}**: 99 main · 1 commander."):
                    raise RuntimeError(f"the form's deck was not saved: {said!r}")
                if not game.response.content.startswith(f"Deck ready: Deck {sample} (99 cards)."):
                    raise RuntimeError(f"no game from the saved deck: {game.response.content!r}")
                if sample % 20 == 19:
                    await alice.slash(channel, "deck delete", all=True)
    finally:
        await bot.close()
    return timings


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--lists", type=int, default=40, help="lists of each size, read in each format")
    parser.add_argument("--samples", type=int, default=10, help="forms pasted and played, each run")
    args = parser.parse_args()
    runs: list[dict[str, float]] = []
    with synthetic_copy() as copy:
        update_from_file(copy.data_dir / FILE_NAME, copy.bulk)
        printed = unique_printed(write_printed_index(copy.bulk, copy.data_dir / PRINTED_FILE), copy.names)
        for run in range(args.runs):
            rng = random.Random(run)
            figures = asyncio.run(resolving(copy.data_dir, copy.names, printed, args.lists, rng))
            bot_dir = copy.data_dir.parent / f"bot-{run}"  # a bot of its own each run: a new database, synced anew
            bot_dir.mkdir()
            shutil.copyfile(copy.data_dir / FILE_NAME, bot_dir / FILE_NAME)
            form = asyncio.run(form_then_game(bot_dir, copy.names, args.samples, rng))
            figures |= {"form median": median(form), "form p99": percentile(form, 0.99)}
            runs.append(figures)
            print(f"run {run + 1}: " + ", ".join(f"{key} {value * 1000:.1f}" for key, value in figures.items()))

    def mid(key: str) -> float:
        return median([run[key] for run in runs])

    report = Report(
        f"Players' decks ({FULL_SIZE:,} cards, printed names of ten languages loaded; medians of {args.runs} runs)"
    )
    for size in ("60", "100"):
        for kind in FORMATS:
            figure = f"{size}-card list, {kind}: parse + resolve p99"
            report.add(f"{figure} (CPU)", mid(f"{size} {kind}") * 1000, " ms", at_most=TARGET_RESOLVE_MS)
            report.add(f"{figure} (wall clock)", mid(f"{size} {kind} wall") * 1000, " ms")
        report.add(f"{size}-card lists, every format: median (CPU)", mid(f"{size} median") * 1000, " ms")
        report.add(f"{size}-card list with 3 typos: p99 (CPU)", mid(f"{size} typos") * 1000, " ms")
        report.add(f"{size}-card list with 3 typos: typos read as their card", mid(f"{size} typos read") * 100, " %")
    report.add("the first typo after a start (builds the fuzzy index once)", mid("first typo") * 1000, " ms")
    report.add("60-card list in printed names: parse + resolve p99 (CPU)", mid("printed") * 1000, " ms", at_most=50)
    report.add("60-card list with 3 typos of printed names: p99 (CPU)", mid("printed typos") * 1000, " ms")
    report.add("typos of printed names read as their card", mid("printed typos read") * 100, " %")
    report.add("the name matcher with printed names, built at start", mid("matcher"), " s")
    form = "100 cards pasted in the form, saved, a game started"
    report.add(f"{form}: median", mid("form median"), " s")
    report.add(f"{form}: p99", mid("form p99"), " s", at_most=TARGET_FORM_SECONDS)
    report.print()
    return report.exit_code()


if __name__ == "__main__":
    sys.exit(main())
