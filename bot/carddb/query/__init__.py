"""Scryfall's search syntax answered from the local card database.

``grammar`` parses a query into ``nodes``; ``compile`` turns them into one SQL condition with bound
parameters over the ``search_*`` tables that ``facts`` fills at import; ``engine`` runs it a page at
a time; ``regexp`` gives SQLite regular expressions with a time limit.
"""

from bot.carddb.query.compile import NeedsScryfall, warning_sentence
from bot.carddb.query.engine import PAGE_SIZE, Found
from bot.carddb.query.grammar import MAX_QUERY_CHARS, QueryError, QuerySyntaxError
from bot.carddb.query.regexp import QueryTooSlow

__all__ = [
    "MAX_QUERY_CHARS",
    "PAGE_SIZE",
    "Found",
    "NeedsScryfall",
    "QueryError",
    "QuerySyntaxError",
    "QueryTooSlow",
    "warning_sentence",
]
