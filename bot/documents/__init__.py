"""Documents cut into numbered sections: reading their PDFs, finding sections by number, name and words,
answering with them, and keeping every version with its date. Framework-free (no discord import).

What is particular to one document (its headings, its short names) lives with it (``bot.judge`` for the
judges' documents); this package is what every document shares.
"""

from bot.documents.model import (
    APPENDIX,
    CHAPTER,
    SECTION,
    Document,
    DocumentFormatError,
    Part,
    Section,
    effective_date,
    long_date,
)
from bot.documents.pdftext import clean_lines, extract_pages, paragraphs
from bot.documents.sectioning import Layout, split_sections

__all__ = [
    "APPENDIX",
    "CHAPTER",
    "SECTION",
    "Document",
    "DocumentFormatError",
    "Layout",
    "Part",
    "Section",
    "clean_lines",
    "effective_date",
    "extract_pages",
    "long_date",
    "paragraphs",
    "split_sections",
]
