"""What a goldfish table shows: text, view, picture. May import `bot.goldfish.engine`, `bot.carddb`, `bot.hosts`,
`bot.limits`, `bot.runtime`, `bot.text`.

Read from a game: the text (``text``: title, fields and lines fitted to Discord's
limits but free of Discord), the view a picture is drawn from (``view``: the game's public state), the picture itself
(``picture``, with its drawing tools in ``drawing``: Pillow, no network) and the card images it needs
(``picture_source``: the local card data and the image cache); and in words, what a move did and where the game
is now (``moves``).

A picture is a pure function of a view. This package uses the engine and nothing else of the goldfish package.
"""

from bot.goldfish.table.moves import done_text, gone_text, undo_text, where_text
from bot.goldfish.table.picture import MAX_BYTES, PHONE_WIDTH, Picture, draw_table, render_table
from bot.goldfish.table.picture_source import CardImageSource, picture_file
from bot.goldfish.table.text import TableText, cycle_label, hand_lines, log_lines, table_text
from bot.goldfish.table.view import CardFace, CardKey, Pile, TableView, table_view

__all__ = [
    "MAX_BYTES",
    "PHONE_WIDTH",
    "CardFace",
    "CardImageSource",
    "CardKey",
    "Picture",
    "Pile",
    "TableText",
    "TableView",
    "cycle_label",
    "done_text",
    "gone_text",
    "draw_table",
    "hand_lines",
    "log_lines",
    "picture_file",
    "render_table",
    "table_text",
    "table_view",
    "undo_text",
    "where_text",
]
