"""The bundled outlines: each document's section numbers and titles (the IPG's penalties too), its effective date,
its official link and where the outline was made from. Only these ship with the bot; the text is Wizards', and
each bot downloads it (see :mod:`bot.judge.updater`).

``scripts/make_judge_outline.py`` writes them from a copy of the document (:func:`outline_data`).
"""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

from bot.documents import Document, Section
from bot.judge.catalog import SPECS

OUTLINES = Path(__file__).resolve().parent.parent / "data" / "judge"


def outline_path(key: str) -> Path:
    return OUTLINES / f"{key}-outline.json"


def outline_data(document: Document, source: str) -> dict:
    """A document's outline as JSON data (one section a line in the file, for readable diffs)."""
    return {
        "document": document.key,
        "title": document.title,
        "effective": document.effective.isoformat() if document.effective else "",
        "url": document.url,
        "source": source,
        "sections": [[section.number, section.title, section.badge] for section in document.sections],
    }


def outline_text(data: dict) -> str:
    head = {key: value for key, value in data.items() if key != "sections"}
    lines = [json.dumps(row, ensure_ascii=False) for row in data["sections"]]
    body = json.dumps(head, ensure_ascii=False, indent=1)[:-2]
    return body + ',\n "sections": [\n  ' + ",\n  ".join(lines) + "\n ]\n}\n"


def load_outline(key: str, path: Path | None = None) -> Document:
    """The bundled outline of document ``key`` as a document without text (``full`` False)."""
    data = json.loads((path or outline_path(key)).read_text(encoding="utf-8"))
    spec = SPECS[key]
    sections = [Section(number, title, [], badge) for number, title, badge in data["sections"]]
    effective = date.fromisoformat(data["effective"]) if data.get("effective") else None
    return Document(
        key,
        data.get("title") or spec.title,
        effective,
        data["url"],
        sections,
        full=False,
        source=data.get("source", ""),
    )
