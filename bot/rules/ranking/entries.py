"""The entries a question is ranked over (every rule with text, every glossary entry) and their word statistics.

Each entry is a row: its kind, its key (a rule number or a glossary term), the title it stands under and its
text. The statistics (which word stems each row holds, how rare each stem is, which words stand next to each
other, what surrounds a row) are built once, on first use or by :meth:`Entries.warm`.
"""

from __future__ import annotations

import functools
import math
import re
import sqlite3
import threading
from array import array
from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Mapping
from itertools import chain

from wordfreq import zipf_frequency

from bot.documents import STOPWORDS, Phrasing, stem, words
from bot.rules.ranking.masks import StemMasks
from bot.rules.text import Document, Rule
from bot.rules.words import expand, normalise

# What kind of entry a row is.
RULE, SUBRULE, FIRST, GLOSSARY = 0, 1, 2, 3

# What a question asks for, and what an entry that answers it says: "when …" is answered by a rule about
# timing, "can I …" by one that allows or forbids, "how many …" by one with a number, "who …" by one that
# names a player.
ASKS = (
    (
        re.compile(r"\b(?:when|how long|until|at what point|what time|timing)\b", re.IGNORECASE),
        re.compile(
            r"\b(?:whenever|each time|at the beginning|at the end|until|before|after|as soon as|the next time)\b"
        ),
    ),
    (
        re.compile(r"\b(?:can|cant|can't|cannot|may|allowed|able|legal|possible|am i|is it)\b", re.IGNORECASE),
        re.compile(r"\b(?:can|can’t|can't|cannot|may|only|unless|legal|illegal|allowed)\b"),
    ),
    (
        re.compile(r"\b(?:how many|how much|number of|maximum|minimum|limit)\b", re.IGNORECASE),
        re.compile(r"\b(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|twenty|forty|number|maximum|minimum)\b"),
    ),
    (
        re.compile(r"\b(?:who|whose|which player)\b", re.IGNORECASE),
        re.compile(r"\b(?:controller|owner|active player|nonactive|player who|chooses|controls|owns)\b"),
    ),
)

# The few values of Entries.says, each kept once.
_SAYS: dict[tuple[bool, ...], tuple[bool, ...]] = {}

# "untapped" is about being tapped, "unblocked" about blocking: such an entry also holds the word's base.
# Words that only look negated ("unless", the keyword "unearth") keep their own meaning.
NOT_NEGATED = frozenset("unless unearth until under unit unite union unique universe uncommon".split())


def negatable(vocabulary: Counter[str]) -> frozenset[str]:
    """The words of ``vocabulary`` that negate another of its words ("untapped": "tapped")."""
    return frozenset(
        word
        for word in vocabulary
        if word.startswith("un") and len(word) >= 5 and word not in NOT_NEGATED and vocabulary.get(word[2:])
    )


@functools.lru_cache(maxsize=65536)
def phrase_stems(text: str) -> tuple[str, ...]:
    """A phrasing's word stems, read as a question's are (chat spellings and abbreviations written out); each
    text is read once per process, however many editions are indexed."""
    return tuple(stem(word) for word in expand(normalise(text)) if word and word not in STOPWORDS)


@functools.lru_cache(maxsize=65536)
def phrase_words(text: str) -> tuple[str, ...]:
    """A phrasing's words, for the vocabulary typos are corrected to; read once per process, as its stems are."""
    return tuple(word for word in words(normalise(text)) if word.isalpha())


def shared_pairs(pairs: array, row: int, wanted: list[tuple[int, frozenset[int]]]) -> int:
    """How many of the ``wanted`` pairs the sorted ``pairs`` of ``row`` hold, each pair with the rows that hold
    both its words (the only ones that may hold it)."""
    found = 0
    for value, rows in wanted:
        if row in rows:
            place = bisect_left(pairs, value)
            found += place < len(pairs) and pairs[place] == value
    return found


class Entries:
    """The rows a question is ranked over, a full-text index of them, and their word statistics; each row has two
    fields, its text and its phrasings (the words players use for it, see :mod:`bot.documents.phrasings`)."""

    def __init__(
        self,
        document: Document,
        context_title: Callable[[Rule], str],
        phrasings: Mapping[str, Phrasing] | None = None,
    ) -> None:
        self.document = document
        self.phrasings = dict(phrasings or {})
        self.lock = threading.Lock()
        self.db = sqlite3.connect(":memory:", check_same_thread=False)
        self.db.execute(
            "CREATE VIRTUAL TABLE docs USING fts5(title, body, tokenize='porter unicode61 remove_diacritics 2')"
        )
        self.docs: list[tuple[str, str, str, str]] = []  # rowid - 1 → (kind, key, title, body)
        for rule in document.entries:
            if rule.kind in ("section", "heading") or rule.is_titled:
                continue
            self.docs.append(("rule", rule.number, context_title(rule), "\n".join([rule.text, *rule.examples])))
        for entry in document.glossary:
            self.docs.append(("glossary", entry.term, entry.term, entry.definition))
        self.db.executemany("INSERT INTO docs(title, body) VALUES (?, ?)", [(d[2], d[3]) for d in self.docs])
        self.db.commit()
        self.rule_row = {key: row for row, (kind, key, _t, _b) in enumerate(self.docs) if kind == "rule"}
        self.ready = False

    def row_of(self, key: str) -> int | None:
        """The row a phrasing of ``key`` belongs to: the entry itself, or for a rule shown with its subrules (702.19
        Trample) or a heading, its first entry (702.19a), whose answer shows the whole rule."""
        row = self.rule_row.get(key)
        if row is not None:
            return row
        for rule in self.document.descendants(key):
            row = self.rule_row.get(rule.number)
            if row is not None:
                return row
        return None

    def warm(self) -> None:
        """Build the statistics (about 0.2 s; done once)."""
        with self.lock:
            if self.ready:
                return
            self._build()
            self.ready = True

    def _build(self) -> None:
        found_in = [words(f"{title} {body}") for _kind, _key, title, body in self.docs]
        frequency: Counter[str] = Counter(chain.from_iterable(found_in))
        negating = negatable(frequency)
        stems: list[frozenset[str]] = []  # each row's word stems, kept as bit masks (see masks.py)
        self.title_stems: list[frozenset[str]] = []
        self.lengths: list[int] = []
        titles: dict[str, frozenset[str]] = {}
        self.pairs: list[array] = []
        for (_kind, _key, title, _body), found in zip(self.docs, found_in, strict=True):
            self.lengths.append(len(found))
            stems_here = list(map(stem, found))
            here = frozenset(stems_here)
            negated = negating.intersection(found)
            stems.append(here.union(stem(word[2:]) for word in negated) if negated else here)
            # Which words stand next to each other, stop words aside; kept by hash in a sorted array (an eighth
            # of the memory of a set of the pairs), and only ever compared in this process.
            kept = [s for word, s in zip(found, stems_here, strict=True) if word not in STOPWORDS]
            self.pairs.append(array("q", sorted(set(map(hash, zip(kept, kept[1:], strict=False))))))
            title_stems = titles.get(title)
            if title_stems is None:  # a few hundred titles stand over 3,000 entries
                title_stems = titles[title] = frozenset(stem(word) for word in words(title))
            self.title_stems.append(title_stems)
        self._build_phrasings(frequency)
        document_frequency: Counter[str] = Counter()
        for held, phrased in zip(stems, self.phrase_stems, strict=True):
            document_frequency.update(held | phrased)
        total = len(self.docs)
        self.document_frequency = document_frequency
        self.idf = {s: math.log(1 + total / count) for s, count in document_frequency.items()}
        self.max_idf = math.log(1 + total)
        self.masks = StemMasks(stems, self.lengths)
        self.phrase_masks = StemMasks(self.phrase_stems, [len(found) for found in self.phrase_stems])
        self.ancestors: list[tuple[str, ...]] = []
        self.row_kind: list[int] = []
        self.variant: list[float] = []
        for kind, key, _title, _body in self.docs:
            if kind == "glossary":
                self.ancestors.append(())
                self.row_kind.append(GLOSSARY)
                self.variant.append(0.0)
                continue
            rule = key.rstrip("abcdefghijklmnopqrstuvwxyz")
            head = key.split(".")[0]
            self.ancestors.append(tuple(dict.fromkeys((key, rule, head, head[0]))))
            self.row_kind.append(SUBRULE if key != rule else FIRST if key.endswith(".1") else RULE)
            self.variant.append(1.0 if key[:1] in "89" else 0.0)
        # What surrounds an entry (its rule's text for a subrule, its section's title for a rule).
        self.context_stems: list[frozenset[str]] = []
        contexts: dict[str, frozenset[str]] = {}
        self.length: list[float] = []
        self._says: list[tuple[bool, ...] | None] = [None] * len(self.docs)
        for (kind, key, title, _body), length in zip(self.docs, self.lengths, strict=True):
            around = title
            if kind == "rule":
                rule = self.document.get(key)
                parent = self.document.get(rule.parent or "") if rule is not None else None
                if parent is not None:
                    around = f"{title} {parent.text} {self.document.contents.get(key.split('.')[0], '')}"
            context = contexts.get(around)
            if context is None:  # the subrules of one rule share theirs
                context = contexts[around] = frozenset(stem(word) for word in words(around))
            self.context_stems.append(context)
            self.length.append(math.log(1 + length) / 5)
        zipf_frequency("rule", "en")  # loads the English word table (about 0.1 s, once) now, not mid-question

    def _build_phrasings(self, frequency: Counter[str]) -> None:
        """Each row's phrasing field: the stems of its words and asks, and each ask's stems apart (a question may
        be asked much as one of them is). Their words join the vocabulary typos are corrected to."""
        empty: frozenset[str] = frozenset()
        self.phrase_stems: list[frozenset[str]] = [empty] * len(self.docs)
        self.ask_stems: list[tuple[tuple[str, ...], ...]] = [()] * len(self.docs)
        self.vocabulary = Counter(frequency)
        self.placed: dict[str, int] = {}
        self.unplaced: list[str] = []
        for key, phrasing in sorted(self.phrasings.items()):
            row = self.row_of(key)
            if row is None:
                self.unplaced.append(key)  # a rule this edition lacks (scripts/check_phrasings.py follows it)
                continue
            self.placed[key] = row
            for text in phrasing.texts:
                self.vocabulary.update(phrase_words(text))
            found = [frozenset(phrase_stems(text)) for text in phrasing.texts]
            self.phrase_stems[row] = self.phrase_stems[row].union(*found)
            # Each ask as a tuple, in the order its set would give: a third of the memory, the same sums.
            self.ask_stems[row] += tuple(tuple(ask) for ask in found[len(phrasing.words) :] if ask)
        self.frequency = frequency
        self.phrasings = {}  # placed; no longer needed

    def says(self, row: int) -> tuple[bool, ...]:
        """Whether the row says each thing a question may ask for (:data:`ASKS`): worked out for the rows a
        question ranks, when it first ranks them."""
        found = self._says[row]
        if found is None:
            text = self.docs[row][3].lower()
            said = tuple(says.search(text) is not None for _asks, says in ASKS)
            found = self._says[row] = _SAYS.setdefault(said, said)
        return found

    def df_share(self, stem_: str) -> float:
        """The share of the rows holding ``stem_``."""
        return self.document_frequency.get(stem_, 0) / len(self.docs)

    def matching(self, query: str, limit: int | None = None, *, ranked: bool = False) -> list[int]:
        """The rows an FTS5 ``query`` matches (best first by bm25, a word in the title counting four times, when
        ``ranked``)."""
        sql = "SELECT rowid FROM docs WHERE docs MATCH ?"
        parameters: tuple = (query,)
        if ranked:
            sql += " ORDER BY bm25(docs, 4.0, 1.0) LIMIT ?"
            parameters = (query, limit or len(self.docs))
        with self.lock:
            rows = self.db.execute(sql, parameters).fetchall()
        return [rowid - 1 for (rowid,) in rows]

    def close(self) -> None:
        self.db.close()
