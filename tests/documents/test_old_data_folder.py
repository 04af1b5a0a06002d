"""A data folder as an older bot left it: the rules downloaded beside ``rules-editions/`` (``comprehensive-rules.txt``
and ``comprehensive-rules.previous.txt``), the editions kept there, and the judges' documents' versions in
``judge-docs/``. The bot answers from all of them on its first start, moves the rules' two copies onto their shelf
once, and ``cyclebot backup``/``restore``, ``cyclebot rules history`` and RULES_FILE work on it as before."""

from __future__ import annotations

import asyncio
import json
import shutil
from datetime import date
from pathlib import Path

import pytest

from bot.cli import main
from bot.config import Config
from bot.documents import extract_pages
from bot.rules import RulesService
from bot.storage import Database
from tests.data import CR_DIR
from tests.judge.conftest import newer
from tests.support.judge_pdfs import make_pdf

CR = {day: CR_DIR / f"MagicCompRules-{day}.txt" for day in ("2017-04-28", "2022-11-18", "2024-11-08", "2026-01-16")}
MTR_DATE, IPG_DATE = date(2025, 11, 10), date(2024, 9, 23)
EDITIONS = [f"comprehensive-rules-{day}.txt" for day in CR]


@pytest.fixture(scope="module")
def judge_pages() -> dict[str, list[str]]:
    return {key: extract_pages(make_pdf(key, day)) for key, day in (("mtr", MTR_DATE), ("ipg", IPG_DATE))}


def older_bots_folder(data_dir: Path, judge_pages: dict[str, list[str]]) -> dict[str, bytes]:
    """What an older bot kept, written as it wrote it; returns each file's bytes by its path in the folder."""
    editions = data_dir / "rules-editions"
    editions.mkdir()
    shutil.copy(CR["2017-04-28"], editions / "comprehensive-rules-2017-04-28.txt")
    shutil.copy(CR["2022-11-18"], editions / "comprehensive-rules-2022-11-18.txt")
    shutil.copy(CR["2024-11-08"], editions / "comprehensive-rules-2024-11-08.txt")
    # The current text was downloaded by a bot from before it kept the current edition among the others.
    shutil.copy(CR["2026-01-16"], data_dir / "comprehensive-rules.txt")
    shutil.copy(CR["2024-11-08"], data_dir / "comprehensive-rules.previous.txt")
    judge = data_dir / "judge-docs"
    judge.mkdir()
    versions = {
        "mtr-2025-11-10.json": judge_pages["mtr"],
        "mtr-2026-02-27.json": newer(judge_pages["mtr"]),
        "ipg-2024-09-23.json": judge_pages["ipg"],
    }
    for name, pages in versions.items():
        stored = {"url": f"https://media.wizards.com/{name[:3]}.pdf", "downloaded": "2026-03-01", "pages": pages}
        (judge / name).write_text(json.dumps(stored, ensure_ascii=False), encoding="utf-8")
    return {path.relative_to(data_dir).as_posix(): path.read_bytes() for path in data_dir.rglob("*") if path.is_file()}


def documents_now(data_dir: Path) -> dict[str, bytes]:
    """The documents' files in the folder: the rules' and the judges' documents' (and no other file of the bot)."""
    return {
        path.relative_to(data_dir).as_posix(): path.read_bytes()
        for path in data_dir.rglob("*")
        if path.is_file()
        and (path.parent.name in ("rules-editions", "judge-docs") or path.name.startswith("comprehensive-rules"))
    }


def moved_once(before: dict[str, bytes]) -> dict[str, bytes]:
    """The same documents after the first start: the rules' two copies moved onto the shelf by their dates."""
    after = {name: data for name, data in before.items() if "/" in name}
    after["rules-editions/comprehensive-rules-2026-01-16.txt"] = before["comprehensive-rules.txt"]
    return after


class TestFirstStart:
    @pytest.fixture(autouse=True)
    def folder(self, bot_config, judge_pages):
        """Written before the bot starts (the bot's fixture comes after the autouse ones)."""
        return older_bots_folder(bot_config.data_dir, judge_pages)

    async def test_the_bot_answers_from_what_an_older_bot_kept_and_moves_the_rules_copies_onto_their_shelf(
        self, simcord_env, channel, alice, bot_config, folder
    ):
        rule = (await alice.slash(channel, "rule", query="613.1")).response.embeds[0]
        assert rule.footer.text.startswith("Comprehensive Rules January 16, 2026")
        assert "bundled excerpt" not in rule.footer.text

        changes = (await alice.slash(channel, "rule", query="changes")).response.embeds[0]
        assert changes.title == "Rules changes: effective November 8, 2024 → effective January 16, 2026"

        history = (await alice.slash(channel, "rule", query="509.2", history=True)).response.embeds[0]
        assert history.footer.text.startswith("Comprehensive Rules history: 4 editions, 2017-04-28 to 2026-01-16")

        mtr = (await alice.slash(channel, "mtr", query="3.8")).response.embeds[0]
        assert mtr.footer.text.startswith("Magic Tournament Rules, effective February 27, 2026")
        mtr_history = (await alice.slash(channel, "mtr", query="3.8", history=True)).response.embeds[0]
        assert mtr_history.footer.text == (
            "Magic Tournament Rules: 2 versions kept, November 10, 2025 to February 27, 2026"
        )
        ipg = (await alice.slash(channel, "ipg", query="lec")).response.embeds[0]
        assert ipg.footer.text.startswith("Magic Infraction Procedure Guide, effective September 23, 2024")
        assert "outline" not in ipg.footer.text
        assert not simcord_env.errors

        data_dir = bot_config.data_dir
        assert documents_now(data_dir) == moved_once(folder)


def test_backup_restore_rules_history_and_rules_file_work_on_a_folder_an_older_bot_kept(
    data_dir, judge_pages, monkeypatch, capsys, tmp_path
):
    monkeypatch.setenv("BOT_DATA_DIR", str(data_dir))
    for name in ("RULES_FILE", "RULES_URL", "JUDGE_DOCS_URL"):
        monkeypatch.delenv(name, raising=False)
    folder = older_bots_folder(data_dir, judge_pages)
    asyncio.run(seed(data_dir / "bot.sqlite3", "an older bot's"))

    assert main(["backup", str(tmp_path / "backup.sqlite3")]) == 0
    assert documents_now(data_dir) == folder  # a backup reads the database alone

    assert main(["rules", "history", "509.2"]) == 0
    shown = capsys.readouterr().out
    assert "Numbers: 509.4 (2017-04-28, 2022-11-18) → 509.2 (2024-11-08, 2026-01-16)" in shown
    assert "history: 4 editions, 2017-04-28 to 2026-01-16" in shown
    assert documents_now(data_dir) == moved_once(folder)

    asyncio.run(seed(data_dir / "bot.sqlite3", "written after the backup"))
    assert main(["restore", str(tmp_path / "backup.sqlite3")]) == 0
    assert asyncio.run(seeded(data_dir / "bot.sqlite3")) == "an older bot's"
    assert documents_now(data_dir) == moved_once(folder)  # a restore leaves the documents as they are
    capsys.readouterr()

    assert main(["rule", "changes"]) == 0
    assert capsys.readouterr().out.startswith("Rules changes: effective November 8, 2024 → effective January 16, 2026")
    assert main(["mtr", "3.8"]) == 0
    shown = capsys.readouterr().out
    assert "Small items (e.g., glass beads) may be used as markers" in shown and "not loaded" not in shown


def test_rules_file_naming_the_copy_an_older_bot_downloaded_answers_and_stays_where_it_is(
    data_dir, judge_pages, monkeypatch, capsys
):
    monkeypatch.setenv("BOT_DATA_DIR", str(data_dir))
    folder = older_bots_folder(data_dir, judge_pages)
    shutil.copy(CR["2022-11-18"], data_dir / "comprehensive-rules.txt")
    monkeypatch.setenv("RULES_FILE", str(data_dir / "comprehensive-rules.txt"))

    assert asyncio.run(first_start()) == ("RULES_FILE", "effective November 18, 2022")
    assert main(["rule", "100.1"]) == 0
    assert "Comprehensive Rules November 18, 2022" in capsys.readouterr().out
    assert main(["rules", "history", "509.2"]) == 0
    assert "history: 3 editions, 2017-04-28 to 2024-11-08" in capsys.readouterr().out

    assert (data_dir / "comprehensive-rules.txt").read_bytes() == CR["2022-11-18"].read_bytes()
    assert not (data_dir / "comprehensive-rules.previous.txt").exists()  # the bot's own copy was moved in
    assert (
        documents_now(data_dir)["rules-editions/comprehensive-rules-2024-11-08.txt"]
        == folder["comprehensive-rules.previous.txt"]
    )


async def seed(path: Path, value: str) -> None:
    db = await Database.open(path)
    await db.set_meta("seeded", value)
    await db.close()


async def seeded(path: Path) -> str | None:
    db = await Database.open(path)
    try:
        return await db.get_meta("seeded")
    finally:
        await db.close()


async def first_start() -> tuple[str, str]:
    """The rules as the bot loads them when it starts: where from, and which edition."""
    service = await RulesService.open(Config.from_env())
    try:
        return service.loaded.origin, f"effective {service.index.document.effective}"
    finally:
        await service.close()
