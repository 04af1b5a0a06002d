"""The printed names of the languages an operator chooses, from Scryfall's All Cards file: read as the oracle cards
are (gzipped JSON Lines line by line, the older JSON array with ijson), staged compressed, imported only when the
file or the languages change, and a broken file keeps the names already stored."""

from __future__ import annotations

import gzip
import io
import logging

import orjson
import pytest

from bot.carddb import CardData, bulk
from bot.carddb.bulk import BulkError
from bot.carddb.printed import FILE_NAME, PrintedIndex, choose, update_printed
from bot.carddb.printed.build import stored_meta
from bot.config import Config
from tests.support.waits import until

NEXT_DAY = "2026-11-21T09:03:55.101+00:00"


@pytest.fixture
def path(data_dir):
    return data_dir / FILE_NAME


def names(path, text: str) -> list[tuple[str, str]]:
    index = PrintedIndex(path)
    try:
        return [(found.lang, found.name) for found in index.named(text)]
    finally:
        index.close()


def test_the_setting_reads_all_codes_and_names_the_rest():
    assert choose(["all"]).codes == ("de", "fr", "it", "es", "pt", "ja", "ko", "ru", "zhs", "zht")
    assert choose(["DE", "fr", "en", "de"]).codes == ("de", "fr")  # case aside, English and repeats ignored
    chosen = choose(["ja", "klingon", "zh"])
    assert chosen.codes == ("ja",) and chosen.unknown == ("klingon", "zh")
    assert choose([]).codes == ()
    config = Config.from_env({"DISCORD_TOKEN": "x", "CARD_LANGUAGES": "de, fr ja"}, load_dotenv=False)
    assert config.card_languages == ("de", "fr", "ja")
    assert Config.from_env({"DISCORD_TOKEN": "x"}, load_dotenv=False).card_languages == ()


def test_only_the_chosen_languages_are_kept_with_each_printing_linked(fake_bulk, path):
    outcome = update_printed(path, fake_bulk.base_url, ["de", "ja"])
    assert outcome.imported and set(outcome.result.counts) == {"de", "ja"}
    assert names(path, "Wald") == [("de", "Wald")]
    assert names(path, "wald") == names(path, "WALD")  # case aside
    assert names(path, "Bosque") == []  # Spanish was not chosen
    index = PrintedIndex(path)
    try:
        (fire,) = index.named("火")
        assert fire.face and fire.url == "https://scryfall.com/card/uma/225/ja"
        assert [each.name for each in index.named("火 // 氷")] == ["火 // 氷"]  # a split card's faces, both
    finally:
        index.close()


def test_an_unchanged_file_is_not_downloaded_again_and_a_new_one_is(fake_bulk, path):
    update_printed(path, fake_bulk.base_url, ["de"])
    assert not update_printed(path, fake_bulk.base_url, ["de"]).imported
    assert len(fake_bulk.all_cards_downloads()) == 1
    fake_bulk.all_cards_updated_at = NEXT_DAY
    assert update_printed(path, fake_bulk.base_url, ["de"]).imported
    assert stored_meta(path)["updated_at"] == NEXT_DAY and len(fake_bulk.all_cards_downloads()) == 2


def test_adding_a_language_downloads_and_removing_one_only_drops_its_rows(fake_bulk, path):
    update_printed(path, fake_bulk.base_url, ["de", "ja"])
    dropped = update_printed(path, fake_bulk.base_url, ["de"])
    assert dropped.dropped == ("ja",) and not dropped.imported and len(fake_bulk.all_cards_downloads()) == 1
    assert names(path, "森") == [] and names(path, "Wald") == [("de", "Wald")]
    assert update_printed(path, fake_bulk.base_url, ["de", "ru"]).imported  # Russian is new: downloaded
    assert names(path, "Лес") == [("ru", "Лес")]
    assert update_printed(path, fake_bulk.base_url, []).dropped == ("de", "ru") and not path.exists()
    assert len(fake_bulk.all_cards_downloads()) == 2


def test_the_older_json_array_is_read_too_and_staged_compressed(fake_bulk, path, monkeypatch):
    fake_bulk.all_cards_offer = "array"  # sent with Content-Encoding: gzip, which the client unpacks as it reads
    staged = []
    real = bulk.iter_objects

    def spy(file, *args, **kwargs):
        staged.append(file.read_bytes()[:2])
        return real(file, *args, **kwargs)

    monkeypatch.setattr("bot.carddb.printed.update.iter_objects", spy)
    assert update_printed(path, fake_bulk.base_url, ["it"]).imported
    assert staged == [bulk.GZIP_MAGIC]  # packed again on the way to the disk, never written unpacked
    assert names(path, "Isola") == [("it", "Isola")]
    assert not path.with_name(path.name + ".download").exists()


@pytest.mark.parametrize("fault", ["html", "garbage", "truncated", "error", "oversized"])
def test_a_broken_file_keeps_the_names_stored(fake_bulk, path, fault, monkeypatch):
    update_printed(path, fake_bulk.base_url, ["de"])
    before = stored_meta(path)
    fake_bulk.all_cards_updated_at, fake_bulk.all_cards_fault = NEXT_DAY, fault
    if fault == "oversized":  # the listed size plus the margin, however endless the body
        monkeypatch.setattr(bulk, "MARGIN_BYTES", 0)
    with pytest.raises(BulkError):
        update_printed(path, fake_bulk.base_url, ["de"])
    assert stored_meta(path) == before and names(path, "Wald") == [("de", "Wald")]
    assert sorted(p.name for p in path.parent.iterdir()) == [FILE_NAME]  # nothing staged is left behind


def test_a_line_past_the_limit_is_refused(fake_bulk, path, monkeypatch):
    monkeypatch.setattr(bulk, "MAX_LINE_BYTES", 2000)  # a card object is a few kilobytes
    with pytest.raises(BulkError, match="longer than"):
        update_printed(path, fake_bulk.base_url, ["de"])
    assert not path.exists()


def test_a_file_far_smaller_than_the_stored_names_is_refused(fake_bulk, path):
    update_printed(path, fake_bulk.base_url, ["de", "ja"])
    fake_bulk.all_cards_updated_at = NEXT_DAY
    fake_bulk.all_cards_extra = [card for card in fake_bulk.all_cards() if card.get("lang") == "en"]
    with pytest.raises(BulkError, match="under 90 %"):
        update_printed(path, fake_bulk.base_url, ["de", "ja"])
    assert names(path, "Wald") == [("de", "Wald")]


@pytest.mark.parametrize("listed", ["true", "huge", "none"])
def test_all_cards_comes_through_the_bulk_data_download_under_caps_of_its_own(fake_bulk, path, monkeypatch, listed):
    """All Cards is fetched by the bulk data's own download (whatever it refuses, hosts included, is refused for All
    Cards too), capped at the listed size plus a margin and never past 4 GB unpacked: the oracle cards' 1 GB cap
    would refuse a 2.3 GB file."""
    fetched = []
    real = bulk.download

    def spy(session, url, dest, stop=None, limits=None):
        fetched.append((url, limits.max_bytes))
        return real(session, url, dest, stop, limits)

    monkeypatch.setattr("bot.carddb.printed.update.download", spy)
    size = fake_bulk.all_cards_info()["size"]
    fake_bulk.all_cards_changes = {"true": {}, "huge": {"size": 10**15}, "none": {"size": None}}[listed]
    update_printed(path, fake_bulk.base_url, ["de"])
    (url, cap) = fetched[0]
    assert url.startswith(fake_bulk.base_url) and url.endswith(".jsonl.gz")
    if listed == "true":
        assert size < cap <= size * 1.1 + bulk.MARGIN_BYTES
    else:
        assert cap == 4 << 30 > bulk.MAX_FILE_BYTES


async def test_the_bot_logs_a_failed_refresh_once_and_keeps_its_names(fake_bulk, data_dir, caplog):
    update_printed(data_dir / FILE_NAME, fake_bulk.base_url, ["de"])
    card_data = await CardData.open(data_dir, fake_bulk.base_url, languages=["de", "klingon"])
    try:
        assert "klingon" in caplog.text  # the unknown code, named once at start
        assert [each.name for each in card_data.printed.named("wald")] == ["Wald"]
        fake_bulk.all_cards_updated_at, fake_bulk.all_cards_fault = NEXT_DAY, "truncated"
        caplog.clear()
        with caplog.at_level(logging.WARNING):
            card_data.printed.start()
            await until(lambda: card_data.printed.last_error is not None, "the failed refresh")
        assert len([r for r in caplog.records if "Printed names refresh failed" in r.message]) == 1
        assert [each.name for each in card_data.printed.named("wald")] == ["Wald"]
    finally:
        await card_data.close()


async def test_a_reader_that_chooses_no_languages_leaves_the_stored_names_alone(fake_bulk, data_dir):
    update_printed(data_dir / FILE_NAME, fake_bulk.base_url, ["de"])
    reader = await CardData.open(data_dir, fake_bulk.base_url)  # a terminal's picture of a table, say
    await reader.close()
    assert not reader.printed.loaded and (data_dir / FILE_NAME).exists()
    chosen = await CardData.open(data_dir, fake_bulk.base_url, languages=["de"])
    try:
        assert [each.name for each in chosen.printed.named("wald")] == ["Wald"]
    finally:
        await chosen.close()
    none = await CardData.open(data_dir, fake_bulk.base_url, languages=[])  # CARD_LANGUAGES emptied: dropped
    await none.close()
    assert not (data_dir / FILE_NAME).exists()


async def test_a_new_file_is_swapped_in_while_reads_go_on(fake_bulk, data_dir):
    card_data = await CardData.open(data_dir, fake_bulk.base_url, languages=["de"])
    try:
        assert card_data.printed.named("wald") == []  # nothing downloaded yet: English lookups do not wait for it
        heard = []
        card_data.watch(lambda: heard.append(card_data.version))
        await card_data.printed.refresh()
        assert [each.name for each in card_data.printed.named("wald")] == ["Wald"] and len(heard) == 1
        old = card_data.printed.index
        fake_bulk.all_cards_updated_at = NEXT_DAY
        with old:  # a read in flight keeps the old index open until it is done
            await card_data.printed.refresh()
            assert card_data.printed.index is not old and old.named("wald")
        assert len(heard) == 2
    finally:
        await card_data.close()


def test_the_gzipped_jsonl_is_read_line_by_line_skipping_other_languages(fake_bulk, path, monkeypatch):
    """Lines of a language not chosen are never parsed: only the chosen languages' lines reach the JSON reader."""
    parsed = []
    loads = orjson.loads
    monkeypatch.setattr(orjson, "loads", lambda line: parsed.append(line) or loads(line))
    update_printed(path, fake_bulk.base_url, ["ru"])
    with gzip.open(io.BytesIO(fake_bulk.all_cards_jsonl())) as file:
        lines = file.read().splitlines()
    assert 0 < len(parsed) < len(lines) / 10
    assert all(b'"lang": "ru"' in line for line in parsed)


def test_printed_names_join_an_index_of_names_as_english_ones_do(fake_bulk, path):
    """What the rules questions' card finder and a decklist's resolver read: rows shaped as English names' rows."""
    update_printed(path, fake_bulk.base_url, ["de", "ja"])
    index = PrintedIndex(path)
    try:
        (forest,) = index.named("Wald")
        rows = index.name_rows({forest.oracle_id: 7})
    finally:
        index.close()
    assert sorted(rows) == [("wald", 7, 0), ("森", 7, 0)]
