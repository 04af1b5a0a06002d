"""One shelf keeps every document's versions (bot.documents.versions): one file per effective date, the newest
answers and the one before it is what changed, a history reads every version once, retention, and the files an older
bot kept beside the folder moved in once. The documents here are plain texts dated by their first line, as a
document's own reader dates its versions."""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass
from datetime import date
from pathlib import Path

import pytest

from bot.documents import Built, Shelf, Versions, read_all

SHELF = Shelf("notes", "note", ".txt")
OLD_LAYOUT = Shelf("notes", "note", ".txt", legacy=("note.previous.txt", "note.txt"))


@dataclass(frozen=True)
class Note:
    effective: date
    text: str


def text(day: str, body: str = "the text") -> bytes:
    return f"effective {day}\n{body}\n".encode()


def read_note(path: Path, data: bytes | None = None) -> Note:
    """A note's reader: its first line dates it; anything else is not a note."""
    data = Path(path).read_bytes() if data is None else data
    first, _, body = data.decode().partition("\n")
    if not first.startswith("effective "):
        raise ValueError("no effective date")
    return Note(date.fromisoformat(first.removeprefix("effective ")), body.strip())


def note_date(path: Path) -> date:
    return read_note(path).effective


def test_versions_are_named_by_their_date_and_listed_oldest_first_other_files_aside(tmp_path):
    versions = Versions(tmp_path, SHELF)
    assert versions.paths() == [] and versions.pair() is None and versions.newest(read_note) is None
    for day in ("2026-01-16", "2009-10-01", "2024-11-08"):
        versions.keep(date.fromisoformat(day), text(day))
    for stray in ("note-2024-W01-1.txt", "note-2024-13-01.txt", "notes.txt", "note-2025-01-01.json", "other-2025.txt"):
        (versions.folder / stray).write_text("not a version")
    (versions.folder / "note-2025-05-05.txt").mkdir()

    assert [path.name for path in versions.paths()] == [
        "note-2009-10-01.txt",
        "note-2024-11-08.txt",
        "note-2026-01-16.txt",
    ]
    assert versions.newest(read_note) == Note(date(2026, 1, 16), "the text")
    assert [path.name for path in versions.pair()] == ["note-2024-11-08.txt", "note-2026-01-16.txt"]


def test_the_same_text_is_not_written_again_and_another_text_of_its_date_replaces_it(tmp_path):
    versions = Versions(tmp_path, SHELF)
    first = versions.keep(date(2026, 1, 16), text("2026-01-16"))
    os.utime(first.path, ns=(0, 0))

    again = versions.keep(date(2026, 1, 16), text("2026-01-16"))
    assert first.written and not again.written and first.path.stat().st_mtime_ns == 0

    fixed = versions.keep(date(2026, 1, 16), text("2026-01-16", "the text, a typo fixed"))
    said_same = versions.keep(date(2026, 1, 16), b"other bytes", same=lambda kept: kept.startswith(b"effective"))

    assert fixed.written and not said_same.written
    assert [path.name for path in versions.paths()] == ["note-2026-01-16.txt"]
    assert read_note(fixed.path).text == "the text, a typo fixed"


def test_a_newest_version_that_cannot_be_read_is_left_aside_and_the_one_before_answers(tmp_path, caplog):
    versions = Versions(tmp_path, SHELF)
    versions.keep(date(2024, 11, 8), text("2024-11-08"))
    versions.keep(date(2026, 1, 16), b"half a file")

    with caplog.at_level(logging.WARNING):
        assert versions.newest(read_note).effective == date(2024, 11, 8)
    assert "note-2026-01-16.txt" in caplog.text


def test_retention_keeps_the_newest_versions_and_never_fewer_than_two(tmp_path):
    versions = Versions(tmp_path, Shelf("notes", "note", ".txt", most=3))
    for year in range(2020, 2026):
        versions.keep(date(year, 1, 1), text(f"{year}-01-01"))

    assert [path.name for path in versions.paths()] == [
        "note-2023-01-01.txt",
        "note-2024-01-01.txt",
        "note-2025-01-01.txt",
    ]
    with pytest.raises(ValueError, match="at least two"):
        Shelf("notes", "note", ".txt", most=1)


def test_what_interrupted_writes_left_is_swept_on_the_shelf_and_where_older_bots_wrote(tmp_path):
    versions = Versions(tmp_path, OLD_LAYOUT)
    versions.folder.mkdir()
    leftovers = [tmp_path / ".note.txt.k9x2.tmp", versions.folder / ".note-2026-01-16.txt.a1b2.tmp"]
    for leftover in leftovers:
        leftover.write_bytes(b"half a file")

    assert versions.sweep() == 2
    assert not any(leftover.exists() for leftover in leftovers)


def test_an_older_bots_current_and_previous_copies_are_moved_onto_the_shelf_once_by_their_dates(tmp_path):
    (tmp_path / "note.txt").write_bytes(text("2026-01-16"))
    (tmp_path / "note.previous.txt").write_bytes(text("2024-11-08"))
    versions = Versions(tmp_path, OLD_LAYOUT)

    moved = versions.adopt(note_date)

    assert [path.name for path in moved] == ["note-2024-11-08.txt", "note-2026-01-16.txt"]
    assert sorted(path.name for path in tmp_path.iterdir()) == ["notes"]
    assert versions.newest(read_note).effective == date(2026, 1, 16)
    assert versions.adopt(note_date) == []  # once


def test_where_the_shelf_has_the_date_already_the_copy_in_use_wins_and_the_previous_one_gives_way(tmp_path):
    versions = Versions(tmp_path, OLD_LAYOUT)
    versions.keep(date(2026, 1, 16), text("2026-01-16", "kept when the update ran"))
    versions.keep(date(2024, 11, 8), text("2024-11-08", "a later text of that date"))
    (tmp_path / "note.txt").write_bytes(text("2026-01-16", "what answered"))
    (tmp_path / "note.previous.txt").write_bytes(text("2024-11-08", "the text it replaced"))

    versions.adopt(note_date)

    assert [read_note(path).text for path in versions.paths()] == ["a later text of that date", "what answered"]
    assert sorted(path.name for path in tmp_path.iterdir()) == ["notes"]


def test_a_file_the_operator_points_at_is_copied_and_one_that_cannot_be_dated_stays(tmp_path, caplog):
    (tmp_path / "note.txt").write_bytes(text("2026-01-16"))
    (tmp_path / "note.previous.txt").write_bytes(b"not a note at all")
    versions = Versions(tmp_path, OLD_LAYOUT)

    with caplog.at_level(logging.WARNING):
        versions.adopt(note_date, stay=[tmp_path / "notes" / ".." / "note.txt"])

    assert (tmp_path / "note.txt").read_bytes() == text("2026-01-16")
    assert (tmp_path / "note.previous.txt").read_bytes() == b"not a note at all"
    assert [path.name for path in versions.paths()] == ["note-2026-01-16.txt"]
    assert "note.previous.txt was left where it is" in caplog.text


def test_a_history_reads_each_text_once_one_per_date_and_says_why_a_file_was_left_out(tmp_path):
    (tmp_path / "a.txt").write_bytes(text("2024-11-08"))
    (tmp_path / "b.txt").write_bytes(text("2009-10-01"))
    (tmp_path / "copy.txt").write_bytes(text("2024-11-08"))
    (tmp_path / "other.txt").write_bytes(text("2024-11-08", "another text"))
    (tmp_path / "junk.txt").write_bytes(b"\x00" * 100)
    (tmp_path / "huge.txt").write_bytes(text("2020-01-01") + b"x" * 1024 * 1024)
    paths = sorted(tmp_path.iterdir())
    reads: list[str] = []

    def read(path: Path, data: bytes) -> Note:
        reads.append(path.name)
        return read_note(path, data)

    notes, skipped = read_all([*paths, tmp_path / "a.txt"], read, max_bytes=1024 * 1024)

    assert [note.effective.isoformat() for note in notes] == ["2009-10-01", "2024-11-08"]
    assert "copy.txt" not in reads and reads.count("a.txt") == 1
    reasons = {item.path.name: item.reason for item in skipped}
    assert reasons.keys() == {"other.txt", "junk.txt", "huge.txt"}
    assert reasons["other.txt"] == "another text of the 2024-11-08 edition (a.txt)"
    assert reasons["huge.txt"] == "larger than 1 MB"


def test_what_is_built_from_versions_is_built_again_only_when_a_file_changes(tmp_path):
    versions = Versions(tmp_path, SHELF)
    versions.keep(date(2024, 11, 8), text("2024-11-08"))
    builds: list[int] = []

    def build(paths: list[Path]) -> list[Note]:
        builds.append(len(paths))
        return read_all(paths, read_note)[0]

    history = Built(build)
    first = history.get(versions.paths())
    assert history.get(versions.paths()) is first and history.is_current(versions.paths())

    versions.keep(date(2026, 1, 16), text("2026-01-16"))
    assert not history.is_current(versions.paths())
    assert [note.effective.year for note in history.get(versions.paths())] == [2024, 2026]
    os.utime(versions.paths()[0], ns=(0, 0))
    history.get(versions.paths())
    assert builds == [1, 2, 2]
