"""Decklists as players paste them: Arena, MTGO, Moxfield, TappedOut and plain text, on many lines or on one.

A line is ``4 Name``, ``4x Name``, ``4 Name (SET) 123`` (Arena), ``SB: 2 Name`` (MTGO), ``1 [SET] Name`` (old
``.dec`` files), or a bare ``Name`` meaning one copy. Sections are kept apart: headers (``Deck``, ``Sideboard``,
``Commander``, ``Companion``; ``SIDEBOARD:``, ``Sideboard (15)``, any case) start a section, ``Maybeboard`` and the
like are dropped, and type headings (``Creatures (20)``) are skipped. A list without any header whose last block
(after its last blank line) holds at most 15 cards has that block as its sideboard, as MTGO writes it. In one line
(a Discord option holds no line break) entries are separated by commas, ``;`` or a comma before the next count,
and ``Sideboard:`` or ``SB:`` starts the sideboard.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from bot.goldfish.decks.model import (
    COMMANDER,
    COMPANION,
    MAIN,
    MAX_CARDS,
    MAX_SIDE_CARDS,
    SIDEBOARD,
    DeckProblem,
    DeckText,
    Line,
)
from bot.text import clip, escape

ENGINE_FIELDS = (
    "name",
    "mana_cost",
    "type_line",
    "oracle_text",
    "keywords",
    "colors",
    "color_identity",
    "cmc",
    "layout",
    "card_faces",
    "power",
    "toughness",
    "id",
    "set",
    "collector_number",
)
FACE_FIELDS = ("name", "mana_cost", "type_line", "oracle_text", "power", "toughness")
DROPPED = None  # the section of lines that are not part of the deck (a maybeboard)
HEADERS: dict[str, str | None] = {
    **dict.fromkeys(("deck", "main", "maindeck", "main deck", "mainboard", "main board"), MAIN),
    **dict.fromkeys(("sideboard", "side board", "side", "sb"), SIDEBOARD),
    **dict.fromkeys(("commander", "commanders", "command zone"), COMMANDER),
    **dict.fromkeys(("companion", "companions"), COMPANION),
    **dict.fromkeys(("maybeboard", "maybe", "considering", "tokens", "about", "wishlist", "acquireboard"), DROPPED),
}
# Headings of a list grouped by type: the lines under them stay in their section.
GROUPS = re.compile(
    r"(?:creature|land|instant|sorcery|sorcerie|artifact|enchantment|planeswalker|battle|spell|other|nonland)s?",
    re.IGNORECASE,
)
HEADING = re.compile(
    r"^(?P<word>[a-z]+(?: [a-z]+)*)\s*(?:\(\s*\d+\s*\))?\s*(?P<colon>:?)\s*(?P<rest>.*)$", re.IGNORECASE
)
LINE = re.compile(
    r"^(?:(?P<count>\d+)\s*[xX]?\s+)?"
    r"(?:\[(?P<bracket>[A-Za-z0-9]{2,6})(?::[A-Za-z0-9★\-]+)?\]\s*)?"
    r"(?P<name>.+?)"
    r"(?:\s+\((?P<set>[A-Za-z0-9]{2,6})\)(?:\s+(?P<number>[A-Za-z0-9★\-]+))?)?"
    r"(?P<marks>(?:\s+\*[A-Za-z]+\*)*)\s*$"
)
# A line is a card or nothing: markup and mentions are no part of any card's name.
NOT_IN_NAMES = re.compile(r"[<>@*`|{}\\~\[\]]")
SET_CODE = re.compile(r"[A-Za-z0-9]{2,6}")
PRINTED_NUMBER = re.compile(r"[A-Za-z0-9★\-]{1,10}")
MAX_LINE = 200  # characters; the longest card name has 141
MAX_COUNT_DIGITS = len(str(MAX_CARDS))
LARGE_COUNT = re.compile(rf"0*[1-9]\d{{{MAX_COUNT_DIGITS},}}\s*x?\s")
SIDEBOARD_BLOCK = 15
COMMANDER_MARK = "*cmdr*"
# Where one entry ends and the next begins: a new line, ";", or a comma before a count ("4 Bloated Toad, 4 Forest":
# a Discord option holds no new line, and the other lists of /goldfish are comma-separated). A comma inside a name
# ("Gisa, Glorious Resurrector") is followed by a word, one inside a number ("Borrowing 100,000 Arrows") by a digit
# with no space (after a collector number, "(AKH) 160, 2 Forest", the space marks the break). In one line, a comma
# also comes before a section's marker ("…, Sideboard: 2 Negate").
MARKER = r"(?:sideboard|sb|commander|companion|deck|mainboard|maybeboard)\s*:"
ENTRY_BREAK = re.compile(
    rf"\r?\n|\r|;|(?<!\d),\s*(?=\d+\s*x?\s+\S)|(?<=\d),\s+(?=\d+\s*x?\s+\S)|,\s*(?={MARKER})", re.IGNORECASE
)
LINE_BREAK = re.compile(r"\r?\n|\r")
SHAPES = "'4 Flame Jet', '4x Flame Jet' or '4 Flame Jet (ONS) 199'"


def entry_texts(text: str) -> list[str]:
    """The entries of a decklist as typed, one a line, separated by ``;`` or by ``, 4 …`` in one line."""
    return ENTRY_BREAK.split(text)


def _not_a_card(number: int, line: str) -> DeckProblem:
    return DeckProblem(
        f"Line {number} (“{escape(clip(line, 60), typed=True)}”) is not a card: write each line as {SHAPES}, "
        "one a line, or separated by commas or ';'."
    )


def read_line(number: int, line: str, section: str) -> Line:
    """One entry as a :class:`Line`, or :class:`DeckProblem` saying why it is not one."""
    if LARGE_COUNT.match(line):
        raise DeckProblem(f"Line {number}: that count is too large; a deck has at most {MAX_CARDS} cards.")
    match = LINE.match(line) if len(line) <= MAX_LINE else None
    if match is None:
        raise _not_a_card(number, line)
    if COMMANDER_MARK in (match["marks"] or "").lower():
        section = COMMANDER
    card_set = match["set"] or match["bracket"]
    printed = match["number"] if match["set"] else None
    return make_line(number, match["count"] or "1", match["name"], section, card_set, printed, line)


def make_line(
    number: int,
    count_text: str,
    name: str,
    section: str,
    card_set: str | None = None,
    printed: str | None = None,
    line: str | None = None,
) -> Line:
    """A line from its parts as a list, a file or a site gives them; :class:`DeckProblem` for a name no card can
    have (markup, mentions, a number, too long) or a count that is not one."""
    name = " ".join(name.split())
    if not name or len(name) > MAX_LINE or NOT_IN_NAMES.search(name) or name.isdigit():
        raise _not_a_card(number, line if line is not None else name)
    digits = count_text.strip().lstrip("0") or "0"
    if not digits.isdigit():
        raise DeckProblem(f"Line {number}: “{escape(clip(count_text, 20), typed=True)}” is not a number of copies.")
    if len(digits) > MAX_COUNT_DIGITS:
        # Checked on the digits: int() of thousands of digits is slow, and refused past 4,300.
        raise DeckProblem(f"Line {number}: that count is too large; a deck has at most {MAX_CARDS} cards.")
    count = int(digits)
    if count < 1:
        raise DeckProblem(f"Line {number}: the count must be at least 1.")
    card_set = card_set.lower() if card_set and SET_CODE.fullmatch(card_set) else None
    printed = printed if card_set and printed and PRINTED_NUMBER.fullmatch(printed) else None
    return Line(count, name, section, card_set, printed)


def _heading(line: str) -> tuple[str | None, str] | None:
    """``(section, rest)`` for a section's header (``Sideboard``, ``SIDEBOARD:``, ``Sideboard: 2 Negate``), ``(…,
    "")`` with the current section kept for a type heading; None for a card's line."""
    match = HEADING.match(line)
    if match is None:
        return None
    word = " ".join(match["word"].lower().split())
    if match["rest"] and not match["colon"]:
        return None
    if word in HEADERS:
        return HEADERS[word], match["rest"]
    if GROUPS.fullmatch(word) and not match["rest"]:
        return "group", ""
    return None


def parse_decklist(text: str) -> DeckText:
    """A pasted list read into its sections (see the module's docstring); :class:`DeckProblem` for a line that is
    not a card, a main deck over :data:`MAX_CARDS` cards, or a list with no cards."""
    one_line = LINE_BREAK.search(text.strip()) is None
    lines: list[Line] = []
    blocks: list[list[int]] = [[]]  # the lines of each block between blank lines, by index into ``lines``
    section: str | None = MAIN
    marked = False  # any header or SB: seen: then no block is taken for the sideboard
    title = None
    for number, raw in enumerate(_entries(text, one_line), start=1):
        entry = raw.strip()
        if not entry:
            if blocks[-1]:
                blocks.append([])
            continue
        if entry.startswith(("#", "//")):
            continue
        if entry[:3].upper() == "SB:" and not one_line:  # MTGO's mark of a sideboard line, line by line
            marked = True
            lines.append(read_line(number, entry[3:].strip(), SIDEBOARD))
            continue
        heading = _heading(entry)
        if heading is not None:
            found, entry = heading
            if found in (COMMANDER, COMPANION) and entry:
                # "Commander: Gavi, Nest Warden" names that card alone; the list goes on where it was.
                marked = True
                lines.append(read_line(number, entry, found))
                continue
            if found != "group":
                section, marked = found, True
            if not entry:
                continue
        if section is DROPPED:
            if entry.lower().startswith("name "):
                title = title or entry[5:].strip()
            continue
        blocks[-1].append(len(lines))
        lines.append(read_line(number, entry, section))
    blocks = [block for block in blocks if block]
    marked = marked or any(line.section != MAIN for line in lines)  # a *CMDR* mark is a header of its own
    if not marked and len(blocks) >= 2 and sum(lines[i].count for i in blocks[-1]) <= SIDEBOARD_BLOCK:
        for index in blocks[-1]:
            lines[index] = _moved(lines[index], SIDEBOARD)
    return checked(DeckText(tuple(lines), title))


def _entries(text: str, one_line: bool) -> Iterator[str]:
    if one_line:
        yield from entry_texts(text)
        return
    for line in LINE_BREAK.split(text):
        parts = entry_texts(line)
        yield from parts if any(part.strip() for part in parts) else [""]


def _moved(line: Line, section: str) -> Line:
    return Line(line.count, line.name, section, line.card_set, line.number)


def checked(deck: DeckText) -> DeckText:
    """A list within the limits: some cards in its main deck, at most :data:`MAX_CARDS` there."""
    main = deck.count(MAIN)
    if main > MAX_CARDS:
        raise DeckProblem(f"That list has {main} cards in its main deck; a goldfish deck has at most {MAX_CARDS}.")
    if sum(line.count for line in deck.lines) - main > MAX_SIDE_CARDS:
        raise DeckProblem(f"That list has more than {MAX_SIDE_CARDS} cards beside its main deck.")
    if not main:
        raise DeckProblem(
            "That list has no main deck: write its lines like '4 Flame Jet, 4 Street Wraith'"
            + (" (only a sideboard was found)." if deck.lines else ".")
        )
    return deck


def trim_card(card: Mapping[str, Any]) -> dict[str, Any]:
    """Only the fields the engine reads."""
    trimmed = {key: card[key] for key in ENGINE_FIELDS if card.get(key) not in (None, [])}
    if "card_faces" in trimmed:
        trimmed["card_faces"] = [{k: f[k] for k in FACE_FIELDS if k in f} for f in trimmed["card_faces"]]
    return trimmed
