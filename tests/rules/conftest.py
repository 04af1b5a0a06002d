from __future__ import annotations

import threading
from datetime import date
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from bot.rules.editions.sources import BUNDLED_EXCERPT, kept_editions
from bot.rules.ranking.index import RulesIndex
from bot.rules.text.document import load_document
from tests.data import CR_DIR

CR_2026 = CR_DIR / "MagicCompRules-2026-01-16.txt"


def keep_edition(data_dir: Path, source: Path) -> Path:
    """One of the editions in tests/data/cr/ kept in the data folder as an update keeps it (dated by its name there,
    MagicCompRules-2024-11-08.txt)."""
    effective = date.fromisoformat(source.stem.removeprefix("MagicCompRules-"))
    return kept_editions(data_dir).keep(effective, source.read_bytes()).path


@pytest.fixture(scope="session")
def full_index() -> RulesIndex:
    return RulesIndex(load_document(CR_2026))


@pytest.fixture(scope="session")
def excerpt_index() -> RulesIndex:
    return RulesIndex(load_document(BUNDLED_EXCERPT))


@pytest.fixture(scope="session")
def question_cards_copy(tmp_path_factory) -> Path:
    """The 247 real cycling cards plus the cards real questions name, imported with their rulings."""
    from bot.carddb.service import FILE_NAME
    from bot.carddb.update import update_from_scryfall
    from tests.data import SCRYFALL_CARDS
    from tests.support.fake_bulk import FakeBulk
    from tests.support.question_cards import CARDS, RULINGS

    path = tmp_path_factory.mktemp("question-cards") / FILE_NAME
    with FakeBulk(SCRYFALL_CARDS) as fake:
        fake.cards += CARDS
        fake.rulings += RULINGS
        update_from_scryfall(path, fake.base_url)
    return path


PRINTED_LANGUAGES = ("de", "fr", "it", "ja", "ru")


def time_spiral(fake):
    """A fake bulk host's cards with the Time Spiral cards the test data's printed names name (Angel's Grace, Cancel,
    Wipe Away…)."""
    from tests.support.fake_all_cards import missing_cards

    fake.cards += missing_cards(fake.cards)
    return fake


@pytest.fixture(scope="session")
def printed_copy(tmp_path_factory) -> Path:
    """A folder holding the cycling cards with the Time Spiral ones, and their printed names in
    :data:`PRINTED_LANGUAGES` (real ones), imported as the bot imports them."""
    from bot.carddb.printed import FILE_NAME as PRINTED_FILE
    from bot.carddb.printed import update_printed
    from bot.carddb.service import FILE_NAME
    from bot.carddb.update import update_from_scryfall
    from tests.data import SCRYFALL_CARDS
    from tests.support.fake_bulk import FakeBulk

    folder = tmp_path_factory.mktemp("question-printed")
    with time_spiral(FakeBulk(SCRYFALL_CARDS)) as fake:
        update_from_scryfall(folder / FILE_NAME, fake.base_url)
        update_printed(folder / PRINTED_FILE, fake.base_url, PRINTED_LANGUAGES)
    return folder


@pytest.fixture
def cr_2026() -> Path:
    return CR_2026


@pytest.fixture
def server(monkeypatch):
    """A web server on 127.0.0.1 serving ``routes``: path → (status, content type, body).

    Yields (base URL, routes, the paths requested so far)."""
    monkeypatch.setenv("NO_PROXY", "127.0.0.1")
    routes: dict[str, tuple[int, str, bytes]] = {}
    requested: list[str] = []

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 (http.server's naming)
            requested.append(self.path)
            status, content_type, body = routes.get(self.path, (404, "text/plain", b"not found"))
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{httpd.server_address[1]}"
    yield base, routes, requested
    httpd.shutdown()
    httpd.server_close()
