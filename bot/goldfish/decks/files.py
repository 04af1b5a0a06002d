"""Deck files players upload, and lists in their exports' other shapes.

A file's bytes are read as text: UTF-8 with or without a BOM, or UTF-16 (Windows exports, with a BOM or without);
anything else, or text holding control characters (a picture, an archive), is refused. MTGO's ``.dek`` is XML,
parsed with DTDs and entities refused (no billion laughs, nothing fetched); a CSV export's columns are found by
their header names (``Quantity``/``Count``, ``Name``/``Card Name``, a set, a collector number, a board or a
sideboard flag), in whatever order and with whichever separator the site wrote.
"""

from __future__ import annotations

import codecs
import csv
import io
import re
from pathlib import PurePath
from xml.etree.ElementTree import ParseError

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import fromstring

from bot.goldfish.decks.decklist import HEADERS, checked, make_line, parse_decklist
from bot.goldfish.decks.model import MAIN, SIDEBOARD, DeckProblem, DeckText, Line

FILE_TYPES = (".txt", ".dek", ".csv", ".dec")
MAX_FILE_BYTES = 256 * 1024
BINARY = re.compile(r"[\x00-\x08\x0e-\x19\x1b-\x1f\x7f]")
BINARY_BYTES = re.compile(rb"[\x00-\x08\x0e-\x19\x1b-\x1f\x7f]")
BINARY_TEXT = "That file holds binary data, not a decklist: upload the text file your deck site exports."
SNIFFED = 512  # bytes looked at to tell UTF-16 without a BOM
MAX_CSV_ROWS = 2000

# Header names, folded (lower case, ``_`` as a space), of the columns a CSV export may have.
NAME_COLUMNS = {"name", "card name", "card", "cardname"}
COUNT_COLUMNS = {"quantity", "qty", "count", "amount", "copies"}
SET_COLUMNS = {"set", "set code", "setcode", "edition code", "edition"}
NUMBER_COLUMNS = {"collector number", "card number", "collector #", "collector no", "number", "cn"}
BOARD_COLUMNS = {"board", "section", "zone", "category", "categories"}
SIDEBOARD_FLAGS = {"sideboard", "sideboarded", "in sideboard", "is sideboard"}
YES = {"true", "yes", "1", "y", "x"}
DELIMITERS = (",", ";", "\t")


def file_type(filename: str) -> str:
    """The file's type by its name (``.txt``, ``.dek``, ``.csv``, ``.dec``); :class:`DeckProblem` for another."""
    suffix = PurePath(filename or "").suffix.lower()
    if suffix not in FILE_TYPES:
        raise DeckProblem("I read decks from .txt, .dek, .csv and .dec files: export your deck as one of those.")
    return suffix


def decode(data: bytes) -> str:
    """A file's text; :class:`DeckProblem` for an empty file, binary content or an encoding it isn't in."""
    if not data.strip(b" \t\r\n\x00\xef\xbb\xbf\xff\xfe"):
        raise DeckProblem("That file is empty: export your deck again and upload the file it gives.")
    try:
        if data.startswith(codecs.BOM_UTF8):
            text = data[len(codecs.BOM_UTF8) :].decode("utf-8")
        elif data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
            text = data.decode("utf-16")
        elif order := _utf16_order(data):
            text = data.decode(order)
        elif BINARY_BYTES.search(data):
            raise DeckProblem(BINARY_TEXT)
        else:
            text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise DeckProblem(
            "I can't read that file's text: save it as UTF-8 (or UTF-16) text and upload it again."
        ) from None
    text = text.rstrip("\x1a")  # an old editor's end-of-file mark
    if BINARY.search(text):
        raise DeckProblem(BINARY_TEXT)
    return text


def _utf16_order(data: bytes) -> str | None:
    """UTF-16 without a BOM, told by its zero bytes: a list is mostly ASCII, so every other byte is zero."""
    head = data[:SNIFFED]
    if len(head) < 4:
        return None
    even, odd = head[0::2], head[1::2]
    if odd.count(0) > len(odd) * 0.4 and not even.count(0):
        return "utf-16-le"
    if even.count(0) > len(even) * 0.4 and not odd.count(0):
        return "utf-16-be"
    return None


def read_file(filename: str, data: bytes) -> DeckText:
    """The list an uploaded file holds, read by its type."""
    kind = file_type(filename)
    text = decode(data)
    if kind == ".dek":
        return parse_dek(text)
    if kind == ".csv":
        return parse_csv(text) or _no_columns()
    return read_list(text)


def read_list(text: str) -> DeckText:
    """A list in whatever shape it came: MTGO's XML, a CSV export with a header, or lines of text."""
    start = text.lstrip("\ufeff \t\r\n")
    if start.startswith(("<?xml", "<Deck")):
        return parse_dek(start)
    return parse_csv(text) or parse_decklist(text)


def parse_dek(text: str) -> DeckText:
    """MTGO's ``.dek``: ``<Deck><Cards Quantity="4" Sideboard="false" Name="…"/>…</Deck>``."""
    try:
        root = fromstring(text.lstrip("\ufeff \t\r\n"), forbid_dtd=True, forbid_entities=True, forbid_external=True)
    except (ParseError, DefusedXmlException, ValueError):
        raise DeckProblem(
            "That .dek file isn't MTGO's deck XML as I know it (or it declares entities, which I don't read). "
            "Export the deck again, or paste its list."
        ) from None
    if root.tag != "Deck":
        raise DeckProblem("That XML isn't an MTGO deck: its top element should be <Deck>.")
    lines = []
    for number, card in enumerate(root.iter("Cards"), start=1):
        section = SIDEBOARD if (card.get("Sideboard") or "").strip().lower() == "true" else MAIN
        lines.append(make_line(number, card.get("Quantity") or "", card.get("Name") or "", section))
    return checked(DeckText(tuple(lines)))


def _folded(header: str) -> str:
    return " ".join(header.replace("_", " ").strip().strip('"').lower().split())


def _columns(header: list[str]) -> dict[str, int] | None:
    """Where each column this reads is, by its header's name; None without a name and a count column."""
    folded = [_folded(cell) for cell in header]
    found = {}
    for role, names in (
        ("name", NAME_COLUMNS),
        ("count", COUNT_COLUMNS),
        ("set", SET_COLUMNS),
        ("number", NUMBER_COLUMNS),
        ("board", BOARD_COLUMNS),
        ("flag", SIDEBOARD_FLAGS),
    ):
        index = next((i for i, cell in enumerate(folded) if cell in names), None)
        if index is not None:
            found[role] = index
    return found if "name" in found and "count" in found else None


def parse_csv(text: str) -> DeckText | None:
    """A CSV export's list, or None when its first line is not a header naming a card and a count column."""
    first = next((line for line in text.splitlines() if line.strip()), "")
    for delimiter in DELIMITERS:
        if delimiter not in first:
            continue
        rows = csv.reader(io.StringIO(text.lstrip("\ufeff")), delimiter=delimiter)
        try:
            header = next(rows)
        except (StopIteration, csv.Error):
            continue
        columns = _columns(header)
        if columns is not None:
            return checked(DeckText(tuple(_csv_lines(rows, columns))))
    return None


def _csv_lines(rows, columns: dict[str, int]) -> list[Line]:
    lines = []
    try:
        for number, row in enumerate(rows, start=2):
            if number > MAX_CSV_ROWS:
                raise DeckProblem(f"That file has more than {MAX_CSV_ROWS} rows: a deck's list is shorter.")
            if not any(cell.strip() for cell in row):
                continue

            def cell(role: str, row=row) -> str:
                index = columns.get(role)
                return row[index].strip() if index is not None and index < len(row) else ""

            section = _section(cell("board"), cell("flag"))
            if section is None:
                continue
            lines.append(make_line(number, cell("count") or "1", cell("name"), section, cell("set"), cell("number")))
    except csv.Error:
        raise DeckProblem("That CSV file is malformed (a quote never closed?): export it again.") from None
    return lines


def _section(board: str, flag: str) -> str | None:
    """The section a row belongs to: its board's (an Archidekt category that is no board is the main deck's), a
    sideboard flag; None for a maybeboard."""
    if flag.lower() in YES:
        return SIDEBOARD
    first = " ".join(board.split(",")[0].lower().split())
    return HEADERS[first] if first in HEADERS else MAIN


def _no_columns() -> DeckText:
    raise DeckProblem(
        "I couldn't find the columns of that CSV file: its first line should name a quantity column "
        "(Quantity, Count) and a name column (Name, Card Name)."
    )
