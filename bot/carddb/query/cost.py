"""What a search will cost before it runs, judged from its shape, so that a flood of slow searches can be kept from
the last search thread (see ``bot.serving.shares``).

Most searches read indexed facts (types, colours, numbers, a few words of text) and take milliseconds on 35,000
cards. Two things make one take hundreds of milliseconds, up to its whole second: a regular expression (matched
against every card's text, and as slow as its pattern makes it) and many terms that each read every card's text
(about 15 ms each: 10 ``fo:`` phrases take 0.18 s, 55 take a second) or name (about 7 ms each). A search with a
regular expression, or with terms over the cards' text and names worth 0.1 s or more, is heavy. A search that
cannot be read is not: it is answered at once, without a thread.
"""

from __future__ import annotations

from bot.carddb.query.grammar import QueryError, parse
from bot.carddb.query.nodes import And, Name, Node, Not, Or, Term
from bot.carddb.query.vocab import KEYS

# What a term reads, in units of about 7 ms on 35,000 cards: a name's words, or (twice that) a card's whole text.
READS = {"name": 1, "oracle": 2, "fulloracle": 2}
HEAVY_READS = 16


def terms(root: Node | None) -> list[Term | Name]:
    """The terms and bare words of a parsed search (the grammar bounds how many, and how deep)."""
    found: list[Term | Name] = []
    stack = [root] if root is not None else []
    while stack:
        node = stack.pop()
        if isinstance(node, Not):
            stack.append(node.node)
        elif isinstance(node, And | Or):
            stack.extend(node.nodes)
        else:
            found.append(node)
    return found


def heavy(text: str) -> bool:
    """Whether the search ``text`` will read every card's text at length: a regular expression, or terms over the
    cards' text and names worth :data:`HEAVY_READS` or more."""
    try:
        query = parse(text)
    except QueryError:
        return False
    read = terms(query.root)
    if any(node.value.regex for node in read):
        return True
    cost = sum(READS["name"] if isinstance(node, Name) else READS.get(KEYS.get(node.key, ""), 0) for node in read)
    return cost >= HEAVY_READS
