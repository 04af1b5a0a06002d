"""The name matcher's cost per keystroke is bounded whatever is typed: the fuzzy word search looks only at words
of a length that can match, and at a few words of what was typed (autocomplete runs on the event loop)."""

from __future__ import annotations

import gc
import random
import string

from rapidfuzz import fuzz, process

from bot.text import matching
from bot.text.matching import MAX_WORDS, WORD_CUTOFF, Entry, Matcher


def words_matcher(rng: random.Random) -> Matcher:
    vocabulary = {"".join(rng.choices(string.ascii_lowercase, k=rng.randint(1, 12))) for _ in range(3000)}
    names = [" ".join(rng.sample(sorted(vocabulary), rng.randint(1, 4))) for _ in range(2000)]
    return Matcher([Entry(name, name) for name in names], [(name, n) for n, name in enumerate(names)])


def test_the_words_of_a_near_length_are_exactly_the_words_within_the_cutoff():
    rng = random.Random(7)
    matcher = words_matcher(rng)
    found = 0
    for _ in range(300):
        word = "".join(rng.choices(string.ascii_lowercase, k=rng.randint(1, 14)))
        every = process.extract(word, matcher.vocabulary, scorer=fuzz.ratio, score_cutoff=WORD_CUTOFF, limit=None)
        near = process.extract(
            word, matcher._near_in_length(word), scorer=fuzz.ratio, score_cutoff=WORD_CUTOFF, limit=None
        )
        assert sorted(m[:2] for m in every) == sorted(m[:2] for m in near)  # (word, score); not the positions
        found += bool(every)
    assert found > 30  # words with matches were tried, not only words without


def test_a_text_of_fifty_words_costs_the_passes_of_a_few(monkeypatch):
    matcher = words_matcher(random.Random(8))
    passes = []
    extract = process.extract

    def counted(query, choices, **options):
        if options.get("scorer") is fuzz.ratio:
            passes.append(query)
        return extract(query, choices, **options)

    monkeypatch.setattr(matching.process, "extract", counted)
    typed = " ".join(random.Random(9).choices(string.ascii_lowercase, k=50))
    matcher.complete(typed, 25)
    assert 0 < len(passes) <= MAX_WORDS


def test_a_long_name_is_still_found_from_its_first_words_and_the_word_being_typed():
    name = "Our Market Research Shows That Players Like Really Long Card Names So We Made This Card"
    names = [name, "Market Research Elemental", "Long Card Names"]
    matcher = Matcher([Entry(n, n) for n in names], [(n, i) for i, n in enumerate(names)])
    assert (
        matcher.complete("our markett research shows that players like realy long card names so we made this", 5)[
            0
        ].value
        == name
    )


def test_a_built_matcher_adds_nothing_to_what_the_garbage_collector_follows():
    # Twenty thousand names, many sharing words (postings of several keys), some printed in another language: once
    # built and seen by one collection, the matcher leaves the process's full collections as they were.
    rng = random.Random(11)
    vocabulary = ["".join(rng.choices(string.ascii_lowercase, k=rng.randint(3, 9))) for _ in range(4000)]
    names = [" ".join(rng.sample(vocabulary, rng.randint(1, 4))) for _ in range(20_000)]
    entries = [Entry(name.title(), name.title(), n % 2, "de" if n % 3 else None) for n, name in enumerate(names)]
    keys = [(name, n) for n, name in enumerate(names)]
    gc.collect()
    before = len(gc.get_objects())
    matcher = Matcher(entries, keys)
    del entries, keys
    matcher.complete("fir", 25)  # a choice list, and a fuzzy one, as players ask
    matcher.complete("qzxwv trlo", 25)
    gc.collect()
    gc.collect()
    assert len(gc.get_objects()) - before < 200
    assert matcher.complete(names[0]) and matcher.complete(names[0])[0].name == names[0].title()
