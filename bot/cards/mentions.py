"""Finding the cards a sentence names: "if I evoke solitude…", "teferi time raveller", "[[Fire // Ice]]".

A name counts when it is written out (any case, accents and punctuation aside), misspelt by a letter or
two, or in ``[[brackets]]``; a face of a split or double-faced card counts as its card. Ordinary words must
not become cards: a name made only of words the rules themselves use ("Block", "Island", "Tapped Out"…) is
taken only in brackets, written with capitals or when it is long ("chalice of the void"), and a one-word
name only when it is not such a word, nor a common English word written in lower case ("heal", "study"). A
capital opening a sentence says nothing ("When can I…" names no card "When").

In text addressed to the bot (``fuzzy``), players' other names for cards count too, each a source added to the
one index (:meth:`CardNames.add`): nicknames ("Bolt" for Lightning Bolt, as ``/card`` knows them), a legendary
card by its first name or its title ("Krenko", "Ragavan's trigger"), written with a capital, and the names cards are
printed with in the languages an operator chose ("Gnade des Engels", "Разведчик Амру", "天使の嗜み", also inside a run
of Japanese or Chinese, which has no spaces between words); a name several cards share names them all
(:attr:`Mention.others`), and the answer shows them without guessing which. Names are compared as
:func:`bot.text.fold` compares them (Latin, Cyrillic, Japanese, Korean and Chinese alike; :func:`normalise` on
ASCII). A name may be written as a possessive ("Sheoldred's") or with an s ("two Volrath's Shapeshifters").
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable
from dataclasses import dataclass

from rapidfuzz import fuzz, process
from wordfreq import zipf_frequency

from bot.text import fold, unspaced

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
# In a question to the bot, a one-word name this common in English (wordfreq's Zipf scale) is a word when written in
# lower case ("heal", "study"), where a rarer one is the card ("if I evoke solitude").
COMMON_ENGLISH = 4.0
# What ends a sentence (or opens a quote): the capital after it opens the next one.
SENTENCE_END = frozenset('.!?:;"“(\n')
# Other names a card goes by (see CardNames.add): taken only exactly, in text addressed to the bot.
NICKNAME, LEGEND, PRINTED = "nickname", "legend", "printed"
MIN_INSIDE = 2  # characters of a name found inside a run of Japanese or Chinese (one alone is too often a word)
POSSESSIVE = re.compile(r"(?:['’]s|s['’])$")


@dataclass(frozen=True, slots=True)
class Mention:
    card: int  # the card's rowid in the local copy
    name: str  # the normalised name as found
    start: int  # where it is in the text
    end: int
    how: str  # "brackets", "exact", "fuzzy", or the other name's source ("nickname", "legend", "printed")
    others: tuple[int, ...] = ()  # more cards the name is shared by (a first name several legends have)


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
        # Other names (nicknames, first names, printed names), each with every card it names and its source.
        self.other: dict[str, tuple[tuple[int, ...], str]] = {}
        self._longest_unspaced = 0  # characters of the longest other name written without spaces (Japanese…)

    def add(self, names: Iterable[tuple[str, int]], source: str, *, folded: bool = False) -> None:
        """Other names cards go by (``(name, card)``; several rows of one name: a name they share), found only in
        text addressed to the bot and only written out; a card's own name always wins over another's. ``folded``:
        the names are folded already (:func:`bot.text.fold`: the printed names index holds them so)."""
        found: dict[str, list[int]] = {}
        for name, card in names:
            norm = name if folded else fold(name)
            if norm and norm not in self.exact:
                cards = found.get(norm)
                if cards is None:
                    found[norm] = [card]
                elif card not in cards:
                    cards.append(card)
        # One value for every name of the same cards (a card has a name in each language): held once, not per name.
        values: dict[tuple[tuple[int, ...], str], tuple[tuple[int, ...], str]] = {}
        for norm, cards in found.items():
            old = self.other.get(norm)
            value = (tuple(dict.fromkeys([*old[0], *cards])), old[1]) if old else (tuple(cards), source)
            self.other[norm] = values.setdefault(value, value)
            if unspaced(norm):
                self._longest_unspaced = max(self._longest_unspaced, len(norm))

    def add_legends(self, legends: Iterable[tuple[str, int]]) -> None:
        """Legendary cards' first names and titles ("Krenko, Mob Boss": "Krenko" and "Mob Boss"; "The Ur-Dragon":
        "Ur-Dragon") as other names, shared when several legends have them."""
        short: list[tuple[str, int]] = []
        for name, card in legends:
            if " // " in name:
                continue
            first, _comma, title = name.partition(",")
            if title:
                parts = [first, title.strip()]
            else:
                parts = [first.removeprefix("The ")] if first.startswith("The ") else []
            for part in parts:
                part = part.removeprefix("the ").strip()
                if len(fold(part)) >= MIN_SINGLE_WORD and (part == first or len(part.split()) >= 2):
                    short.append((part, card))
        self.add(short, LEGEND)

    # ------------------------------------------------------------------ finding

    def find(self, text: str, limit: int = 5, *, fuzzy: bool = True) -> Found:
        """The cards ``text`` names, in its order; without ``fuzzy``, only names written out exactly (any case,
        accents and punctuation aside), for text nobody wrote as a question to the bot."""
        mentions: list[Mention] = []
        covered: list[tuple[int, int]] = []
        for match in BRACKETS.finditer(text):
            covered.append(match.span())
            bracketed = self._bracketed(fold(match[1]), match.span(), fuzzy=fuzzy)
            if bracketed is not None:
                mentions.append(bracketed)
        tokens = [m for m in TOKEN.finditer(text) if not any(a <= m.start() < b for a, b in covered)]
        words = [fold(m[0]) for m in tokens]
        # A capital opening a sentence says nothing of a name.
        opening = [_opens(text, m.start()) for m in tokens]
        # A Title Case Sentence ("Can You Block With A Tapped Creature?") says nothing by its capitals.
        titled = sum(m[0][:1].isupper() for m in tokens) > 0.6 * len(tokens) if len(tokens) > 3 else False
        taken = [False] * len(tokens)
        for misspelt in (False, None, True) if fuzzy else (False,):  # None: other names (nicknames, first names)
            i = 0
            while i < len(tokens):
                if taken[i]:
                    i += 1
                    continue
                found = self._at(tokens, words, taken, i, misspelt, titled or opening[i], fuzzy)
                if found is None:
                    i += 1
                    continue
                size, card, name, *other = found
                how = "fuzzy" if misspelt else "exact" if misspelt is False else other[1]
                span = tokens[i].start(), tokens[i + size - 1].end()
                mentions.append(Mention(card, name, *span, how, other[0] if other else ()))
                for j in range(i, i + size):
                    taken[j] = True
                i += size
        if fuzzy and self._longest_unspaced:
            mentions += [m for token, was in zip(tokens, taken, strict=True) if not was for m in self._inside(token)]
        # A name several cards share means the one the text names in full ("Krenko, Mob Boss … Krenko").
        full = [mention for mention in mentions if not mention.others]
        mentions = [
            mention
            for mention in mentions
            if not mention.others
            or not any(
                other.card in (mention.card, *mention.others) or other.name.startswith(mention.name + " ")
                for other in full
            )
        ]
        unique: dict[int, Mention] = {}
        for mention in sorted(mentions, key=lambda m: m.start):
            unique.setdefault(mention.card, mention)
        ordered = list(unique.values())
        return Found(ordered[:limit], max(0, len(ordered) - limit))

    def _at(
        self,
        tokens: list[re.Match],
        words: list[str],
        taken: list[bool],
        i: int,
        fuzzy: bool | None,
        titled: bool,
        addressed: bool = False,
    ):
        """The longest name starting at token ``i``: (number of tokens, card, name), or None; ``fuzzy`` None: other
        names (with the other cards sharing the name, and its source); ``titled``: its capitals say nothing (a Title
        Case sentence, or the token opens a sentence); ``addressed``: the text is a question to the bot."""
        top = min(MAX_WORDS, len(tokens) - i)
        for size in range(top, 0, -1):
            if any(taken[i : i + size]):
                continue
            parts = words[i : i + size]
            phrase = " ".join(parts)
            if not phrase:
                continue
            if phrase not in self.exact and phrase not in self.other:
                phrase = self._unbent(phrase, parts, tokens[i + size - 1][0], plural=addressed)
            found = self.exact.get(phrase) if fuzzy is False else self.other.get(phrase) if fuzzy is None else None
            if fuzzy is not True:
                if found is None:
                    continue
                capitalised = not titled and all(
                    token[0][:1].isupper() or (0 < k < size - 1 and token[0] in JOINING)
                    for k, token in enumerate(tokens[i : i + size])
                )
                plain = all(part in self.ordinary for part in phrase.split())
            if fuzzy is None:
                # Written with a capital, or words neither the rules nor everyday English use ("gonti"); a name
                # printed in another language never when it is an everyday English word, however written.
                english = zipf_frequency(phrase, "en")
                if not (capitalised or not plain and english < COMMON_ENGLISH):
                    continue
                if found[1] == PRINTED and english >= COMMON_ENGLISH:
                    continue
                return size, found[0][0], phrase, found[0][1:], found[1]
            if not fuzzy:
                card = found
                if size == 1 and len(phrase) < 2:
                    continue  # a letter ("X") is a name only in brackets
                if size == 1 and (plain or len(phrase) < MIN_SINGLE_WORD) and not capitalised:
                    continue
                if size == 1 and not capitalised and addressed and zipf_frequency(phrase, "en") >= COMMON_ENGLISH:
                    continue
                # A long name is a name however it is written ("chalice of the void"); a short one made of the
                # rules' words ("cast out") is a name only when written as one.
                if plain and not capitalised and (size < LONG_PLAIN_WORDS or len(phrase) < LONG_PLAIN_LETTERS):
                    continue
                return size, card, phrase
            # A misspelling: a span that starts with a word the rules don't use, long enough to be told apart.
            if size > MAX_FUZZY_WORDS or parts[0] in self.ordinary or len(phrase) < (6 if size == 1 else 8):
                continue
            # A word the exact pass left as a word ("negate", "goblin") is no misspelling either.
            if phrase in self.exact or size == 1 and zipf_frequency(phrase, "en") >= COMMON_ENGLISH:
                continue
            found = self._fuzzy(phrase, size)
            if found is not None:
                return size, *found
        return None

    def _unbent(self, phrase: str, parts: list[str], last: str, *, plural: bool) -> str:
        """``phrase`` as the name it bends, if it does: a possessive ("Sheoldred's", "Shapeshifters'"), and with
        ``plural`` (a question to the bot) a plural or verb ending in s ("two Volrath's Shapeshifters", "Murders
        the token", "auntie ools ward")."""
        if POSSESSIVE.search(last):
            return " ".join([*parts[:-1], fold(POSSESSIVE.sub("", last))])
        if plural and len(parts[-1]) > 3 and parts[-1].endswith("s") and not parts[-1].endswith("ss"):
            bare = phrase[:-1]
            if bare in self.exact or bare in self.other:
                return bare
        return phrase

    def _bracketed(self, norm: str, span: tuple[int, int], *, fuzzy: bool) -> Mention | None:
        """The card a ``[[name]]`` names: a card's own name, then (in text addressed to the bot) another name it goes
        by ("[[Sumpf]]") or a misspelling of its own."""
        if not norm:
            return None
        if norm in self.exact:
            return Mention(self.exact[norm], norm, *span, "brackets")
        if not fuzzy:
            return None
        if norm in self.other:
            cards, source = self.other[norm]
            return Mention(cards[0], norm, *span, source, cards[1:])
        found = self._fuzzy(norm, len(norm.split()))
        return Mention(found[0], found[1], *span, "brackets") if found is not None else None

    def _inside(self, token: re.Match) -> list[Mention]:
        """Other names (printed ones) inside a run of Japanese, Korean or Chinese, which has no spaces between words
        ("天使の嗜みを唱えた"): the longest at each place, left to right, of :data:`MIN_INSIDE` characters or more."""
        text = fold(token[0])
        if not unspaced(text):
            return []
        same = len(text) == len(token[0])  # else the places in ``text`` are not the token's: the whole token it is
        found: list[Mention] = []
        i = 0
        while i <= len(text) - MIN_INSIDE:
            for end in range(min(len(text), i + self._longest_unspaced), i + MIN_INSIDE - 1, -1):
                entry = self.other.get(text[i:end])
                if entry is not None:
                    span = (token.start() + i, token.start() + end) if same else token.span()
                    found.append(Mention(entry[0][0], text[i:end], *span, entry[1], entry[0][1:]))
                    i = end
                    break
            else:
                i += 1
        return found

    def _fuzzy(self, phrase: str, size: int) -> tuple[int, str] | None:
        pool: list[str] = []
        for words in (size - 1, size, size + 1):
            pool += self._by_start.get((phrase[:2], words), [])
        if not pool:
            return None
        cutoff = FUZZY_SCORE_SHORT if len(phrase) < SHORT else FUZZY_SCORE
        best = process.extractOne(phrase, pool, scorer=fuzz.ratio, score_cutoff=cutoff)
        return (self.exact[best[0]], best[0]) if best else None


def _opens(text: str, start: int) -> bool:
    """Whether the word at ``start`` opens a sentence (or the text)."""
    before = text[max(0, start - 20) : start].rstrip(" \t")
    return start == 0 or not before and start <= 20 or before[-1:] in SENTENCE_END
