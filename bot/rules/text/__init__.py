"""Reading a Comprehensive Rules text and rule numbers. May import nothing else of the bot.

Its rules and glossary, and rule numbers as people type them. Other rooms import this package, never its modules.
"""

from bot.rules.text.document import Document, GlossaryEntry, Rule, RulesFormatError, load_document, parse_bytes
from bot.rules.text.numbers import WHOLE_HEADING_RE, NumberRef, find_numbers, rule_url

__all__ = [
    "rule_url",
    "Document",
    "GlossaryEntry",
    "NumberRef",
    "Rule",
    "RulesFormatError",
    "WHOLE_HEADING_RE",
    "find_numbers",
    "load_document",
    "parse_bytes",
]
