"""A parsed search as typed nodes: what the grammar read, before anything is looked up."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Value:
    """A term's value: ``text`` as typed (without quotes or slashes) and how it was written."""

    text: str
    quoted: bool = False
    regex: bool = False


@dataclass(frozen=True, slots=True)
class Term:
    """``key op value``, e.g. ``pow>=3``; ``source`` is the term as the user wrote it, for warnings."""

    key: str
    op: str
    value: Value
    source: str


@dataclass(frozen=True, slots=True)
class Name:
    """A bare word, phrase or ``/regex/``: the card's name; ``exact`` for ``!"Full Name"``."""

    value: Value
    exact: bool = False


@dataclass(frozen=True, slots=True)
class Not:
    node: Node


@dataclass(frozen=True, slots=True)
class And:
    nodes: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class Or:
    nodes: tuple[Node, ...]


Node = Term | Name | Not | And | Or


@dataclass(frozen=True, slots=True)
class Query:
    """A whole search: its condition (None when only directives were given) and its directives
    (``order:``, ``direction:``, ``include:``, ``unique:``) as key → value."""

    root: Node | None
    directives: dict[str, str] = field(default_factory=dict)
    text: str = ""
