"""Keeping the judges' documents current: Wizards' rules-documents page is read for each document's newest PDF,
the PDF downloaded (the one downloader: a deadline, a minimum rate, a byte cap; links and redirects only to
Wizards' hosts), its text extracted in a child process with time and memory limits (a PDF is hostile input),
parsed, passed through the guard (a whole PDF; as many sections as a complete copy, and 90 % of the last good
one's; not older than the newest kept), and kept as a new dated version on the document's shelf.

Anything wrong leaves the versions kept as they were and raises :class:`UpdateError`, whose text is one line.
"""

from __future__ import annotations

import asyncio
import logging
import re
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path
from urllib.parse import urljoin, urlsplit

from bot.documents import (
    Document,
    DocumentFormatError,
    PdfVersion,
    Refused,
    Versions,
    check_pdf,
    check_sections,
    extract_pages,
)
from bot.hosts import Downloader, DownloadFailed, Limits, host_of
from bot.judge.catalog import Spec, parse_pages, read_version
from bot.runtime import SandboxError, SandboxLimits, run_limited

log = logging.getLogger(__name__)

# Wizards' page (a web app) and its PDFs are on wizards.com and its subdomains (wpn., media.): a link must lead
# there, and a redirect to one of the hosts Wizards serves these from.
WIZARDS_DOMAIN = "wizards.com"
WIZARDS_HOSTS = frozenset(
    {"wizards.com", "www.wizards.com", "wpn.wizards.com", "media.wizards.com", "magic.wizards.com"}
)
PAGE_LIMITS = Limits(deadline=30.0, min_rate=2_000.0, grace=5.0, max_bytes=5 * 1024 * 1024)
# The MTR's PDF is about 1 MB; a file past the cap is not it.
PDF_LIMITS = Limits(deadline=120.0, min_rate=10_000.0, grace=10.0, max_bytes=30 * 1024 * 1024)
# What reading one PDF may take in its child process: seconds of wall-clock and processor time, bytes of memory.
EXTRACT_WALL, EXTRACT_CPU, EXTRACT_MEMORY = 60.0, 60, 768 * 1024 * 1024
# The date in a file name: MTG_MTR_2025_Nov10_EN.pdf, MTG_IPG_2024Sep23_EN.pdf.
FILE_DATE_RE = re.compile(r"(\d{4})_?([A-Za-z]{3})_?(\d{1,2})")
# Where a link on the page starts: after a quote, a bracket, an equals sign or white space.
LINK_START_RE = re.compile(r"""[^\s"'<>()=,\[\]{}]*$""")


class UpdateError(Exception):
    """The document was not updated; ``str(e)`` says why in one line. The versions kept are untouched."""


@dataclass(frozen=True)
class Outcome:
    spec: Spec
    document: Document
    kept: bool  # a new version was stored (False: the newest kept is the same)
    url: str

    def line(self) -> str:
        what = f"{self.spec.short} effective {self.document.label} ({len(self.document.sections)} sections)"
        return f"Stored the {what} from {self.url}" if self.kept else f"The {what} is already the newest kept"


def allowed(host: str, page_url: str) -> bool:
    """Whether a link or redirect may go to ``host`` (a host and its port, as :func:`bot.hosts.host_of` gives it):
    Wizards' hosts on their scheme's own port, or the configured page's own host and port (no other port of it)."""
    host = (host or "").lower()
    return host == host_of(page_url) or host == WIZARDS_DOMAIN or host.endswith("." + WIZARDS_DOMAIN)


def _file_date(name: str) -> datetime:
    match = FILE_DATE_RE.search(name)
    try:
        return datetime.strptime("".join(match.groups()).title(), "%Y%b%d") if match else datetime.min
    except ValueError:
        return datetime.min


def find_pdf(spec: Spec, page: str, page_url: str) -> str:
    """The address of the newest PDF of ``spec`` the page links to. The page keeps its links in escaped JSON too
    (``\\u002F`` for "/")."""
    text = page.replace("\\u002F", "/").replace("\\/", "/")
    found: list[tuple[datetime, bool, str]] = []
    for match in spec.file_re.finditer(text):
        start = LINK_START_RE.search(text[: match.start()])
        prefix = start.group(0) if start else ""
        # A file name alone (a title) is a link only when nothing names its address.
        found.append((_file_date(match.group(0)), bool(prefix), urljoin(page_url, prefix + match.group(0))))
    if not found:
        raise UpdateError(f"no {spec.short} PDF is linked from {page_url}; set JUDGE_DOCS_URL to Wizards' page")
    newest = max(found, key=lambda item: item[:2])[2]
    host = host_of(newest)
    if not allowed(host, page_url) or urlsplit(newest).scheme not in ("https", "http"):
        raise UpdateError(
            f"the {spec.short} link on the rules-documents page leads to {host or newest[:60]}, not to one of "
            f"Wizards' hosts or the page's own ({host_of(page_url)}); the {spec.short} was not downloaded"
        )
    return newest


async def _get(downloader: Downloader, url: str, limits: Limits, what: str, hosts: set[str]) -> bytes:
    """``url``'s body, the link and every redirect only to ``hosts``."""
    try:
        return await downloader.get_async(url, limits, allowed_hosts=hosts)
    except DownloadFailed as error:
        host = host_of(url)
        if error.unreachable:
            raise UpdateError(
                f"could not download {what}: {host} cannot be reached (no network connection, or a wrong address); "
                "check the connection or JUDGE_DOCS_URL and try again"
            ) from None
        raise UpdateError(f"could not download {what} from {host}: {error}") from None


def hosts_for(page_url: str, *links: str) -> set[str]:
    """Where downloads may go, redirects included: Wizards' hosts, the configured page's, and the links' (which
    :func:`find_pdf` checked are Wizards')."""
    return {*WIZARDS_HOSTS, host_of(page_url), *(host_of(link) for link in links)}


async def extract(data: bytes) -> list[str]:
    """The PDF's pages' text, read in a child process that may take 60 s and 768 MB at most."""
    limits = SandboxLimits(wall=EXTRACT_WALL, cpu=EXTRACT_CPU, memory=EXTRACT_MEMORY)
    try:
        return await run_limited(extract_pages, data, limits=limits)
    except SandboxError as error:
        raise UpdateError(f"the PDF could not be read: {error.reason}") from None


def kept(spec: Spec, data_dir: Path) -> Versions:
    """The versions of ``spec``'s document kept in ``data_dir``."""
    return Versions(data_dir, spec.shelf)


def newest_kept(spec: Spec, data_dir: Path) -> Document | None:
    """The newest version kept that still parses."""
    return kept(spec, data_dir).newest(lambda path: read_version(spec, path))


async def read_page(downloader: Downloader, page_url: str) -> str:
    """Wizards' rules-documents page (or the one configured), read once for every document."""
    page = await _get(downloader, page_url, PAGE_LIMITS, "the rules-documents page", hosts_for(page_url))
    return page.decode("utf-8", errors="replace")


async def update(spec: Spec, data_dir: Path, page_url: str, downloader: Downloader, page: str | None = None) -> Outcome:
    """Download, read, check and keep the newest version of ``spec``'s document (``page``: the page, if read)."""
    versions = kept(spec, data_dir)
    versions.sweep()  # what an interrupted update left
    if page is None:
        page = await read_page(downloader, page_url)
    link = find_pdf(spec, page, page_url)
    data = await _get(downloader, link, PDF_LIMITS, f"the {spec.short}", hosts_for(page_url, link))
    try:
        check_pdf(data)
    except Refused as error:
        raise UpdateError(f"{spec.short} not updated: {error}") from None
    pages = await extract(data)
    last = await asyncio.to_thread(newest_kept, spec, data_dir)
    try:
        document = await asyncio.to_thread(parse_pages, spec, pages, link, f"downloaded {date.today()}")
        check_sections(document, last, spec.min_sections)
    except (DocumentFormatError, Refused) as error:
        raise UpdateError(f"{spec.short} not updated: {error}") from None
    if last is not None and last.effective is not None and document.effective < last.effective:
        raise UpdateError(f"{spec.short} not updated: the page links to {document.label}, older than {last.label}")
    version = PdfVersion.of(pages, link, date.today())
    stored = await asyncio.to_thread(versions.keep, document.effective, version.encode(), same=version.same_text)
    if stored.written:
        log.info("Stored the %s effective %s from %s", spec.short, document.label, link)
    return Outcome(spec, document, stored.written, link)
