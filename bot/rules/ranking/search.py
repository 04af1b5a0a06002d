"""Ranking rules and glossary entries for a question typed in chat, and knowing when nothing fits.

Candidates are the entries holding the most of the question's words (see :mod:`bot.rules.ranking.masks`) and
the entries of the topics the question names (see :mod:`bot.rules.ranking.topics`); they are ranked with a weighted
sum of features (see :mod:`bot.rules.ranking.ranker`): a bm25-like score and what a judge knows about the document:
the topic's own rule comes before rules that merely mention the words, whole rules before side subrules, and
the variant and multiplayer rules (800–999) only when the question is about them.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Mapping
from pathlib import Path

from wordfreq import zipf_frequency

from bot.documents import STOPWORDS, Phrasing, load_phrasings, stem, words
from bot.rules.ranking import confidence
from bot.rules.ranking.entries import GLOSSARY, SUBRULE, Entries
from bot.rules.ranking.features import (
    COMMON,
    CardSignals,
    Learnt,
    Question,
    Signals,
    associated,
    card_learnt,
    features,
)
from bot.rules.ranking.hits import Asked, Candidate, Hit, Ranking
from bot.rules.ranking.interactions import proposed
from bot.rules.ranking.ranker import (
    CARD_WEIGHTS,
    GATE_THRESHOLD,
    WEIGHTS,
    Associations,
    believed,
    gate_values,
    load_associations,
    score,
    share,
)
from bot.rules.ranking.topics import Topics
from bot.rules.text import Document, Rule
from bot.rules.words import NUMBER_WORDS, OFF_TOPIC, OFF_TOPIC_RE, SPECIFIC, Vocabulary, names, normalise

log = logging.getLogger(__name__)

# The words players use for the rules (see bot.documents.phrasings), one file a section of the rules.
PHRASINGS = Path(__file__).resolve().parents[2] / "data" / "phrasings"

CANDIDATES = 30
# The entries whose phrasings (the words players use for them) hold the most of the question, as candidates.
PHRASED_CANDIDATES = 12
LINKED_DOCS = 30
# The entries of a rule the question's phrasing proposes (see bot.rules.ranking.interactions) taken as candidates.
PROPOSED_DOCS = 8
# The entries of each rule the named cards' kinds of ability point to (see CardSignals) taken as candidates.
CARD_DOCS = 4
# The words of a named glossary term's definition count this much of the question's own words, and find this
# many more candidates.
MEANING_WEIGHT, MEANING_CANDIDATES = 0.5, 10
# A word the rules never use weighs this much of the rarest word's weight: it matches no entry, so it only
# lowers how much of the question an answer covers (chat rarely does; a message about something else often does).
UNKNOWN_WEIGHT = 1.0
# "Does exiling count as dying?" asks what a term means: the rule defining the term after the phrase answers.
DEFINITION_RE = re.compile(
    r"\b(?:counts?|counted|counting|considered|treated|regarded) (?:as|to be)\b|\bthe same as\b|"
    r"\bwhat (?:does|do|is|are) .{1,40}\bmean\b|\bdefin(?:e|ed|ition)\b",
    re.IGNORECASE,
)
# A question opens with one of these words more often than chat does.
OPENS_AS_QUESTION_RE = re.compile(
    r"^\W*(?:can|could|does|do|did|is|are|was|were|what|whats|what's|when|where|how|if|why|who|whose|which|will|"
    r"would|should|may|must|has|have)\b",
    re.IGNORECASE,
)
# Word frequencies in everyday English (wordfreq's Zipf scale) reach about this: "the" is 7.7.
ZIPF_TOP = 8.0


def _alt(stem_: str) -> str:
    return NUMBER_WORDS.get(stem_, stem_)


class Searcher:
    def __init__(
        self,
        document: Document,
        context_title: Callable[[Rule], str],
        associations: Associations | None = None,
        phrasings: Mapping[str, Phrasing] | None = None,
    ) -> None:
        """``phrasings``: the words players use for the entries (see :mod:`bot.documents.phrasings`); the
        bundled ones when None."""
        self.document = document
        self.entries = Entries(document, context_title, load_phrasings(PHRASINGS) if phrasings is None else phrasings)
        # Which sections and rules answered the tuning questions holding each word (see bot/rules/ranking/ranker.py).
        self.associations = load_associations() if associations is None else associations
        self._under_cache: dict[str, list[int]] = {}
        self._topics: Topics | None = None
        self._vocabulary: Vocabulary | None = None

    @property
    def docs(self) -> list[tuple[str, str, str, str]]:
        """The entries ranked: (kind, key, title, text), one per row."""
        return self.entries.docs

    def warm(self) -> None:
        """Word statistics, the typo vocabulary and the topic names (about 0.2 s; done once)."""
        if self._topics is not None:
            return
        self.entries.warm()
        with self.entries.lock:
            if self._topics is None:
                self._vocabulary = Vocabulary(self.entries.vocabulary)
                self._topics = Topics(self.document, self.entries)
                unplaced = self.entries.unplaced
                if unplaced and not self.document.is_excerpt:
                    # An edition that renumbered or removed phrased rules: said once, never silently.
                    log.warning(
                        "%s phrasings name rules this edition lacks (%s); scripts/check_phrasings.py follows them",
                        len(unplaced),
                        ", ".join(unplaced[:5]) + (" …" if len(unplaced) > 5 else ""),
                    )

    @property
    def topics(self) -> Topics:
        self.warm()
        return self._topics

    @property
    def idf(self) -> dict[str, float]:
        """Each word stem's rarity in the rules (its inverse document frequency)."""
        self.warm()
        return self.entries.idf

    def correct(self, word: str) -> str:
        self.warm()
        return self._vocabulary.correct(word)

    def terms(self, text: str) -> list[str]:
        """The question's topic words, rewritten and corrected, in order (no stop words)."""
        self.warm()
        return self._vocabulary.terms(text)

    # ------------------------------------------------------------------ ranking

    def rank(self, text: str, limit: int = 6, *, topics: bool = True, cards: CardSignals | None = None) -> Ranking:
        """The entries answering ``text``, best first; ``cards``: what the cards it names bring (see
        :class:`CardSignals`)."""
        scored = self.candidates(text, topics=topics, cards=cards)
        if isinstance(scored, Ranking):
            return scored
        weights = WEIGHTS if cards is None else CARD_WEIGHTS
        ranked = sorted(
            ((score(features, weights), candidate, features) for candidate, features in scored),
            key=lambda item: -item[0],
        )
        belief, confident, found = self.judge(text, ranked)
        certainty = confidence.certainty(found)
        hits = [Hit(*self.entries.docs[candidate.row][:2], value) for value, candidate, _f in ranked[:limit]]
        sure = confident and certainty >= confidence.SURE_AT
        return Ranking(hits, confident, sure=sure, belief=belief, certainty=certainty)

    def judge(
        self, text: str, ranked: list[tuple[float, Candidate, tuple[float, ...]]]
    ) -> tuple[float, bool, tuple[float, ...]]:
        """For candidates ranked best first: the gate's belief that ``text`` is a question they answer, whether
        that is enough to answer, and the confidence model's values (see :mod:`bot.rules.ranking.confidence`)."""
        entries = self.entries
        _value, best, best_features = ranked[0]
        scores = [value for value, _c, _f in ranked]
        belief = 0.0 if best.off_topic else believed(gate_values(best, scores, best_features))
        section = entries.ancestors[best.row][-2:-1]
        agree = sum(entries.ancestors[c.row][-2:-1] == section for _v, c, _f in ranked[1:4]) / 3 if section else 0.0
        kind = entries.row_kind[best.row]
        found = confidence.values(
            best,
            belief,
            scores,
            share(scores),
            best_features,
            agree,
            len(text.split()),
            subrule=kind == SUBRULE,
            glossary=kind == GLOSSARY,
        )
        return belief, not best.off_topic and belief >= GATE_THRESHOLD, found

    def read(self, text: str, terms: list[str] | None = None, *, typed: str | None = None) -> Question | None:
        """The question's words (``terms``, if already read) and what the text looks like, or None when it holds no
        word the rules use. ``typed``: the text as typed, when ``text`` has its chat spellings written out (what
        is chat is judged on what was typed: "thx" is chat, "thanks" in a question need not be)."""
        entries = self.entries
        terms = self.terms(text) if terms is None else terms
        stems = [stem(word) for word in terms]
        known = [word for word, s in zip(terms, stems, strict=True) if s in entries.idf]
        if not known:
            return None
        weights = {s: entries.idf.get(s, entries.max_idf * UNKNOWN_WEIGHT) for s in stems}
        total = sum(weights.values())
        # A card or player named in the question ("can Teferi stop me", "[[Price of Beauty]]") is not a word the
        # rules failed to know, nor talk of prices: the words of names count neither for nor against the text
        # being a rules question.
        named = names(text)
        raw = set(words(text)) - named
        counted = [word for word in terms if word not in named or word in known]
        asked = Asked(
            len(terms),
            1 - len(known) / max(1, len(counted)),
            "?" in text,
            OPENS_AS_QUESTION_RE.search(text) is not None,
            max(entries.idf[s] for s in stems if s in entries.idf) / entries.max_idf,
            max(1 - zipf_frequency(word, "en") / ZIPF_TOP for word in known),
        )
        return Question(
            text,
            terms,
            stems,
            weights,
            [(s, _alt(s), weight / total) for s, weight in weights.items()],
            known,
            bool((raw | set(words(typed or ""))) & OFF_TOPIC) or OFF_TOPIC_RE.search(text.lower()) is not None,
            asked,
        )

    def candidates(
        self, text: str, *, topics: bool = True, cards: CardSignals | None = None
    ) -> Ranking | list[tuple[Candidate, tuple[float, ...]]]:
        """The entries that may answer ``text``, each with its features (see :mod:`bot.rules.ranking.ranker`), or a
        finished :class:`Ranking` when the question names its topic outright or holds nothing to rank."""
        self.warm()
        typed, text = text, normalise(text)
        named = topics and not set(words(text)) & SPECIFIC
        terms = self.terms(text)
        if named and terms and (topic := self.topics.topic(tuple(stem(word) for word in terms))) is not None:
            return Ranking.named(topic)
        question = self.read(text, terms, typed=typed)
        if question is None:
            return Ranking([], False)
        linked = self.topics.linked_rules(question.stems, question.weights)
        meaning = self.topics.meanings(question.stems, question.weights)
        if named and not question.off_topic:
            keyword = self.topics.keyword(linked)
            if keyword is not None:
                return Ranking.named(keyword)
        found = dict.fromkeys(self.entries.masks.candidates(question.weighted, CANDIDATES))
        if self.entries.placed:
            found.update(dict.fromkeys(self.entries.phrase_masks.candidates(question.weighted, PHRASED_CANDIDATES)))
        found.update(dict.fromkeys(self._linked_docs(linked)))
        interactions = proposed(text)
        for ref in interactions:
            found.update(dict.fromkeys(self._rows_under(ref)[:PROPOSED_DOCS]))
        if meaning:
            extra = [(s, s, weight * MEANING_WEIGHT) for s, weight in meaning.items()]
            found.update(dict.fromkeys(self.entries.masks.candidates(question.weighted + extra, MEANING_CANDIDATES)))
        defined = self._defined(text)
        found.update(dict.fromkeys(row for ref in defined if (row := self.entries.rule_row.get(ref)) is not None))
        sections, rules = associated(self.associations, question.stems, question.weights)
        card_rows: frozenset[int] = frozenset()
        learnt: Learnt = ({}, {})
        if cards is not None:
            card_rows = frozenset(self._card_rows(cards))
            found.update(dict.fromkeys(card_rows))
            learnt = card_learnt(self.associations, cards.tokens)
        signals = Signals(linked, meaning, interactions, defined, sections, rules, cards, card_rows, learnt)
        out = features(self.entries, question, list(found), signals)
        return out or Ranking([], False)

    def _card_rows(self, cards: CardSignals) -> list[int]:
        """The entries the named cards' abilities point to, and those whose text names a card, as candidates."""
        rows = [row for ref in cards.rows_wanted() for row in self._rows_under(ref)[:CARD_DOCS]]
        return rows + sorted(cards.examples)[:CARD_DOCS]

    def card_examples(self, names: list[str]) -> frozenset[int]:
        """The entries whose text names one of the cards ``names`` ("Example: Rest in Peace says …")."""
        found: set[int] = set()
        for name in names:
            phrase = " ".join(words(name))
            if phrase:
                found.update(self.entries.matching(f'"{phrase}"'))
        return frozenset(found)

    def _defined(self, text: str) -> set[str]:
        """The rules defining the terms a definitional question asks about ("does exiling count as dying": 700.4,
        where Dies is defined), read from the words after its phrase."""
        match = DEFINITION_RE.search(text)
        if match is None:
            return set()
        after = text[match.end() :] or text[: match.start()]
        stems = [stem(word) for word in self.terms(after)]
        weights = {s: self.entries.idf.get(s, 0.0) for s in stems}
        if not sum(weights.values()):
            return set()
        linked = self.topics.linked_rules(stems, weights)
        return {ref for ref in linked if "." in ref}

    def related(self, text: str, limit: int) -> list[Hit]:
        """Entries holding the question's words, the most focused first (quick; for "see also")."""
        entries = self.entries
        stems = [stem(word) for word in self.terms(text)]
        weights = {s: entries.idf[s] for s in stems if s in entries.idf}
        if not weights:
            return []
        total = sum(weights.values())
        weighted = [(s, _alt(s), weight / total) for s, weight in weights.items()]
        return [Hit(*entries.docs[row][:2], 0.0) for row in entries.masks.candidates(weighted, limit)]

    def fts(self, text: str, limit: int, *, any_word: bool = True) -> list[tuple[str, str]]:
        """Plain full-text search (bm25, a hit in the title counts more): all the words if any entry has
        them all, else (``any_word``) any of them. Without ``any_word`` it is a quick side search: words
        found everywhere ("cast", "spell") make it slow and tell nothing, so it needs a rarer one."""
        found = [word for word in words(text) if word not in STOPWORDS][:12]
        if not found:
            return []
        if not any_word:
            self.warm()
            if all(self.entries.df_share(stem(word)) > COMMON for word in found):
                return []
        terms = ['"' + word + '"' for word in found]
        rows: list[int] = []
        for joiner in (" ", " OR ") if any_word else (" ",):
            rows = self.entries.matching(joiner.join(terms), limit, ranked=True)
            if rows or len(terms) == 1:
                break
        return [self.entries.docs[row][:2] for row in rows]

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
                if (row := self.entries.rule_row.get(number)) is not None:
                    found.append(row)
                    if len(found) >= LINKED_DOCS:
                        break
            self._under_cache[ref] = found
        return found

    def close(self) -> None:
        self.entries.close()
