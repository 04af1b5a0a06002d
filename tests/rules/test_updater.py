"""Downloading the rules from a loopback web server: the page's .txt link, validation, each edition kept by its
effective date on the rules' shelf, where the newest answers."""

from __future__ import annotations

import pytest

from bot.rules.editions.sources import kept_editions
from bot.rules.editions.updater import UpdateError, find_txt_link, update_rules
from bot.rules.text.document import decode, load_document
from tests.data import CR_DIR
from tests.rules.conftest import keep_edition

CR_2024 = CR_DIR / "MagicCompRules-2024-11-08.txt"
CR_2026 = CR_DIR / "MagicCompRules-2026-01-16.txt"


def kept(data_dir) -> dict[str, bytes]:
    """The editions kept, by file name."""
    return {path.name: path.read_bytes() for path in kept_editions(data_dir).paths()}


def newest(data_dir) -> bytes:
    """The text of the edition that answers."""
    return kept_editions(data_dir).paths()[-1].read_bytes()


def compared(data_dir) -> tuple[bytes, bytes]:
    """The texts "changes" compares: the edition kept before the newest, and the newest."""
    older, newer = kept_editions(data_dir).pair()
    return older.read_bytes(), newer.read_bytes()


def rules_page(link: str) -> bytes:
    return (
        "<!DOCTYPE html><html><body><h1>Comprehensive Rules</h1>"
        f'<a href="/docs/MagicCompRules.pdf">PDF</a> <a href="{link}">TXT</a></body></html>'
    ).encode()


def test_update_follows_the_txt_link_on_the_rules_page_and_stores_the_text(server, data_dir):
    base, routes, _requested = server
    served = CR_2026.read_bytes()
    routes["/en/rules"] = (200, "text/html; charset=utf-8", rules_page("/downloads/MagicCompRules%2020260116.txt"))
    routes["/downloads/MagicCompRules%2020260116.txt"] = (200, "text/plain", served)

    result = update_rules(data_dir, f"{base}/en/rules")

    assert result.url.endswith("/downloads/MagicCompRules%2020260116.txt")
    assert result.document.effective == "January 16, 2026"
    assert result.written and result.current
    assert result.path == data_dir / "rules-editions" / "comprehensive-rules-2026-01-16.txt"
    assert result.path.read_bytes() == served
    assert load_document(result.path).rule_count == 3260
    # The edition kept by its date, and nothing else: no temporary file left behind.
    assert sorted(path.relative_to(data_dir).as_posix() for path in data_dir.rglob("*")) == [
        "rules-editions",
        "rules-editions/comprehensive-rules-2026-01-16.txt",
    ]


def test_update_accepts_a_direct_txt_url_in_another_encoding(server, data_dir):
    base, routes, _requested = server
    text = decode(CR_2024.read_bytes())
    routes["/cr.txt"] = (200, "text/plain", text.encode("utf-16"))

    result = update_rules(data_dir, f"{base}/cr.txt")

    assert result.document.effective == "November 8, 2024"


@pytest.fixture
def previous(data_dir):
    """An earlier download that a failed update must leave untouched."""
    return keep_edition(data_dir, CR_2024)


def test_http_404_keeps_the_previous_text(server, data_dir, previous):
    base, routes, _requested = server
    routes["/en/rules"] = (200, "text/html", rules_page("/missing.txt"))
    with pytest.raises(UpdateError, match="HTTP 404"):
        update_rules(data_dir, f"{base}/en/rules")
    assert previous.read_bytes() == CR_2024.read_bytes()


def test_garbage_text_keeps_the_previous_text(server, data_dir, previous):
    base, routes, _requested = server
    routes["/cr.txt"] = (200, "text/plain", bytes(range(256)) * 400)
    with pytest.raises(UpdateError, match="not a Comprehensive Rules text"):
        update_rules(data_dir, f"{base}/cr.txt")
    assert previous.read_bytes() == CR_2024.read_bytes()


@pytest.mark.parametrize("fraction", [0.5, 0.97])
def test_truncated_file_keeps_the_previous_text(server, data_dir, previous, fraction):
    base, routes, _requested = server
    served = CR_2026.read_bytes()
    routes["/cr.txt"] = (200, "text/plain", served[: int(len(served) * fraction)])
    with pytest.raises(UpdateError, match="not a complete Comprehensive Rules document"):
        update_rules(data_dir, f"{base}/cr.txt")
    assert kept(data_dir) == {previous.name: CR_2024.read_bytes()}  # a rejected text is not kept as an edition


def test_page_without_a_txt_link_is_an_error(server, data_dir):
    base, routes, _requested = server
    routes["/en/rules"] = (200, "text/html", b"<html><body>No downloads today</body></html>")
    with pytest.raises(UpdateError, match=r"no \.txt link"):
        update_rules(data_dir, f"{base}/en/rules")
    assert kept(data_dir) == {}


def test_unreachable_server_is_an_error(data_dir):
    with pytest.raises(UpdateError, match="could not download"):
        update_rules(data_dir, "http://127.0.0.1:9/en/rules")


def test_txt_link_prefers_the_comprehensive_rules_file():
    page = '<a href="notes.txt">x</a> <a href="https://media.example/2026/MagicCompRules%2020260116.txt">y</a>'
    assert (
        find_txt_link(page, "https://example.com/en/rules")
        == "https://media.example/2026/MagicCompRules%2020260116.txt"
    )
    assert find_txt_link('<a href="a/b.txt">', "https://example.com/en/rules") == "https://example.com/en/a/b.txt"


def test_an_update_to_a_new_edition_keeps_the_previous_one(server, data_dir, previous):
    base, routes, _requested = server
    routes["/cr.txt"] = (200, "text/plain", CR_2026.read_bytes())

    update_rules(data_dir, f"{base}/cr.txt")

    assert newest(data_dir) == CR_2026.read_bytes()
    assert compared(data_dir) == (CR_2024.read_bytes(), CR_2026.read_bytes())


def test_downloading_the_same_edition_again_keeps_the_older_one_as_previous(server, data_dir, previous):
    base, routes, _requested = server
    routes["/cr.txt"] = (200, "text/plain", CR_2026.read_bytes())
    first = update_rules(data_dir, f"{base}/cr.txt")
    again = update_rules(data_dir, f"{base}/cr.txt")  # the weekly refresh finds nothing new

    assert first.written and not again.written and again.current
    assert again.line().startswith("Already kept: the Comprehensive Rules effective January 16, 2026")
    assert compared(data_dir) == (CR_2024.read_bytes(), CR_2026.read_bytes())


def test_every_edition_downloaded_is_kept_by_its_effective_date(server, data_dir):
    """Every edition is kept, for histories; the newest answers and the one before it is what changes compares."""
    base, routes, _requested = server
    for name in ("MagicCompRules-2022-11-18.txt", "MagicCompRules-2024-11-08.txt", "MagicCompRules-2026-01-16.txt"):
        routes["/cr.txt"] = (200, "text/plain", (CR_DIR / name).read_bytes())
        update_rules(data_dir, f"{base}/cr.txt")
    update_rules(data_dir, f"{base}/cr.txt")  # the weekly refresh finds nothing new

    assert kept(data_dir) == {
        "comprehensive-rules-2022-11-18.txt": (CR_DIR / "MagicCompRules-2022-11-18.txt").read_bytes(),
        "comprehensive-rules-2024-11-08.txt": CR_2024.read_bytes(),
        "comprehensive-rules-2026-01-16.txt": CR_2026.read_bytes(),
    }
    assert compared(data_dir) == (CR_2024.read_bytes(), CR_2026.read_bytes())


def test_an_older_edition_downloaded_is_kept_for_histories_and_the_newest_still_answers(server, data_dir):
    base, routes, _requested = server
    keep_edition(data_dir, CR_2026)
    routes["/cr.txt"] = (200, "text/plain", CR_2024.read_bytes())

    result = update_rules(data_dir, f"{base}/cr.txt")

    assert result.written and not result.current
    assert result.line().endswith("; a newer edition kept still answers")
    assert newest(data_dir) == CR_2026.read_bytes()
    assert compared(data_dir) == (CR_2024.read_bytes(), CR_2026.read_bytes())
