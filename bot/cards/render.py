"""Scryfall card objects turned into text: embed-shaped displays for Discord and plain text for the terminal.

Nothing here imports discord: a :class:`CardDisplay` holds what an embed needs (title, link,
description, fields, image, footer) already clipped to Discord's limits and with the card's own text escaped
for Discord's markdown (``*/*`` stays stars, a name like ``_____`` stays underscores; ``{G}`` stays a symbol), and
the cog copies it into a ``discord.Embed``. The terminal's text (:func:`render_text`) is not escaped. Cycling
abilities come from :mod:`bot.cycling`, so cards Scryfall tags only as landcyclers, or with a cost such as "Pay 2
life", read the same everywhere.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from bot import limits
from bot.carddb import digital_label
from bot.cards.colours import card_colour
from bot.cycling import card_faces, cycling_abilities, describe_abilities
from bot.text import as_utc, clip, escape

Card = Mapping[str, Any]

TITLE_LIMIT = limits.EMBED_TITLE
DESCRIPTION_LIMIT = limits.EMBED_DESCRIPTION
FIELD_VALUE_LIMIT = limits.EMBED_FIELD_VALUE
FOOTER_LIMIT = limits.EMBED_FOOTER
COMPACT_TEXT_LIMIT = 600

# Layouts whose faces each have their own image (front face first).
FACE_IMAGE_LAYOUTS = frozenset({"transform", "modal_dfc", "double_faced_token", "reversible_card", "meld"})
MULTI_FACE_LAYOUTS = frozenset({"split", "flip", "adventure", "transform", "modal_dfc", "reversible_card"})

# Scryfall's formats in the order a card's legality shows them; a format is called by its code capitalised, but
# for these.
FORMAT_ORDER = (
    "standard pioneer modern legacy vintage commander pauper paupercommander oathbreaker brawl standardbrawl "
    "historic timeless alchemy explorer gladiator penny duel predh premodern oldschool future frontier"
).split()
FORMAT_NAMES = dict(
    [
        ("paupercommander", "Pauper Commander"),
        ("standardbrawl", "Standard Brawl"),
        ("penny", "Penny Dreadful"),
        ("duel", "Duel Commander"),
        ("predh", "PreDH"),
        ("oldschool", "Old School"),
        ("future", "Future Standard"),
    ]
)
LEGALITY_LABELS = {
    "legal": "Legal",
    "restricted": "Restricted",
    "banned": "Banned",
    "not_legal": "Not legal",
}
PRICE_LABELS = (
    ("usd", "USD", "${}"),
    ("usd_foil", "USD foil", "${}"),
    ("usd_etched", "USD etched", "${}"),
    ("eur", "EUR", "€{}"),
    ("eur_foil", "EUR foil", "€{}"),
    ("eur_etched", "EUR etched", "€{}"),
    ("tix", "MTGO", "{} tix"),
)


@dataclass
class CardDisplay:
    """What a card embed shows, already within Discord's limits."""

    title: str
    url: str | None = None
    description: str = ""
    fields: list[tuple[str, str]] = field(default_factory=list)
    image_url: str | None = None
    thumbnail_url: str | None = None
    footer: str = ""
    colour: int | None = None

    def add_field(self, name: str, value: str) -> None:
        if value:
            self.fields.append((clip(name, TITLE_LIMIT), clip(value, FIELD_VALUE_LIMIT)))


# ------------------------------------------------------------------ card parts


def faces(card: Card) -> list[Card]:
    """The faces to show: every ``card_faces`` entry, or the card itself."""
    return card_faces(card)


def is_multi_faced(card: Card) -> bool:
    return len(faces(card)) > 1


def mana_cost(card: Card) -> str:
    """The printed mana cost, with ``//`` between faces of a multi-faced card."""
    cost = card.get("mana_cost")
    if cost:
        return cost
    costs = [face.get("mana_cost") or "" for face in faces(card)]
    if not any(costs[1:]):
        # A transforming card's back face has no cost of its own.
        return costs[0]
    return " // ".join(cost or "—" for cost in costs)


def title(card: Card, *, markdown: bool = False) -> str:
    """``Name {cost}``; ``markdown``: the name escaped, for Discord."""
    name = card.get("name") or "Unknown card"
    if markdown:
        name = escape(name)
    cost = mana_cost(card)
    return clip(f"{name} {cost}" if cost else name, TITLE_LIMIT)


def stats(face: Card) -> str:
    """``3/4``, ``Loyalty 3`` or ``Defense 5``; empty for cards without any."""
    if face.get("power") is not None or face.get("toughness") is not None:
        return f"{face.get('power', '?')}/{face.get('toughness', '?')}"
    if face.get("loyalty") is not None:
        return f"Loyalty {face['loyalty']}"
    if face.get("defense") is not None:
        return f"Defense {face['defense']}"
    return ""


def face_lines(face: Card, *, with_name: bool) -> list[str]:
    """A face for Discord: its name and cost (``with_name``), type line, rules text and stats, each escaped."""
    lines = []
    if with_name:
        cost = face.get("mana_cost") or ""
        lines.append(f"**{escape(face.get('name', '?'))}** {cost}".rstrip())
    if face.get("type_line"):
        lines.append(f"*{escape(face['type_line'])}*")
    if face.get("oracle_text"):
        lines.append(escape(face["oracle_text"]))
    if stat := stats(face):
        lines.append(escape(stat))
    return lines


def oracle_block(card: Card) -> str:
    """Type line, rules text and stats of every face, faces separated by a blank line; a card that exists only
    online says so first."""
    label = digital_label(card)
    head = f"*{label}*\n" if label else ""
    card_faces_ = faces(card)
    if len(card_faces_) == 1:
        return head + "\n".join(face_lines(card_faces_[0], with_name=False))
    return head + "\n\n".join("\n".join(face_lines(face, with_name=True)) for face in card_faces_)


def cycling_line(card: Card) -> str:
    """Every cycling ability with its cost, e.g. ``Plainscycling {2}, Islandcycling {2}``."""
    return describe_abilities(cycling_abilities(card))


def cycling_field(card: Card) -> str:
    """The cycling costs for a field of their own, or nothing when the rules text above shows each as it is
    (``Cycling {2}`` said once): a field is for what the text words otherwise (a landcycler Scryfall only tags, a
    face's ability, "Pay 2 life" after a dash)."""
    line = cycling_line(card)
    text = "\n".join(face.get("oracle_text") or "" for face in faces(card)).casefold()
    if all(part.casefold() in text for part in line.split(", ")):
        return ""
    return line


def set_line(card: Card) -> str:
    set_name = card.get("set_name") or ""
    code = (card.get("set") or "").upper()
    rarity = (card.get("rarity") or "").replace("_", " ")
    where = f"{set_name} ({code})" if set_name and code else set_name or code
    return " · ".join(part for part in (where, rarity) if part)


def scryfall_link(card: Card) -> str | None:
    uri = card.get("scryfall_uri")
    if not uri:
        return None
    return uri.split("?utm_source=", 1)[0]


def image_url(card: Card, size: str = "normal") -> str | None:
    """The card's image; a double-faced card has none at the top level, so its front face's."""
    images = card.get("image_uris")
    if not images:
        for face in card.get("card_faces") or ():
            if face.get("image_uris"):
                images = face["image_uris"]
                break
    if not images:
        return None
    return images.get(size) or images.get("normal") or images.get("large") or images.get("small")


def face_image_url(face: Card, size: str = "normal") -> str | None:
    images = face.get("image_uris") or {}
    return images.get(size) or images.get("normal") or images.get("large")


@dataclass(frozen=True)
class Provenance:
    """Where a card shown came from: ``origin`` names the source and how old its data is; ``stale`` when it is a
    copy kept from ``cached_at`` because Scryfall could not be reached."""

    origin: str = ""
    stale: bool = False
    cached_at: datetime | str | float | None = None

    def footer(self, default: str = "") -> str:
        return stale_note(self.cached_at) if self.stale else self.origin or default


FRESH = Provenance()


def stale_note(cached_at: datetime | str | float | None) -> str:
    """The footer telling that Scryfall could not be reached and the card is an older copy."""
    when = format_time(cached_at)
    return "Scryfall is unreachable; showing a cached copy" + (f" from {when}" if when else "")


def format_time(value: datetime | str | float | None) -> str:
    when = as_utc(value)
    if when is None:
        return value if isinstance(value, str) else ""
    return when.strftime("%Y-%m-%d %H:%M UTC")


# ------------------------------------------------------------------ whole cards


def noted(note: str, text: str) -> str:
    """``text`` after the line ``note`` (the printed name a card was asked for), when there is one."""
    return f"{note}\n{text}" if note else text


def render_card(card: Card, *, shown: Provenance = FRESH, note: str = "") -> CardDisplay:
    """Everything /card shows, a phone screen at most: cost, type, text, stats, cycling, set and rarity, link, and
    the picture as a thumbnail (a tap opens it; the Picture button and ``[[!name]]`` show it full size).

    ``shown`` says where the answer came from and how old its data is, for the footer; ``note`` (markdown) leads
    the text: the name as printed in the language it was asked in, with a link to that printing."""
    display = CardDisplay(
        title=title(card, markdown=True),
        url=scryfall_link(card),
        description=clip(noted(note, oracle_block(card)), DESCRIPTION_LIMIT),
        thumbnail_url=image_url(card),
        colour=card_colour(card),
    )
    display.add_field("Cycling", cycling_field(card))
    display.add_field("Set", set_line(card))
    display.footer = clip(shown.footer("Data from Scryfall"), FOOTER_LIMIT)
    return display


def render_compact(card: Card, *, origin: str = "", note: str = "") -> CardDisplay:
    """The short form for inline ``[[card]]`` answers: text clipped, a thumbnail instead of the image; ``note`` as
    :func:`render_card`'s."""
    display = CardDisplay(
        title=title(card, markdown=True),
        url=scryfall_link(card),
        description=clip(noted(note, oracle_block(card)), COMPACT_TEXT_LIMIT),
        thumbnail_url=image_url(card, "small"),
        footer=clip(origin, FOOTER_LIMIT),
        colour=card_colour(card),
    )
    display.add_field("Cycling", cycling_field(card))
    return display


def render_faces(card: Card) -> list[CardDisplay]:
    """One display per face, each with that face's own image where it has one."""
    displays = []
    card_faces_ = faces(card)
    for face in card_faces_:
        cost = face.get("mana_cost") or ""
        name = escape(face.get("name") or card.get("name") or "?")
        displays.append(
            CardDisplay(
                title=clip(f"{name} {cost}".rstrip(), TITLE_LIMIT),
                url=scryfall_link(card),
                description=clip("\n".join(face_lines(face, with_name=False)), DESCRIPTION_LIMIT),
                image_url=face_image_url(face) or (image_url(card) if len(displays) == 0 else None),
                footer=f"{card.get('name', '')} · face {len(displays) + 1} of {len(card_faces_)}",
                colour=card_colour(face if face.get("colors") is not None else card),
            )
        )
    return displays


def render_text(card: Card, *, shown: Provenance = FRESH, note: str = "") -> str:
    """The plain-text card for the terminal: the same parts as the embed, without markdown."""
    lines = [title(card), *([note] if note else [])]
    if label := digital_label(card):
        lines.append(label)
    card_faces_ = faces(card)
    for index, face in enumerate(card_faces_):
        if len(card_faces_) > 1:
            if index:
                lines.append("//")
            lines.append(f"{face.get('name', '?')} {face.get('mana_cost') or ''}".rstrip())
        if face.get("type_line"):
            lines.append(face["type_line"])
        if face.get("oracle_text"):
            lines.append(face["oracle_text"])
        if stat := stats(face):
            lines.append(stat)
    if cycling := cycling_line(card):
        lines.append(f"Cycling: {cycling}")
    if where := set_line(card):
        lines.append(f"Set: {where}")
    if footer := shown.footer():
        lines.append(f"({footer})")
    if link := scryfall_link(card):
        lines.append(link)
    return "\n".join(lines)


def render_image(card: Card, *, origin: str = "") -> CardDisplay:
    """Only the card's image, for ``[[!name]]``."""
    return CardDisplay(
        title=title(card, markdown=True),
        url=scryfall_link(card),
        image_url=image_url(card),
        footer=origin,
        colour=card_colour(card),
    )


def search_result_line(card: Card, *, markdown: bool = False) -> str:
    """One search result: ``Name {cost} — Type line``; ``markdown``: escaped, for Discord."""
    head = title(card)
    line = f"{head} — {card['type_line']}" if card.get("type_line") else head
    return escape(line) if markdown else line


def cycling_result_line(card: Card, *, markdown: bool = False) -> str:
    """One /cycling result: ``Name {cost} — Cycling {2}``; ``markdown``: escaped, for Discord."""
    head = title(card)
    cycling = cycling_line(card)
    line = f"{head} — {cycling}" if cycling else head
    return escape(line) if markdown else line


# ------------------------------------------------------------------ extra panels


def legality_groups(card: Card) -> list[tuple[str, list[str]]]:
    """``[("Legal", ["Modern", ...]), ("Banned", [...]), ...]`` in a stable, familiar order."""
    legalities = card.get("legalities") or {}
    known_order = FORMAT_ORDER
    ordered = sorted(legalities, key=lambda fmt: (known_order.index(fmt) if fmt in known_order else 99, fmt))
    groups: list[tuple[str, list[str]]] = []
    for status, label in LEGALITY_LABELS.items():
        formats = [FORMAT_NAMES.get(fmt, fmt.capitalize()) for fmt in ordered if legalities[fmt] == status]
        if formats:
            groups.append((label, formats))
    return groups


def legality_lines(card: Card) -> list[str]:
    groups = legality_groups(card)
    if not groups:
        return ["Scryfall lists no format legalities for this card."]
    return [f"{label}: {', '.join(formats)}" for label, formats in groups]


def price_lines(card: Card) -> list[str]:
    """Prices of this printing as Scryfall reports them (``USD: $0.25``); a note when there are none."""
    prices = card.get("prices") or {}
    lines = [f"{label}: {pattern.format(prices[key])}" for key, label, pattern in PRICE_LABELS if prices.get(key)]
    if not lines:
        return [f"Scryfall lists no prices for this printing ({(card.get('set') or '?').upper()})."]
    return lines


def ruling_lines(rulings: Iterable[Card]) -> list[str]:
    lines = []
    for ruling in rulings:
        date = ruling.get("published_at") or ""
        comment = (ruling.get("comment") or "").strip()
        if comment:
            lines.append(f"{date} — {comment}" if date else comment)
    return lines
