"""What /deck answers: a saved deck's one-line summary, the list of a player's decks, and a deck's pages grouped by
type with mana costs, short enough for a phone."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot import limits
from bot.goldfish.decks import (
    COMMANDER,
    COMPANION,
    MAIN,
    MAX_DECKS,
    SIDEBOARD,
    DeckSummary,
    PlayerDeck,
    library_note,
    readings_text,
    unmodelled_note,
)
from bot.goldfish.engine import Deck
from bot.text import clip, escape, plural

# The groups of /deck show: a card is in the first whose type its front face has (a land creature is a land);
# they are shown spells first, lands last, as deck lists are read.
TYPE_GROUPS = (
    ("Lands", "land"),
    ("Creatures", "creature"),
    ("Planeswalkers", "planeswalker"),
    ("Battles", "battle"),
    ("Instants", "instant"),
    ("Sorceries", "sorcery"),
    ("Artifacts", "artifact"),
    ("Enchantments", "enchantment"),
)
OTHER = "Other"
SHOWN = [title for title, _ in TYPE_GROUPS[1:]] + [OTHER, TYPE_GROUPS[0][0]]
LINES_A_PAGE = 18  # card lines and headings on one page of /deck show: a phone's screen
SECTION_TITLES = {COMMANDER: "Commander", COMPANION: "Companion", SIDEBOARD: "Sideboard"}
# Where the cards a game doesn't deal from are, said when it starts: the engine plays the library alone.
OUTSIDE = {COMMANDER: "in the command zone", COMPANION: "outside the game"}


def ready_text(deck: Deck, own: PlayerDeck, on_the_play: bool) -> str:
    """Said privately as a player's own deck's game starts: its size, then what the game leaves out (the command
    zone, the sideboard) and when its library runs out, if that comes within the first turns."""
    lines = [f"Deck ready: {escape(deck.name)} ({plural(deck.size(), 'card')})."]
    for section, where in OUTSIDE.items():
        for _, name in own.entries(section):
            title = SECTION_TITLES[section]
            lines.append(f"{title}: {escape(name)}, {where}: not modelled, the game plays the library.")
    if own.count(SIDEBOARD):
        lines.append(f"Sideboard: {plural(own.count(SIDEBOARD), 'card')}, kept out of the game.")
    note = library_note(deck.size(), on_the_play)
    if note:
        lines.append(f"{note}.")
    return clip("\n".join(lines), limits.MESSAGE_CONTENT)


def saved_text(deck: PlayerDeck, replaced: bool) -> str:
    """The answer to /deck save: the name and the counts first, then what the player should know of it."""
    verb = "Replaced" if replaced else "Saved"
    lines = [f"{verb} **{escape(deck.name)}**: {deck.counts_text()}."]
    for note in (readings_text(deck.readings), unmodelled_note(deck)):
        if note:
            lines.append(note)
    lines.append("Play it: `/goldfish start` and pick it in `deck`.")
    return clip("\n".join(lines), limits.MESSAGE_CONTENT)


def list_text(decks: Sequence[DeckSummary]) -> str:
    if not decks:
        return "You have no saved decks. Save one with `/deck save name:` and paste, upload or link its list."
    lines = [f"Your decks ({len(decks)} of {MAX_DECKS}):"]
    lines += [f"• **{escape(deck.name)}** — {deck.counts_text()}" for deck in decks]
    return clip("\n".join(lines), limits.MESSAGE_CONTENT)


def group_of(card: dict) -> str:
    front = (card.get("type_line") or "").split("//")[0].lower()
    return next((title for title, word in TYPE_GROUPS if word in front), OTHER)


def mana_cost(card: dict) -> str:
    faces = card.get("card_faces") or ()
    return card.get("mana_cost") or (faces[0].get("mana_cost") if faces else "") or ""


def card_line(deck: PlayerDeck, count: int, name: str) -> str:
    cost = mana_cost(deck.cards.get(name, {}))
    return f"{count} {escape(name)}" + (f" {cost}" if cost else "")


def deck_lines(deck: PlayerDeck) -> list[str]:
    """Every line of /deck show: the command zone, the main deck by type, then the sideboard."""
    lines: list[str] = []
    for section in (COMMANDER, COMPANION):
        for count, name in deck.entries(section):
            lines.append(f"**{SECTION_TITLES[section]}:** {card_line(deck, count, name)}")
    groups: dict[str, list[tuple[int, str]]] = {}
    for count, name in deck.entries(MAIN):
        groups.setdefault(group_of(deck.cards.get(name, {})), []).append((count, name))
    for title in SHOWN:
        entries = groups.get(title)
        if entries:
            lines.append(f"**{title} ({sum(count for count, _ in entries)})**")
            lines += [card_line(deck, count, name) for count, name in sorted(entries, key=lambda e: e[1])]
    if deck.entries(SIDEBOARD):
        lines.append(f"**Sideboard ({deck.count(SIDEBOARD)})**")
        lines += [card_line(deck, count, name) for count, name in deck.entries(SIDEBOARD)]
    return lines


def deck_pages(deck: PlayerDeck) -> list[discord.Embed]:
    """/deck show: the counts first, then the list in pages of :data:`LINES_A_PAGE` lines."""
    lines = deck_lines(deck)
    pages = [lines[start : start + LINES_A_PAGE] for start in range(0, len(lines), LINES_A_PAGE)] or [[]]
    title = clip(escape(deck.name), limits.EMBED_TITLE)
    embeds = []
    for number, page in enumerate(pages):
        head = [deck.counts_text(), ""] if number == 0 else []
        embed = discord.Embed(title=title, description=clip("\n".join(head + page), limits.EMBED_DESCRIPTION))
        embeds.append(embed)
    embeds[0].set_footer(text=f"{plural(len(deck.cards), 'different card')} · only you see your decks")
    return embeds
