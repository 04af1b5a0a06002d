"""Regenerate every example output in the README and docs/ from the code: ``.venv/bin/python -m tests.docs.examples``.

Terminal commands are run as written (see tests/docs/terminal.py); Discord examples are played with the real
bot through simcord (tests/docs/discord_replies.py). Only the text between ``<!-- example: … -->`` and
``<!-- /example -->`` changes (see tests/docs/markers.py). ``--check`` rewrites nothing and exits 1 when a
page has drifted; tests/docs/test_examples.py does the same in the test suite.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from tests.docs.markers import REPO, Example, find_examples, normalised, pages, rewrite
from tests.docs.terminal import NOWHERE, Run, Services, console

WORKERS = 2  # commands run at once; each is a Python process


@dataclass
class Generated:
    """Every example of every page, with what running it gave."""

    examples: list[Example] = field(default_factory=list)
    bodies: dict[Example, str] = field(default_factory=dict)
    runs: dict[Example, list[Run]] = field(default_factory=dict)
    texts: dict[Path, str] = field(default_factory=dict)

    def page(self, path: Path) -> str:
        """The page as the code would write it now."""
        text = self.texts[path]
        return rewrite(text, {e.body_start: self.bodies[e] for e in self.examples if e.page == path})

    def drifted(self) -> list[Path]:
        return [path for path in self.texts if normalised(self.page(path)) != normalised(self.texts[path])]


def generate(paths: list[Path] | None = None) -> Generated:
    """Run every example on ``paths`` (default: every page) and render what each showed."""
    generated = Generated()
    for path in paths or pages():
        text = path.read_text(encoding="utf-8")
        generated.texts[path] = text
        generated.examples += find_examples(path, text)
    with tempfile.TemporaryDirectory(prefix="cyclebot-docs-") as root, Services(Path(root)) as services:
        terminal = [e for e in generated.examples if e.kind == "terminal"]
        with ThreadPoolExecutor(WORKERS) as pool:
            pending: dict[Example, Future] = {e: pool.submit(_run_terminal, services, e) for e in terminal}
            discord = [e for e in generated.examples if e.kind == "discord"]
            generated.bodies.update(asyncio.run(_play_discord(services, discord)))
            for example, future in pending.items():
                generated.runs[example] = future.result()
                generated.bodies[example] = console(generated.runs[example])
    return generated


def _run_terminal(services: Services, example: Example) -> list[Run]:
    folder = services.sandbox(example.setting)
    return [services.run(command, folder, setting=example.setting) for command in example.steps]


async def _play_discord(services: Services, examples: list[Example]) -> dict[Example, str]:
    from tests.docs.discord_replies import Conversation

    bodies: dict[Example, str] = {}
    # One bot a setting, one after the other (simcord's clock is the running bot's).
    for number, setting in enumerate(sorted({e.setting for e in examples})):
        data = services.data_folder(services.root / f"bot-{number}", setting)
        scryfall = NOWHERE if setting == "offline" else services.scryfall.base_url
        async with Conversation(data, scryfall) as conversation:
            for example in (e for e in examples if e.setting == setting):
                bodies[example] = await conversation.play(example)
    return bodies


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.docs.examples", description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="rewrite nothing; exit 1 if a page has drifted")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    generated = generate()
    drifted = generated.drifted()
    if not args.check:
        for path in drifted:
            path.write_text(generated.page(path), encoding="utf-8")
    verb = "drifted" if args.check else "rewritten"
    names = ", ".join(str(path.relative_to(REPO)) for path in drifted) or "none"
    print(
        f"{len(generated.examples)} examples on {len(generated.texts)} pages in "
        f"{time.perf_counter() - started:.1f} s; {verb}: {names}"
    )
    return 1 if args.check and drifted else 0


if __name__ == "__main__":
    sys.exit(main())
