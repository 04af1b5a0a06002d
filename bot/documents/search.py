"""Finding a document's sections: by number ("3.8", "3-8", "appendix b"), by title or a short name judges use
("hce"), and by words ranked as the rules' questions are (bm25 over each section's words, a hit in the title
counting more, a short name in the question pointing at its section).

Everything is built once per document version; a lookup is a few dictionary reads and, for words, one pass over
the sections holding them.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

from bot.documents.model import APPENDIX, Document, Section
from bot.documents.reply import clip
from bot.documents.tokens import STOPWORDS, normal, stem, words

# A section's number as people type it: "3.8", "3-8", "3,8" (a decimal comma), "3.8.", "section 3.8", "§3.8".
NUMBER_RE = re.compile(r"^(?:(?:section|sec\.?|§)\s*)?(\d{1,2})(?:\s*[.,\-]\s*(\d{1,2}))?\.?$")
APPENDIX_RE = re.compile(r"^(?:appendix|app\.?)\s*([a-z])$")
# bm25's constants, and how much more a word of the title counts than one of the text.
K1, B, TITLE_WEIGHT = 1.2, 0.75, 2.5
# A short name in a question ("penalty for hce at competitive") adds this to its section's score, and a title
# the question holds whole ("is this slow play") this.
NAME_BONUS, TITLE_BONUS = 8.0, 4.0
# Appendices (the changes from the last version, quick references) repeat every section's words: they count less.
APPENDIX_WEIGHT = 0.5
SUGGESTIONS = 25
# The passage that leads an answer to words: a sentence and the ones after it, up to this many characters.
PASSAGE = 400
SENTENCE_RE = re.compile(r"(?<=[.!?])\s+(?=[A-Z“\"(])")


@dataclass(frozen=True, slots=True)
class Found:
    """A section found for a query, and how: "number", "name" (a title or short name) or "words"."""

    number: str
    how: str
    score: float = 0.0


def _stems(text: str) -> list[str]:
    return [stem(word) for word in words(text) if word not in STOPWORDS]


class SectionIndex:
    def __init__(self, document: Document, names: Mapping[str, tuple[str, ...]] | None = None) -> None:
        """``names``: other names of sections (short names, former titles) → the numbers they stand for."""
        self.document = document
        self.names: dict[str, tuple[str, ...]] = {}
        for section in document.sections:
            self._name(section.title, section.number)
            if "—" in section.title:  # "Game Play Error — Looking at Extra Cards" is "looking at extra cards" too
                self._name(section.title.rsplit("—", 1)[1], section.number)
        for name, numbers in (names or {}).items():
            known = tuple(number for number in numbers if document.get(number) is not None)
            if known and normal(name):
                self.names.setdefault(normal(name), known)
        # One-word names ("hce") count inside a question.
        self._word_names = {name: numbers for name, numbers in self.names.items() if " " not in name}
        self._titles = [Counter(_stems(section.title)) for section in document.sections]
        self._texts = [Counter(_stems(section.text())) for section in document.sections]
        self._lengths = [sum(counts.values()) for counts in self._texts]
        self._average = sum(self._lengths) / max(1, len(self._lengths)) or 1.0
        frequency: Counter[str] = Counter()
        # Which sections hold each word: a question's words are scored only where they stand.
        self._holding: dict[str, list[int]] = {}
        for row, (title, text) in enumerate(zip(self._titles, self._texts, strict=True)):
            held = set(title) | set(text)
            frequency.update(held)
            for word in held:
                self._holding.setdefault(word, []).append(row)
        # Each paragraph's words, for the one that best answers (read once, not per question).
        self._paragraphs: dict[str, list[tuple[str, frozenset[str]]]] = {
            section.number: [(paragraph, frozenset(_stems(paragraph))) for paragraph in section.paragraphs]
            for section in document.sections
        }
        total = len(document.sections)
        self._idf = {word: math.log(1 + (total - n + 0.5) / (n + 0.5)) for word, n in frequency.items()}

    def _name(self, title: str, number: str) -> None:
        key = normal(title)
        if key:
            self.names.setdefault(key, (number,))

    # ------------------------------------------------------------------ lookups

    def number(self, text: str) -> Section | None:
        """The section ``text`` numbers: "3.8", "3-8", "3,8", "3.8.", "section 3", "appendix b"."""
        number = asked_number(text)
        section = self.document.get(number) if number else None
        if section is None or number[0].isalpha() != (section.kind == APPENDIX):
            return None
        return section

    @staticmethod
    def asked(text: str) -> str:
        """The number ``text`` asks for ("3.8" for "3,8"), whether or not the document has it; "" for no number."""
        return asked_number(text)

    def named(self, text: str) -> tuple[str, ...]:
        """The sections a title or a short name stands for (several for a split infraction), or none."""
        return self.names.get(normal(text), ())

    def search(self, text: str, limit: int = 5) -> list[Found]:
        """Sections for a question in words, the best first."""
        stems = set(_stems(text))
        typed = f" {normal(text)} "
        scores: Counter[str] = Counter()
        for word in words(text):
            for number in self._word_names.get(word, ()):
                scores[number] += NAME_BONUS
        for name, numbers in self.names.items():
            if " " in name and f" {name} " in typed:
                for number in numbers:
                    scores[number] += TITLE_BONUS
        sections = self.document.sections
        for word in stems:
            idf = self._idf.get(word)
            for row in self._holding.get(word, ()):
                section = sections[row]
                tf = self._texts[row][word] + TITLE_WEIGHT * self._titles[row][word]
                norm = K1 * (1 - B + B * self._lengths[row] / self._average)
                weight = APPENDIX_WEIGHT if section.kind == APPENDIX else 1.0
                scores[section.number] += weight * idf * tf * (K1 + 1) / (tf + norm)
        return [Found(number, "words", score) for number, score in scores.most_common(limit)]

    def best_passage(self, section: Section, text: str) -> str:
        """What of ``section`` answers the question: the paragraph holding most of its rarer words (the first if
        none does), and of a long paragraph (a PDF's paragraphs run together where a line ends at the margin) the
        sentence holding most of them, with the ones after it up to :data:`PASSAGE` characters."""
        stems = set(_stems(text))

        def score(words_of: frozenset[str]) -> float:
            return sum(self._idf.get(word, 0.0) for word in stems & words_of)

        scored = [(score(words_of), paragraph) for paragraph, words_of in self._paragraphs.get(section.number, ())]
        if not scored:
            return ""
        best_score, best = max(scored, key=lambda item: item[0])
        best = best if best_score else scored[0][1]
        if len(best) <= PASSAGE:
            return best
        sentences = SENTENCE_RE.split(best)
        start = max(range(len(sentences)), key=lambda i: score(frozenset(_stems(sentences[i])))) if best_score else 0
        passage = sentences[start]
        for sentence in sentences[start + 1 :]:
            if len(passage) + 1 + len(sentence) > PASSAGE:
                break
            passage = f"{passage} {sentence}"
        return passage

    # ------------------------------------------------------------------ completion

    def autocomplete(self, current: str) -> list[tuple[str, str]]:
        """Up to 25 (name, value) choices: sections whose number starts with what is typed, then those whose title
        or short name does, then those whose title holds it."""
        typed = normal(current)
        sections = self.document.sections
        if not typed:
            numbers = [s.number for s in sections if s.kind != "chapter"]
        else:
            number = asked_number(current) or current.strip().lower()  # "3,8" is 3.8
            by_number = [s.number for s in sections if s.number.lower().startswith(number.lower())]
            named = [n for name, found in self.names.items() if name.startswith(typed) for n in found]
            holding = [s.number for s in sections if typed in normal(s.title)]
            numbers = list(dict.fromkeys([*by_number, *named, *holding]))
        picked = [self.document.by_number[number] for number in numbers[:SUGGESTIONS]]
        return [(clip(choice_name(section)), section.number) for section in picked]


def asked_number(text: str) -> str:
    """The section number ``text`` asks for as a document writes it ("3.8", "4", "B"), whether or not there is such a
    section; "" when ``text`` is not a number."""
    cleaned = " ".join(text.lower().split())
    if match := NUMBER_RE.match(cleaned):
        return str(int(match.group(1))) + (f".{int(match.group(2))}" if match.group(2) else "")
    if match := APPENDIX_RE.match(cleaned):
        return match.group(1).upper()
    return ""


def choice_name(section: Section, *, badge: bool = True) -> str:
    """ "2.2 Looking at Extra Cards · Warning": a section on one line, its badge after it (unless not ``badge``)."""
    title = section.title
    if "—" in title and len(title.rsplit("—", 1)[1].split()) > 1:  # "Looking at Extra Cards", not "Minor"
        title = title.rsplit("—", 1)[1].strip()
    heading = f"Appendix {section.number} {title}" if section.kind == APPENDIX else f"{section.number} {title}"
    return f"{heading} · {section.badge}" if section.badge and badge else heading
