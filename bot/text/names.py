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


# Combining marks an accent is made of in Latin, Greek and Cyrillic letters once decomposed (``é`` is ``e`` and
# U+0301); Japanese's voicing marks (U+3099, U+309A) are letters' own parts and stay.
_ACCENTS = re.compile("[\u0300-\u036f\u0483-\u0489\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]+")
_NOT_LETTER = re.compile(r"[\W_]+")
_APOSTROPHES = str.maketrans({"'": None, "\u2019": None, "\u02bc": None})


def fold(text: str) -> str:
    """A name of any script compared as :func:`normalise` compares English ones: case, accents and punctuation gone,
    one space between words, and every script kept (``normalise`` keeps only Latin letters).

    ``"Éclaireuse amroue"`` → ``"eclaireuse amroue"``, ``"Каменный Оползень"`` → ``"каменный оползень"``; Japanese,
    Korean and Chinese after NFKC (full-width letters as their plain forms, ``ｶﾞ`` as ``ガ``), their voicing marks
    kept. For a name of plain ASCII letters it is :func:`normalise` exactly."""
    if text.isascii():
        return normalise(text)
    text = unicodedata.normalize("NFKC", text.translate(_LIGATURES)).casefold().translate(_APOSTROPHES)
    text = unicodedata.normalize("NFC", _ACCENTS.sub("", unicodedata.normalize("NFD", text)))
    return " ".join(_NOT_LETTER.sub(" ", text).split())


# Scripts written without spaces between words, matched by prefix and by runs of characters instead of words.
_UNSPACED = re.compile(
    "[\u1100-\u11ff\u3040-\u30ff\u3130-\u318f\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
    "\uff66-\uff9f]"
)


def unspaced(text: str) -> bool:
    """Whether ``text`` holds Japanese, Korean or Chinese characters (words there are not separated by spaces)."""
    return not text.isascii() and _UNSPACED.search(text) is not None
