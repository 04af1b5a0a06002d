"""Where the rules text comes from: RULES_FILE, a downloaded copy in the data directory, or the bundled excerpt."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

from bot.rules.document import RulesFormatError, load_document
from bot.rules.index import RulesIndex

log = logging.getLogger(__name__)

BUNDLED_EXCERPT = Path(__file__).resolve().parent.parent / "data" / "comprehensive-rules-excerpt.txt"
DOWNLOADED_NAME = "comprehensive-rules.txt"
PREVIOUS_NAME = "comprehensive-rules.previous.txt"


def downloaded_path(data_dir: Path) -> Path:
    return Path(data_dir) / DOWNLOADED_NAME


def previous_path(data_dir: Path) -> Path:
    """The edition the latest update replaced (kept to show what changed)."""
    return Path(data_dir) / PREVIOUS_NAME


@dataclass
class LoadedRules:
    index: RulesIndex
    path: Path
    origin: str  # "RULES_FILE", "downloaded" or "bundled excerpt"

    def description(self) -> str:
        document = self.index.document
        if document.is_excerpt:
            return (
                f"Comprehensive Rules {self.index.edition}: {document.rule_count:,} rules and "
                f"{len(document.glossary):,} glossary entries"
            )
        edition = f"effective {document.effective}" if document.effective else "(edition date not stated)"
        return f"Comprehensive Rules {edition} (full text, {document.rule_count:,} rules)"


def load_rules(path: Path, origin: str) -> LoadedRules:
    return LoadedRules(RulesIndex(load_document(path)), Path(path), origin)


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
        log.info("Loaded %s from %s (%s)", loaded.description(), origin, path)
        return loaded
    raise AssertionError("unreachable: the bundled excerpt always loads or raises")
