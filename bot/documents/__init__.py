"""Documents cut into numbered sections: reading their PDFs, finding sections by number, name and words,
answering with them, and keeping every version with its date. Framework-free (no discord import).

What is particular to one document (its headings, its short names) lives with it (``bot.judge`` for the
judges' documents); this package is what every document shares.
"""

from bot.documents.answers import list_answer, miss, section_answer
from bot.documents.history import history_lines
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
from bot.documents.search import SectionIndex, normal
from bot.documents.sectioning import Layout, split_sections
from bot.documents.versions import Refused, Versions, check_pdf, check_sections

__all__ = [
    "APPENDIX",
    "CHAPTER",
    "SECTION",
    "Document",
    "DocumentFormatError",
    "Layout",
    "Part",
    "Refused",
    "Section",
    "SectionIndex",
    "Versions",
    "check_pdf",
    "check_sections",
    "history_lines",
    "list_answer",
    "miss",
    "normal",
    "section_answer",
    "clean_lines",
    "effective_date",
    "extract_pages",
    "long_date",
    "paragraphs",
    "split_sections",
]
