"""Names compared as the card database compares them: case, accents and punctuation gone.

One normalisation for every vocabulary the bot matches (card names on the way into the database and out of it,
the rules' terms, nicknames), so a name typed one way finds the name stored another.
"""

from __future__ import annotations

import re
import unicodedata

_NOT_WORD = re.compile(r"[^a-z0-9 ]+")

# Letters with no accent to drop, spelt as Oracle spells them now: a card printed "Vedalken Æthermage" is
# "Vedalken Aethermage" (without this, "Æ" would vanish and "Æthermage" find nothing).
_LIGATURES = str.maketrans(
    {"Æ": "Ae", "æ": "ae", "Œ": "Oe", "œ": "oe", "Ø": "O", "ø": "o", "ß": "ss", "Þ": "Th", "þ": "th"}
)


def normalise(text: str) -> str:
    """Lower case, accents and punctuation gone, one space between words.

    ``"Lórien Revealed!"`` → ``"lorien revealed"``; apostrophes vanish so ``"Urza's"`` → ``"urzas"``; ``"Æther"``
    → ``"aether"``.
    """
    text = unicodedata.normalize("NFKD", text.translate(_LIGATURES)).encode("ascii", "ignore").decode()
    return " ".join(_NOT_WORD.sub(" ", text.lower().replace("'", "")).split())
