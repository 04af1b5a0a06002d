from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from bot.documents import PdfVersion, Versions, extract_pages
from bot.judge import SPECS
from tests.support.judge_pdfs import make_pdf

MTR_DATE, IPG_DATE = date(2025, 11, 10), date(2024, 9, 23)
DATES = {"mtr": MTR_DATE, "ipg": IPG_DATE}


@pytest.fixture(scope="session")
def pdfs() -> dict[str, bytes]:
    """The two documents as PDFs shaped like Wizards' (every section of the bundled outlines)."""
    return {key: make_pdf(key, day) for key, day in DATES.items()}


@pytest.fixture(scope="session")
def pages(pdfs) -> dict[str, list[str]]:
    return {key: extract_pages(data) for key, data in pdfs.items()}


def keep(data_dir: Path, key: str, pages: list[str], day: date | None = None) -> Path:
    """A version kept in the data folder, as an update keeps it."""
    day = day or DATES[key]
    version = PdfVersion.of(pages, f"https://media.wizards.com/{key}.pdf", date(2026, 1, 2))
    return Versions(data_dir, SPECS[key].shelf).keep(day, version.encode()).path


def newer(pages: list[str]) -> list[str]:
    """The MTR's pages as a later version, effective February 27, 2026, with one word of 3.8 gone."""
    changes = {"nor completely obscure any card": "nor obscure any card", "November 10, 2025": "February 27, 2026"}
    edited = []
    for page in pages:
        for old, new in changes.items():
            page = page.replace(old, new)
        edited.append(page)
    return edited


@pytest.fixture
def downloaded(data_dir, pages) -> Path:
    """Both documents downloaded before the bot starts."""
    for key, found in pages.items():
        keep(data_dir, key, found)
    return data_dir
