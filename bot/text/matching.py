"""What a player meant by a few typed letters: one matching approach for every vocabulary the bot completes.

Card names (``/card``, ``/search``'s card picker, inline lookups' suggestions, ``/goldfish`` card options) and the
rules' terms (``/rule``) keep their own vocabularies, but are matched the same way: the same normalisation as the
card database (``bot.text.names.fold``: case, accents and punctuation gone) and the same rapidfuzz scoring.
A :class:`Matcher` is built once per vocabulary; ``complete("blaoted")`` then answers in well under a millisecond
for a few hundred names and a few milliseconds for 35,000. Names of every script are compared (``fold``: Latin and
Cyrillic without case and accents, Japanese, Korean and Chinese after NFKC); an entry may be a name printed in
another language (its ``lang``), and a player's own language may be preferred.

Ranking, best first:

1. what was typed is a name or an alias exactly ("bob" → Dark Confidant, "sb" → state-based actions);
2. names that start with it, then names with a later word starting with it ("gitrog" → The Gitrog Monster), an
   entry's ``rank`` first (so a paper card comes before a digital-only one), then the shorter name;
3. fuzzy matches (typos, swapped words: "blaoted toed", "eagles north", "frist"), by rapidfuzz's WRatio over the
   names sharing a word, or a word within a typo or two, with what was typed. Japanese, Korean and Chinese have no
   spaces between words: there a name holding what was typed comes with the prefixes, and one holding most of its
   pairs of characters with the fuzzy matches.

Within each of those, the preferred language's printed names first, then English names, then other printed names
(English first when no language is preferred); an exact English name before any printed one.
"""

from __future__ import annotations

import bisect
import math
import re
from array import array
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rapidfuzz import fuzz, process

from bot.text.names import fold, unspaced

MAX_TYPED = 100
# Words of what was typed matched a typo away, at most: the longest card names have about this many, and each costs
# a pass over the vocabulary on the event loop (fifty one-letter words took 70 ms of it for 35,000 names).
MAX_WORDS = 8
FUZZY_CUTOFF = 68.0
WORD_CUTOFF = 75.0
WORD_MATCHES = 8
COMMON_WORD = 3000  # a word on more names than this ("of", "the") narrows nothing
HIGH = "\uffff"
MAX_KEY = 250  # characters of a key: a word's offset in it is held in 8 bits
GRAM_SHARE = 0.5  # of the pairs of characters typed, a name holding at least this many is a candidate
GRAM_CANDIDATES = 2000


@dataclass(frozen=True, slots=True)
class Entry:
    """One thing that can be chosen: ``name`` is shown, ``value`` is what choosing it sends; a lower ``rank`` comes
    first among equally good matches (a digital-only card has rank 1); ``lang``: the language of a name printed in
    another language than English (Scryfall's code), None for English."""

    name: str
    value: str
    rank: int = 0
    lang: str | None = None


class Matcher:
    """``Matcher(entries, keys)``: ``keys`` are ``(text, entry index)``: each name an entry answers to (its own,
    each face's, a nickname, an abbreviation or a printed name), folded here."""

    def __init__(self, entries: Sequence[Entry], keys: Iterable[tuple[str, int]]) -> None:
        # Held compactly (a matcher of the printed names of ten languages holds a quarter of a million names): indexes
        # in arrays, and a name held by one key as that key's index alone, not a list of one.
        self.entries = list(entries)
        self.keys: list[str] = []
        self.owners = array("i")
        self.exact: dict[str, Postings] = {}
        seen: set[tuple[str, int]] = set()
        for text, owner in keys:
            key = fold(text[: MAX_TYPED * 2])[:MAX_KEY]
            if key and (key, owner) not in seen:
                seen.add((key, owner))
                _post(self.exact, key, len(self.keys))
                self.keys.append(key)
                self.owners.append(owner)
        del seen
        # Sorted starts: every key from its first word, and from each later word ("bolt" in "lightning bolt"), each
        # as its key's index and the offset of the word it starts at (``_start``).
        starts = array("q")
        self.words: dict[str, Postings] = {}
        self._grams: dict[str, Postings] = {}  # pairs of characters of unspaced names, to the keys holding them
        for index, key in enumerate(self.keys):
            offset = 0
            for word in key.split(" "):
                starts.append(index << 8 | offset)
                offset += len(word) + 1
            for word in set(key.split()):
                _post(self.words, word, index)
            if unspaced(key):
                for gram in set(pairs(key)):
                    _post(self._grams, gram, index)
        self._starts = array("q", sorted(starts, key=self._start))
        self.vocabulary = sorted(self.words)
        # The vocabulary by script and word length (spaced scripts only): a word within WORD_CUTOFF of another is of
        # its script and of a length near its own.
        self._by_length: dict[tuple[str, int], list[str]] = {}
        for word in self.vocabulary:
            if not unspaced(word):
                self._by_length.setdefault((script(word), len(word)), []).append(word)
        self._near: dict[tuple[str, int], list[str]] = {}  # the words near each length, made as first asked for
        # The keys by length (their indexes, and themselves), and where each length starts among them.
        self._by_key_length = array("i", sorted(range(len(self.keys)), key=lambda n: len(self.keys[n])))
        self._keys_by_length = [self.keys[n] for n in self._by_key_length]
        self._length_starts = [
            bisect.bisect_left(self._keys_by_length, length, key=len) for length in range(MAX_KEY + 2)
        ]

    def _start(self, start: int) -> str:
        """The text a start stands for: its key from the word it starts at."""
        return self.keys[start >> 8][start & 0xFF :]

    def __len__(self) -> int:
        return len(self.entries)

    def complete(self, typed: str, limit: int = 25, *, prefer: str | None = None) -> list[Entry]:
        """The best ``limit`` entries for ``typed``, best first (empty for nothing that fits); ``prefer``: a language
        whose printed names come first (Scryfall's code), None for English first."""
        query = fold(typed[:MAX_TYPED])
        if not query or limit <= 0:
            return []
        best: dict[int, tuple] = {}
        owners, entries = self.owners, self.entries
        ranks = [language_ranks(prefer, group) for group in range(3)]

        def offer(key_index: int, tier: int, score: float) -> None:
            owner = owners[key_index]
            entry = entries[owner]
            # Exact first; then every prefix match, paper before digital; then fuzzy ones, best score first. Within
            # each, the player's language first (an exact English name before any printed one).
            group = 0 if tier == 0 else (1 if tier <= 2 else 2)
            order = (group, ranks[group].get(entry.lang, 2), entry.rank, tier, -score, len(entry.name), entry.name)
            if owner not in best or order < best[owner]:
                best[owner] = order

        for key_index in postings(self.exact.get(query)):
            offer(key_index, 0, 100.0)
        low = bisect.bisect_left(self._starts, query, key=self._start)
        high = bisect.bisect_left(self._starts, query + HIGH, low, key=self._start)
        for start in self._starts[low : min(high, low + 40 * limit)]:
            offer(start >> 8, 1 if start & 0xFF == 0 else 2, 100.0)
        if unspaced(query):
            for key_index, score in self._held(query, limit):
                offer(key_index, 2 if score >= 100.0 else 3, score)
        elif len(best) < limit:
            for key_index, score in self._fuzzy(query, limit):
                offer(key_index, 3, score)
        ranked = sorted(best, key=best.__getitem__)[:limit]
        return [self.entries[owner] for owner in ranked]

    def best(self, typed: str, *, cutoff: float = 70.0, margin: float = 5.0) -> Entry | None:
        """The one entry ``typed`` clearly means by fuzzy matching, or None: what a lookup falls back on when no
        name starts like what was typed (its score at least ``cutoff`` and ``margin`` ahead of the next)."""
        query = fold(typed[:MAX_TYPED])
        if not query:
            return None
        scored: dict[int, float] = {}
        for key_index, score in self._held(query, 5) if unspaced(query) else self._fuzzy(query, 5):
            owner = self.owners[key_index]
            scored[owner] = max(score, scored.get(owner, 0.0))
        ranked = sorted(scored.items(), key=lambda item: (-item[1], self.entries[item[0]].rank))
        if not ranked or ranked[0][1] < cutoff:
            return None
        if len(ranked) > 1 and ranked[0][1] - ranked[1][1] < margin and ranked[1][1] >= cutoff:
            return None
        return self.entries[ranked[0][0]]

    # ------------------------------------------------------------------ fuzzy

    def _held(self, query: str, limit: int) -> list[tuple[int, float]]:
        """Unspaced names holding ``query`` (score 100), or most of its pairs of characters (the share held, in
        hundredths), best first: Japanese, Korean and Chinese are matched by runs of characters, not words."""
        wanted = set(pairs(query))
        counts: dict[int, int] = {}
        for gram in wanted:
            for key_index in postings(self._grams.get(gram)):
                counts[key_index] = counts.get(key_index, 0) + 1
        needed = max(1, math.ceil(len(wanted) * GRAM_SHARE))
        compact = query.replace(" ", "")
        scored = []
        for key_index, held in counts.items():
            if held < needed:
                continue
            whole = compact in self.keys[key_index].replace(" ", "")
            scored.append((key_index, 100.0 if whole else 100.0 * held / len(wanted)))
        scored.sort(key=lambda item: (-item[1], len(self.keys[item[0]])))
        return scored[: max(limit * 2, 10)]

    def _near_in_length(self, word: str) -> list[str]:
        """The vocabulary's words long enough and short enough to be within ``WORD_CUTOFF`` of ``word``: ``ratio``
        is at most ``2·min / (len(word) + len)`` (in hundredths), so the others cannot reach it."""
        key = (script(word), len(word))
        near = self._near.get(key)
        if near is None:
            share = WORD_CUTOFF / 100
            shortest = math.ceil(len(word) * share / (2 - share) - 1e-9)
            longest = math.floor(len(word) * (2 - share) / share + 1e-9)
            lengths = range(shortest, longest + 1)
            near = self._near[key] = [w for length in lengths for w in self._by_length.get((key[0], length), ())]
        return near

    def _word_keys(self, query: str) -> set[int]:
        """Keys sharing a word with ``query``, or a word a typo or two away; the last word may be unfinished.
        At most ``MAX_WORDS`` distinct words are looked at: the first ones and the last."""
        found: set[int] = set()
        words = list(dict.fromkeys(query.split()))
        if len(words) > MAX_WORDS:
            words = words[: MAX_WORDS - 1] + words[-1:]
        for position, word in enumerate(words):
            similar = [
                match
                for match, _, _ in process.extract(
                    word, self._near_in_length(word), scorer=fuzz.ratio, limit=WORD_MATCHES, score_cutoff=WORD_CUTOFF
                )
            ]
            if position == len(words) - 1 and len(word) >= 3:  # still typing it: words it starts
                low = bisect.bisect_left(self.vocabulary, word)
                high = bisect.bisect_left(self.vocabulary, word + HIGH)
                similar += self.vocabulary[low : min(high, low + WORD_MATCHES)]
            for match in similar:
                holding = postings(self.words[match])
                if len(holding) <= COMMON_WORD or len(words) == 1:
                    found.update(holding)
        return found

    def _fuzzy(self, query: str, limit: int) -> list[tuple[int, float]]:
        candidates = self._word_keys(query)
        if candidates:
            choices = {index: self.keys[index] for index in candidates}
            hits = process.extract(query, choices, scorer=fuzz.WRatio, limit=limit * 2, score_cutoff=FUZZY_CUTOFF)
            # WRatio scores a name holding every typed word as highly as one made of exactly those words; the
            # words in any order, and nothing else, settle such ties ("wraith street" → Street Wraith). In the order
            # typed too: sorting the words moves a first word with a typo in its first letter ("satral drift").
            return [
                (index, 0.6 * score + 0.4 * max(fuzz.token_sort_ratio(query, key), fuzz.ratio(query, key)))
                for key, score, index in hits
            ]
        # No word is close: compare whole names (a missing space, "bloatedtoad"), those of a length that could match.
        indexes, names = self._near_keys(query)
        hits = process.extract(query, names, scorer=fuzz.QRatio, limit=limit, score_cutoff=FUZZY_CUTOFF + 7)
        return [(indexes[at], score) for _, score, at in hits]

    def _near_keys(self, query: str) -> tuple[Sequence[int], list[str]]:
        """The keys of a length within reach of ``FUZZY_CUTOFF + 7`` of ``query``'s (``ratio`` is at most
        ``2·min / (la + lb)``), and their indexes: a slice of the keys sorted by length."""
        share = (FUZZY_CUTOFF + 7) / 100
        shortest = math.ceil(len(query) * share / (2 - share) - 1e-9)
        longest = math.floor(len(query) * (2 - share) / share + 1e-9)
        low = self._length_starts[min(shortest, MAX_KEY + 1)]
        high = self._length_starts[min(longest + 1, MAX_KEY + 1)]
        return self._by_key_length[low:high], self._keys_by_length[low:high]


Postings = int | array  # the keys holding a name, a word or a pair of characters: one key's index, or an array


def _post(index: dict[str, Postings], text: str, key: int) -> None:
    held = index.get(text)
    if held is None:
        index[text] = key
    elif isinstance(held, int):
        index[text] = array("i", (held, key))
    else:
        held.append(key)


def postings(held: Postings | None) -> Sequence[int]:
    """The keys of an index's entry, as a sequence (none for a text no key holds)."""
    if held is None:
        return ()
    return (held,) if isinstance(held, int) else held


def pairs(text: str) -> list[str]:
    """The pairs of neighbouring characters of ``text`` without its spaces (a single character stands alone)."""
    compact = text.replace(" ", "")
    return [compact[i : i + 2] for i in range(len(compact) - 1)] or ([compact] if compact else [])


def language_ranks(prefer: str | None, group: int) -> dict[str | None, int]:
    """Where a name of each language (None: English) comes among equally good matches of ``group`` (any language
    not named: 2): the preferred language first, then English, then the others; English first when none is preferred,
    and always among exact matches (group 0)."""
    if group == 0:
        return {None: 0, **({prefer: 1} if prefer is not None else {})}  # other printed names: 2, after them all
    if prefer is None:
        return {None: 0}
    return {prefer: 0, None: 1}


_CYRILLIC = re.compile("[\u0400-\u04ff]")


def script(word: str) -> str:
    """``"cyrillic"`` or ``"latin"`` (and the rest): the words a typo of ``word`` is looked for among."""
    return "latin" if word.isascii() or not _CYRILLIC.search(word) else "cyrillic"
