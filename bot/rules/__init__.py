"""The Comprehensive Rules: lookups, questions, editions. May import `bot.carddb`, `bot.config`, `bot.documents`,
`bot.errors`, `bot.hosts`, `bot.limits`, `bot.runtime`, `bot.serving`, `bot.text`.

Built on what every document shares (``bot.documents``: the answer and its phone pages, words, word diffs). The
package is rooms, each using only those above it in this list: ``text`` (the rules file, rule numbers and their
links), ``words`` (a question's words as players type them), ``ranking`` (an edition's index and the question
ranking with phrasings, confidence and the optional picker), ``editions`` (every edition, updates, history) and
``asking`` (one answer for any query). ``service`` and ``cli`` are the front that uses them all; other packages
import this ``__init__`` only, which keeps the names it always exported.
"""

from bot.documents import (
    FULL,
    NONE,
    STOPWORDS,
    SURE,
    UNSURE,
    Answer,
    Block,
    Choice,
    Cited,
    Edition,
    Line,
    answer_text,
    clip,
    pages,
    stem,
    word_diff,
    words,
)
from bot.rules.asking import CardFacts, FoundCards
from bot.rules.editions import LoadedRules, is_history_query
from bot.rules.ranking import RulesIndex
from bot.rules.service import RulesService

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
