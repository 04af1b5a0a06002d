"""``python -m bot cards update [--file F]`` and ``cards info``, run as a user runs them: a new process."""

from __future__ import annotations

import gzip
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.carddb.store import CardStore
from tests.support.fake_bulk import FakeBulk
from tests.support.waits import CEILING


def run_bot(*args: str, data_dir: Path, api_url: str = "http://127.0.0.1:9") -> subprocess.CompletedProcess:
    env = {key: value for key, value in os.environ.items() if key not in ("DISCORD_TOKEN", "CARD_DATA_AUTO_UPDATE")}
    env.update(BOT_DATA_DIR=str(data_dir), SCRYFALL_API_URL=api_url)
    return subprocess.run(
        [sys.executable, "-m", "bot", "cards", *args],
        cwd=data_dir.parent,  # no .env there
        env=env,
        capture_output=True,
        text=True,
        timeout=CEILING,
    )


@pytest.fixture
def bulk_file(fake_bulk: FakeBulk, tmp_path: Path) -> Path:
    path = tmp_path / "oracle-cards.jsonl.gz"
    path.write_bytes(fake_bulk.jsonl_bytes())
    return path


def test_update_from_a_file_imports_it_without_the_network(bulk_file: Path, data_dir: Path, fake_bulk: FakeBulk):
    done = run_bot("update", "--file", str(bulk_file), data_dir=data_dir)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"Imported {len(fake_bulk.cards)} cards as of ")
    assert CardStore(data_dir / "cards.sqlite3").named("Nix").card.set_code == "arc"

    info = run_bot("info", data_dir=data_dir)
    assert info.returncode == 0
    assert info.stdout.startswith(f"{len(fake_bulk.cards)} cards as of ")
    assert "from file oracle-cards.jsonl.gz" in info.stdout


def test_update_from_a_bad_file_fails_and_keeps_the_copy(bulk_file: Path, data_dir: Path, tmp_path: Path):
    assert run_bot("update", "--file", str(bulk_file), data_dir=data_dir).returncode == 0
    cut = tmp_path / "cut.jsonl.gz"
    cut.write_bytes(bulk_file.read_bytes()[:2000])
    done = run_bot("update", "--file", str(cut), data_dir=data_dir)
    assert done.returncode == 1
    assert done.stderr.startswith("error: the bulk file is truncated or corrupt")
    assert "the stored card data is unchanged" in done.stderr
    assert CardStore(data_dir / "cards.sqlite3").info().source == "file oracle-cards.jsonl.gz"


def test_update_from_a_missing_file_says_so(data_dir: Path, tmp_path: Path):
    done = run_bot("update", "--file", str(tmp_path / "nope.json"), data_dir=data_dir)
    assert (done.returncode, done.stdout) == (1, "")
    assert "no such file" in done.stderr


def test_update_from_scryfall_downloads_only_when_newer(data_dir: Path, fake_bulk: FakeBulk):
    first = run_bot("update", data_dir=data_dir, api_url=fake_bulk.base_url)
    assert first.returncode == 0, first.stderr
    assert first.stdout.startswith(f"Imported {len(fake_bulk.cards)} cards as of {fake_bulk.updated_at}")
    again = run_bot("update", data_dir=data_dir, api_url=fake_bulk.base_url)
    assert again.stdout == f"Card data is current (Scryfall's file of {fake_bulk.updated_at}).\n"
    # Once each: the cards and their rulings, both listed by /bulk-data.
    assert len(fake_bulk.file_downloads()) == len(fake_bulk.rulings_downloads()) == 1
    # Scryfall asks for a User-Agent naming the application.
    assert all(request.status == 200 for request in fake_bulk.requests)
    assert all(request.headers["user-agent"].startswith("Cyclebot/") for request in fake_bulk.requests)


def test_info_without_data_points_to_update(data_dir: Path):
    done = run_bot("info", data_dir=data_dir)
    assert done.returncode == 1
    assert "no local card data yet" in done.stderr and "run `cyclebot cards update`." in done.stderr


def test_a_gzipped_json_array_file_works_too(data_dir: Path, fake_bulk: FakeBulk, tmp_path: Path):
    path = tmp_path / "oracle-cards.json.gz"
    path.write_bytes(gzip.compress(fake_bulk.array_bytes()))
    assert run_bot("update", "--file", str(path), data_dir=data_dir).returncode == 0
    assert CardStore(data_dir / "cards.sqlite3").count == len(fake_bulk.cards)
