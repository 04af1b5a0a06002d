"""What every document shares: sections, answers, pages, words, versions. May import `bot.limits`, `bot.runtime`,
`bot.text`.

Documents cut into numbered sections: reading their PDFs, finding sections by number, name and words,
answering with them; and for every document, the Comprehensive Rules included, keeping its versions by date
(``versions``: one shelf a document, its history and retention, whatever the document's own guard is).

What is particular to one document (its numbering, its headings, its short names) lives with it: ``bot.rules``
for the Comprehensive Rules, ``bot.judge`` for the judges' documents. This package is what every document
shares, and it imports neither: the answer and its phone pages, the words of a text and of a question, a word
diff between two versions, and the machinery for PDFs, sections and their versions.
"""

from bot.documents.answers import list_answer, miss, section_answer
from bot.documents.diff import even_out, word_diff
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
    is_under,
    long_date,
    parse_long_date,
)
from bot.documents.pdftext import clean_lines, extract_pages, paragraphs
from bot.documents.pdfversion import PdfVersion, Refused, check_pdf, check_sections
from bot.documents.phone import PAGE_ONE, Block, pages
from bot.documents.phone import text as answer_text
from bot.documents.phrasings import Phrasing, PhrasingError, load_phrasings, merge, read_file
from bot.documents.reply import (
    CONFIDENCES,
    EXCERPT,
    FULL,
    NONE,
    SURE,
    UNSURE,
    Answer,
    Choice,
    Cited,
    Edition,
    Line,
    clip,
)
from bot.documents.search import SectionIndex
from bot.documents.sectioning import Layout, split_sections
from bot.documents.tokens import STOPWORDS, normal, stem, words
from bot.documents.versions import Built, Kept, Shelf, Skipped, Versions, file_identity, read_all, retry_delay

__all__ = [
    "parse_long_date",
    "retry_delay",
    "Phrasing",
    "PhrasingError",
    "load_phrasings",
    "merge",
    "read_file",
    "CONFIDENCES",
    "EXCERPT",
    "FULL",
    "NONE",
    "SURE",
    "UNSURE",
    "Answer",
    "Choice",
    "Cited",
    "Edition",
    "Line",
    "clip",
    "PAGE_ONE",
    "Block",
    "pages",
    "answer_text",
    "even_out",
    "word_diff",
    "is_under",
    "STOPWORDS",
    "stem",
    "words",
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
    "Built",
    "Kept",
    "PdfVersion",
    "Shelf",
    "Skipped",
    "file_identity",
    "read_all",
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
