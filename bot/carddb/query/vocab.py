"""The words of Scryfall's search syntax: keys and their aliases, colours, rarities, formats, ``is:`` terms.

Declared once; the importer computes the facts these words test (colour masks, ``is:`` flags) and
the compiler turns them into SQL. Scryfall's search reference (scryfall.com/docs/syntax) is the source.
"""

from __future__ import annotations

# Every key a query may use, by the name the compiler knows it by.
KEYS: dict[str, str] = {
    "name": "name",
    "n": "name",
    "t": "type",
    "type": "type",
    "o": "oracle",
    "oracle": "oracle",
    "fo": "fulloracle",
    "fulloracle": "fulloracle",
    "kw": "keyword",
    "keyword": "keyword",
    "c": "color",
    "color": "color",
    "colour": "color",
    "id": "identity",
    "identity": "identity",
    "ci": "identity",
    "commander": "identity",
    "mv": "mv",
    "cmc": "mv",
    "manavalue": "mv",
    "pow": "power",
    "power": "power",
    "tou": "toughness",
    "toughness": "toughness",
    "pt": "powtou",
    "powtou": "powtou",
    "loy": "loyalty",
    "loyalty": "loyalty",
    "def": "defense",
    "defense": "defense",
    "m": "mana",
    "mana": "mana",
    "r": "rarity",
    "rarity": "rarity",
    "s": "set",
    "set": "set",
    "e": "set",
    "edition": "set",
    "f": "legal",
    "format": "legal",
    "legal": "legal",
    "banned": "banned",
    "restricted": "restricted",
    "is": "is",
    "not": "not",
    "layout": "layout",
    "produces": "produces",
}

# Keys that set how results are shown rather than which cards match.
DIRECTIVES: dict[str, str] = {
    "order": "order",
    "sort": "order",
    "direction": "direction",
    "dir": "direction",
    "include": "include",
    "unique": "unique",
    "display": "display",
    "prefer": "prefer",
}

# Keys about printings, prices of today or Scryfall's own tags: the local copy holds one printing
# per card, its prices as of the copy's day and no tags, so only Scryfall's API can answer these.
API_ONLY: dict[str, str] = {
    "a": "artists",
    "artist": "artists",
    "ft": "flavour text",
    "flavor": "flavour text",
    "wm": "watermarks",
    "watermark": "watermarks",
    "in": "printings",
    "prints": "printings",
    "paperprints": "printings",
    "sets": "printings",
    "papersets": "printings",
    "usd": "today's prices",
    "eur": "today's prices",
    "tix": "today's prices",
    "lang": "languages",
    "language": "languages",
    "frame": "frames",
    "border": "borders",
    "stamp": "security stamps",
    "new": "printings",
    "date": "release dates of printings",
    "year": "release dates of printings",
    "game": "printings",
    "cube": "cube lists",
    "art": "Scryfall's tags",
    "atag": "Scryfall's tags",
    "arttag": "Scryfall's tags",
    "otag": "Scryfall's tags",
    "oracletag": "Scryfall's tags",
    "function": "Scryfall's tags",
    "st": "set types",
    "cn": "collector numbers",
    "number": "collector numbers",
    "b": "blocks",
    "block": "blocks",
    "devotion": "devotion",
    "oracleid": "printings",
}

COLOUR_BITS = {"w": 1, "u": 2, "b": 4, "r": 8, "g": 16}
ALL_COLOURS = 31
COLOURLESS_BIT = 32  # colourless mana, for produces:

COLOUR_NAMES: dict[str, str] = {
    "white": "w",
    "blue": "u",
    "black": "b",
    "red": "r",
    "green": "g",
    # guilds
    "azorius": "wu",
    "dimir": "ub",
    "rakdos": "br",
    "gruul": "rg",
    "selesnya": "gw",
    "orzhov": "wb",
    "izzet": "ur",
    "golgari": "bg",
    "boros": "rw",
    "simic": "gu",
    # shards and wedges
    "bant": "gwu",
    "esper": "wub",
    "grixis": "ubr",
    "jund": "brg",
    "naya": "rgw",
    "abzan": "wbg",
    "jeskai": "urw",
    "sultai": "bgu",
    "mardu": "rwb",
    "temur": "gur",
    # four colours, by the colour they lack
    "chaos": "ubrg",
    "glint": "ubrg",
    "aggression": "wbrg",
    "dune": "wbrg",
    "altruism": "wurg",
    "ink": "wurg",
    "growth": "wubg",
    "witch": "wubg",
    "artifice": "wubr",
    "yore": "wubr",
    "rainbow": "wubrg",
    "all": "wubrg",
}

RARITIES = {
    "c": 0,
    "common": 0,
    "u": 1,
    "uncommon": 1,
    "r": 2,
    "rare": 2,
    "s": 3,
    "special": 3,
    "m": 4,
    "mythic": 4,
    "b": 5,
    "bonus": 5,
}
RARITY_NAMES = {0: "common", 1: "uncommon", 2: "rare", 3: "special", 4: "mythic", 5: "bonus"}

FORMAT_ALIASES = {"edh": "commander", "pdh": "paupercommander", "hist": "historic", "pre": "premodern"}

LAYOUT_FLAGS = {
    "split": ("split",),
    "flip": ("flip",),
    "transform": ("transform",),
    "mdfc": ("modal_dfc",),
    "dfc": ("transform", "modal_dfc", "meld", "reversible_card", "double_faced_token"),
    "meld": ("meld",),
    "adventure": ("adventure",),
    "leveler": ("leveler",),
    "saga": ("saga",),
    "class": ("class",),
    "case": ("case",),
    "prototype": ("prototype",),
    "mutate": ("mutate",),
    "token": ("token", "double_faced_token"),
    "emblem": ("emblem",),
    "art_series": ("art_series",),
}

# ``is:`` terms decided per card at import, each a bit of ``search_cards.flags``.
FLAGS: tuple[str, ...] = (
    "vanilla",
    "frenchvanilla",
    "permanent",
    "spell",
    "historic",
    "party",
    "outlaw",
    "modal",
    "commander",
    "companion",
    "bear",
    "hybrid",
    "phyrexian",
    "reserved",
    "funny",
    "digital",
    "gamechanger",
    "multiface",
    "extra",
)
FLAG_BITS = {name: 1 << index for index, name in enumerate(FLAGS)}
IS_ALIASES = {
    "mdfc": "mdfc",
    "modal_dfc": "mdfc",
    "doublefaced": "dfc",
    "double_faced": "dfc",
    "splitcard": "split",
    "multifaced": "multiface",
    "multi_faced": "multiface",
    "reserved_list": "reserved",
    "un": "funny",
    "game_changer": "gamechanger",
    "french_vanilla": "frenchvanilla",
}
# ``is:`` terms about a printing (finish, frame, promo...) that only Scryfall's API knows.
PRINTING_FLAGS = frozenset(
    "foil nonfoil etched glossy promo reprint firstprint unique full fullart textless spotlight booster variation "
    "oversized hires new old extended borderless showcase inverted colorshifted masterpiece datestamped "
    "prerelease buyabox".split()
)

PARTY_TYPES = ("cleric", "rogue", "warrior", "wizard")
OUTLAW_TYPES = ("assassin", "mercenary", "pirate", "rogue", "warlock")
PERMANENT_TYPES = ("artifact", "creature", "enchantment", "land", "planeswalker", "battle")

# order: keys and the column each sorts by; the default direction is Scryfall's.
ORDERS: dict[str, tuple[str, str]] = {
    "name": ("s.norm", "asc"),
    "cmc": ("s.cmc", "asc"),
    "mv": ("s.cmc", "asc"),
    "power": ("s.power", "desc"),
    "toughness": ("s.toughness", "desc"),
    "set": ("s.set_code", "asc"),
    "rarity": ("s.rarity", "desc"),
    "color": ("s.color_order", "asc"),
    "colour": ("s.color_order", "asc"),
    "released": ("s.released", "desc"),
    "usd": ("s.usd", "desc"),
    "eur": ("s.eur", "desc"),
    "tix": ("s.tix", "desc"),
    "edhrec": ("s.edhrec", "asc"),
}
