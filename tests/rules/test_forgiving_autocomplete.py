"""/rule's autocomplete as forgiving as its lookup: every glossary term the lookup answers with a one-letter typo in
any position of any word (a letter dropped, doubled or swapped with the next), autocomplete offers too, the bundled
excerpt included (its lookup names the full edition's terms from the outline: "frist strike" → 702.7)."""

from __future__ import annotations

import pytest

from bot.client import CycleBot

# Every fourth term of the full edition's glossary: several hundred typed texts, each a term a typo away.
EVERY = 4


def typos(word: str) -> set[str]:
    """The word with one letter dropped, doubled or swapped with the next, at each position."""
    found = set()
    for at in range(len(word)):
        found.add(word[:at] + word[at + 1 :])
        found.add(word[:at] + word[at] + word[at:])
        if at + 1 < len(word):
            found.add(word[:at] + word[at + 1] + word[at] + word[at + 2 :])
    found.discard(word)
    return found


def typed_terms(index) -> list[tuple[str, str]]:
    """(what was typed, the term the lookup takes it for), over a sample of the outline's terms."""
    cases = []
    terms = sorted(term for term, number in index.outline.terms.items() if number and "(Obsolete)" not in term)
    for term in terms[::EVERY]:
        words = term.split()
        for position, word in enumerate(words):
            if len(word) < 4:
                continue
            for typo in sorted(typos(word)):
                typed = " ".join([*words[:position], typo, *words[position + 1 :]])
                pointer = index.outline.term(typed)
                if pointer is not None and pointer.term == term:
                    cases.append((typed, term))
    return cases


def test_every_term_the_excerpts_lookup_answers_through_a_typo_autocomplete_offers(excerpt_index):
    cases = typed_terms(excerpt_index)
    assert len(cases) > 2000
    missed = [
        (typed, term) for typed, term in cases if term not in {c.value for c in excerpt_index.autocomplete(typed)}
    ]
    assert missed == [], f"{len(missed)} of {len(cases)} missed, e.g. {missed[:5]}"


@pytest.fixture
def simcord_bot(bot_config):
    return CycleBot(bot_config)


@pytest.mark.parametrize(("typed", "term"), [("frist", "First Strike"), ("deathtuch", "Deathtouch")])
async def test_rule_autocomplete_offers_a_term_the_excerpt_lacks_through_a_typo(
    simcord_env, channel, alice, typed, term
):
    choices = await alice.autocomplete(channel, "rule", "query", typed)

    assert term in [choice["value"] for choice in choices][:3]
    answered = await alice.slash(channel, "rule", query=term)  # and choosing it answers
    assert "702." in answered.response.embeds[0].title
