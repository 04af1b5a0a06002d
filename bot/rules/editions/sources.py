"""Where the rules text comes from: RULES_FILE, the newest edition kept in the data folder, or the bundled excerpt.

Every edition the bot downloads is kept on the rules' shelf (:class:`bot.documents.Versions`), one file per
effective date in ``rules-editions/``: the newest answers, the one before it is what "changes" compares with it,
and all of them (with RULES_FILE) are what a rule's history is read from. Bots before this kept the current and
previous texts beside the folder (``comprehensive-rules.txt``, ``comprehensive-rules.previous.txt``): they are moved
in, dated by their contents, the first time the shelf is opened.
"""

from __future__ import annotations

import functools
import logging
from dataclasses import dataclass
from pathlib import Path

from bot.documents import Shelf, Versions
from bot.rules.editions.editions import edition_date, rules_files
from bot.rules.ranking import RulesIndex
from bot.rules.text import RulesFormatError, load_document

log = logging.getLogger(__name__)

BUNDLED_EXCERPT = Path(__file__).resolve().parents[2] / "data" / "comprehensive-rules-excerpt.txt"
# Every edition kept, one file per effective date: rules-editions/comprehensive-rules-2024-11-08.txt.
SHELF = Shelf(
    "rules-editions",
    "comprehensive-rules",
    ".txt",
    legacy=("comprehensive-rules.previous.txt", "comprehensive-rules.txt"),
)
DOWNLOADED = "downloaded"  # the origin of an edition kept on the shelf


def kept_editions(data_dir: Path, rules_file: Path | None = None) -> Versions:
    """The rules' shelf in ``data_dir``, with what an older bot kept beside it moved in (RULES_FILE, if it names one
    of those files, is copied and left where it is). Dating such a copy parses it, so this is for the moments the
    rules are loaded or updated; a history's listing uses the shelf as it is (``Versions(data_dir, SHELF)``)."""
    versions = Versions(data_dir, SHELF)
    versions.adopt(edition_date, stay=[rules_file] if rules_file is not None else ())
    return versions


def edition_paths(kept: Versions | None, rules_file: Path | None = None) -> list[Path]:
    """Every rules text the bot keeps or was given: the ``.txt`` files on the shelf (the bot's and any an operator
    put there) and RULES_FILE. Which of them are full, dated editions is decided when they are read."""
    paths = rules_files(kept.folder) if kept is not None else []
    if rules_file is not None and Path(rules_file).is_file():
        paths.append(Path(rules_file))
    return paths


@dataclass
class LoadedRules:
    index: RulesIndex
    path: Path
    origin: str  # "RULES_FILE", DOWNLOADED or "bundled excerpt"

    def description(self) -> str:
        document = self.index.document
        if document.is_excerpt:
            label = self.index.edition.label
            when = f" (rules effective as of {label})" if label else ""
            return (
                f"Comprehensive Rules bundled excerpt{when}: {document.rule_count:,} rules and "
                f"{len(document.glossary):,} glossary entries"
            )
        edition = f"effective {document.effective}" if document.effective else "(edition date not stated)"
        return f"Comprehensive Rules {edition} (full text, {document.rule_count:,} rules)"


def load_rules(path: Path, origin: str) -> LoadedRules:
    """The rules in ``path``, indexed. A file this process has read before, unchanged since (the same size and
    modification time), is not parsed and indexed again: a bot started again in the same process, or the
    terminal's repeated lookups, share one index, which nothing changes once it is built."""
    stat = Path(path).stat()
    return _load_unchanged(Path(path).resolve(), stat.st_size, stat.st_mtime_ns, origin)


@functools.lru_cache(maxsize=4)
def _load_unchanged(path: Path, size: int, mtime_ns: int, origin: str) -> LoadedRules:
    return LoadedRules(RulesIndex(load_document(path)), path, origin)


def load_configured(rules_file: Path | None, data_dir: Path | None, *, strict: bool = False) -> LoadedRules:
    """RULES_FILE if set, else the newest edition kept (an older one if it cannot be read), else the bundled excerpt.

    With ``strict`` a broken RULES_FILE raises; otherwise it is logged and the next source is used.
    """
    kept = kept_editions(data_dir, rules_file) if data_dir is not None else None
    if rules_file is not None:
        try:
            return _loaded(load_rules(Path(rules_file), "RULES_FILE"))
        except (OSError, RulesFormatError) as error:
            if strict:
                raise
            log.error("Could not load the rules from RULES_FILE (%s): %s; trying the next source", rules_file, error)
    newest = kept.newest(lambda path: load_rules(path, DOWNLOADED)) if kept is not None else None
    if newest is not None:
        return _loaded(newest)
    return _loaded(load_rules(BUNDLED_EXCERPT, "bundled excerpt"))


def _loaded(loaded: LoadedRules) -> LoadedRules:
    log.debug("Loaded %s from %s (%s)", loaded.description(), loaded.origin, loaded.path)  # the bot says it at start
    return loaded
