"""The deck options, declared once for every command that plays a deck (``/goldfish start``, ``simulate``): ``deck``
(a saved deck or a preset, with its autocomplete), ``decklist``, ``file`` and ``link``.

``@deck_options`` gives a command those four options and hands them to it as one ``wanted:`` :class:`DeckRequest`;
:func:`~cogs.decks._reading.chosen_deck` makes that a deck.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable

import discord
from discord import app_commands

from bot import limits
from bot.goldfish.decks import MAX_DECK_NAME, preset_decks
from bot.text import Entry, Matcher, one_line
from cogs._commands import resolved_signature
from cogs.decks._reading import MAX_DECKLIST_CHARS, PRESET, DeckRequest

DeckName = app_commands.Range[str, 1, MAX_DECK_NAME]
Decklist = app_commands.Range[str, 1, MAX_DECKLIST_CHARS]
DeckLinkText = app_commands.Range[str, 1, 300]
DECK_HELP = {
    "deck": "Your saved deck, or a preset: slide, landcycling or two-colour (default slide)",
    "decklist": 'Your own list, entries separated by commas: "4 Street Wraith, 4 Ash Barrens, 16 Plains"',
    "file": "Your deck's file: .txt, .dek (MTGO), .csv or .dec, at most 256 KB",
    "link": "Your public deck on Archidekt or TappedOut (its page's link)",
}
OPTIONS = {"deck": DeckName, "decklist": Decklist, "file": discord.Attachment, "link": DeckLinkText}


def matched(offered: list[tuple[str, str]], typed: str) -> list[tuple[str, str]]:
    """The ``(label, value)`` pairs that fit what was typed (typos, word order, prefixes), best first."""
    if not typed.strip():
        return offered
    entries = [Entry(label, value) for label, value in offered]
    matcher = Matcher(entries, [(label, index) for index, (label, _) in enumerate(offered)])
    return [(entry.name, entry.value) for entry in matcher.complete(typed, len(offered))]


def deck_choices(offered: list[tuple[str, str]], typed: str) -> list[app_commands.Choice[str]]:
    """The choices that fit what was typed, at most 25."""
    fitting = matched(offered, typed)[: limits.AUTOCOMPLETE_CHOICES]
    return [app_commands.Choice(name=one_line(label), value=value) for label, value in fitting]


async def saved_and_presets(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The player's saved decks (with their counts) that fit what was typed, then the presets that do: the presets
    always find room among the 25 choices."""
    shelf = interaction.client.get_cog("Decks")  # type: ignore[attr-defined]
    saved = await shelf.store.summaries(interaction.user.id) if shelf is not None else []
    mine = matched([(f"{deck.name} — {deck.counts_text()}", deck.name) for deck in saved], current)
    presets = [(f"{key} — {deck.name} (preset)", PRESET + key) for key, deck in sorted(preset_decks().items())]
    presets = matched(presets, current)
    return deck_choices(mine[: limits.AUTOCOMPLETE_CHOICES - len(presets)] + presets, "")


def deck_options(*names: str) -> Callable[[Callable], Callable]:
    """The deck options ``names`` (all four unless given) on a command whose callback takes them as one keyword
    ``wanted: DeckRequest``.

    discord.py reads a command's options from its callback's signature: the wrapper's signature is the callback's
    with ``wanted`` replaced by the options (their annotations already resolved, so they are read in any module)."""
    names = names or tuple(OPTIONS)

    def decorator(callback: Callable) -> Callable:
        kept = [p for p in resolved_signature(callback).parameters.values() if p.name != "wanted"]
        required = [parameter for parameter in kept[2:] if parameter.default is inspect.Parameter.empty]
        optional = [parameter for parameter in kept[2:] if parameter.default is not inspect.Parameter.empty]
        added = [
            inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=None, annotation=OPTIONS[name] | None)
            for name in names
        ]

        @functools.wraps(callback)
        async def with_deck(self, interaction: discord.Interaction, **options):
            wanted = DeckRequest(**{name: options.pop(name, None) for name in names})
            return await callback(self, interaction, wanted=wanted, **options)

        keyword = [p.replace(kind=inspect.Parameter.KEYWORD_ONLY) for p in [*required, *added, *optional]]
        with_deck.__signature__ = inspect.Signature([*kept[:2], *keyword])  # type: ignore[attr-defined]
        del with_deck.__wrapped__  # the signature above is the command's, not the callback's
        app_commands.describe(**{name: DECK_HELP[name] for name in names})(with_deck)
        if "deck" in names:
            app_commands.autocomplete(deck=saved_and_presets)(with_deck)
        return with_deck

    return decorator
