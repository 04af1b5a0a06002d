"""Reading a question as players type it: words, abbreviations and slang, inflections, typos.

Everything here is about language, not about any one edition of the rules; the vocabulary that
typos are corrected against comes from the loaded document (see :mod:`bot.rules.ranking.search`).
"""

from __future__ import annotations

import re

from bot.documents import words
from bot.rules.words.chat import without_idioms

# Abbreviations and slang → the words the rules use. Keys are single lowercase words.
ABBREVIATIONS: dict[str, str] = {
    "sba": "state-based actions",
    "sbas": "state-based actions",
    "etb": "enters the battlefield",
    "etbs": "enters the battlefield",
    "etbd": "entered the battlefield",
    "etbing": "entering the battlefield",
    "ltb": "leaves the battlefield",
    "ltbs": "leaves the battlefield",
    "cmc": "mana value",
    "mv": "mana value",
    "dfc": "double-faced card",
    "dfcs": "double-faced cards",
    "mdfc": "modal double-faced card",
    "mdfcs": "modal double-faced cards",
    "tdfc": "transforming double-faced card",
    "tdfcs": "transforming double-faced cards",
    "apnap": "active player nonactive player order",
    "eot": "end of turn",
    "pt": "power toughness",
    "pw": "planeswalker",
    "pws": "planeswalkers",
    "walkers": "planeswalkers",
    "gy": "graveyard",
    "gyd": "graveyard",
    "yard": "graveyard",
    "lib": "library",
    "opp": "opponent",
    "opps": "opponents",
    "edh": "commander",
    "cmdr": "commander",
    "2hg": "two-headed giant",
    "ffa": "free-for-all",
    "dmg": "damage",
    "mull": "mulligan",
    "mulls": "mulligan",
    "mulled": "mulligan",
    "mulling": "mulligan",
    "trig": "trigger",
    "trigs": "triggers",
    "abil": "ability",
    "ench": "enchantment",
    "arti": "artifact",
    "fizzle": "doesnt resolve illegal targets",
    "fizzles": "doesnt resolve illegal targets",
    "fizzled": "doesnt resolve illegal targets",
    "flicker": "exile return battlefield",
    "blink": "exile return battlefield",
    "bounce": "return owners hand",
    "counterspell": "counter spell",
    "lifegain": "gain life",
    "1st": "first",
    "2nd": "second",
    "instants": "instant",
}
# Phrases rewritten before the words are read.
PHRASES: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern), replacement)
    for pattern, replacement in (
        (r"\bp\s*/\s*t\b", " power toughness "),
        (r"([+-]\s*1\s*/\s*[+-]\s*1)", r" \1 counter "),
        (r"\bwears? off\b", " removed end "),
        (r"\bsummoning sick(?:ness)?\b", " summoning sickness "),
        (r"\bmana burn\b", " mana empties "),
        (r"\bin response\b", " respond "),
        (r"\bcounts? as\b", " "),
        (r"\bany ?time\b", " any time "),
        (r"\b(?:go|goes|going|went|play|plays|playing) first\b", " first turn starting player "),
        (r"\bempty (library|hand|graveyard)\b", r" \1 with no cards "),
        (r"\b(?:runs?|ran) out(?: of cards)?\b", " no cards "),
        (r"\bthe legend rule\b", " legend rule "),
        (r"\bsorcery speed\b", " sorcery timing main phase stack empty "),
        (r"\binstant speed\b", " instant any time priority "),
        (r"\bmana (?:fizzles?|carr(?:y|ies) over|drains?|goes away)\b", " mana empties step phase ends "),
        (r"\bplaneswalkers?'?s? abilit(?:y|ies)\b", " planeswalker loyalty ability "),
        (r"\bdeck(?:s|ed|ing)? (?:out|myself|yourself|themselves)\b|\bdecked\b", " draw empty library "),
    )
)

# Words that say a message is about something other than the rules of play (prices, chat, deck advice).
OFF_TOPIC = frozenset(
    """price prices priced pricing cheap cheaper expensive dollar dollars usd euro euros buy buying bought sell
    selling sold trade trading worth shop store stores sleeve sleeves sleeved sleeving weather joke jokes funny
    lol lmao rofl haha gg ty thx hi hiya yo sup favorite favourite favourites recommend recommendation meta tier
    budget netdeck proxy proxies spoiler spoilers release released releases lore artist foil foils collection
    grading psa invest investment homework president movie song music pizza weekend tonight tomorrow
    birthday""".split()
)

# Phrases of chat about the game rather than about its rules ("when does the next set come out").
OFF_TOPIC_RE = re.compile(
    r"\b(?:next set|new set|comes? out|last night|this weekend|how much (?:is|are) .{0,40}\bworth|worth it|"
    r"deck ?(?:tech|list|idea)s?|should i (?:play|build|run)|good card)\b"
)
# Digits and the words the rules write them as ("discard down to 7" → "seven").
NUMBER_WORDS = dict(
    zip(
        "0 1 2 3 4 5 6 7 8 9 10 20".split(),
        "zero one two three four five six seven eight nine ten twenty".split(),
        strict=True,
    )
)

VARIANT_WORDS = frozenset(
    """multiplayer commander edh brawl oathbreaker two headed giant 2hg emperor teams team teammate teammates
    archenemy planechase plane planes phenomenon vanguard conspiracy draft drafting limited sealed free-for-all ffa
    grand melee range influence attack left right shared scheme schemes dungeon dungeons attraction attractions
    sticker stickers contraption contraptions un-set""".split()
)


# Words that only say what kind of thing a name is ("Upkeep Step", "Hybrid Mana Symbol"): a question
# that names the rest ("upkeep", "hybrid mana") names the same thing.
GENERIC = frozenset("step phase symbol symbols rule ability abilities option variant cards card".split())
# Question words that ask for a specific rule rather than a topic's overview ("when do I get priority").
SPECIFIC = frozenset("when who which whose many much can cant may if".split())


# A card named in brackets ("[[Solitude]]"), and a word written with a capital inside a sentence: a name.
BRACKETED_RE = re.compile(r"\[\[([^\]]+)\]\]")
CAPITALISED_RE = re.compile(r"[^\W\d_][\w'’]*")
SENTENCE_ENDS = frozenset('.?!:;"“(\n')


def names(text: str) -> frozenset[str]:
    """The words of the names ``text`` seems to hold: cards in brackets, and words capitalised where a sentence
    does not start ("can Teferi, Time Raveller stop …" → teferi, time, raveller). Acronyms ("ETB") and "I" are
    not names."""
    found: set[str] = set()
    for match in BRACKETED_RE.finditer(text):
        found.update(words(match[1]))
    for match in CAPITALISED_RE.finditer(text):
        token = match[0]
        if not token[0].isupper() or token.isupper() or token[:2] in ("I'", "I’"):
            continue
        before = text[: match.start()].rstrip(" \t")
        if before and before[-1] not in SENTENCE_ENDS:
            found.update(words(token))
    return frozenset(found)


def expand(text: str) -> list[str]:
    """The words of a question with phrases and abbreviations rewritten into the rules' own words."""
    text = without_idioms(text.lower().replace("’", "'"))
    for pattern, replacement in PHRASES:
        text = pattern.sub(replacement, text)
    out: list[str] = []
    for word in words(text):
        replacement = ABBREVIATIONS.get(word)
        out.extend(words(replacement) if replacement else [word])
    return out
