"""Every edition, updates, what changed and a rule's history. May import `bot.rules.text`, `bot.rules.words`,
`bot.rules.ranking`, `bot.documents`, `bot.hosts`, `bot.runtime`, `bot.text`.

Where the current edition comes from, the guarded download of a new one, what changed between two, and a
rule's history across all of them. Other rooms import this package, never its modules.
"""

from bot.rules.editions.diff import EditionDiff, diff_documents, is_changes_query
from bot.rules.editions.editions import NoEditionsError, rules_files
from bot.rules.editions.history import HistoryCache, UnknownRuleError
from bot.rules.editions.history_text import (
    history_answer,
    history_for,
    history_subject,
    is_history_query,
    number_from_answer,
    parse_history_query,
)
from bot.rules.editions.sources import (
    LoadedRules,
    downloaded_path,
    edition_paths,
    load_configured,
    load_rules,
    previous_path,
)
from bot.rules.editions.updater import REFRESH_INTERVAL, UpdateError, remove_interrupted, retry_delay, update_rules

__all__ = [
    "EditionDiff",
    "HistoryCache",
    "LoadedRules",
    "NoEditionsError",
    "REFRESH_INTERVAL",
    "UnknownRuleError",
    "UpdateError",
    "diff_documents",
    "downloaded_path",
    "edition_paths",
    "history_answer",
    "history_for",
    "history_subject",
    "is_changes_query",
    "is_history_query",
    "load_configured",
    "load_rules",
    "number_from_answer",
    "parse_history_query",
    "previous_path",
    "remove_interrupted",
    "retry_delay",
    "rules_files",
    "update_rules",
]
