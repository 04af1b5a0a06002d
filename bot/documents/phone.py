"""An answer cut into pages a phone shows without scrolling (no Discord here: the cog renders the blocks).

Page one holds one title line, then the cards and their rulings when the question names cards, then the
sentence or subrule that decides, then at most three related rules, each on one line, and stays within
:data:`PAGE_ONE` visible characters, title and footer included. The whole rule follows on the next pages.
A number looked up starts its whole text on page one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from bot.documents.reply import Answer, Line
from bot.text import clip

PAGE_ONE = 1200  # visible characters on page one, title and footer included
PAGE = 1800  # ... on each later page
RELATED = 3  # related rules on page one
RULING = 320  # a ruling on page one is cut to this; the whole of it is on a later page
FOOTER_PAGES = " · page 99/99"
SENTENCE_END = re.compile(r"(?<=[.;!?])\s+")
COMMA = re.compile(r"(?<=,)\s+")
SPACE = re.compile(r"\s+")


@dataclass(frozen=True, slots=True)
class Block:
    """One paragraph of a page. ``kind`` says how it is shown: "card" (a card's name and cost), "type",
    "oracle" (a line of its text), "note", "ruling", "rule" (with its ``number``), "example", "label", "item"
    (a rule to open, on one line) or "text"."""

    kind: str
    text: str
    number: str = ""
    links: tuple[str, ...] = ()

    def plain(self) -> str:
        """The block as a reader sees it."""
        text = self.text
        if self.kind == "rule" and self.number:
            text = f"{self.number} {text}"
        elif self.kind == "example":
            text = f"Example: {text}"
        elif self.kind in ("ruling", "item"):
            text = f"• {text}"
        return " ".join([text, *self.links])


@dataclass
class Page:
    title: str
    blocks: list[Block] = field(default_factory=list)
    footer: str = ""

    def plain(self) -> str:
        return "\n".join([self.title, *(block.plain() for block in self.blocks), self.footer])


def visible(blocks: list[Block]) -> int:
    """How many characters ``blocks`` show, a line break counted as one."""
    return sum(len(block.plain()) + 1 for block in blocks)


def line_block(line: Line, *, numbered: bool = True) -> Block:
    if line.example:
        return Block("example", line.text)
    if line.number and numbered:
        return Block("rule", line.text, line.number, line.links)
    return Block("rule" if line.number else "text", line.text, "", line.links)


def card_blocks(answer: Answer) -> tuple[list[list[Block]], list[Block]]:
    """Each card's blocks for page one (name and cost, type line, text, its first ruling cut short) and what
    waits for a later page (its rulings, whole, when page one cannot show them all)."""
    first: list[list[Block]] = []
    later: list[Block] = []
    for card in answer.cards:
        facts = card.facts
        blocks = [Block("card", card.heading)]
        if facts.type_line:
            blocks.append(Block("type", facts.type_line))
        blocks += [Block("oracle", line) for line in facts.oracle_text.split("\n") if line.strip()]
        blocks.append(Block("note", card.rulings_note()))
        rulings = [f"{ruling.get('published_at', '')}: {ruling.get('comment', '')}" for ruling in card.rulings]
        if rulings:
            blocks.append(Block("ruling", clip(rulings[0], RULING)))
            if len(rulings[0]) > RULING or len(rulings) > 1:
                later.append(Block("label", f"Rulings on {facts.name}"))
                later += [Block("ruling", text) for text in rulings]
        first.append(blocks)
    if answer.more_cards:
        first.append([Block("note", f"…and {answer.more_cards} more cards named; ask about fewer at a time.")])
    return first, later


def _fit(blocks: list[Block], room: int) -> list[Block]:
    """``blocks`` cut to ``room`` visible characters, the last one clipped (a rule's number stays)."""
    out: list[Block] = []
    used = 0
    for block in blocks:
        size = len(block.plain()) + 1
        if used + size <= room:
            out.append(block)
            used += size
            continue
        left = room - used - 1 - (len(block.plain()) - len(block.text))
        if left >= 40:
            out.append(Block(block.kind, clip(block.text, left), block.number))
        break
    return out


def page_one(answer: Answer, room: int) -> tuple[list[Block], list[Block]]:
    """What page one shows within ``room`` characters, and what it leaves for the next pages (before the whole
    rule)."""
    cards, later = card_blocks(answer)
    # The title names the rule already ("704.5g State-Based Actions"): its text follows without the number again.
    titled = answer.title.split(" ")[0]
    lead = [line_block(line, numbered=line.number.rstrip(".") != titled) for line in answer.lead]
    items = [Block("item", choice.name) for choice in answer.candidates]
    related = []
    if answer.related and not answer.candidates and answer.lead:
        related = [Block("label", "Related")] + [Block("item", c.name) for c in answer.related[:RELATED]]
    note = [Block("note", answer.note)] if answer.note else []
    fixed = visible(items) + visible(note)
    # The cards come first but may not crowd out what decides: they get what the rest leaves, at least a third.
    own = fixed + visible(lead) + visible(related)
    if visible([block for card in cards for block in card]) + own > room:
        related = related[: 1 + max(0, (room - fixed - visible(lead)) // 120)] if related else []
        related = [] if len(related) == 1 else related
        own = fixed + visible(lead) + visible(related)
    card_room = max(room // 3, room - own) if cards else 0
    shown_cards: list[Block] = []
    for number, card in enumerate(cards):
        share = (card_room - visible(shown_cards)) // (len(cards) - number)
        fitted = _fit(card, share)
        shown_cards += fitted
        dropped = [block for block in card[len(fitted) :] if block.kind == "ruling"]
        label = Block("label", f"Rulings on {answer.cards[number].facts.name}") if number < len(answer.cards) else None
        if dropped and label not in later:
            later = [label, *dropped, *later]
    left = room - visible(shown_cards) - fixed - visible(related)
    shown_lead = _fit(lead, left)
    blocks = shown_cards + shown_lead + items + related + note
    return blocks, later


def _pieces(text: str, size: int) -> list[str]:
    """``text`` cut into pieces of at most ``size`` characters: at sentence ends, else after commas, else between
    words, else anywhere. Nothing is dropped."""
    for pattern in (SENTENCE_END, COMMA, SPACE):
        if len(text) <= size:
            return [text]
        parts = pattern.split(text)
        if len(parts) > 1:
            out: list[str] = []
            current = ""
            for part in parts:
                if current and len(current) + 1 + len(part) > size:
                    out.append(current)
                    current = part
                else:
                    current = f"{current} {part}" if current else part
            out.append(current)
            return [piece for part in out for piece in _pieces(part, size)]
    return [text[i : i + size] for i in range(0, len(text), size)]


def split_long(block: Block, size: int) -> list[Block]:
    """A block longer than a page, cut into blocks that fit (its number on the first part only)."""
    extra = len(block.plain()) - len(block.text)
    if len(block.plain()) <= size:
        return [block]
    pieces = _pieces(block.text, size - extra)
    return [
        Block(block.kind, piece, block.number if i == 0 else "", block.links if i == len(pieces) - 1 else ())
        for i, piece in enumerate(pieces)
    ]


def paginate(blocks: list[Block], first_room: int, room: int) -> list[list[Block]]:
    pages: list[list[Block]] = [[]]
    limit = first_room
    for block in [part for whole in blocks for part in split_long(whole, room - 20)]:
        if pages[-1] and visible(pages[-1]) + len(block.plain()) + 1 > limit:
            pages.append([])
            limit = room
        pages[-1].append(block)
    return pages


def pages(answer: Answer, *, first: int = PAGE_ONE, later: int = PAGE) -> list[Page]:
    """The answer's pages: page one within ``first`` visible characters, each later page within ``later``."""
    title = clip(" ".join(answer.title.split()), 256)
    footer = answer.edition.footer()
    overhead = len(title) + len(footer) + len(FOOTER_PAGES) + 2
    titled = title.split(" ")[0]
    whole = [line_block(line, numbered=answer.lead or line.number.rstrip(".") != titled) for line in answer.lines]
    if answer.lead or answer.cards or answer.candidates:
        shown, waiting = page_one(answer, first - overhead)
        if answer.whole or waiting:
            rest = waiting + ([Block("label", answer.whole)] if answer.whole and whole else []) + whole
            chunks = [shown] + (paginate(rest, later - overhead, later - overhead) if rest else [])
        else:  # no whole rule to keep apart (a history): its lines go on from page one
            chunks = paginate(shown + whole, first - overhead, later - overhead)
    else:
        chunks = paginate(whole or [Block("text", "")], first - overhead, later - overhead)
    total = len(chunks)
    return [
        Page(title, chunk, footer + (f" · page {number}/{total}" if total > 1 else ""))
        for number, chunk in enumerate(chunks, start=1)
    ]


def fits_page_one(answer: Answer, first: int = PAGE_ONE) -> bool:
    """Whether page one shows all of ``answer``'s lead as it is, within the pager's own limit (``first``, title and
    footer included): nothing clipped, nothing left for a later page."""
    title = clip(" ".join(answer.title.split()), 256)
    overhead = len(title) + len(answer.edition.footer()) + len(FOOTER_PAGES) + 2
    titled = title.split(" ")[0]
    lead = [line_block(line, numbered=line.number.rstrip(".") != titled) for line in answer.lead]
    shown, later = page_one(answer, first - overhead)
    return not later and all(block in shown for block in lead)


def text(answer: Answer) -> str:
    """The answer for a terminal, in the order of the pages: one title, the cards and all their rulings, what
    decides, the rules that may answer or the related ones, the note, then the whole rule."""
    out = [" ".join(answer.title.split()), ""]
    for card in answer.cards:
        out += card.text_lines() + [""]
    if answer.more_cards:
        out += [f"(and {answer.more_cards} more cards named; ask about fewer at a time)", ""]
    titled = answer.title.split(" ")[0]
    out += [line_block(line, numbered=line.number.rstrip(".") != titled).plain() for line in answer.lead]
    out += [Block("item", choice.name).plain() for choice in answer.candidates]
    if answer.related and not answer.candidates and answer.lead:
        out += ["", "Related:"] + [Block("item", choice.name).plain() for choice in answer.related[:RELATED]]
    if answer.note:
        out += ["", answer.note]
    if answer.lines:
        out += ([""] if out[-1] else []) + ([answer.whole, ""] if answer.whole and answer.lead else [])
        numbered = bool(answer.lead)
        out += [
            line_block(line, numbered=numbered or line.number.rstrip(".") != titled).plain() for line in answer.lines
        ]
    if answer.url:
        out += ["", f"Online: {answer.url}"]
    out += ["", answer.edition.footer()]
    return "\n".join(out)
