"""What makes an entry answer a question: each candidate's features, in the order of ranker.FEATURES.

bm25 of the question's words (the title counting more), how much of the question it holds, what kind of entry
it is, whether two rare words stand next to each other in it, whether a topic the question names points to it,
whether it says what the question asks for (a time for "when", a permission for "can"), what the tuning
questions holding the same words were answered with, and whether the question's phrasing proposes it.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from bot.documents import is_under, stem
from bot.rules.ranking.entries import ASKS, FIRST, GLOSSARY, SUBRULE, Entries, shared_pairs
from bot.rules.ranking.hits import Asked, Candidate
from bot.rules.ranking.ranker import Associations
from bot.rules.words import VARIANT_WORDS

# Words in more than this share of the entries ("card", "player") only rank, they don't select candidates.
COMMON = 0.08
# A word seen with a section once in the tuning questions says less than one seen with it every time.
ASSOCIATION_PRIOR = 2.0
# "What happens if …" asks for a consequence, which the game states as a state-based action (704).
HAPPENS_RE = re.compile(r"\bwhat happens\b|\bhappens? (?:if|when|to)\b|\bwhat if\b", re.IGNORECASE)
CONSEQUENCE_SECTION = "704"
# How much more a word in an entry's title counts than one in its text, as FTS5's bm25(docs, 4.0, 1.0) would.
TITLE_BM25 = 3.0

# For each of a question's words: the candidate rows holding it (or its other spelling), the word, its weight.
Holders = list[tuple[frozenset[int], str, float]]


@dataclass
class Question:
    """A question's words as the ranking reads them."""

    text: str
    terms: list[str]
    stems: list[str]
    weights: dict[str, float]  # each stem's rarity in the rules (a word they never use: the rarest)
    weighted: list[tuple[str, str, float]]  # (stem, its alternative spelling, its share of the question)
    known: list[str]  # the terms the rules use
    off_topic: bool
    asked: Asked


@dataclass(frozen=True, slots=True)
class CardSignals:
    """What the cards a question names bring to its ranking (built by :mod:`bot.rules.asking.cards`): the rules of
    the kinds of ability they have (614.1a for "… instead"), those of the kinds the question asks about ("does it
    trigger" and a dies trigger: 603.10a), the rules of their own keywords and layouts, those the question names,
    and the rows whose text names one of the cards (the rules' examples name real cards)."""

    kinds: dict[str, float]
    asked: dict[str, float]
    own: frozenset[str]
    named: frozenset[str]
    examples: frozenset[int] = frozenset()
    # What the cards are and what the question asks, as the associations learnt from the tuning part's card questions
    # know them ("kind:dies trigger", "ask:triggers", "triggers×dies trigger"; see card_learnt).
    tokens: tuple[str, ...] = ()

    def rows_wanted(self) -> list[str]:
        """The rules whose entries are candidates, the asked ones first."""
        return list(dict.fromkeys([*self.named, *self.asked, *self.kinds, *sorted(self.own)]))


def card_values(
    cards: CardSignals | None, row: int, ancestors: tuple[str, ...], learnt: Learnt = ({}, {})
) -> tuple[float, ...]:
    """A row's card features, in the order of ranker.FEATURES: under a rule of the cards' kinds of ability, of the
    kinds the question asks about, of a card's own keyword or layout the question does not name, of one it names;
    whether its text names one of the cards; and how strongly the cards' kinds and the question's ask point to its
    section and rule (``learnt``, see :func:`card_learnt`)."""
    if cards is None:
        return NO_CARDS
    kind = max((cards.kinds.get(ancestor, 0.0) for ancestor in ancestors), default=0.0)
    asked = max((cards.asked.get(ancestor, 0.0) for ancestor in ancestors), default=0.0)
    named = any(ancestor in cards.named for ancestor in ancestors)
    own = not named and any(ancestor in cards.own for ancestor in ancestors)
    example = 1.0 if row in cards.examples else 0.0
    return (kind, asked, 1.0 if own else 0.0, 1.0 if named else 0.0, example, learnt_value(learnt, ancestors))


NO_CARDS = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
# How strongly a question's card tokens point to each section and rule (see card_learnt).
Learnt = tuple[dict[str, float], dict[str, float]]


def card_learnt(associations: Associations, tokens: tuple[str, ...]) -> Learnt:
    """How strongly the card tokens of a question (see CardSignals.tokens) point to each section and rule, by how often
    the tuning part's card questions holding them were answered there: each token counts the same, and one seen with a
    section once says less than one seen with it every time (as :func:`associated` weighs words)."""
    if not tokens:
        return {}, {}
    return associated(associations, list(tokens), dict.fromkeys(tokens, 1.0))


def learnt_value(learnt: Learnt, ancestors: tuple[str, ...]) -> float:
    """A row's share of ``learnt``: its section's and its rule's, as the word associations are read."""
    if len(ancestors) <= 2:
        return 0.0
    return learnt[0].get(ancestors[-2], 0.0) + learnt[1].get(ancestors[1], 0.0)


@dataclass(frozen=True, slots=True)
class Signals:
    """What the question says beyond its words: the topics it names and what they point to and mean, the rules its
    phrasing proposes, the rules defining what it asks the meaning of, and its words' associations."""

    linked: dict[str, float]
    meaning: dict[str, float]
    interactions: list[str]
    defined: set[str]
    sections: dict[str, float]
    rules: dict[str, float]
    cards: CardSignals | None = None
    card_rows: frozenset[int] = frozenset()  # the rows found for the cards alone
    card_learnt: Learnt = ({}, {})  # how strongly the cards' tokens point to each section and rule (card_learnt)


def near_rows(entries: Entries, question: Question) -> set[int]:
    """The rows where two of the question's rarer words stand next to each other ("toughness 0")."""
    known = question.known
    pairs = [
        (a, b)
        for a, b in zip(known, known[1:], strict=False)
        if min(entries.df_share(stem(a)), entries.df_share(stem(b))) <= COMMON
    ][:1]
    if not pairs:
        return set()
    return set(entries.matching(" OR ".join(f'NEAR("{a}" "{b}", 2)' for a, b in pairs)))


def features(
    entries: Entries, question: Question, found: list[int], signals: Signals
) -> list[tuple[Candidate, tuple[float, ...]]]:
    """Each found row's features, in the order of ranker.FEATURES; rows holding none of the words are left out."""
    text, weighted, stems = question.text, question.weighted, question.stems
    linked, meaning, interactions, defined = signals.linked, signals.meaning, signals.interactions, signals.defined
    variant = any(word in VARIANT_WORDS for word in question.terms)
    asks = [i for i, (asking, _says) in enumerate(ASKS) if asking.search(text)]
    consequence = HAPPENS_RE.search(text) is not None
    sections, rules = signals.sections, signals.rules
    near = near_rows(entries, question)
    question_pairs = {
        hash((a, b)): (a, b) for a, b in zip(stems, stems[1:], strict=False) if a in entries.idf and b in entries.idf
    }
    pair_weight = 1.0 / max(1, len(question_pairs))
    stem_set = set(question.weights)
    meaning_total = sum(meaning.values())
    title_stems, norm = entries.title_stems, entries.masks.norm
    context_stems, doc_pairs = entries.context_stems, entries.pairs
    phrase_stems = entries.phrase_stems
    held = entries.masks.holding({*(s for s, _a, _w in weighted), *(a for _s, a, _w in weighted), *meaning}, found)
    holders = holders_of(weighted, held)
    # Only a row holding both words of a pair may hold the pair.
    pairs_held = [(pair, held[a] & held[b]) for pair, (a, b) in question_pairs.items()]
    covers: list[tuple[int, float, float, float, float]] = []
    phrased: dict[int, tuple[float, float]] = {}
    # A row a card's ability points to is ranked even when it holds none of the question's words.
    card_rows = signals.card_rows
    for row in found:
        cover = context = 0.0
        around = context_stems[row]
        for holding, s, weight in holders:
            if row in holding:
                cover += weight
            elif s in around:
                context += weight
        if phrase_stems[row]:
            phrased[row] = phrase_values(entries, row, weighted)
        if cover or phrased.get(row, (0.0, 0.0))[0] or row in card_rows:
            # As bm25 with the title weighted four times (an entry under "Mana Abilities" is about them).
            titled = title_stems[row]
            title_cover = (
                0.0 if titled.isdisjoint(stem_set) else sum(weight for s, _a, weight in weighted if s in titled)
            )
            covers.append((row, cover, (cover + TITLE_BM25 * title_cover) * norm[row], title_cover, context))
    if not covers:
        return []
    bm25_scale = 1.0 / (max(item[2] for item in covers) or 1.0)
    ancestors = entries.ancestors
    distinct = distinctness(entries, [item[0] for item in covers], holders)
    out: list[tuple[Candidate, tuple[float, ...]]] = []
    for row, cover, bm25, title_cover, context in covers:
        share_ = 0.0
        if linked:
            for ancestor in ancestors[row]:
                value = linked.get(ancestor)
                if value is not None and value > share_:
                    share_ = value
        kind_row = entries.row_kind[row]
        says = entries.says(row)
        features = (
            bm25 * bm25_scale,
            cover,
            title_cover,
            1.0 if kind_row == SUBRULE else 0.0,
            1.0 if kind_row == GLOSSARY else 0.0,
            1.0 if kind_row == FIRST else 0.0,
            0.0 if variant else entries.variant[row],
            1.0 if row in near else 0.0,
            share_,
            1.0 if consequence and ancestors[row][-2:-1] == (CONSEQUENCE_SECTION,) else 0.0,
            context,
            shared_pairs(doc_pairs[row], row, pairs_held) * pair_weight if question_pairs else 0.0,
            entries.length[row],
            sum(says[i] for i in asks) / len(asks) if asks else 0.0,
            sum(weight for s, weight in meaning.items() if row in held[s]) / meaning_total if meaning else 0.0,
        )
        if len(ancestors[row]) > 2:
            features += (sections.get(ancestors[row][-2], 0.0), rules.get(ancestors[row][1], 0.0))
        else:
            features += (0.0, 0.0)
        key = entries.docs[row][1]
        features += (
            1.0 if any(is_under(key, ref) for ref in interactions) else 0.0,
            1.0 if key in defined else 0.0,
        )
        phrase_cover, asked_like = phrased.get(row, (0.0, 0.0))
        features += (phrase_cover, asked_like, distinct.get(row, 0.0))
        features += card_values(signals.cards, row, ancestors[row], signals.card_learnt)
        # How much of the question the entry holds, in its text or in the words players use for it.
        whole = cover if not phrase_cover else _union_cover(entries, row, weighted, holders)
        out.append((Candidate(row, whole, share_ > 0, question.off_topic, question.asked), features))
    return out


def holders_of(weighted: list[tuple[str, str, float]], held: dict[str, frozenset[int]]) -> Holders:
    """For each of the question's words, the rows holding it or its other spelling (``held``: the rows holding
    each stem, from :meth:`StemMasks.holding`)."""
    return [(held[s] | held[alternative], s, weight) for s, alternative, weight in weighted]


def distinctness(entries: Entries, rows: list[int], holders: Holders) -> dict[int, float]:
    """For each row, how well its own words answer the question against the other candidates of its section (its
    opening rule, its parent, its neighbouring rules and steps): each of the question's words it holds counts by
    its weight and by how few of those candidates hold it; the value is the row's share of the best in its section,
    1 for the rule that states the answer in its own words rather than around them."""
    by_section: dict[str, list[int]] = {}
    for row in rows:
        section = entries.ancestors[row][-2:-1]
        if section:
            by_section.setdefault(section[0], []).append(row)
    out: dict[int, float] = {}
    for family in by_section.values():
        if len(family) < 2:
            out[family[0]] = 1.0
            continue
        held = [sum(1 for row in family if row in holding) for holding, _s, _w in holders]
        values = {
            row: sum(
                weight * math.log(1 + len(family) / count)
                for (holding, _s, weight), count in zip(holders, held, strict=True)
                if row in holding
            )
            for row in family
        }
        best = max(values.values()) or 1.0
        out.update((row, value / best) for row, value in values.items())
    return out


def phrase_values(entries: Entries, row: int, weighted: list[tuple[str, str, float]]) -> tuple[float, float]:
    """How much of the question (by rarity) the row's phrasings hold, and how closely the question is one of the
    questions they ask: the cosine of the question and its closest ask, each word weighted by its rarity (a long
    ask holding the question's words among many others is less alike than a short one)."""
    phrase = entries.phrase_stems[row]
    cover = sum(weight for s, alternative, weight in weighted if s in phrase or alternative in phrase)
    best = 0.0
    if cover:
        idf, unknown = entries.idf, entries.max_idf
        rarity = {s: idf.get(s, unknown) for s, _a, _w in weighted}
        spelled = {alternative: s for s, alternative, _w in weighted if alternative != s}
        norm = math.sqrt(sum(value * value for value in rarity.values()))
        for ask in entries.ask_stems[row]:
            held = {s for s in rarity if s in ask} | {s for alternative, s in spelled.items() if alternative in ask}
            if held:
                size = math.sqrt(sum(idf.get(s, unknown) ** 2 for s in ask))
                best = max(best, sum(rarity[s] ** 2 for s in held) / (norm * size))
    return cover, best


def _union_cover(entries: Entries, row: int, weighted: list[tuple[str, str, float]], holders: Holders) -> float:
    phrase = entries.phrase_stems[row]
    return sum(
        weight
        for (s, alternative, weight), (holding, _s, _w) in zip(weighted, holders, strict=True)
        if row in holding or s in phrase or alternative in phrase
    )


def associated(
    associations: Associations, stems: list[str], weights: dict[str, float]
) -> tuple[dict[str, float], dict[str, float]]:
    """How strongly the question's words point to each section (704) and rule (704.5), by how often the
    tuning questions holding them were answered there, each word weighted by its rarity."""
    sections: dict[str, float] = {}
    rules: dict[str, float] = {}
    total = sum(weights.values())
    for s in dict.fromkeys(stems):
        found = associations.get(s)
        if not found:
            continue
        part = weights[s] / total
        for out, counts in zip((sections, rules), found, strict=True):
            seen = sum(counts.values()) + ASSOCIATION_PRIOR
            for key, count in counts.items():
                out[key] = out.get(key, 0.0) + part * count / seen
    return sections, rules
