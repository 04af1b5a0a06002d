"""Scryfall's bulk files come only from Scryfall's hosts: a listing that points a download anywhere else, another
port of the configured host included, is refused before anything is sent there, and so is a redirect elsewhere;
for the oracle cards, the rulings and any other file the listing names (All Cards). The fakes all run on 127.0.0.1:
the configured test host is a host and its port, and another port of it is another host."""

from __future__ import annotations

import pytest

from bot.carddb.bulk import BulkError, bulk_hosts, fetch_listing_info, new_session
from bot.carddb.importer import stored_meta
from bot.carddb.update import update_from_scryfall
from bot.hosts import host_of
from tests.carddb.conftest import leftovers
from tests.data import SCRYFALL_CARDS
from tests.support.fake_bulk import FakeBulk


@pytest.fixture
def elsewhere():
    """Another bulk host on the same machine, another port: serving the very same files, and never to be asked."""
    with FakeBulk(SCRYFALL_CARDS) as other:
        yield other


def refusal(fake: FakeBulk, elsewhere: FakeBulk, what: str = "oracle-cards") -> str:
    return (
        f"Scryfall's bulk data listing points its {what} file at {host_of(elsewhere.base_url)}, not at Scryfall's "
        f"hosts ({', '.join(sorted(bulk_hosts(fake.base_url)))}); nothing was downloaded"
    )


def test_scryfall_s_bulk_files_come_from_its_bulk_host_or_the_configured_api_host_and_port():
    assert bulk_hosts("https://api.scryfall.com") == {"data.scryfall.io", "api.scryfall.com"}
    assert bulk_hosts("http://127.0.0.1:8123/") == {"data.scryfall.io", "127.0.0.1:8123"}
    assert bulk_hosts("https://api.scryfall.com:443") == bulk_hosts("https://api.scryfall.com"), "its own port"


@pytest.mark.parametrize("field", ["jsonl_download_uri", "download_uri"])
def test_a_listing_pointing_a_file_at_another_port_of_the_configured_host_is_refused(
    fake_bulk, elsewhere, db_path, stored, field
):
    file = "oracle-cards-x.jsonl.gz" if field == "jsonl_download_uri" else "oracle-cards-x.json"
    fake_bulk.info_changes = {field: f"{elsewhere.base_url}/file/{file}"}
    downloads = len(fake_bulk.file_downloads())

    with pytest.raises(BulkError) as refused:
        update_from_scryfall(db_path, fake_bulk.base_url)

    assert str(refused.value) == refusal(fake_bulk, elsewhere)
    assert elsewhere.requests == [] and len(fake_bulk.file_downloads()) == downloads, "nothing downloaded at all"
    assert stored_meta(db_path) == stored and leftovers(db_path) == []


@pytest.mark.parametrize(
    "address",
    ["https://data.scryfall.io:8443/file/oracle-cards.json", "https://example.org/oracle-cards.json"],
    ids=["scryfall's bulk host, another port", "another host"],
)
def test_a_listing_pointing_a_file_at_any_other_host_is_refused_by_name(fake_bulk, db_path, stored, address):
    fake_bulk.info_changes = {"jsonl_download_uri": address}
    with pytest.raises(BulkError, match=f"points its oracle-cards file at {host_of(address)}, not at Scryfall's hosts"):
        update_from_scryfall(db_path, fake_bulk.base_url)
    assert stored_meta(db_path) == stored and leftovers(db_path) == []


def test_a_rulings_file_listed_elsewhere_is_refused_and_the_cards_stay_as_they_were(
    fake_bulk, elsewhere, db_path, stored, monkeypatch
):
    listed = fake_bulk.rulings_info
    monkeypatch.setattr(fake_bulk, "rulings_info", lambda: {**listed(), "download_uri": elsewhere.base_url + "/r"})

    with pytest.raises(BulkError) as refused:
        update_from_scryfall(db_path, fake_bulk.base_url)

    assert str(refused.value) == refusal(fake_bulk, elsewhere, "rulings")
    assert elsewhere.requests == [] and stored_meta(db_path) == stored and leftovers(db_path) == []


def test_any_file_the_listing_names_all_cards_included_is_held_to_the_same_hosts(fake_bulk, elsewhere):
    fake_bulk.info_changes = {"type": "all_cards", "jsonl_download_uri": elsewhere.base_url + "/file/all-cards.gz"}
    with new_session(fake_bulk.base_url) as session, pytest.raises(BulkError) as refused:
        fetch_listing_info(session, fake_bulk.base_url, "all-cards")
    assert str(refused.value) == refusal(fake_bulk, elsewhere, "all-cards")
    assert elsewhere.requests == []


def test_a_file_redirected_to_another_port_is_refused_before_it_is_asked(fake_bulk, elsewhere, db_path, stored):
    fake_bulk.file_answer = (302, {"Location": f"{elsewhere.base_url}/file/oracle-cards-x.jsonl.gz"}, b"")

    with pytest.raises(BulkError, match=f"refusing {host_of(elsewhere.base_url)}: not an allowed host"):
        update_from_scryfall(db_path, fake_bulk.base_url)

    assert elsewhere.requests == [] and stored_meta(db_path) == stored and leftovers(db_path) == []
