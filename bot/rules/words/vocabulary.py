"""The words of a question as the rules would write them: abbreviations expanded, two words the rules write as
one joined ("death touch"), and typos corrected against the words the loaded rules use ("frist" → "first")."""

from __future__ import annotations

import functools
from collections import Counter

from rapidfuzz import process
from rapidfuzz.distance import OSA
from wordfreq import zipf_frequency

from bot.documents import STOPWORDS
from bot.rules.words.chat import normalise, without_card_references
from bot.rules.words.query import expand

# A word this common in everyday English (wordfreq's Zipf scale: once in a million words) is a word of the
# language, not a typo: it is never corrected into a rules term ("nice" stays nice; "frist", at 2.4, is first).
ENGLISH_ZIPF = 3.0


class Vocabulary:
    def __init__(self, frequency: Counter[str]) -> None:
        """``frequency``: how often each word occurs in the rules."""
        self.words = {word for word in frequency if word.isalpha()}
        by_letter: dict[str, list[str]] = {}
        for word, _count in frequency.most_common():
            if word.isalpha() and len(word) >= 3:
                by_letter.setdefault(word[0], []).append(word)
        self._by_letter = by_letter
        # Corrections are looked up often for the same few words: each is worked out once per edition.
        self.correct = functools.lru_cache(maxsize=8192)(self._correct)

    def _correct(self, word: str) -> str:
        """A word the rules never use, corrected to a close one they do ("frist" → "first"), else itself."""
        # Short words are too often another real word ("nice" is one letter from "nine").
        if word in self.words or len(word) < 5 or not word.isalpha() or zipf_frequency(word, "en") >= ENGLISH_ZIPF:
            return word
        candidates = self._by_letter.get(word[0], [])
        if word[1:2]:
            # A typo in the first letter is rarer; also try words that share the second letter first.
            candidates = candidates + [w for w in self._by_letter.get(word[1], []) if w[1:2] == word[0]]
        cutoff = 1 if len(word) < 8 else 2
        found = process.extractOne(word, candidates, scorer=OSA.distance, score_cutoff=cutoff)
        return found[0] if found else word

    def terms(self, text: str) -> list[str]:
        """The question's topic words, rewritten and corrected, in order (no stop words, no card's name in
        ``[[…]]``, no idiom's words)."""
        out: list[str] = []
        found = expand(without_card_references(normalise(text)))
        for i, word in enumerate(found):
            if word in STOPWORDS or not word:
                continue
            # Two words the rules write as one ("death touch" is deathtouch, "life link" lifelink).
            joined = word + found[i + 1] if i + 1 < len(found) and found[i + 1] not in STOPWORDS else ""
            if joined in self.words:
                word, found[i + 1] = joined, ""
            word = self.correct(word)
            if word not in STOPWORDS and word not in out:
                out.append(word)
        return out
