"""Comprehensive Rules: parsing, lookup and search, download. Framework-free (no discord import).

The package is rooms, each using only those above it in this list: ``text`` (the rules file and rule numbers),
``words`` (a question's words as players type them), ``reply`` (an answer and its phone pages), ``ranking`` (an
edition's index and the question ranking), ``editions`` (every edition, updates, history) and ``asking`` (one
answer for any query). ``service`` and ``cli`` are the front that uses them all; other packages import this
``__init__`` only."""

from bot.rules.asking import CardFacts, FoundCards
from bot.rules.editions import LoadedRules, is_history_query, word_diff
from bot.rules.ranking import RulesIndex
from bot.rules.reply import FULL, NONE, SURE, UNSURE, Answer, Block, Choice, Cited, Edition, Line, clip, pages
from bot.rules.reply import text as answer_text
from bot.rules.service import RulesService
from bot.rules.words import STOPWORDS, stem, words

__all__ = [
    "LoadedRules",
    "clip",
    "is_history_query",
    "Answer",
    "Block",
    "CardFacts",
    "FoundCards",
    "RulesIndex",
    "RulesService",
    "pages",
    # Shared with other documents (bot.documents) until the generic machinery moves there: the answer and its
    # phone layout, the words of a query, a word diff.
    "FULL",
    "NONE",
    "SURE",
    "UNSURE",
    "Choice",
    "Cited",
    "Edition",
    "Line",
    "STOPWORDS",
    "answer_text",
    "stem",
    "word_diff",
    "words",
]
