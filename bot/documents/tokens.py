"""The words of a text, as every document's search reads them: lowercase words, light stems, stop words.

A question and a document are read by the same functions, so that "tramples" in a question finds "trample" in a
rule or a section, and a name matches whatever its case, punctuation and dashes.
"""

from __future__ import annotations

import functools
import re

WORD_RE = re.compile(r"[a-z0-9]+")


# A change to power and toughness ("+1/+1", "-2/-0") is one word, as the rules use it: "p1p1", "m2m0".
PT_CHANGE_RE = re.compile(r"([+-])\s*(\d+)\s*/\s*([+-])\s*(\d+)")


def _pt_word(match: re.Match[str]) -> str:
    sign = {"+": "p", "-": "m"}
    return f" {sign[match[1]]}{match[2]}{sign[match[3]]}{match[4]} "


# Words that carry no topic: question scaffolding and chat filler ("how does X work", "can I …").
STOPWORDS = frozenset(
    """a about actually again all also am an and any anyone anything are as ask asking at be been being but by can
    cant could cr did do does doesnt dont during each else even ever exactly explain explained for from get gets
    getting go going got guys had happen happened happening happens has have having he hello help her here hey
    his how however i if im in into is isnt it its ive just know let like ll me mean meaning means mtg magic my
    need not now of ok okay on one only or other our out please pls rule rules ruling rulings s say says
    should so some someone something still sure tell than thanks that thats the their them then there these
    they thing this those though to too u understand up us ve very want was way we were what whats when
    whenever where whether which while who why will with without work working works would wondering yes yet
    you your""".split()
)


# Words a suffix-stripper would merge with a different rules concept ("phasing" is not "phases").
IRREGULAR_STEMS = {
    "phasing": "phasing",
    "phased": "phasing",
    "phase": "phas",
    "anytime": "time",
    "dying": "die",
    "died": "die",
}


@functools.lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """A light English stemmer: "tramples", "trampled", "trampling" and "trample" all become "trampl"."""
    if word in IRREGULAR_STEMS:
        return IRREGULAR_STEMS[word]
    if len(word) <= 3 or not word.isalpha():
        return word
    for suffix, replacement in (
        ("ies", "y"),
        ("sses", "ss"),
        ("ying", "y"),
        ("ing", ""),
        ("ied", "y"),
        ("ed", ""),
        ("es", ""),
        ("s", ""),
    ):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            if suffix == "s" and word.endswith(("ss", "us", "is")):
                break
            word = word[: -len(suffix)] + replacement
            break
    if len(word) > 4 and word[-1] == word[-2] and word[-1] not in "lsz":
        word = word[:-1]  # "stopped" → "stopp" → "stop"
    if len(word) > 3 and word.endswith("e"):
        word = word[:-1]
    if len(word) > 3 and word.endswith("y"):
        word = word[:-1] + "i"
    return word


def words(text: str) -> list[str]:
    """Lowercase words, apostrophes dropped ("player's" → "players")."""
    text = text.lower().replace("’", "").replace("'", "").replace("−", "-").replace("–", "-")
    return WORD_RE.findall(PT_CHANGE_RE.sub(_pt_word, text) if "/" in text else text)


def normal(text: str) -> str:
    """Case, punctuation and dashes do not matter for names and terms: "L@EC" is "l ec", "Game Play Error — GRV" is
    "game play error grv", "state based actions" finds "state-based actions"."""
    return " ".join(words(text))
