"""Where the rules text comes from: RULES_FILE, a downloaded copy in the data directory, or the bundled excerpt."""

from __future__ import annotations

import functools
import logging
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from bot.rules.editions.editions import rules_files
from bot.rules.ranking import RulesIndex
from bot.rules.text import RulesFormatError, load_document

log = logging.getLogger(__name__)

BUNDLED_EXCERPT = Path(__file__).resolve().parents[2] / "data" / "comprehensive-rules-excerpt.txt"
DOWNLOADED_NAME = "comprehensive-rules.txt"
PREVIOUS_NAME = "comprehensive-rules.previous.txt"
# Every edition ever downloaded, one file per effective date: what a rule's history is read from.
EDITIONS_DIR = "rules-editions"


def downloaded_path(data_dir: Path) -> Path:
    return Path(data_dir) / DOWNLOADED_NAME


def previous_path(data_dir: Path) -> Path:
    """The edition the latest update replaced (kept to show what changed)."""
    return Path(data_dir) / PREVIOUS_NAME


def editions_dir(data_dir: Path) -> Path:
    return Path(data_dir) / EDITIONS_DIR


def edition_path(data_dir: Path, effective: date) -> Path:
    """Where the edition effective on ``effective`` is kept: rules-editions/comprehensive-rules-2024-11-08.txt."""
    return editions_dir(data_dir) / f"comprehensive-rules-{effective.isoformat()}.txt"


def edition_paths(data_dir: Path | None, rules_file: Path | None = None) -> list[Path]:
    """Every rules text the bot keeps or was given: the kept editions, the current and previous downloads,
    and RULES_FILE. Which of them are full, dated editions is decided when they are read."""
    paths: list[Path] = []
    if data_dir is not None:
        paths += rules_files(editions_dir(data_dir))
        paths += [path for path in (downloaded_path(data_dir), previous_path(data_dir)) if path.is_file()]
    if rules_file is not None and Path(rules_file).is_file():
        paths.append(Path(rules_file))
    return paths


@dataclass
class LoadedRules:
    index: RulesIndex
    path: Path
    origin: str  # "RULES_FILE", "downloaded" or "bundled excerpt"

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
    """RULES_FILE if set, else a previously downloaded text, else the bundled excerpt.

    With ``strict`` a broken RULES_FILE raises; otherwise it is logged and the next source is used.
    """
    candidates: list[tuple[Path, str]] = []
    if rules_file is not None:
        candidates.append((Path(rules_file), "RULES_FILE"))
    if data_dir is not None and downloaded_path(data_dir).is_file():
        candidates.append((downloaded_path(data_dir), "downloaded"))
    candidates.append((BUNDLED_EXCERPT, "bundled excerpt"))
    for path, origin in candidates:
        try:
            loaded = load_rules(path, origin)
        except (OSError, RulesFormatError) as error:
            if strict or origin == "bundled excerpt":
                raise
            log.error("Could not load the rules from %s (%s): %s; trying the next source", origin, path, error)
            continue
        log.debug("Loaded %s from %s (%s)", loaded.description(), origin, path)  # the bot says it once at start
        return loaded
    raise AssertionError("unreachable: the bundled excerpt always loads or raises")
