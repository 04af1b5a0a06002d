"""One refresh of the local card data, from Scryfall or from a file: blocking, for a worker thread."""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from bot.carddb.bulk import (
    RULINGS_TYPE,
    BulkInfo,
    download,
    fetch_info,
    fetch_listing_info,
    file_limits,
    iter_cards,
    iter_rulings,
    new_session,
)
from bot.carddb.importer import ImportResult, import_cards, stored_meta

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class UpdateOutcome:
    """What a refresh did: ``result`` is None when the stored copy was already current."""

    info: BulkInfo | None
    result: ImportResult | None
    stored_updated_at: str | None

    @property
    def imported(self) -> bool:
        return self.result is not None


def update_from_scryfall(
    db_path: Path, api_url: str, *, force: bool = False, stop: threading.Event | None = None
) -> UpdateOutcome:
    """Download and import the oracle-cards file, with the rulings file, when either is newer than the
    stored copy. Any failure (the list, either download, either file) leaves the stored copy as it was."""
    meta = stored_meta(db_path)
    stored = meta.get("updated_at")
    session = new_session(api_url)
    try:
        info = fetch_info(session, api_url)
        rulings_info = fetch_listing_info(session, api_url, RULINGS_TYPE)
        # A file refused before (it would have emptied the store) is not fetched again: only a newer one is.
        seen = max(meta.get("rulings_updated_at") or "", meta.get("rulings_refused_updated_at") or "") or None
        rulings_new = rulings_info is not None and rulings_info.is_newer_than(seen)
        if not force and not info.is_newer_than(stored) and not rulings_new:
            log.info("Card data is current (%s)", stored)
            return UpdateOutcome(info=info, result=None, stored_updated_at=stored)
        download_path = db_path.with_name(db_path.name + ".download")
        rulings_path = db_path.with_name(db_path.name + ".rulings")
        try:
            limits = file_limits(info)
            download(session, info.uri, download_path, stop, limits)
            rulings = None
            if rulings_info is not None:
                rulings_limits = file_limits(rulings_info)
                download(session, rulings_info.uri, rulings_path, stop, rulings_limits)
                rulings = iter_rulings(rulings_path, rulings_limits.max_bytes)
            result = import_cards(
                iter_cards(download_path, limits.max_bytes),
                db_path,
                updated_at=info.updated_at,
                source="scryfall",
                stop=stop,
                rulings=rulings,
                rulings_updated_at=rulings_info.updated_at if rulings_info else None,
            )
        finally:
            download_path.unlink(missing_ok=True)
            rulings_path.unlink(missing_ok=True)
    finally:
        session.close()
    return UpdateOutcome(info=info, result=result, stored_updated_at=stored)


def update_from_file(db_path: Path, source: Path, *, stop: threading.Event | None = None) -> UpdateOutcome:
    """Import a bulk file already on disk (gzipped or not, JSON Lines or a JSON array).

    The file's modification time stands for Scryfall's ``updated_at``, so a newer file on
    Scryfall still replaces it at the next refresh.
    """
    stored = stored_meta(db_path).get("updated_at")
    updated_at = datetime.fromtimestamp(source.stat().st_mtime, UTC).isoformat(timespec="seconds")
    result = import_cards(iter_cards(source), db_path, updated_at=updated_at, source=f"file {source.name}", stop=stop)
    return UpdateOutcome(info=None, result=result, stored_updated_at=stored)
