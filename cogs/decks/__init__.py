"""/deck on Discord, and the deck options of the commands that play a deck. May import `bot`, `cogs._*`.

A player's own decks: ``/deck save`` (a list pasted, a file uploaded, a link, or the form), ``list``, ``show`` and
``delete``, each private to its player (``_cog``, with the form and the question before replacing in ``_form``, and
what they answer in ``_render``). For ``/goldfish start`` and ``simulate``: the four deck options declared once
(``deck_options``, with the saved decks' and presets' autocomplete) and one way from them to a deck
(``chosen_deck``, ``_reading``). What a deck is, and how a list becomes one, is :mod:`bot.goldfish.decks`.
"""

from discord.ext import commands

from cogs.decks._cog import Decks
from cogs.decks._options import DeckName, deck_choices, deck_options, saved_and_presets
from cogs.decks._reading import ANY_DECK, DEFAULT_DECK, Chosen, DeckRequest, chosen_deck, named_deck
from cogs.decks._render import ready_text


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Decks(bot))


__all__ = [
    "ANY_DECK",
    "DEFAULT_DECK",
    "Chosen",
    "DeckName",
    "DeckRequest",
    "Decks",
    "chosen_deck",
    "deck_choices",
    "deck_options",
    "named_deck",
    "ready_text",
    "saved_and_presets",
    "setup",
]
