"""One matcher for names of every script: English and names printed in other languages, folded alike (case and
accents aside; Japanese, Korean and Chinese after NFKC), those without spaces matched by prefix and by pairs of
characters; an exact English name first, then the player's language."""

from __future__ import annotations

import json

import pytest

from bot.text import Entry, Matcher, fold, normalise, unspaced
from tests.data import LAYOUT_CARDS, PRINTED_NAMES, SCRYFALL_CARDS

ROWS = json.loads(PRINTED_NAMES.read_text(encoding="utf-8"))


def english_names() -> list[str]:
    names = []
    for path in (SCRYFALL_CARDS, LAYOUT_CARDS):
        with open(path, encoding="utf-8") as lines:
            names += [json.loads(line)["name"] for line in lines if line.strip()]
    return names


def test_folding_an_english_name_is_normalising_it():
    """The card database compares English names by ``normalise``: ``fold`` gives the same for every real one."""
    names = english_names()
    assert len(names) > 300
    assert [fold(name) for name in names] == [normalise(name) for name in names]


@pytest.mark.parametrize(
    ("printed", "folded"),
    [
        ("Éclaireuse amroue", "eclaireuse amroue"),
        ("Grâce de l'ange", "grace de lange"),
        ("Montaña", "montana"),
        ("Каменный Оползень", "каменныи оползень"),  # й as и: Russian's ё/е and й/и forgiven alike
        ("アムローの偵察兵", "アムローの偵察兵"),
        ("ｱﾑﾛｰ", "アムロー"),  # half-width katakana after NFKC
        ("ガラク", "ガラク"),  # the voicing mark is part of the letter, not an accent
        ("安罗斥候", "安罗斥候"),
        ("ＡＢＣ", "abc"),  # full-width Latin
    ],
)
def test_printed_names_fold_across_scripts(printed, folded):
    assert fold(printed) == folded
    assert unspaced(fold(printed)) == any(ord(c) > 0x2E80 for c in folded)


def matcher() -> Matcher:
    """The Time Spiral cards' English and printed names, as the bot's matcher holds them."""
    entries = [Entry(row["name"], row["name"]) for row in ROWS]
    keys = [(row["name"], n) for n, row in enumerate(ROWS)]
    for row in ROWS:
        for lang, name in row["printed"].items():
            keys.append((name, len(entries)))
            entries.append(Entry(f"{name} · {row['name']}", f"{name} · {row['name']}", lang=lang))
    return Matcher(entries, keys)


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("Разведчек Амру", "Разведчик Амру · Amrou Scout"),  # one letter wrong, Cyrillic
        ("Lotus-Blutezeit", "Lotus-Blütezeit · Lotus Bloom"),
        ("floraison de lotsu", "Floraison de lotus · Lotus Bloom"),
        ("天使の嗜", "天使の嗜み · Angel's Grace"),  # a prefix
        ("使の嗜み", "天使の嗜み · Angel's Grace"),  # held inside the name: no word splitting
        ("盛开", "盛开莲花 · Lotus Bloom"),
    ],
)
def test_the_best_choice_is_the_name_meant(typed, meant):
    found = matcher().complete(typed, 25)
    assert found and found[0].value == meant


def test_a_player_of_a_language_sees_its_names_first_and_english_otherwise():
    m = matcher()
    assert m.complete("Is", 25, prefer="es")[0].value == "Isla · Island"
    assert m.complete("Is", 25, prefer="it")[0].value == "Isola · Island"
    english_first = m.complete("Is", 25)
    assert english_first[0].value == "Island" and all(e.lang is not None for e in english_first[1:])


def test_an_exact_english_name_beats_a_printed_one_whatever_the_language():
    entries = [Entry("Plaine", "Plaine"), Entry("Plaine · Plains", "Plaine · Plains", lang="fr")]
    m = Matcher(entries, [("Plaine", 0), ("Plaine", 1)])  # an English card whose name is French's for Plains
    assert [e.value for e in m.complete("plaine", 25, prefer="fr")] == ["Plaine", "Plaine · Plains"]


def test_a_shared_printed_name_offers_every_card():
    assert {e.value for e in matcher().complete("Eliminare", 25)} >= {"Eliminare · Cancel", "Eliminare · Wipe Away"}
