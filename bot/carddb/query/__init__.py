"""Scryfall's search syntax answered from the local copy. May import `bot.carddb.nicknames`, `bot.serving`, `bot.text`.

``grammar`` parses a query into ``nodes``; ``compile`` turns them into one SQL condition with bound
parameters over the ``search_*`` tables that ``facts`` fills at import; ``engine`` runs it a page at
a time; ``regexp`` gives SQLite regular expressions with a time limit; ``cost`` tells a heavy search by its shape.
"""

from bot.carddb.query.compile import NeedsScryfall, warning_sentence
from bot.carddb.query.cost import heavy as heavy_search
from bot.carddb.query.engine import PAGE_SIZE, SEARCH_SECONDS, Found
from bot.carddb.query.engine import prepare as prepare_search
from bot.carddb.query.engine import run as run_search
from bot.carddb.query.facts import search_rows
from bot.carddb.query.grammar import MAX_QUERY_CHARS, QueryError, QuerySyntaxError, set_codes
from bot.carddb.query.grammar import parse as parse_query
from bot.carddb.query.regexp import QueryTooSlow
from bot.carddb.query.regexp import install as install_regexp

__all__ = [
    "SEARCH_SECONDS",
    "heavy_search",
    "install_regexp",
    "prepare_search",
    "run_search",
    "MAX_QUERY_CHARS",
    "PAGE_SIZE",
    "Found",
    "NeedsScryfall",
    "QueryError",
    "QuerySyntaxError",
    "QueryTooSlow",
    "parse_query",
    "search_rows",
    "set_codes",
    "warning_sentence",
]
