"""Reading a Comprehensive Rules text: its rules and glossary, and rule numbers as people type them.

Uses no other room. Other rooms import this package, never its modules."""

from bot.rules.text.document import Document, GlossaryEntry, Rule, RulesFormatError, load_document, parse_bytes
from bot.rules.text.numbers import WHOLE_HEADING_RE, NumberRef, find_numbers, is_under

__all__ = [
    "Document",
    "GlossaryEntry",
    "NumberRef",
    "Rule",
    "RulesFormatError",
    "WHOLE_HEADING_RE",
    "find_numbers",
    "is_under",
    "load_document",
    "parse_bytes",
]
