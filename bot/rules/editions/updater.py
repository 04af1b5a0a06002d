"""Download the current Comprehensive Rules text from Wizards of the Coast, validate it, store it atomically.

The text file's address changes with every release, so the official rules page is read for its
``.txt`` link. ``RULES_URL`` may point at such a page or straight at a ``.txt`` file.

Both downloads go through :mod:`bot.hosts.download`: a deadline for each, a minimum rate (a host sending a byte every
few seconds is let go after ``GRACE_SECONDS``), and a byte cap while the body streams, so a huge or endless body
never fills the bot's memory. The page's link and every redirect are followed only to the configured host (Wizards'
own two for the official page): a page that was tampered with can't send the bot anywhere else.
"""

from __future__ import annotations

import html
import logging
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urljoin

from bot import BOT_NAME, __version__, documents
from bot.documents import Versions
from bot.hosts import Downloader, DownloadFailed, Limits, host_of
from bot.rules.editions.editions import effective_date
from bot.rules.editions.sources import SHELF, kept_editions
from bot.rules.text import Document, RulesFormatError, parse_bytes

log = logging.getLogger(__name__)

OFFICIAL_RULES_PAGE = "https://magic.wizards.com/en/rules"
# The official page lives on one host and links to the text on the other.
WIZARDS_HOSTS = frozenset({"magic.wizards.com", "media.wizards.com"})
DEADLINE_SECONDS = 60.0  # for the page, and again for the text
GRACE_SECONDS = 10.0
MIN_RATE = 4096  # bytes a second, on average since the start, once the grace is over
# The text is about 1 MB (2 MB in UTF-16): eight is room enough, and little enough to hold while it is checked.
MAX_BYTES = 8 * 1024 * 1024
# A full CR has about 3,000 rules and 700 glossary entries; anything far smaller is truncated or wrong.
MIN_RULES = 1000
MIN_GLOSSARY = 200

# Keeping the rules current: a first download is retried after a minute, then twice as long each time
# (up to six hours); once the full rules are loaded they are refreshed weekly.
RETRY_FIRST = 60.0
RETRY_MAX = 6 * 3600.0
REFRESH_INTERVAL = 7 * 24 * 3600.0


def retry_delay(failures: int) -> float:
    """Seconds to wait after ``failures`` failed downloads in a row (1 → a minute, 2 → two, …)."""
    return documents.retry_delay(failures, RETRY_FIRST, RETRY_MAX)


TXT_LINK_RE = re.compile(r"""href\s*=\s*["']([^"']+?\.txt)(?:[?#][^"']*)?["']""", re.IGNORECASE)


class UpdateError(Exception):
    """The download failed or was not a usable rules text; the previous text is kept."""


@dataclass
class UpdateResult:
    path: Path  # where the edition is kept
    url: str
    document: Document
    written: bool = True  # False: that edition was kept already, with this text
    current: bool = True  # whether it is the newest kept, the one that answers (an older one is kept for histories)

    def line(self) -> str:
        """One line for the terminal: what was kept, and what answers."""
        document = self.document
        what = (
            f"the Comprehensive Rules effective {document.effective} ({document.rule_count:,} rules, "
            f"{len(document.glossary):,} glossary entries) from {self.url}"
        )
        said = f"Stored {what} in {self.path}" if self.written else f"Already kept: {what}, in {self.path}"
        return said if self.current else f"{said}; a newer edition kept still answers"


def find_txt_link(page: str, base_url: str) -> str:
    """The rules text link on the official page (the one naming the Comprehensive Rules if several)."""
    links = [urljoin(base_url, html.unescape(link)) for link in TXT_LINK_RE.findall(page)]
    if not links:
        raise UpdateError(f"no .txt link on {base_url}; set RULES_URL to the text file's address")
    preferred = [link for link in links if "comprules" in link.lower().replace("%20", "").replace(" ", "")]
    return (preferred or links)[0]


def validate(document: Document) -> None:
    problems = []
    if document.rule_count < MIN_RULES:
        problems.append(f"only {document.rule_count} rules")
    if len(document.glossary) < MIN_GLOSSARY:
        problems.append(f"only {len(document.glossary)} glossary entries")
    if not document.has_credits:
        problems.append("no Credits section after the glossary (truncated?)")
    if not document.effective:
        problems.append("no 'These rules are effective as of' date")
    if problems:
        raise UpdateError("the downloaded text is not a complete Comprehensive Rules document: " + "; ".join(problems))


def allowed_hosts(url: str) -> frozenset[str]:
    """Where the rules may come from: the configured address's host, and Wizards' two for their own page."""
    host = host_of(url)
    return WIZARDS_HOSTS | {host} if host in WIZARDS_HOSTS else frozenset({host})


def _failed(url: str, error: DownloadFailed) -> UpdateError:
    """One sentence for a download given up: what happened and what to do."""
    host = host_of(url) or url
    if error.unreachable:
        return UpdateError(
            f"could not download the rules: {host} cannot be reached (no network connection, or a wrong address); "
            "check the connection or RULES_URL and try again"
        )
    if error.status is not None:
        return UpdateError(f"could not download {url}: HTTP {error.status}")
    return UpdateError(f"could not download the rules from {host}: {error}; try again later or check RULES_URL")


@dataclass(frozen=True)
class _Body:
    data: bytes
    url: str
    content_type: str


def _get(downloader: Downloader, url: str, limits: Limits, hosts: frozenset[str]) -> _Body:
    landed = {"url": url, "type": ""}

    def heard(final: str, headers: Mapping[str, str]) -> None:
        landed.update(url=final, type=headers.get("Content-Type", ""))

    try:
        data = downloader.get(url, limits, allowed_hosts=hosts, on_response=heard)
    except DownloadFailed as error:
        raise _failed(url, error) from None
    return _Body(data, landed["url"], landed["type"].lower())


def _looks_like_html(body: _Body) -> bool:
    head = body.data[:512].lstrip().lower()
    return "html" in body.content_type or head.startswith((b"<!doctype", b"<html"))


# For the page and for the text alike: RULES_URL may name either.
LIMITS = Limits(deadline=DEADLINE_SECONDS, min_rate=MIN_RATE, grace=GRACE_SECONDS, max_bytes=MAX_BYTES)


def fetch_rules_text(url: str | None = None, *, downloader: Downloader | None = None) -> tuple[bytes, str]:
    """The bytes of the rules text and the address they came from (following the page's .txt link)."""
    if downloader is None:
        headers = {"User-Agent": f"{BOT_NAME}/{__version__}", "Accept": "text/html, text/plain"}
        with Downloader(headers, name="rules-download") as own:
            return fetch_rules_text(url, downloader=own)
    url = url or OFFICIAL_RULES_PAGE
    hosts = allowed_hosts(url)
    body = _get(downloader, url, LIMITS, hosts)
    if _looks_like_html(body):
        url = find_txt_link(body.data.decode("utf-8", "replace"), body.url)
        if host_of(url) not in hosts:
            raise UpdateError(f"the rules page links to {host_of(url) or url}, not to {', '.join(sorted(hosts))}")
        log.info("Rules page links to %s", url)
        body = _get(downloader, url, LIMITS, hosts)
        if _looks_like_html(body):
            raise UpdateError(f"{url} is a web page, not the rules text")
    return body.data, url


def remove_interrupted(data_dir: Path) -> int:
    """Delete what interrupted updates left (their temporary files); how many there were."""
    return Versions(data_dir, SHELF).sweep()


def update_rules(
    data_dir: Path, url: str | None = None, *, downloader: Downloader | None = None, rules_file: Path | None = None
) -> UpdateResult:
    """Download, parse and validate the current rules, then keep them on the rules' shelf by their effective date
    (``rules_file``: RULES_FILE, left where it is should it name a copy an older bot kept).

    Raises :class:`UpdateError` (and leaves every edition kept untouched) if anything is wrong.
    """
    versions = kept_editions(data_dir, rules_file)
    versions.sweep()
    data, source = fetch_rules_text(url, downloader=downloader)
    try:
        document = parse_bytes(data)
    except RulesFormatError as error:
        raise UpdateError(f"{source} is not a Comprehensive Rules text: {error}") from error
    validate(document)
    effective = effective_date(document)
    if effective is None or document.is_excerpt:
        raise UpdateError(f"{source} is not a full Comprehensive Rules edition with its effective date")
    kept = versions.keep(effective, data)
    current = versions.paths()[-1] == kept.path
    if kept.written:
        log.info("Stored the Comprehensive Rules effective %s from %s in %s", document.effective, source, kept.path)
    return UpdateResult(kept.path, source, document, kept.written, current)
