"""A question's words as players type them. May import `bot.documents`.

Chat spellings, abbreviations, stems, the rules' own vocabulary. Other rooms import this package, never its modules.
"""

from bot.rules.words.chat import normalise
from bot.rules.words.query import GENERIC, NUMBER_WORDS, OFF_TOPIC, OFF_TOPIC_RE, SPECIFIC, VARIANT_WORDS, expand, names
from bot.rules.words.vocabulary import Vocabulary

__all__ = [
    "GENERIC",
    "NUMBER_WORDS",
    "OFF_TOPIC",
    "OFF_TOPIC_RE",
    "SPECIFIC",
    "VARIANT_WORDS",
    "Vocabulary",
    "expand",
    "names",
    "normalise",
]
