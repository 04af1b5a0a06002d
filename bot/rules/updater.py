"""Download the current Comprehensive Rules text from Wizards of the Coast, validate it, store it atomically.

The text file's address changes with every release, so the official rules page is read for its
``.txt`` link. ``RULES_URL`` may point at such a page or straight at a ``.txt`` file.
"""

from __future__ import annotations

import html
import logging
import os
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import requests

from bot import BOT_NAME, __version__
from bot.rules.document import Document, RulesFormatError, parse_bytes
from bot.rules.editions import effective_date
from bot.rules.sources import downloaded_path, edition_path, previous_path

log = logging.getLogger(__name__)

OFFICIAL_RULES_PAGE = "https://magic.wizards.com/en/rules"
TIMEOUT = 30
MAX_BYTES = 20 * 1024 * 1024
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
    return min(RETRY_MAX, RETRY_FIRST * 2 ** min(max(failures - 1, 0), 30))


TXT_LINK_RE = re.compile(r"""href\s*=\s*["']([^"']+?\.txt)(?:[?#][^"']*)?["']""", re.IGNORECASE)


class UpdateError(Exception):
    """The download failed or was not a usable rules text; the previous text is kept."""


@dataclass
class UpdateResult:
    path: Path
    url: str
    document: Document


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


def _unreachable(url: str, error: requests.RequestException) -> UpdateError:
    """One sentence for a request that never got an answer: what happened and what to do, without the
    library's own exception text (it is logged at debug level)."""
    host = urlsplit(url).netloc or url
    log.debug("Request to %s failed: %s", url, error)
    if isinstance(error, requests.Timeout):
        return UpdateError(f"could not download the rules: {host} did not answer within {TIMEOUT} s; try again later")
    if isinstance(error, requests.ConnectionError):
        return UpdateError(
            f"could not download the rules: {host} cannot be reached (no network connection, or a wrong address); "
            "check the connection or RULES_URL and try again"
        )
    return UpdateError(f"could not download the rules from {host}: {type(error).__name__}; check RULES_URL")


def _get(session: requests.Session, url: str) -> requests.Response:
    try:
        response = session.get(url, timeout=TIMEOUT, headers={"User-Agent": f"{BOT_NAME}/{__version__}"})
    except requests.RequestException as error:
        raise _unreachable(url, error) from error
    if response.status_code != 200:
        raise UpdateError(f"could not download {url}: HTTP {response.status_code}")
    if len(response.content) > MAX_BYTES:
        raise UpdateError(f"{url} is larger than {MAX_BYTES // (1024 * 1024)} MB; not a rules text")
    return response


def _looks_like_html(response: requests.Response) -> bool:
    content_type = response.headers.get("Content-Type", "").lower()
    head = response.content[:512].lstrip().lower()
    return "html" in content_type or head.startswith((b"<!doctype", b"<html"))


def fetch_rules_text(url: str | None = None, *, session: requests.Session | None = None) -> tuple[bytes, str]:
    """The bytes of the rules text and the address they came from (following the page's .txt link)."""
    if session is None:
        with requests.Session() as own:
            return fetch_rules_text(url, session=own)
    url = url or OFFICIAL_RULES_PAGE
    response = _get(session, url)
    if _looks_like_html(response):
        url = find_txt_link(response.text, response.url or url)
        log.info("Rules page links to %s", url)
        response = _get(session, url)
        if _looks_like_html(response):
            raise UpdateError(f"{url} is a web page, not the rules text")
    return response.content, url


def store_atomically(path: Path, data: bytes) -> None:
    """Write ``data`` to a temporary file beside ``path`` and rename it over ``path`` in one step."""
    path.parent.mkdir(parents=True, exist_ok=True)
    descriptor, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _keep_edition(data_dir: Path, data: bytes, document: Document | None = None) -> None:
    """Keep ``data`` among the editions (one file per effective date), for rules' histories.

    Best effort: the update itself has succeeded whether or not the copy can be written.
    """
    try:
        document = document or parse_bytes(data)
    except RulesFormatError:
        return
    effective = effective_date(document)
    if effective is None or document.is_excerpt:
        return
    path = edition_path(data_dir, effective)
    try:
        if path.is_file() and path.stat().st_size == len(data) and path.read_bytes() == data:
            return
        store_atomically(path, data)
    except OSError as error:
        log.warning("Could not keep the %s rules edition in %s: %s", effective, path, error)


def update_rules(data_dir: Path, url: str | None = None, *, session: requests.Session | None = None) -> UpdateResult:
    """Download, parse and validate the current rules, then replace the stored copy.

    Raises :class:`UpdateError` (and leaves any stored copy untouched) if anything is wrong.
    """
    data, source = fetch_rules_text(url, session=session)
    try:
        document = parse_bytes(data)
    except RulesFormatError as error:
        raise UpdateError(f"{source} is not a Comprehensive Rules text: {error}") from error
    validate(document)
    path = downloaded_path(data_dir)
    try:
        current = path.read_bytes()
    except FileNotFoundError:
        current = None
    if current is not None and current != data:
        # The edition being replaced is kept, so that what the update changed can be shown.
        store_atomically(previous_path(data_dir), current)
        _keep_edition(data_dir, current)
    store_atomically(path, data)
    _keep_edition(data_dir, data, document)
    log.info("Stored the Comprehensive Rules effective %s from %s in %s", document.effective, source, path)
    return UpdateResult(path, source, document)
