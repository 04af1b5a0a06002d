"""Finding the card a name means in the local card database, and names for autocomplete.

The name-trust order of :meth:`NameFinder.named`: the exact name, then the exact name of any face
(split, adventure, modal and transforming double-faced cards), then a whole-word prefix, then a
prefix, then a fuzzy match, then whole words inside a name. Paper first: a partial or misspelt name that finds
only digital-only cards (Alchemy's "Gitrog, Horror of Zhava" for "gitrog") goes on to the later steps, and the
digital card is the answer only when no step finds a paper one. Within a step real cards always come
first; tokens, emblems, art series, memorabilia, playtest and digital rebalanced ``A-`` cards are
considered only when the caller asks for them (``extras=True``, or a name starting with ``A-``), or, when no step
finds a real card, the one token or emblem named in full ("The Monarch"). A name ending in "token" asks for one
("snake token"), right after the exact names. When several cards fit equally well, the answer is their
list, for a picker, not a guess.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable, Sequence

from rapidfuzz import fuzz, process

from bot.carddb.names import asks_for_rebalanced
from bot.carddb.records import CardRecord, NameMatch
from bot.text import normalise

MAX_QUERY = 200
MAX_CANDIDATES = 25
PREFIX_ROWS = 200
FUZZY_CUTOFF = 75.0
FUZZY_CLOSE = 3.0
FUZZY_WORD_BUCKET = 2000
# Steps that find the name as typed: there a digital-only card is what was asked for.
EXACT_STEPS = frozenset({"exact", "face"})
# Sorts after every character a normalised name holds.
HIGH = "\uffff"
# "snake token": a token asked for by name, as the card data's ``extra`` marks tokens.
TOKEN_KINDS = ("token", "double_faced_token")


class _FuzzyIndex:
    """Every name, bucketed so a misspelling is compared with a few hundred names, not all of them.

    A name is a candidate when it starts with the query's first two letters or shares a whole word
    with it: a misspelling that gets every word and the first two letters wrong is not looked for.
    """

    def __init__(self, rows: Iterable[tuple[str, int, int]]) -> None:
        self.norms: list[str] = []
        self.cards: list[int] = []
        self.real: list[bool] = []
        self.by_start: dict[str, list[int]] = {}
        self.by_word: dict[str, list[int]] = {}
        for index, (norm, card, is_real) in enumerate(rows):
            self.norms.append(norm)
            self.cards.append(card)
            self.real.append(bool(is_real))
            self.by_start.setdefault(norm[:2], []).append(index)
            for word in set(norm.split()):
                self.by_word.setdefault(word, []).append(index)

    def candidates(self, norm: str) -> dict[int, str]:
        found = set(self.by_start.get(norm[:2], ()))
        for word in set(norm.split()):
            bucket = self.by_word.get(word, ())
            if len(bucket) <= FUZZY_WORD_BUCKET:  # "of", "the": too common to narrow anything
                found.update(bucket)
        return {index: self.norms[index] for index in found}


class NameFinder:
    """Names over one card database: ``db`` gives the calling thread's connection, ``records`` reads whole cards
    by rowid (the store's own, so both read the same copy the same way)."""

    def __init__(
        self, db: Callable[[], sqlite3.Connection], records: Callable[[Sequence[int]], list[CardRecord]]
    ) -> None:
        self._db = db
        self._records = records
        self._fuzzy: _FuzzyIndex | None = None

    def _choose(self, rowids: Sequence[int], how: str, allow_extras: bool) -> NameMatch | None:
        """Pick among cards found by one step; whole records are read only for the answer."""
        if not rowids:
            return None
        marks = ", ".join("?" * len(rowids))
        light = self._db().execute(
            f"SELECT rowid, name, extra, digital_only FROM cards WHERE rowid IN ({marks})",  # noqa: S608
            tuple(rowids),
        )
        found = light.fetchall()
        real = [row for row in found if row[2] is None]
        pool = real or (found if allow_extras else [])
        if how not in EXACT_STEPS:
            # Paper first: a partial or misspelt name means a paper card when one fits.
            pool = [row for row in pool if not row[3]] or pool
        if not pool:
            return None
        if len(pool) == 1:
            return NameMatch(self._records([pool[0][0]])[0], how=how)
        ranked = sorted(pool, key=lambda row: (row[3], len(row[1]), row[1]))[:MAX_CANDIDATES]
        return NameMatch(None, tuple(self._records([row[0] for row in ranked])), how=how)

    def _exact(self, norm: str, is_face: int) -> list[int]:
        rows = self._db().execute("SELECT card FROM names WHERE norm = ? AND is_face = ?", (norm, is_face))
        return [row[0] for row in rows]

    def _range(self, low: str, high: str, allow_extras: bool, limit: int = PREFIX_ROWS) -> list[int]:
        rows = self._db().execute(
            "SELECT n.card FROM names n JOIN cards c ON c.rowid = n.card "
            "WHERE n.norm >= ? AND n.norm < ? AND (c.extra IS NULL OR ?) "
            "ORDER BY c.extra IS NOT NULL, length(n.norm), n.norm LIMIT ?",
            (low, high, allow_extras, limit),
        )
        return list(dict.fromkeys(row[0] for row in rows))

    def _words(self, norm: str, allow_extras: bool) -> list[int]:
        rows = self._db().execute(
            "SELECT t.card FROM name_tails t JOIN cards c ON c.rowid = t.card "
            "WHERE (t.tail = ? OR (t.tail >= ? AND t.tail < ?)) AND (c.extra IS NULL OR ?) "
            "ORDER BY c.extra IS NOT NULL, length(c.norm), c.norm LIMIT ?",
            (norm, norm + " ", norm + "!", allow_extras, PREFIX_ROWS),
        )
        return list(dict.fromkeys(row[0] for row in rows))

    def named(self, query: str, *, extras: bool = False, indexed_only: bool = False) -> NameMatch | None:
        """The card a user means by ``query``, or the candidates when it is a close call.

        ``indexed_only``: only the steps read straight off an index (exact, face, prefixes), which
        take well under a millisecond; None when the slower fuzzy and word steps would be needed.
        """
        norm = normalise(query[:MAX_QUERY])
        if not norm:
            return NameMatch(None)
        allow = extras or asks_for_rebalanced(query)
        steps = (
            ("exact", lambda: self._exact(norm, 0)),
            ("face", lambda: self._exact(norm, 1)),
            ("token", lambda: self._asked_kind(norm)),
            # "lightning" → "Lightning Bolt", but not "Lightningform"
            ("word_prefix", lambda: self._range(norm + " ", norm + "!", allow)),
            ("prefix", lambda: self._range(norm, norm + HIGH, allow)),
            ("fuzzy", lambda: self._fuzzy_ids(norm, allow)),
            # Last, whole words inside a name: "phoenix" → "Chandra's Phoenix" (never "nix" → "Phoenix").
            ("word", lambda: self._words(norm, allow)),
        )
        digital: NameMatch | None = None  # a digital-only answer, kept until no later step finds a paper card
        for how, find in steps:
            if indexed_only and how == "fuzzy":
                return None
            if how == "token":
                found = find()
                if found:  # the token asked for, whichever of its printings reads plainest
                    return NameMatch(self._records(found[:1])[0], how=how)
                continue
            match = self._choose(find(), how, allow)
            if match is None:
                continue
            if how in EXACT_STEPS or not match.digital_only:
                return match
            digital = digital or match
        return digital or self._named_extra(norm) or NameMatch(None)

    def exact(self, name: str) -> CardRecord | None:
        """The real card with exactly this name, or a face's (a decklist's line): no guessing, no candidates."""
        norm = normalise(name[:MAX_QUERY])
        for is_face in (0, 1):
            match = self._choose(self._exact(norm, is_face), "exact", False) if norm else None
            if match is not None:
                return match.card
        return None

    def _asked_kind(self, norm: str) -> list[int]:
        """The tokens named by ``norm`` without its last word, when that word is "token": "snake token" → the Snake
        tokens, the plainest first (shortest rules text: the vanilla 1/1 before the one with deathtouch), so that
        the answer is one card rather than a picker of identical names."""
        head, _, kind = norm.rpartition(" ")
        if kind != "token" or not head:
            return []
        rows = self._db().execute(
            "SELECT DISTINCT c.rowid FROM names n JOIN cards c ON c.rowid = n.card "
            "WHERE n.norm = ? AND c.extra IN (?, ?) ORDER BY length(coalesce(c.oracle_text, '')), c.rowid",
            (head, *TOKEN_KINDS),
        )
        return [row[0] for row in rows]

    def _named_extra(self, norm: str) -> NameMatch | None:
        """The one token or emblem with exactly this name (or a face's), when no real card answered: "The Monarch"
        means that token, and a miss or some other card's name would not help. Art series cards stay out (their
        name is the real card's, twice), and so do names many tokens share ("Soldier")."""
        rows = (
            self._db()
            .execute(
                "SELECT DISTINCT n.card, n.is_face FROM names n JOIN cards c ON c.rowid = n.card "
                "WHERE n.norm = ? AND c.extra IS NOT NULL AND c.layout != 'art_series' ORDER BY n.is_face",
                (norm,),
            )
            .fetchall()
        )
        if len({card for card, _ in rows}) != 1:
            return None
        return NameMatch(self._records([rows[0][0]])[0], how="face" if rows[0][1] else "exact")

    def _fuzzy_index(self) -> _FuzzyIndex:
        if self._fuzzy is None:
            rows = self._db().execute(
                "SELECT n.norm, n.card, c.extra IS NULL FROM names n JOIN cards c ON c.rowid = n.card"
            )
            self._fuzzy = _FuzzyIndex(rows)
        return self._fuzzy

    def _fuzzy_ids(self, norm: str, allow_extras: bool) -> list[int]:
        index = self._fuzzy_index()
        hits = process.extract(norm, index.candidates(norm), scorer=fuzz.ratio, limit=20, score_cutoff=FUZZY_CUTOFF)
        hits = [hit for hit in hits if allow_extras or index.real[hit[2]]]
        if not hits:
            return []
        best = hits[0][1]
        # Only the matches about as good as the best: a clear winner is returned, a tie is a picker.
        return list(dict.fromkeys(index.cards[key] for _, score, key in hits if score >= best - FUZZY_CLOSE))

    def _starting(self, norm: str, limit: int, extra: str | None) -> list[str]:
        """Up to ``limit`` names starting with ``norm`` (a face's name counts), in order, of the cards whose
        ``extra`` is the one given: None for real cards, "rebalanced" for Alchemy's ``A-`` cards."""
        rows = self._db().execute(
            "SELECT c.name FROM names n JOIN cards c ON c.rowid = n.card "
            "WHERE n.norm >= ? AND n.norm < ? AND c.extra IS ? ORDER BY n.norm LIMIT ?",
            (norm, norm + HIGH, extra, limit),
        )
        return [row[0] for row in rows]

    def autocomplete(self, prefix: str, limit: int = MAX_CANDIDATES) -> list[str]:
        """Up to ``limit`` real card names starting with ``prefix`` (a face's name counts), then names
        with a later word starting with it; each group in alphabetical order, read straight off an index.
        A prefix starting with ``A-`` asks for Alchemy's rebalanced cards: theirs come first, as the lookup finds
        them. When no real name starts so, the one token or emblem named in full is the answer ("The Monarch")."""
        norm = normalise(prefix[:MAX_QUERY])
        if not norm or limit <= 0:
            return []
        rebalanced = self._starting(norm, limit, "rebalanced") if asks_for_rebalanced(prefix) else []
        names = self._starting(norm, limit, None)
        if len(names) < limit:
            names += [
                row[0]
                for row in self._db().execute(
                    "SELECT c.name FROM name_tails t JOIN cards c ON c.rowid = t.card "
                    "WHERE t.tail >= ? AND t.tail < ? AND c.extra IS NULL ORDER BY t.tail LIMIT ?",
                    (norm, norm + HIGH, limit),
                )
            ]
        if not names and not rebalanced:
            # No real name starts so: the one token or emblem named in full, as the lookup finds it ("The Monarch").
            extra = self._named_extra(norm)
            names = [extra.card.name] if extra is not None and extra.card is not None else []
        return list(dict.fromkeys(rebalanced + names))[:limit]
