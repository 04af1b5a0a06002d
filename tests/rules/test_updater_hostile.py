"""Downloading the rules from a host that is hostile or broken: a huge body, a dripping one, a link or a redirect to
another host. Each is given up in time, in one sentence, without filling the bot's memory or fetching elsewhere."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.rules.editions.sources import kept_editions
from bot.rules.editions.updater import GRACE_SECONDS, MAX_BYTES, UpdateError, allowed_hosts, update_rules
from bot.runtime.atomic import remove_leftovers, store_atomically
from tests.data import CR_DIR
from tests.support.hostile_host import Body, Drip, HostileHost, Huge, Redirect
from tests.support.processes import linux_only
from tests.support.waits import CEILING

ROOT = Path(__file__).resolve().parents[2]
CR_2026 = CR_DIR / "MagicCompRules-2026-01-16.txt"
HUGE = 300 * 1024 * 1024
GREW_AT_MOST_MB = 50


@pytest.fixture
def host():
    with HostileHost() as served:
        yield served


@pytest.fixture
def elsewhere():
    with HostileHost() as served:
        yield served


def page_linking(link: str) -> Body:
    html = f'<!DOCTYPE html><html><body><a href="{link}">Comprehensive Rules (TXT)</a></body></html>'
    return Body(html.encode(), "text/html; charset=utf-8")


def test_a_page_linking_to_another_host_is_refused_and_that_host_is_never_asked(host, elsewhere, data_dir):
    elsewhere.routes["/MagicCompRules.txt"] = Body(CR_2026.read_bytes())
    host.routes["/en/rules"] = page_linking(f"{elsewhere.base_url}/MagicCompRules.txt")

    with pytest.raises(UpdateError) as refused:
        update_rules(data_dir, f"{host.base_url}/en/rules")

    assert str(refused.value) == (
        f"the rules page links to {elsewhere.base_url.removeprefix('http://')}, "
        f"not to {host.base_url.removeprefix('http://')}"
    )
    assert elsewhere.requested == [] and kept_editions(data_dir).paths() == []


@pytest.mark.parametrize("what", ["page", "text"])
def test_a_redirect_to_another_host_is_not_followed(host, elsewhere, data_dir, what):
    elsewhere.routes["/cr.txt"] = Body(CR_2026.read_bytes())
    host.routes["/en/rules"] = page_linking("/cr.txt") if what == "text" else Redirect(f"{elsewhere.base_url}/cr.txt")
    host.routes["/cr.txt"] = Redirect(f"{elsewhere.base_url}/cr.txt")

    with pytest.raises(UpdateError, match="not an allowed host"):
        update_rules(data_dir, f"{host.base_url}/en/rules")

    assert elsewhere.requested == [] and kept_editions(data_dir).paths() == []


def test_a_redirect_on_the_rules_host_is_followed(host, data_dir):
    host.routes["/en/rules"] = page_linking("/old/cr.txt")
    host.routes["/old/cr.txt"] = Redirect("/2026/MagicCompRules.txt", status=301)
    host.routes["/2026/MagicCompRules.txt"] = Body(CR_2026.read_bytes())

    result = update_rules(data_dir, f"{host.base_url}/en/rules")

    assert result.document.effective == "January 16, 2026"
    assert host.requested == ["/en/rules", "/old/cr.txt", "/2026/MagicCompRules.txt"]


def test_the_official_page_may_link_to_wizards_media_host_and_nowhere_else():
    assert allowed_hosts("https://magic.wizards.com/en/rules") == {"magic.wizards.com", "media.wizards.com"}
    assert allowed_hosts("https://rules.example:8443/cr.txt") == {"rules.example:8443"}


@pytest.mark.parametrize("declared", [True, False], ids=["declared", "undeclared"])
def test_a_huge_body_is_refused_once_it_passes_the_cap(host, data_dir, declared):
    host.routes["/cr.txt"] = Huge(HUGE, declared=declared)

    with pytest.raises(UpdateError) as refused:
        update_rules(data_dir, f"{host.base_url}/cr.txt")

    reason = f"{HUGE} bytes declared, more than {MAX_BYTES}" if declared else f"more than {MAX_BYTES} bytes"
    assert reason in str(refused.value) and "\n" not in str(refused.value)
    assert kept_editions(data_dir).paths() == []


@linux_only
@pytest.mark.parametrize("declared", [True, False], ids=["declared", "undeclared"])
def test_a_300_mb_rules_body_grows_a_fresh_process_by_at_most_50_mb(host, tmp_path, declared):
    host.routes["/cr.txt"] = Huge(HUGE, declared=declared)
    host.routes["/warm.txt"] = Body(b"not the rules")
    measured = subprocess.run(
        [sys.executable, "-m", "tests.support.peak_memory", "rules", f"{host.base_url}/cr.txt"]
        + [f"{host.base_url}/warm.txt", str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=2 * CEILING,
        check=True,
    )
    figures = json.loads(measured.stdout)
    assert "more than" in figures["error"]
    assert figures["grew_mb"] <= GREW_AT_MOST_MB, figures


def test_a_host_dripping_a_byte_every_5_s_is_let_go_within_60_s_in_one_line(host, data_dir):
    host.routes["/cr.txt"] = Drip(CR_2026.read_bytes(), seconds=5.0)
    started = time.monotonic()

    with pytest.raises(UpdateError) as refused:
        update_rules(data_dir, f"{host.base_url}/cr.txt")

    took = time.monotonic() - started
    assert GRACE_SECONDS <= took < 60.0, took
    message = str(refused.value)
    assert "\n" not in message and message.startswith("could not download the rules from 127.0.0.1:")
    assert "too slow" in message


def test_the_temporary_file_of_an_interrupted_update_is_removed_by_the_next(host, data_dir):
    # What kill -9 in the middle of a write leaves: beside the shelf (an older bot's), and on it.
    leftover = data_dir / ".comprehensive-rules.txt.k9x2.tmp"
    leftover.write_bytes(CR_2026.read_bytes()[:5000])
    kept_leftover = kept_editions(data_dir).folder / ".comprehensive-rules-2026-01-16.txt.abcd.tmp"
    kept_leftover.parent.mkdir()
    kept_leftover.write_bytes(b"half an edition")
    host.routes["/cr.txt"] = Body(CR_2026.read_bytes())

    update_rules(data_dir, f"{host.base_url}/cr.txt")

    assert not leftover.exists() and not kept_leftover.exists()
    assert sorted(p.name for p in data_dir.rglob("*.tmp")) == []


@linux_only
def test_a_write_in_progress_is_never_taken_for_a_leftover(data_dir, monkeypatch):
    """The terminal's update writing while the bot starts: its temporary file is locked, so it stays."""
    import os

    seen: list[int] = []
    real_fsync = os.fsync

    def fsync_while_someone_cleans(descriptor: int) -> None:
        seen.append(remove_leftovers(data_dir))  # the bot starting, in the middle of the write
        real_fsync(descriptor)

    monkeypatch.setattr(os, "fsync", fsync_while_someone_cleans)
    store_atomically(data_dir / "rules.txt", b"the whole text")

    assert seen == [0] and (data_dir / "rules.txt").read_bytes() == b"the whole text"


async def test_the_rules_service_removes_what_an_interrupted_update_left_when_the_bot_starts(data_dir):
    from bot.config import Config
    from bot.rules import RulesService

    leftovers = [
        data_dir / ".comprehensive-rules.txt.k9x2.tmp",  # an older bot's
        kept_editions(data_dir).folder / ".comprehensive-rules-2026-01-16.txt.abcd.tmp",
    ]
    for leftover in leftovers:
        leftover.parent.mkdir(exist_ok=True)
        leftover.write_bytes(b"the first 5,000 bytes of the rules")
    service = await RulesService.open(Config(token=None, data_dir=data_dir, rules_auto_update=False))
    try:
        assert not any(leftover.exists() for leftover in leftovers)
    finally:
        await service.close()
