"""Finding the cards a sentence names: "if I evoke solitude…", "teferi time raveller", "[[Fire // Ice]]".

A name counts when it is written out (any case, accents and punctuation aside), misspelt by a letter or
two, or in ``[[brackets]]``; a face of a split or double-faced card counts as its card. Ordinary words must
not become cards: a name made only of words the rules themselves use ("Block", "Island", "Tapped Out"…) is
taken only in brackets, written with capitals or when it is long ("chalice of the void"), and a one-word
name only when it is not such a word.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable
from dataclasses import dataclass

from rapidfuzz import fuzz, process

from bot.carddb import normalise

MAX_WORDS = 7  # the longest names players type in full ("Asmoranomardicadaistinaculdacar" is one word)
BRACKETS = re.compile(r"\[\[([^\[\]]{1,150})\]\]")
TOKEN = re.compile(r"[^\W_]+(?:['’][^\W_]+)*", re.UNICODE)
# How close a misspelling must be (rapidfuzz ratio, 0–100): stricter for short names.
FUZZY_SCORE, FUZZY_SCORE_SHORT, SHORT = 88, 93, 12
MIN_SINGLE_WORD = 4
MAX_FUZZY_WORDS = 5
LONG_PLAIN_WORDS, LONG_PLAIN_LETTERS = 3, 12
# Small words a capitalised name writes in lower case ("Chalice of the Void", "Jace, the Mind Sculptor").
JOINING = frozenset("of the a an and in on to from for with at by".split())


@dataclass(frozen=True, slots=True)
class Mention:
    card: int  # the card's rowid in the local copy
    name: str  # the normalised name as found
    start: int  # where it is in the text
    end: int
    how: str  # "brackets", "exact" or "fuzzy"


@dataclass(frozen=True, slots=True)
class Found:
    mentions: list[Mention]  # in the order of the text, each card once
    more: int = 0  # cards named beyond ``limit``

    def without_names(self, text: str) -> str:
        """``text`` with the card names blanked out, for ranking the rules on the rest of the question."""
        out, last = [], 0
        for mention in sorted(self.mentions, key=lambda m: m.start):
            out += [text[last : mention.start], " "]
            last = mention.end
        return "".join([*out, text[last:]])


class CardNames:
    """Every real card's names and faces' names, indexed for finding them inside a sentence."""

    def __init__(self, rows: Iterable[tuple[str, int, int]], ordinary: Collection[str]) -> None:
        self.exact: dict[str, int] = {}
        for norm, card, _is_face in sorted(rows, key=lambda row: row[2]):  # a card's own name before a face's
            self.exact.setdefault(norm, card)
        self.ordinary = frozenset(ordinary)
        self._by_start: dict[tuple[str, int], list[str]] = {}
        for norm in self.exact:
            self._by_start.setdefault((norm[:2], len(norm.split())), []).append(norm)

    # ------------------------------------------------------------------ finding

    def find(self, text: str, limit: int = 5, *, fuzzy: bool = True) -> Found:
        """The cards ``text`` names, in its order; without ``fuzzy``, only names written out exactly (any case,
        accents and punctuation aside), for text nobody wrote as a question to the bot."""
        mentions: list[Mention] = []
        covered: list[tuple[int, int]] = []
        for match in BRACKETS.finditer(text):
            card = self._lookup(normalise(match[1]), fuzzy=fuzzy)
            covered.append(match.span())
            if card is not None:
                mentions.append(Mention(card[0], card[1], *match.span(), "brackets"))
        tokens = [m for m in TOKEN.finditer(text) if not any(a <= m.start() < b for a, b in covered)]
        words = [normalise(m[0]) for m in tokens]
        # A Title Case Sentence ("Can You Block With A Tapped Creature?") says nothing by its capitals.
        titled = sum(m[0][:1].isupper() for m in tokens) > 0.6 * len(tokens) if len(tokens) > 3 else False
        taken = [False] * len(tokens)
        for misspelt in (False, True) if fuzzy else (False,):
            i = 0
            while i < len(tokens):
                if taken[i]:
                    i += 1
                    continue
                found = self._at(tokens, words, taken, i, misspelt, titled)
                if found is None:
                    i += 1
                    continue
                size, card, name = found
                mentions.append(
                    Mention(card, name, tokens[i].start(), tokens[i + size - 1].end(), "fuzzy" if misspelt else "exact")
                )
                for j in range(i, i + size):
                    taken[j] = True
                i += size
        unique: dict[int, Mention] = {}
        for mention in sorted(mentions, key=lambda m: m.start):
            unique.setdefault(mention.card, mention)
        ordered = list(unique.values())
        return Found(ordered[:limit], max(0, len(ordered) - limit))

    def _at(self, tokens: list[re.Match], words: list[str], taken: list[bool], i: int, fuzzy: bool, titled: bool):
        """The longest name starting at token ``i``: (number of tokens, card, name), or None."""
        top = min(MAX_WORDS, len(tokens) - i)
        for size in range(top, 0, -1):
            if any(taken[i : i + size]):
                continue
            parts = words[i : i + size]
            phrase = " ".join(parts)
            if not phrase:
                continue
            capitalised = not titled and all(
                token[0][:1].isupper() or (0 < k < size - 1 and token[0] in JOINING)
                for k, token in enumerate(tokens[i : i + size])
            )
            plain = all(part in self.ordinary for part in phrase.split())
            if not fuzzy:
                card = self.exact.get(phrase)
                if card is None:
                    continue
                if size == 1 and (plain or len(phrase) < MIN_SINGLE_WORD) and not (capitalised and i > 0):
                    continue
                # A long name is a name however it is written ("chalice of the void"); a short one made of the
                # rules' words ("cast out") is a name only when written as one.
                if plain and not capitalised and (size < LONG_PLAIN_WORDS or len(phrase) < LONG_PLAIN_LETTERS):
                    continue
                return size, card, phrase
            # A misspelling: a span that starts with a word the rules don't use, long enough to be told apart.
            if size > MAX_FUZZY_WORDS or parts[0] in self.ordinary or len(phrase) < (6 if size == 1 else 8):
                continue
            found = self._fuzzy(phrase, size)
            if found is not None:
                return size, *found
        return None

    def _lookup(self, norm: str, *, fuzzy: bool) -> tuple[int, str] | None:
        if not norm:
            return None
        if norm in self.exact:
            return self.exact[norm], norm
        return self._fuzzy(norm, len(norm.split())) if fuzzy else None

    def _fuzzy(self, phrase: str, size: int) -> tuple[int, str] | None:
        pool: list[str] = []
        for words in (size - 1, size, size + 1):
            pool += self._by_start.get((phrase[:2], words), [])
        if not pool:
            return None
        cutoff = FUZZY_SCORE_SHORT if len(phrase) < SHORT else FUZZY_SCORE
        best = process.extractOne(phrase, pool, scorer=fuzz.ratio, score_cutoff=cutoff)
        return (self.exact[best[0]], best[0]) if best else None
