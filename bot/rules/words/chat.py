"""Chat as people type it, read as the words it stands for: short spellings ("u", "rn", "cuz"), dropped
apostrophes ("doesnt"), and everyday idioms whose words are not the rules' terms ("at the end of the day", "in
that case", "turns out").

The lists are written from everyday English chat usage, not from any question the ranking is measured on:
they are general, and they stay short. Nothing here touches a card's name: a ``[[…]]`` reference is left as
typed, and so is a word written with capitals inside a sentence (a name, or a mana symbol such as "U").
"""

from __future__ import annotations

import re

# Short spellings of chat → the words they stand for. Only spellings that mean one thing in chat: "2" (two or
# to) and "n" (and, or a variable) are left alone.
CHAT_SPELLINGS: dict[str, str] = {
    "u": "you",
    "ur": "your",
    "ure": "you are",
    "r": "are",
    "y": "why",
    "ya": "you",
    "yr": "your",
    "rn": "right now",
    "bc": "because",
    "bcs": "because",
    "bcuz": "because",
    "cuz": "because",
    "coz": "because",
    "cos": "because",
    "becuz": "because",
    "pls": "please",
    "plz": "please",
    "thx": "thanks",
    "tho": "though",
    "thru": "through",
    "til": "until",
    "till": "until",
    "b4": "before",
    "abt": "about",
    "w": "with",
    "smth": "something",
    "sth": "something",
    "ppl": "people",
    "prolly": "probably",
    "idk": "i do not know",
    "dunno": "do not know",
    "gonna": "going to",
    "wanna": "want to",
    "gotta": "have to",
    "hafta": "have to",
    "lemme": "let me",
    "gimme": "give me",
    "wat": "what",
    "wut": "what",
    "wht": "what",
    "whn": "when",
    "cud": "could",
    "shud": "should",
    "wud": "would",
    "shld": "should",
    "dont": "do not",
    "doesnt": "does not",
    "didnt": "did not",
    "cant": "can not",
    "wont": "will not",
    "wouldnt": "would not",
    "couldnt": "could not",
    "shouldnt": "should not",
    "isnt": "is not",
    "arent": "are not",
    "wasnt": "was not",
    "werent": "were not",
    "hasnt": "has not",
    "havent": "have not",
    "hadnt": "had not",
    "aint": "is not",
    "im": "i am",
    "ive": "i have",
    "youre": "you are",
    "theyre": "they are",
    "whats": "what is",
    "thats": "that is",
    "theres": "there is",
    "wheres": "where is",
    "hows": "how is",
    "whos": "who is",
    "itll": "it will",
    "youll": "you will",
    "btw": "",
    "imo": "",
    "imho": "",
    "tbh": "",
    "afaik": "",
    "iirc": "",
    "ngl": "",
}
# "w/" and "w/o" are written with their slash.
SLASHED_RE = re.compile(r"(?<![\w/])w/o(?![\w/])|(?<![\w/])w/(?![\w/])", re.IGNORECASE)

# Everyday idioms and set phrases whose words would otherwise read as rules terms ("at the end of the day" is
# not the end step, "in that case" not a Case, "turns out" not a turn). Only phrases that are idioms wherever
# they stand: "at the end of the turn" and "first of all the creatures" are left to the rules.
IDIOMS = (
    r"at the end of the day",
    r"in the long run",
    r"in the end(?! step| of)",
    r"turn(?:s|ed)? out(?! of)",
    r"in (?:that|this|any|either|which) case",
    r"just in case",
    r"case by case",
    r"first of all",
    r"at first (?:glance|sight)",
    r"first things? first",
    r"last but not least",
    r"all in all",
    r"by the way",
    r"no matter what",
    r"(?:make|makes|made|making) sense",
    r"(?:keep|keeps|kept|lose|loses|lost) track",
    r"on the other hand",
    r"on the one hand",
    r"hands down",
    r"(?:lend|give) (?:me )?a hand",
    r"off the top of my head",
    r"on top of that",
    r"over the top",
    r"from time to time",
    r"(?:take|took|taking) (?:your|my|their) time",
    r"all the time",
    r"in no time",
    r"(?:pay|paid|paying) attention",
    r"(?:a|no|big) deal",
    r"cast(?:s|ing)? doubt",
    r"play it safe",
    r"fair play",
    r"in real life",
    r"for good measure",
    r"once in a while",
    r"point of view",
    r"(?:hold|hang) on a (?:sec|second|minute)",
    r"(?:give|gave) it a (?:shot|go|try)",
    r"(?:a )?shot in the dark",
    r"(?:draw|drew|drawing) a blank",
    r"the bottom line",
    r"by the book",
    r"out of control",
    r"under control",
    r"to be honest",
    r"long story short",
    r"in a nutshell",
    r"good game",
    r"magic:? the gathering",  # the game's own name, as questions often end ("… in Magic: The Gathering?")
)
IDIOM_RE = re.compile(r"\b(?:" + "|".join(IDIOMS) + r")\b", re.IGNORECASE)

BRACKETED_RE = re.compile(r"\[\[[^\]]*\]\]")
WORD_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9'’]*")
SENTENCE_ENDS = frozenset('.?!:;"“(\n')


def _spell(text: str) -> str:
    """One stretch of text outside card references, chat spellings rewritten."""
    text = SLASHED_RE.sub(lambda match: "without" if match[0].lower().endswith("o") else "with", text)
    out: list[str] = []
    last = 0
    for match in WORD_RE.finditer(text):
        token = match[0]
        key = token.lower().replace("'", "").replace("’", "")
        replacement = CHAT_SPELLINGS.get(key)
        if replacement is None:
            continue
        if token != token.lower():
            # A capital inside a sentence is a name, and a capital letter alone a mana symbol ("U" for blue):
            # left as typed. A sentence may open with a capital ("Dont …").
            before = text[: match.start()].rstrip(" \t")
            opens = not before or before[-1] in SENTENCE_ENDS
            if len(token) == 1 or not opens or token[1:] != token[1:].lower():
                continue
        out.append(text[last : match.start()] + replacement)
        last = match.end()
    out.append(text[last:])
    return "".join(out)


def normalise(text: str) -> str:
    """``text`` with chat spellings written out ("can u block w/ it rn" → "can you block with it right now"),
    card references (``[[…]]``) untouched."""
    parts: list[str] = []
    last = 0
    for match in BRACKETED_RE.finditer(text):
        parts.append(_spell(text[last : match.start()]))
        parts.append(match[0])
        last = match.end()
    parts.append(_spell(text[last:]))
    return "".join(parts)


def without_idioms(text: str) -> str:
    """``text`` (lower case) with the words of everyday idioms taken out: they name no rule."""
    return IDIOM_RE.sub(" ", text)


def without_card_references(text: str) -> str:
    """``text`` without its ``[[…]]`` card references: a card's name is not a rules term ("[[Flash]]")."""
    return BRACKETED_RE.sub(" ", text)
