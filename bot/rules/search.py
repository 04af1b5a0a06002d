"""Ranking rules and glossary entries for a question typed in chat, and knowing when nothing fits.

Candidates are the entries holding the most of the question's words (see :mod:`bot.rules.masks`) and
the entries of the topics the question names; they are ranked with a bm25-like score and with what a
judge knows about the document: the topic's own rule (its title, the glossary term that points to it) comes before rules
that merely mention the words, whole rules before side subrules, and the variant and multiplayer
rules (800–999) only when the question is about them. A question whose words the best candidate
does not cover gets no answer presented as one ("no confident match").
"""

from __future__ import annotations

import math
import re
import sqlite3
import threading
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from itertools import chain

from rapidfuzz import process
from rapidfuzz.distance import OSA
from wordfreq import zipf_frequency

from bot.rules.document import Document, Rule
from bot.rules.masks import StemMasks
from bot.rules.query import (
    GENERIC,
    NUMBER_WORDS,
    OFF_TOPIC,
    OFF_TOPIC_RE,
    SPECIFIC,
    STOPWORDS,
    VARIANT_WORDS,
    expand,
    stem,
    words,
)
from bot.rules.ranker import (
    FIRST,
    GATE_THRESHOLD,
    GLOSSARY,
    RULE,
    SUBRULE,
    SURE,
    Associations,
    believed,
    load_associations,
    score,
    share,
)

CANDIDATES = 30
# Words in more than this share of the entries ("card", "player") only rank, they don't select candidates.
COMMON = 0.08
REFERENCE_RE = re.compile(r"\b(\d{3}(?:\.\d+[a-z]?)?)(?![\d.]*\d)|\bsection (\d)\b")
# A question whose main words name a keyword's rule ("protection from red") is answered with that rule.
KEYWORD_SHARE = 0.5
OBSOLETE_RE = re.compile(r"\s*\(obsolete\)\s*$", re.IGNORECASE)
# How much each signal counts (see rank()); tuned on the rules' structure, not on any one question.
LINKED_DOCS = 30
# The words of a named glossary term's definition that find entries speaking of it in other words: not the
# commonest ones, and counting this much of the question's own words.
MEANING_COMMON, MEANING_WEIGHT, MEANING_CANDIDATES = 0.05, 0.5, 10
# A word the rules never use weighs this much of the rarest word's weight: it matches no entry, so it only
# lowers how much of the question an answer covers (chat rarely does; a message about something else often does).
UNKNOWN_WEIGHT = 1.0
# A word seen with a section once in the tuning questions says less than one seen with it every time.
ASSOCIATION_PRIOR = 2.0
# "What happens if …" asks for a consequence, which the game states as a state-based action (704).
HAPPENS_RE = re.compile(r"\bwhat happens\b|\bhappens? (?:if|when|to)\b|\bwhat if\b", re.IGNORECASE)
CONSEQUENCE_SECTION, CONSEQUENCE_PRIOR = "704", 0.25
# How much more a word in an entry's title counts than one in its text, as FTS5's bm25(docs, 4.0, 1.0) would.
TITLE_BM25 = 3.0
# A question opens with one of these words more often than chat does.
OPENS_AS_QUESTION_RE = re.compile(
    r"^\W*(?:can|could|does|do|did|is|are|was|were|what|whats|what's|when|where|how|if|why|who|whose|which|will|"
    r"would|should|may|must|has|have)\b",
    re.IGNORECASE,
)
# Counting a question's topic words stops here: a long question is as much a question as a longer one.
GATE_TERMS = 12
# Word frequencies in everyday English (wordfreq's Zipf scale) reach about this: "the" is 7.7.
ZIPF_TOP = 8.0
# An entry holding this much of the question (by rarity) holds all of it, rounding aside.
WHOLE_COVER = 0.999
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


@dataclass(frozen=True, slots=True)
class Hit:
    kind: str  # "rule" or "glossary"
    key: str  # a rule number or a glossary term
    score: float


@dataclass(frozen=True, slots=True)
class Asked:
    """What the text as a whole looks like, whichever entry answers it (see :func:`gate_values`)."""

    terms: int  # how many topic words it holds
    unknown: float  # the share of them the rules never use
    mark: bool  # it holds a question mark
    asks: bool  # it opens as a question does ("can", "does", "what", "if" …)
    rarest: float  # the rarity of its rarest word the rules use, 1 for a word in a single entry
    jargon: float  # how rare in everyday English its rarest word the rules use is, 1 for a word only games use


@dataclass(frozen=True, slots=True)
class Candidate:
    row: int
    cover: float  # the share of the question's words (by rarity) the entry holds
    in_topic: bool  # the entry belongs to a rule the question names
    off_topic: bool  # the question is chat about the game, not about its rules
    asked: Asked


def gate_values(best: Candidate, scores: list[float]) -> tuple[float, ...]:
    """The values :func:`bot.rules.ranker.believed` weighs to tell a rules question its best entry answers
    from a message about something else (see ranker.GATE)."""
    asked = best.asked
    whole = 1.0 if best.cover >= WHOLE_COVER else 0.0
    # Words typed as a search, without a question's phrasing, are judged by what they are alone.
    plain = 0.0 if asked.mark or asked.asks else 1.0
    return (
        best.cover,
        whole,
        1.0 if best.in_topic else 0.0,
        min(asked.terms, GATE_TERMS) / GATE_TERMS,
        asked.unknown,
        1.0 if asked.mark else 0.0,
        1.0 if asked.asks else 0.0,
        asked.rarest,
        asked.jargon,
        share(scores),
        plain,
        plain * best.cover,
        plain * whole,
        plain * asked.unknown,
        plain * asked.jargon,
    )


@dataclass
class Ranking:
    hits: list[Hit]
    confident: bool
    topic: Hit | None = None  # the question names a glossary term or a rule title outright
    sure: bool = True  # the best entry stands out from the others (see ranker.SURE)


def _alt(stem_: str) -> str:
    return NUMBER_WORDS.get(stem_, stem_)


GENERIC_STEMS = frozenset(stem(word) for word in GENERIC)


def is_under(number: str, ref: str) -> bool:
    """Whether rule ``number`` is ``ref`` or part of it (121.4 is under 121, 702.19c under 702.19)."""
    if number == ref:
        return True
    return (
        number.startswith(ref) and number[len(ref)] in ".abcdefghijklmnopqrstuvwxyz"
        if len(number) > len(ref)
        else False
    )


# "untapped" is about being tapped, "unblocked" about blocking: such an entry also holds the word's base.
# Words that only look negated ("unless", the keyword "unearth") keep their own meaning.
NOT_NEGATED = frozenset("unless unearth until under unit unite union unique universe uncommon".split())


def negated_bases(found: list[str], vocabulary: Counter[str]) -> set[str]:
    return {
        stem(word[2:])
        for word in set(found)
        if word.startswith("un") and len(word) >= 5 and word not in NOT_NEGATED and vocabulary.get(word[2:])
    }


def name_stems(name: str) -> tuple[str, ...]:
    return tuple(sorted({stem(word) for word in words(OBSOLETE_RE.sub("", name)) if word not in STOPWORDS}))


class Searcher:
    def __init__(
        self, document: Document, context_title: Callable[[Rule], str], associations: Associations | None = None
    ) -> None:
        self.document = document
        # Which sections and rules answered the tuning questions holding each word (see bot/rules/ranker.py).
        self.associations = load_associations() if associations is None else associations
        self._context_title = context_title
        self._lock = threading.Lock()
        self._db = sqlite3.connect(":memory:", check_same_thread=False)
        self._db.execute(
            "CREATE VIRTUAL TABLE docs USING fts5(title, body, tokenize='porter unicode61 remove_diacritics 2')"
        )
        self._docs: list[tuple[str, str, str, str]] = []  # rowid - 1 → (kind, key, title, body)
        for rule in document.entries:
            if rule.kind in ("section", "heading") or rule.is_titled:
                continue
            self._docs.append(("rule", rule.number, context_title(rule), "\n".join([rule.text, *rule.examples])))
        for entry in document.glossary:
            self._docs.append(("glossary", entry.term, entry.term, entry.definition))
        self._db.executemany("INSERT INTO docs(title, body) VALUES (?, ?)", [(d[2], d[3]) for d in self._docs])
        self._db.commit()
        self._rule_row = {key: row for row, (kind, key, _t, _b) in enumerate(self._docs) if kind == "rule"}
        self._under_cache: dict[str, list[int]] = {}
        self._ready = False

    # ------------------------------------------------------------------ statistics, built on first use

    def warm(self) -> None:
        """Word statistics, the typo vocabulary and the topic names (about 0.3 s; done once)."""
        with self._lock:
            if self._ready:
                return
            found_in = [words(f"{title} {body}") for _kind, _key, title, body in self._docs]
            frequency: Counter[str] = Counter(chain.from_iterable(found_in))
            self._doc_stems: list[frozenset[str]] = []
            self._title_stems: list[frozenset[str]] = []
            lengths: list[int] = []
            titles: dict[str, frozenset[str]] = {}
            self._doc_pairs: list[frozenset[int]] = []
            for (_kind, _key, title, _body), found in zip(self._docs, found_in, strict=True):
                lengths.append(len(found))
                stems_here = list(map(stem, found))
                self._doc_stems.append(frozenset(stems_here) | negated_bases(found, frequency))
                # Which words stand next to each other, stop words aside; kept by hash: a third of the memory of
                # the pairs themselves, and only ever compared in this process.
                kept = [s for word, s in zip(found, stems_here, strict=True) if word not in STOPWORDS]
                self._doc_pairs.append(frozenset(map(hash, zip(kept, kept[1:], strict=False))))
                title_stems = titles.get(title)
                if title_stems is None:  # a few hundred titles stand over 3,000 entries
                    title_stems = titles[title] = frozenset(stem(word) for word in words(title))
                self._title_stems.append(title_stems)
            document_frequency: Counter[str] = Counter()
            for stems in self._doc_stems:
                document_frequency.update(stems)
            total = len(self._docs)
            self._document_frequency = document_frequency
            self._idf = {s: math.log(1 + total / count) for s, count in document_frequency.items()}
            self._max_idf = math.log(1 + total)
            self._masks = StemMasks(self._doc_stems, lengths)
            self._vocabulary = {word for word in frequency if word.isalpha()}
            by_letter: dict[str, list[str]] = {}
            for word, _count in frequency.most_common():
                if word.isalpha() and len(word) >= 3:
                    by_letter.setdefault(word[0], []).append(word)
            self._by_letter = by_letter
            self._names = self._build_names()
            self._names_by_stem: dict[str, list[tuple[str, ...]]] = {}
            for key in self._names:
                for part in key:
                    self._names_by_stem.setdefault(part, []).append(key)
            self._entries = {entry.term: entry for entry in self.document.glossary}
            # A glossary term's meaning in the rules' own words ("dies": put into a graveyard from the
            # battlefield), to find the entries that speak of it without naming it.
            self._meaning: dict[str, frozenset[str]] = {}
            for entry in self.document.glossary:
                own = set(name_stems(entry.term))
                first = REFERENCE_RE.split(entry.definition.split("\n")[0])[0]
                self._meaning[entry.term] = frozenset(
                    s
                    for s in (stem(word) for word in words(first) if word not in STOPWORDS)
                    if s not in own and document_frequency.get(s, 0) / total <= MEANING_COMMON
                )
            self._ancestors: list[tuple[str, ...]] = []
            self._row_kind: list[int] = []
            self._variant: list[float] = []
            for kind, key, _title, _body in self._docs:
                if kind == "glossary":
                    self._ancestors.append(())
                    self._row_kind.append(GLOSSARY)
                    self._variant.append(0.0)
                    continue
                rule = key.rstrip("abcdefghijklmnopqrstuvwxyz")
                head = key.split(".")[0]
                self._ancestors.append(tuple(dict.fromkeys((key, rule, head, head[0]))))
                self._row_kind.append(SUBRULE if key != rule else FIRST if key.endswith(".1") else RULE)
                self._variant.append(1.0 if key[:1] in "89" else 0.0)
            # What surrounds an entry (its rule's text for a subrule, its section's title for a rule).
            self._context_stems: list[frozenset[str]] = []
            contexts: dict[str, frozenset[str]] = {}
            self._length: list[float] = []
            lowered = [body.lower() for _kind, _key, _title, body in self._docs]
            self._says: list[tuple[bool, ...]] = [
                tuple(says.search(text) is not None for _asks, says in ASKS) for text in lowered
            ]
            for (kind, key, title, _body), length in zip(self._docs, lengths, strict=True):
                around = title
                if kind == "rule":
                    rule = self.document.get(key)
                    parent = self.document.get(rule.parent or "") if rule is not None else None
                    if parent is not None:
                        around = f"{title} {parent.text} {self.document.contents.get(key.split('.')[0], '')}"
                context = contexts.get(around)
                if context is None:  # the subrules of one rule share theirs
                    context = contexts[around] = frozenset(stem(word) for word in words(around))
                self._context_stems.append(context)
                self._length.append(math.log(1 + length) / 5)
            zipf_frequency("rule", "en")  # loads the English word table (about 0.1 s, once) now, not mid-question
            self._ready = True

    @property
    def idf(self) -> dict[str, float]:
        """Each word stem's rarity in the rules (its inverse document frequency)."""
        self.warm()
        return self._idf

    def _build_names(self) -> dict[tuple[str, ...], Hit]:
        """Glossary terms (and each part of a comma-joined one) and rule titles, keyed by their word stems."""
        names: dict[tuple[str, ...], Hit] = {}
        parts: list[tuple[tuple[str, ...], Hit]] = []
        for entry in self.document.glossary:
            hit = Hit("glossary", entry.term, 0.0)
            names.setdefault(name_stems(entry.term), hit)
            if "," in entry.term:
                parts += [(name_stems(part), hit) for part in entry.term.split(",")]
        for rule in self.document.entries:
            if rule.kind != "section" and rule.is_titled:
                names.setdefault(name_stems(rule.text), Hit("rule", rule.number, 0.0))
        for key, hit in parts:
            names.setdefault(key, hit)
        for key, hit in list(names.items()):
            names.setdefault(tuple(part for part in key if part not in GENERIC_STEMS), hit)
        names.pop((), None)
        return names

    # ------------------------------------------------------------------ the question's words

    def correct(self, word: str) -> str:
        """A word the rules never use, corrected to a close one they do ("frist" → "first"), else itself."""
        # Short words are too often another real word ("nice" is one letter from "nine").
        if word in self._vocabulary or len(word) < 5 or not word.isalpha():
            return word
        candidates = self._by_letter.get(word[0], [])
        if word[1:2]:
            # A typo in the first letter is rarer; also try words that share the second letter first.
            candidates = candidates + [w for w in self._by_letter.get(word[1], []) if w[1:2] == word[0]]
        cutoff = 1 if len(word) < 8 else 2
        found = process.extractOne(word, candidates, scorer=OSA.distance, score_cutoff=cutoff)
        return found[0] if found else word

    def terms(self, text: str) -> list[str]:
        """The question's topic words, rewritten and corrected, in order (no stop words)."""
        self.warm()
        out: list[str] = []
        found = expand(text)
        for i, word in enumerate(found):
            if word in STOPWORDS or not word:
                continue
            # Two words the rules write as one ("death touch" is deathtouch, "life link" lifelink).
            joined = word + found[i + 1] if i + 1 < len(found) and found[i + 1] not in STOPWORDS else ""
            if joined in self._vocabulary:
                word, found[i + 1] = joined, ""
            word = self.correct(word)
            if word not in STOPWORDS and word not in out:
                out.append(word)
        return out

    # ------------------------------------------------------------------ ranking

    def topic(self, stems: tuple[str, ...]) -> Hit | None:
        """The glossary term or rule title that is exactly what the question names ("how does trample work")."""
        return self._names.get(tuple(sorted(set(stems))))

    def rank(self, text: str, limit: int = 6, *, topics: bool = True) -> Ranking:
        scored = self.candidates(text, topics=topics)
        if isinstance(scored, Ranking):
            return scored
        ranked = sorted(((score(features), candidate) for candidate, features in scored), key=lambda item: -item[0])
        best = ranked[0][1]
        scores = [value for value, _c in ranked]
        confident = not best.off_topic and believed(gate_values(best, scores)) >= GATE_THRESHOLD
        hits = []
        for value, candidate in ranked[:limit]:
            kind, key, _title, _body = self._docs[candidate.row]
            hits.append(Hit(kind, key, value))
        return Ranking(hits, confident, sure=confident and share(scores) >= SURE)

    def candidates(self, text: str, *, topics: bool = True) -> Ranking | list[tuple[Candidate, tuple[float, ...]]]:
        """The entries that may answer ``text``, each with its features (see :mod:`bot.rules.ranker`), or a
        finished :class:`Ranking` when the question names its topic outright or holds nothing to rank."""
        terms = self.terms(text)
        if not terms:
            return Ranking([], False)
        stems = [stem(word) for word in terms]
        raw = set(words(text))
        topic = self.topic(tuple(stems)) if topics and not raw & SPECIFIC else None
        if topic is not None:
            return Ranking([topic], True, topic)
        variant = any(word in VARIANT_WORDS for word in terms)
        asks = [i for i, (asking, _says) in enumerate(ASKS) if asking.search(text)]
        consequence = HAPPENS_RE.search(text) is not None
        off_topic = bool(raw & OFF_TOPIC) or OFF_TOPIC_RE.search(text.lower()) is not None
        weights = {s: self._idf.get(s, self._max_idf * UNKNOWN_WEIGHT) for s in stems}
        total = sum(weights.values())
        known = [word for word, s in zip(terms, stems, strict=True) if s in self._idf]
        if not known:
            return Ranking([], False)
        asked = Asked(
            len(terms),
            1 - len(known) / len(terms),
            "?" in text,
            OPENS_AS_QUESTION_RE.search(text) is not None,
            max(self._idf[s] for s in stems if s in self._idf) / self._max_idf,
            max(1 - zipf_frequency(word, "en") / ZIPF_TOP for word in known),
        )
        linked = self._linked_rules(stems, weights)
        meaning = self._meanings(stems, weights)
        sections, rules = self._associated(stems, weights)
        if topics and not raw & SPECIFIC and not off_topic:
            keyword = self._keyword(linked)
            if keyword is not None:
                return Ranking([keyword], True, keyword)
        weighted = [(s, _alt(s), weight / total) for s, weight in weights.items()]
        # Words of the question that stand next to each other in an entry ("toughness 0") count extra.
        pairs = [
            (a, b)
            for a, b in zip(known, known[1:], strict=False)
            if min(self._df_share(stem(a)), self._df_share(stem(b))) <= COMMON
        ][:1]
        near: set[int] = set()
        if pairs:
            proximity = " OR ".join(f'NEAR("{a}" "{b}", 2)' for a, b in pairs)
            with self._lock:
                rows = self._db.execute("SELECT rowid FROM docs WHERE docs MATCH ?", (proximity,)).fetchall()
            near = {rowid - 1 for (rowid,) in rows}
        question_pairs = {
            hash((a, b)) for a, b in zip(stems, stems[1:], strict=False) if a in self._idf and b in self._idf
        }
        pair_weight = 1.0 / max(1, len(question_pairs))
        stem_set = set(weights)
        found = dict.fromkeys(self._masks.candidates(weighted, CANDIDATES))
        found.update(dict.fromkeys(self._linked_docs(linked)))
        if meaning:
            extra = [(s, s, weight * MEANING_WEIGHT) for s, weight in meaning.items()]
            found.update(dict.fromkeys(self._masks.candidates(weighted + extra, MEANING_CANDIDATES)))
        meaning_total = sum(meaning.values())
        if not found:
            return Ranking([], False)
        doc_stems, title_stems, norm = self._doc_stems, self._title_stems, self._masks.norm
        context_stems, doc_pairs = self._context_stems, self._doc_pairs
        covers: list[tuple[int, float, float, float, float]] = []
        for row in found:
            stems_here = doc_stems[row]
            cover = context = 0.0
            around = context_stems[row]
            for s, alternative, weight in weighted:
                if s in stems_here or alternative in stems_here:
                    cover += weight
                elif s in around:
                    context += weight
            if cover:
                # As bm25 with the title weighted four times (an entry under "Mana Abilities" is about them).
                titled = title_stems[row]
                title_cover = (
                    0.0 if titled.isdisjoint(stem_set) else sum(weight for s, _a, weight in weighted if s in titled)
                )
                covers.append((row, cover, (cover + TITLE_BM25 * title_cover) * norm[row], title_cover, context))
        if not covers:
            return Ranking([], False)
        bm25_scale = 1.0 / (max(item[2] for item in covers) or 1.0)
        ancestors, stems_of = self._ancestors, self._doc_stems
        out: list[tuple[Candidate, tuple[float, ...]]] = []
        for row, cover, bm25, title_cover, context in covers:
            share = 0.0
            if linked:
                for ancestor in ancestors[row]:
                    value = linked.get(ancestor)
                    if value is not None and value > share:
                        share = value
            kind_row = self._row_kind[row]
            phrases = len(question_pairs & doc_pairs[row]) * pair_weight if question_pairs else 0.0
            says = self._says[row]
            answers = sum(says[i] for i in asks) / len(asks) if asks else 0.0
            defined = (
                sum(weight for s, weight in meaning.items() if s in stems_of[row]) / meaning_total if meaning else 0.0
            )
            features = (
                bm25 * bm25_scale,
                cover,
                title_cover,
                1.0 if kind_row == SUBRULE else 0.0,
                1.0 if kind_row == GLOSSARY else 0.0,
                1.0 if kind_row == FIRST else 0.0,
                0.0 if variant else self._variant[row],
                1.0 if row in near else 0.0,
                share,
                1.0 if consequence and ancestors[row][-2:-1] == (CONSEQUENCE_SECTION,) else 0.0,
                context,
                phrases,
                self._length[row],
                answers,
                defined,
            )
            if len(ancestors[row]) > 2:
                features += (sections.get(ancestors[row][-2], 0.0), rules.get(ancestors[row][1], 0.0))
            else:
                features += (0.0, 0.0)
            out.append((Candidate(row, cover, share > 0, off_topic, asked), features))
        return out

    def related(self, text: str, limit: int) -> list[Hit]:
        """Entries holding the question's words, the most focused first (quick; for "see also")."""
        stems = [stem(word) for word in self.terms(text)]
        weights = {s: self._idf[s] for s in stems if s in self._idf}
        if not weights:
            return []
        total = sum(weights.values())
        weighted = [(s, _alt(s), weight / total) for s, weight in weights.items()]
        return [Hit(*self._docs[row][:2], 0.0) for row in self._masks.candidates(weighted, limit)]

    def fts(self, text: str, limit: int, *, any_word: bool = True) -> list[tuple[str, str]]:
        """Plain full-text search (bm25, a hit in the title counts more): all the words if any entry has
        them all, else (``any_word``) any of them. Without ``any_word`` it is a quick side search: words
        found everywhere ("cast", "spell") make it slow and tell nothing, so it needs a rarer one."""
        found = [word for word in words(text) if word not in STOPWORDS][:12]
        if not found:
            return []
        if not any_word:
            self.warm()
            if all(self._df_share(stem(word)) > COMMON for word in found):
                return []
        terms = ['"' + word + '"' for word in found]
        with self._lock:
            for joiner in (" ", " OR ") if any_word else (" ",):
                rows = self._db.execute(
                    "SELECT rowid FROM docs WHERE docs MATCH ? ORDER BY bm25(docs, 4.0, 1.0) LIMIT ?",
                    (joiner.join(terms), limit),
                ).fetchall()
                if rows or len(terms) == 1:
                    break
        return [self._docs[rowid - 1][:2] for (rowid,) in rows]

    def _keyword(self, linked: dict[str, float]) -> Hit | None:
        """The titled rule (a keyword such as 702.16 Protection) that most of the question names, if any."""
        best = max(linked.items(), key=lambda item: item[1], default=None)
        if best is None or best[1] < KEYWORD_SHARE:
            return None
        rule = self.document.get(best[0])
        if rule is None or rule.kind != "rule" or not rule.is_titled:
            return None
        return Hit("rule", rule.number, best[1])

    def _linked_docs(self, linked: dict[str, float]) -> list[int]:
        """The entries of the rules a named topic points to (601 → 601.1, 601.2, …), as candidates."""
        rows: list[int] = []
        for ref in sorted(linked, key=lambda ref: (-linked[ref], ref)):
            rows += self._rows_under(ref)
            if len(rows) >= LINKED_DOCS:
                break
        return rows[:LINKED_DOCS]

    def _rows_under(self, ref: str) -> list[int]:
        found = self._under_cache.get(ref)
        if found is None:
            found = []
            for number in [ref, *(rule.number for rule in self.document.descendants(ref))]:
                if (row := self._rule_row.get(number)) is not None:
                    found.append(row)
                    if len(found) >= LINKED_DOCS:
                        break
            with self._lock:
                self._under_cache[ref] = found
        return found

    def _df_share(self, stem_: str) -> float:
        return self._document_frequency.get(stem_, 0) / len(self._docs)

    def _associated(self, stems: list[str], weights: dict[str, float]) -> tuple[dict[str, float], dict[str, float]]:
        """How strongly the question's words point to each section (704) and rule (704.5), by how often the
        tuning questions holding them were answered there, each word weighted by its rarity."""
        sections: dict[str, float] = {}
        rules: dict[str, float] = {}
        total = sum(weights.values())
        for s in dict.fromkeys(stems):
            found = self.associations.get(s)
            if not found:
                continue
            share = weights[s] / total
            for out, counts in zip((sections, rules), found, strict=True):
                seen = sum(counts.values()) + ASSOCIATION_PRIOR
                for key, count in counts.items():
                    out[key] = out.get(key, 0.0) + share * count / seen
        return sections, rules

    def _meanings(self, stems: list[str], weights: dict[str, float]) -> dict[str, float]:
        """The words defining the glossary terms the question names, not already in it, each weighted by its
        rarity and scaled to the share of the question the term's name covers."""
        present = set(stems)
        total = sum(weights.values())
        out: dict[str, float] = {}
        for key in self._named(present):
            hit = self._names[key]
            if hit.kind != "glossary":
                continue
            share = sum(weights[s] for s in key) / total
            for s in sorted(self._meaning.get(hit.key, ())):
                if s not in present:
                    out[s] = max(out.get(s, 0.0), share * self._idf.get(s, 0.0) / self._max_idf)
        return out

    def _linked_rules(self, stems: list[str], weights: dict[str, float]) -> dict[str, float]:
        """Rules that a glossary term or rule title named in the question points to ("library" → 401),
        each with the share of the question (by word rarity) that the name covers."""
        linked: dict[str, float] = {}
        present = set(stems)
        total = sum(weights.values())
        for key in self._named(present):
            share = sum(weights[s] for s in key) / total
            hit = self._names[key]
            refs = [hit.key] if hit.kind == "rule" else []
            if hit.kind == "glossary" and (entry := self._entries.get(hit.key)) is not None:
                refs = [rule or section for rule, section in REFERENCE_RE.findall(entry.definition)]
            for ref in refs:
                linked[ref] = max(linked.get(ref, 0.0), share)
        return linked

    def _named(self, present: set[str]) -> list[tuple[str, ...]]:
        """The glossary terms and rule titles (as keys of ``_names``) all of whose word stems are in ``present``,
        in a fixed order."""
        keys = {key for s in present for key in self._names_by_stem.get(s, ())}
        return sorted(key for key in keys if present.issuperset(key))

    def close(self) -> None:
        self._db.close()
