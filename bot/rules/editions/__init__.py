"""Every edition, updates, what changed and a rule's history. May import `bot.rules.text`, `bot.rules.words`,
`bot.rules.ranking`, `bot.documents`, `bot.hosts`, `bot.runtime`, `bot.text`.

What is particular to the rules' editions: a rules text read and dated by its contents, where the edition in use
comes from (RULES_FILE, the rules' shelf, the bundled excerpt), the guarded download of a new one, what changed
between two, and a rule's history across all of them (the alignment). Keeping the editions, one file per effective
date, is the shelf's (:mod:`bot.documents.versions`), as it is for every document. Other rooms import this
package, never its modules.
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
    DOWNLOADED,
    SHELF,
    LoadedRules,
    edition_paths,
    kept_editions,
    load_configured,
    load_rules,
)
from bot.rules.editions.updater import (
    REFRESH_INTERVAL,
    UpdateError,
    UpdateResult,
    remove_interrupted,
    retry_delay,
    update_rules,
)

__all__ = [
    "EditionDiff",
    "HistoryCache",
    "LoadedRules",
    "NoEditionsError",
    "REFRESH_INTERVAL",
    "UnknownRuleError",
    "UpdateError",
    "diff_documents",
    "DOWNLOADED",
    "SHELF",
    "UpdateResult",
    "kept_editions",
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
    "remove_interrupted",
    "retry_delay",
    "rules_files",
    "update_rules",
]
