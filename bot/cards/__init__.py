"""Card lookups, their rendering and inline references, free of Discord. May import `bot.carddb`,
`bot.config`, `bot.cycling`, `bot.errors`, `bot.hosts`, `bot.limits`, `bot.rules`, `bot.scryfall`,
`bot.serving`, `bot.text`.
"""

from bot.cards.answers import CardAnswer, CardList, as_card, origin_text, prices_note
from bot.cards.colours import card_colour
from bot.cards.inline import MAX_REFERENCES, CardReference, find_references
from bot.cards.lookup import CardSource
from bot.cards.misses import DISCORD as DISCORD_MARKS
from bot.cards.misses import autocomplete_choices, miss_text, no_set_text, unknown_sets
from bot.cards.misses import suggestions as miss_suggestions
from bot.cards.query import DEFAULT_KIND, KINDS, MAX_EXTRA_QUERY, QueryTooLong, check_syntax, cycling_query
from bot.cards.questions import QuestionCards, stored_question_cards, written_card_names
from bot.cards.render import (
    CardDisplay,
    Provenance,
    cycling_result_line,
    image_url,
    is_multi_faced,
    legality_groups,
    legality_lines,
    price_lines,
    render_card,
    render_compact,
    render_faces,
    render_image,
    ruling_lines,
    search_result_line,
    set_line,
)

__all__ = [
    "MAX_REFERENCES",
    "DISCORD_MARKS",
    "autocomplete_choices",
    "miss_suggestions",
    "miss_text",
    "no_set_text",
    "unknown_sets",
    "CardDisplay",
    "card_colour",
    "cycling_result_line",
    "image_url",
    "is_multi_faced",
    "legality_groups",
    "legality_lines",
    "price_lines",
    "Provenance",
    "render_card",
    "render_compact",
    "render_faces",
    "render_image",
    "ruling_lines",
    "search_result_line",
    "set_line",
    "DEFAULT_KIND",
    "KINDS",
    "MAX_EXTRA_QUERY",
    "CardAnswer",
    "CardList",
    "CardReference",
    "CardSource",
    "QueryTooLong",
    "QuestionCards",
    "stored_question_cards",
    "written_card_names",
    "as_card",
    "check_syntax",
    "cycling_query",
    "find_references",
    "origin_text",
    "prices_note",
]
