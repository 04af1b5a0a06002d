"""Keeping the judges' documents current from a fake of Wizards' page: the newest PDF found and kept with its date;
HTML, truncated PDFs, copies with far fewer sections and links away from Wizards' hosts refused in one line, the
last good copy kept, nothing left behind."""

from __future__ import annotations

import dataclasses
import re
from datetime import date

import pytest

from bot.hosts.download import Downloader, host_of
from bot.judge.catalog import IPG, MTR, SPECS
from bot.judge.updater import UpdateError, allowed, find_pdf, kept, newest_kept, update
from tests.judge.conftest import IPG_DATE, MTR_DATE
from tests.support.fake_judge_docs import FakeJudgeDocs
from tests.support.judge_pdfs import file_name, make_pdf

PDF_PATH = "/ContentResources/WPN/"


@pytest.fixture
def fake(monkeypatch):
    monkeypatch.setenv("NO_PROXY", "127.0.0.1")
    with FakeJudgeDocs() as fake:
        yield fake


@pytest.fixture
async def downloader():
    with Downloader({"User-Agent": "tests"}) as downloader:
        yield downloader


def serve(fake: FakeJudgeDocs, key: str, data: bytes, day: date) -> str:
    path = PDF_PATH + file_name(key, day)
    fake.serve_pdf(path, data)
    return path


def kept_names(data_dir, key: str) -> list[str]:
    return [path.name for path in kept(SPECS[key], data_dir).paths()]


async def test_the_newest_mtr_linked_is_downloaded_read_in_a_child_process_and_kept_with_its_date(
    fake, downloader, data_dir, pdfs
):
    older = serve(fake, "mtr", make_pdf("mtr", date(2025, 9, 19)), date(2025, 9, 19))
    newest = serve(fake, "mtr", pdfs["mtr"], MTR_DATE)
    fake.serve_page(older, newest, PDF_PATH + file_name("ipg", IPG_DATE))

    outcome = await update(MTR, data_dir, fake.page_url, downloader)

    assert outcome.kept and outcome.document.effective == MTR_DATE
    assert len(outcome.document.sections) == 103
    assert outcome.line().startswith("Stored the MTR effective November 10, 2025 (103 sections) from http://127.0.0.1")
    assert kept_names(data_dir, "mtr") == ["mtr-2025-11-10.json"]
    assert fake.requested == ["/en/rules-documents", newest]
    again = await update(MTR, data_dir, fake.page_url, downloader)
    assert not again.kept and again.line().startswith("The MTR effective November 10, 2025")


async def test_a_web_page_instead_of_the_pdf_is_refused_and_the_last_good_copy_kept(fake, downloader, data_dir, pdfs):
    path = serve(fake, "ipg", pdfs["ipg"], IPG_DATE)
    fake.serve_page(path)
    await update(IPG, data_dir, fake.page_url, downloader)
    fake.serve_pdf(path, b"<!DOCTYPE html><html><body>Sign in</body></html>", "text/html")

    with pytest.raises(UpdateError) as refused:
        await update(IPG, data_dir, fake.page_url, downloader)

    assert str(refused.value) == "IPG not updated: the download is a web page, not a PDF"
    assert kept_names(data_dir, "ipg") == ["ipg-2024-09-23.json"]


async def test_a_truncated_pdf_is_refused(fake, downloader, data_dir, pdfs):
    fake.serve_page(serve(fake, "ipg", pdfs["ipg"][: len(pdfs["ipg"]) // 2], IPG_DATE))

    with pytest.raises(
        UpdateError, match=r"^IPG not updated: the PDF is cut short \([\d,]+ bytes, no end-of-file mark\)$"
    ):
        await update(IPG, data_dir, fake.page_url, downloader)
    assert kept_names(data_dir, "ipg") == []


async def test_a_new_version_with_under_90_percent_of_the_sections_kept_is_refused(fake, downloader, data_dir, pdfs):
    fake.serve_page(serve(fake, "mtr", pdfs["mtr"], MTR_DATE))
    await update(MTR, data_dir, fake.page_url, downloader)
    later = date(2026, 2, 27)
    fake.serve_page(serve(fake, "mtr", make_pdf("mtr", later, sections=88), later))

    with pytest.raises(UpdateError) as refused:
        await update(MTR, data_dir, fake.page_url, downloader)

    assert str(refused.value) == (
        "MTR not updated: only 88 sections found where the copy kept (effective November 10, 2025) has 103"
    )
    assert kept_names(data_dir, "mtr") == ["mtr-2025-11-10.json"]


async def test_a_first_download_far_short_of_a_whole_document_is_refused(fake, downloader, data_dir):
    fake.serve_page(serve(fake, "mtr", make_pdf("mtr", MTR_DATE, sections=20), MTR_DATE))

    with pytest.raises(UpdateError, match="only 20 sections found where a complete Magic Tournament Rules has at"):
        await update(MTR, data_dir, fake.page_url, downloader)


async def test_a_pdf_that_is_not_one_fails_in_its_child_process_in_one_line(fake, downloader, data_dir):
    fake.serve_page(serve(fake, "ipg", b"%PDF-1.7\n" + b"\x00garbage" * 500 + b"\n%%EOF\n", IPG_DATE))

    with pytest.raises(UpdateError) as refused:
        await update(IPG, data_dir, fake.page_url, downloader)

    assert str(refused.value).startswith("the PDF could not be read: failed")
    assert "\n" not in str(refused.value)


async def test_a_link_away_from_wizards_hosts_is_not_followed(fake, downloader, data_dir):
    fake.serve_page("https://files.example.net/MTG_IPG_2024Sep23_EN.pdf")

    with pytest.raises(UpdateError) as refused:
        await update(IPG, data_dir, fake.page_url, downloader)
    assert str(refused.value) == (
        "the IPG link on the rules-documents page leads to files.example.net, not to one of Wizards' hosts or the "
        f"page's own ({host_of(fake.base_url)}); the IPG was not downloaded"
    )
    assert fake.requested == ["/en/rules-documents"]


async def test_a_link_to_another_port_of_the_pages_own_host_is_refused_naming_the_document_and_why(
    fake, downloader, data_dir, pdfs
):
    with FakeJudgeDocs() as elsewhere:  # the same machine (127.0.0.1), another port
        path = PDF_PATH + file_name("mtr", MTR_DATE)
        elsewhere.serve_pdf(path, pdfs["mtr"])
        fake.serve_page(elsewhere.base_url + path)

        with pytest.raises(UpdateError) as refused:
            await update(MTR, data_dir, fake.page_url, downloader)

    assert str(refused.value) == (
        f"the MTR link on the rules-documents page leads to {host_of(elsewhere.base_url)}, not to one of Wizards' "
        f"hosts or the page's own ({host_of(fake.base_url)}); the MTR was not downloaded"
    )
    assert elsewhere.requested == [] and kept_names(data_dir, "mtr") == []


async def test_a_redirect_away_from_wizards_hosts_is_refused_before_it_is_asked(fake, downloader, data_dir):
    path = PDF_PATH + file_name("ipg", IPG_DATE)
    fake.serve_page(path)
    fake.routes[path] = (302, "text/plain", b"https://files.example.net/ipg.pdf")

    with pytest.raises(UpdateError) as refused:
        await update(IPG, data_dir, fake.page_url, downloader)

    assert str(refused.value) == (
        f"could not download the IPG from {host_of(fake.base_url)}: refusing files.example.net: not an allowed host"
    )


async def test_a_redirect_to_the_same_host_is_followed(fake, downloader, data_dir, pdfs):
    moved = PDF_PATH + "moved/" + file_name("ipg", IPG_DATE)
    fake.serve_pdf(moved, pdfs["ipg"])
    path = PDF_PATH + file_name("ipg", IPG_DATE)
    fake.serve_page(path)
    fake.routes[path] = (302, "text/plain", (fake.base_url + moved).encode())

    outcome = await update(IPG, data_dir, fake.page_url, downloader)

    assert outcome.kept and fake.requested[-2:] == [path, moved]


def test_wizards_hosts_and_the_configured_page_s_own_are_allowed_and_no_other():
    page = "https://wpn.wizards.com/en/rules-documents"
    assert allowed("media.wizards.com", page) and allowed("wizards.com", page) and allowed("wpn.wizards.com", page)
    assert not allowed("wizards.com.evil.example", page) and not allowed("evilwizards.com", page)
    assert not allowed("media.wizards.com:8443", page), "Wizards' hosts on their own port only"
    assert allowed(host_of("https://media.wizards.com:443/x.pdf"), page)
    assert allowed("127.0.0.1:8000", "http://127.0.0.1:8000/page")
    assert not allowed("127.0.0.1:8001", "http://127.0.0.1:8000/page") and not allowed(
        "127.0.0.1", "http://127.0.0.1:8000/"
    )


def test_the_newest_file_is_picked_from_escaped_json_and_plain_links():
    page = (
        '{"url":"https:\\u002F\\u002Fmedia.wizards.com\\u002FContentResources\\u002FWPN\\u002FMTG_IPG_2023Nov20_EN.pdf"}'
        '<a href="https://media.wizards.com/ContentResources/WPN/MTG_IPG_2024Sep23_EN.pdf">IPG</a>'
    )
    found = find_pdf(IPG, page, "https://wpn.wizards.com/en/rules-documents")
    assert found == "https://media.wizards.com/ContentResources/WPN/MTG_IPG_2024Sep23_EN.pdf"
    with pytest.raises(UpdateError, match="no MTR PDF is linked from"):
        find_pdf(MTR, page, "https://wpn.wizards.com/en/rules-documents")


def test_what_an_interrupted_write_left_is_swept(data_dir):
    versions = kept(MTR, data_dir)
    versions.folder.mkdir(parents=True)
    (versions.folder / ".mtr-2026-02-27.json.a1b2c3.tmp").write_bytes(b"half a file")

    versions.sweep()

    assert list(versions.folder.iterdir()) == []


async def test_a_third_document_is_kept_on_a_shelf_of_its_own_from_its_spec_alone(fake, downloader, data_dir, pdfs):
    """What docs/development.md "Adding a document" promises: from a spec alone, its downloads pass the guard and
    are kept by date on a shelf of its own beside the MTR's and the IPG's, and the newest is what it reads."""
    jar = dataclasses.replace(
        MTR, key="jar", short="JAR", file_re=re.compile(r"MTG_JAR_[A-Za-z0-9_\-]*?_EN\.pdf", re.IGNORECASE)
    )
    path = PDF_PATH + "MTG_JAR_2025_Nov10_EN.pdf"
    fake.serve_pdf(path, pdfs["mtr"])  # a PDF shaped as its spec's layout reads it
    fake.serve_page(serve(fake, "mtr", pdfs["mtr"], MTR_DATE), path)

    outcome = await update(jar, data_dir, fake.page_url, downloader)
    await update(MTR, data_dir, fake.page_url, downloader)

    assert outcome.kept and kept(jar, data_dir).paths() == [data_dir / "judge-docs" / "jar-2025-11-10.json"]
    assert kept_names(data_dir, "mtr") == ["mtr-2025-11-10.json"]
    assert newest_kept(jar, data_dir).key == "jar" and newest_kept(jar, data_dir).effective == MTR_DATE
