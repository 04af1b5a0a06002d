"""Scryfall's search syntax as a Lark grammar, and the parse tree turned into :mod:`nodes`.

``parse("t:creature (c:g or c:u) -pow<2 order:cmc")`` → a :class:`Query`. Terms side by side must
all hold (``and`` may be written), ``or`` takes either side, ``-`` negates, parentheses group;
a value is a word, a ``"quoted phrase"`` or a ``/regular expression/``; ``!name`` is an exact name.
Errors come back as :class:`QuerySyntaxError` with a sentence a player can act on.

The parser reads any nesting without recursion; the parse tree is then measured (how deep ``-``, ``and``,
``or`` and parentheses nest, how many terms there are) and refused past :data:`MAX_DEPTH` and
:data:`MAX_TERMS` before anything walks it recursively. ``- -x`` is ``x``: double negations are dropped first.
"""

from __future__ import annotations

import re

from lark import Lark, Token, Transformer, Tree, UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from bot.carddb.query.nodes import And, Name, Node, Not, Or, Query, Term, Value
from bot.carddb.query.vocab import DIRECTIVES, KEYS

MAX_QUERY_CHARS = 1000
MAX_TERMS = 60
MAX_DEPTH = 12  # levels of -, and, or and parentheses: SQLite's parser nests each level's SQL in its own stack
NESTING = frozenset({"or_expr", "and_expr", "negated"})

GRAMMAR = r"""
?start: or_expr?

?or_expr: and_expr (_OR and_expr)*
?and_expr: unary (_AND? unary)*
?unary: "-" unary -> negated
      | atom
?atom: "(" or_expr ")"
     | KEYOP kvalue -> keyed
     | "!" value    -> exact
     | value        -> bare

value: QUOTED | REGEX | WORD
kvalue: QUOTED | REGEX | VWORD

_OR.2: /or(?![^\s()])/i
_AND.2: /and(?![^\s()])/i
KEYOP.3: /[a-z]+(?:<=|>=|!=|:|=|<|>)/i
QUOTED: /"(?:[^"\\]|\\.)*"/
REGEX.2: /\/(?:[^\/\\\n]|\\.)+\//
WORD: /[^\s()"!\-][^\s()"]*/
VWORD: /[^\s()"]+/

%import common.WS
%ignore WS
"""

_PARSER = Lark(GRAMMAR, parser="lalr", maybe_placeholders=False)
# A key and its operator with nothing after them, at the end of the search: "t:creature pow>".
_DANGLING = re.compile(r"(?:^|[\s(])-?([a-z]+)(<=|>=|!=|:|=|<|>)$", re.IGNORECASE)
NUMERIC_KEYS = frozenset({"mv", "power", "toughness", "powtou", "loyalty", "defense"})
VALUE_EXAMPLES = {
    "type": "creature",
    "oracle": '"draw a card"',
    "set": "akh",
    "color": "g",
    "identity": "wu",
    "rarity": "rare",
    "legal": "modern",
    "is": "commander",
    "keyword": "flying",
    "name": "bolt",
}


class QueryError(ValueError):
    """A search that cannot be run as written; the message (plain text, not yet escaped) says why."""


class QuerySyntaxError(QueryError):
    pass


class _ToNodes(Transformer):
    def value(self, children: list[Token]) -> Value:
        (token,) = children
        text = str(token)
        if token.type == "QUOTED":
            return Value(text[1:-1].replace('\\"', '"'), quoted=True)
        if token.type == "REGEX":
            return Value(text[1:-1], regex=True)
        return Value(text)

    kvalue = value

    def keyed(self, children: list) -> Term:
        keyop, value = children
        text = str(keyop)
        for op in ("<=", ">=", "!=", ":", "=", "<", ">"):
            if text.endswith(op):
                key = text[: -len(op)].lower()
                break
        shown = f'"{value.text}"' if value.quoted else f"/{value.text}/" if value.regex else value.text
        return Term(key, op, value, f"{text}{shown}")

    def exact(self, children: list) -> Name:
        return Name(children[0], exact=True)

    def bare(self, children: list) -> Name:
        return Name(children[0])

    def negated(self, children: list) -> Not:
        return Not(children[0])

    def and_expr(self, children: list) -> And:
        return And(tuple(children))

    def or_expr(self, children: list) -> Or:
        return Or(tuple(children))


def _without_double_negations(tree: Tree) -> Tree:
    """``tree`` with every ``- -x`` replaced by ``x``, walked without recursion."""

    def simplest(node: Tree | Token) -> Tree | Token:
        while (
            isinstance(node, Tree)
            and node.data == "negated"
            and isinstance(node.children[0], Tree)
            and node.children[0].data == "negated"
        ):
            node = node.children[0].children[0]
        return node

    root = simplest(tree)
    stack = [root]
    while stack:
        node = stack.pop()
        if isinstance(node, Tree) and node.data in NESTING:
            node.children = [simplest(child) for child in node.children]
            stack.extend(node.children)
    return root


def _shape(tree: Tree | Token) -> tuple[int, int]:
    """How deep ``-``, ``and``, ``or`` and parentheses nest in ``tree``, and how many terms it holds."""
    deepest = terms = 0
    stack = [(tree, 0)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, Tree) and node.data in NESTING:
            deepest = max(deepest, depth + 1)
            stack.extend((child, depth + 1) for child in node.children)
        else:
            terms += 1
    return deepest, terms


def _syntax_message(error: UnexpectedInput, text: str) -> str:
    where = getattr(error, "column", None)
    at = f" (character {where})" if isinstance(where, int) and where > 0 else ""
    if isinstance(error, UnexpectedCharacters):
        char = text[error.pos_in_stream] if error.pos_in_stream < len(text) else ""
        if char == '"':
            return f'A quote opened{at} is never closed: add the closing ".'
        return f"I can't read “{char}”{at}."
    token = getattr(error, "token", None)
    expected = set(getattr(error, "expected", ()) or ())
    if isinstance(error, UnexpectedToken) and token is not None and token.type == "RPAR":
        return f"There's a closing parenthesis{at} with no opening one."
    if isinstance(error, UnexpectedEOF) or (token is not None and token.type == "$END"):
        if "RPAR" in expected:
            return "A parenthesis is opened and never closed: add the closing )."
        if dangling := _DANGLING.search(text):
            return _dangling_message(*dangling.groups())
        ending = text.split()[-1] if text.split() else text
        return f"The search ends at “{ending}”, in the middle of a term: what comes after it?"
    shown = str(token) if token is not None else ""
    if shown.lower() in ("or", "and"):
        return f"“{shown}” needs a term on each side{at}."
    return f"I can't read the search at “{shown}”{at}."


def _dangling_message(key: str, op: str) -> str:
    """What a key with nothing after it needs: "pow>" needs a number, "set:" a set code."""
    term, known = f"{key}{op}", KEYS.get(key.lower())
    if known in NUMERIC_KEYS:
        return f"“{term}” needs a number after it, as in {term}3."
    example = VALUE_EXAMPLES.get(known or "", "…")
    return f"“{term}” needs something after it, as in {term}{example}."


def _split_directives(node: Node | None, directives: dict[str, str]) -> Node | None:
    """The tree without ``order:``, ``direction:``… terms, which go into ``directives``."""
    if node is None:
        return None
    if isinstance(node, Term) and node.key in DIRECTIVES:
        directives[DIRECTIVES[node.key]] = node.value.text.lower()
        return None
    if isinstance(node, Not):
        inner = _split_directives(node.node, directives)
        return Not(inner) if inner is not None else None
    if isinstance(node, And | Or):
        kept = tuple(child for child in (_split_directives(c, directives) for c in node.nodes) if child is not None)
        if not kept:
            return None
        return kept[0] if len(kept) == 1 else type(node)(kept)
    return node


def parse(text: str) -> Query:
    """The :class:`Query` written in ``text``; raises :class:`QuerySyntaxError` with the reason."""
    text = " ".join(text.split())
    if len(text) > MAX_QUERY_CHARS:
        raise QuerySyntaxError(f"That search is {len(text):,} characters long; keep it under {MAX_QUERY_CHARS:,}.")
    if not text:
        raise QuerySyntaxError("Give something to search for, e.g. t:creature c:g pow>=3.")
    try:
        tree = _PARSER.parse(text)
    except UnexpectedInput as error:
        raise QuerySyntaxError(_syntax_message(error, text)) from None
    tree = _without_double_negations(tree)
    depth, terms = _shape(tree)
    if depth > MAX_DEPTH:
        raise QuerySyntaxError(
            f"That search nests “-”, “and”, “or” and parentheses {depth} levels deep; at most {MAX_DEPTH}."
        )
    if terms > MAX_TERMS:
        raise QuerySyntaxError(f"That search has {terms} terms; at most {MAX_TERMS}.")
    root = _ToNodes().transform(tree) if tree.data != "start" or tree.children else None
    if isinstance(root, Token | Value):  # a lone value is a bare name
        root = Name(root if isinstance(root, Value) else Value(str(root)))
    if root is not None and not isinstance(root, Term | Name | Not | And | Or):
        root = None
    directives: dict[str, str] = {}
    root = _split_directives(root, directives)
    return Query(root, directives, text)


def set_codes(text: str) -> list[str]:
    """The set codes ``set:``, ``s:``, ``e:`` or ``edition:`` ask for in ``text`` (not those negated), in order;
    none when it doesn't parse. For a search that found nothing: a code no set has is the reason to name."""
    try:
        root = parse(text).root
    except QueryError:
        return []
    codes: list[str] = []
    stack = [root]
    while stack:
        node = stack.pop()
        if isinstance(node, And | Or):
            stack.extend(reversed(node.nodes))
        elif isinstance(node, Term) and KEYS.get(node.key) == "set" and node.op in (":", "="):
            codes.append(node.value.text.lower())
    return list(dict.fromkeys(codes))
