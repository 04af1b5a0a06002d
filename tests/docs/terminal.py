"""Running the documentation's terminal commands as a reader would: from a fresh shell, in a folder of their own.

Each command runs in a sandbox: a temporary folder standing for the clone, with ``.venv`` (the project's own)
and the files the pages name (``oracle-cards.jsonl.gz``, ``MagicCompRules.txt``, ``editions/``), all made from
``tests/data``. Its ``data`` folder (the default ``BOT_DATA_DIR``) holds what a bot that has run leaves there:
the database and a local copy of the card data (247 real cards), or nothing at all ("without card data").
Scryfall and the rules page are fakes on 127.0.0.1, so nothing reaches the network; "offline", there is no card
data and every HTTP request goes to a proxy that refuses it, as on a machine without a network.
"""

from __future__ import annotations

import asyncio
import gzip
import os
import shutil
import subprocess
from dataclasses import dataclass
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler
from pathlib import Path

from tests.data import CR_2026, CR_DIR, SCRYFALL_CARDS
from tests.docs.markers import REPO, fence
from tests.support.fake_scryfall import FakeScryfall
from tests.support.http_fake import ThreadedHTTPFake
from tests.support.waits import CEILING

# The date the example card data carries: the bulk file's modification time stands for Scryfall's date.
CARD_DATA_DATE = datetime(2026, 1, 20, 12, 0, tzinfo=UTC)
TIMEOUT = CEILING
NOWHERE = "http://127.0.0.1:9"  # nothing listens there: a connection is refused at once
BULK_FILE = "oracle-cards.jsonl.gz"
RULES_FILE = "MagicCompRules.txt"
EDITIONS = "editions"


class FakeRulesSite(ThreadedHTTPFake):
    """Wizards' rules page and its .txt link, serving the real January 2026 edition."""

    thread_name = "fake-rules"

    class handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 (the name http.server calls)
            if self.path.endswith(".txt"):
                body, kind = CR_2026.read_bytes(), "text/plain; charset=utf-8"
            else:
                link = '<a href="/downloads/MagicCompRules%2020260116.txt">TXT</a>'
                body, kind = f"<html><body><h1>Comprehensive Rules</h1>{link}</body></html>".encode(), "text/html"
            self.send_response(200)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    @property
    def rules_url(self) -> str:
        return f"{self.base_url}/en/rules"


@dataclass(frozen=True)
class Run:
    """One command as it ran: its exit code and what the terminal showed (stdout and stderr as they came)."""

    command: str
    returncode: int
    output: str
    stderr: str | None = None  # only when the streams were kept apart


class Services:
    """The fakes every sandbox talks to and the template it is copied from; ``with Services() as services:``."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.scryfall = FakeScryfall(SCRYFALL_CARDS)
        self.rules = FakeRulesSite()
        self.template = root / "template"
        self._count = 0

    def __enter__(self) -> Services:
        self.scryfall.start()
        self.rules.start()
        make_template(self.template)
        return self

    def __exit__(self, *exc: object) -> None:
        self.scryfall.stop()
        self.rules.stop()

    def environment(self, home: Path, setting: str = "") -> dict[str, str]:
        """A fresh shell's environment: nothing of the caller's settings, the fakes for the services (offline:
        the real services' addresses, behind a proxy that refuses every connection)."""
        if setting == "offline":
            network = {name: NOWHERE for name in ("HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy")}
        else:
            network = {"SCRYFALL_API_URL": self.scryfall.base_url, "RULES_URL": self.rules.rules_url}
        return {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(home),
            "LANG": "C.UTF-8",
            "TZ": "UTC",
            "PYTHONUNBUFFERED": "1",  # stdout and stderr interleave as in a terminal
            "MPLCONFIGDIR": str(home / ".matplotlib"),
            **network,
        }

    def sandbox(self, setting: str = "") -> Path:
        """A new folder to run commands in, as the clone would be, its data folder as ``setting`` says."""
        self._count += 1
        folder = self.root / f"sandbox-{self._count}"
        shutil.copytree(self.template, folder, symlinks=True)
        (folder / ".venv").symlink_to(REPO / ".venv")
        (folder / "home").mkdir()
        shutil.rmtree(folder / "data")
        self.data_folder(folder / "data", setting)
        return folder

    def data_folder(self, folder: Path, setting: str = "") -> Path:
        """A data folder as a bot that has run leaves it; without card data or offline: an empty one."""
        if setting in ("without card data", "offline"):
            folder.mkdir(parents=True)
        else:
            shutil.copytree(self.template / "data", folder)
        return folder

    def run(
        self, command: str, folder: Path, *, setting: str = "", apart: bool = False, env: dict[str, str] | None = None
    ) -> Run:
        """Run ``command`` with a shell in ``folder``; ``apart`` keeps stderr apart from stdout; ``env`` adds to
        the environment."""
        completed = subprocess.run(
            ["bash", "-c", command],
            cwd=folder,
            env={**self.environment(folder / "home", setting), **(env or {})},
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE if apart else subprocess.STDOUT,
            text=True,
            timeout=TIMEOUT,
        )
        return Run(command, completed.returncode, completed.stdout, completed.stderr if apart else None)


def make_template(folder: Path) -> None:
    """The files every sandbox starts with (see the module's docstring)."""
    from bot.carddb.service import FILE_NAME
    from bot.carddb.update import update_from_file
    from bot.storage import Database

    data = folder / "data"
    data.mkdir(parents=True)
    bulk = folder / BULK_FILE
    bulk.write_bytes(gzip.compress(SCRYFALL_CARDS.read_bytes(), mtime=0))
    stamp = CARD_DATA_DATE.timestamp()
    os.utime(bulk, (stamp, stamp))
    update_from_file(data / FILE_NAME, bulk)
    shutil.copyfile(CR_2026, folder / RULES_FILE)
    shutil.copytree(CR_DIR, folder / EDITIONS)

    async def migrate() -> None:
        database = await Database.open(data / "bot.sqlite3")
        await database.close()

    asyncio.run(migrate())


def console(runs: list[Run]) -> str:
    """What the terminal showed, as a ``console`` block: each command after ``$``, then its output."""
    lines = []
    for run in runs:
        lines.append(f"$ {run.command}")
        if run.output.strip():
            lines.append(run.output.rstrip("\n"))
        if run.returncode:
            lines.append(f"(exit code {run.returncode})")
    return fence("console", "\n".join(lines))
