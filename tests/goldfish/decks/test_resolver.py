"""One resolver for every way in: names found in the local copy (faces, accents, typos), every line that is not
an exact name said, sources added to it, and a round trip of every format a deck comes in."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable

import orjson
import pytest

from bot.carddb import NameMatch
from bot.goldfish.decks import (
    COMMANDER,
    MAIN,
    SIDEBOARD,
    DeckProblem,
    LocalCards,
    Near,
    PlayerDeck,
    parse_decklist,
    read_file,
    read_list,
)
from bot.goldfish.decks.sites import archidekt_list
from bot.goldfish.engine import Game


async def test_names_are_found_by_their_faces_and_without_accents(resolver):
    text = "4 Tangled Vale\n4 Troll of Khazad-dum\n2 Vedalken Æthermage\n1 life\n1 Fertile Footsteps\n4 Street Wraith"
    deck = await resolver.resolve(read_list(text + "\n4 street wraith"), "Faces")
    assert deck.entries(MAIN) == (
        (4, "Tangled Florahedron // Tangled Vale"),
        (4, "Troll of Khazad-dûm"),
        (2, "Vedalken Aethermage"),
        (1, "Life // Death"),
        (1, "Beanstalk Giant // Fertile Footsteps"),
        (8, "Street Wraith"),  # two lines of one card, merged
    )
    assert deck.readings == ()
    assert "image_uris" not in deck.cards["Street Wraith"]  # only what the engine reads is kept


async def test_every_line_not_an_exact_name_is_said_with_what_it_was_read_as_or_what_comes_closest(resolver):
    text = "4 Bloated Todd\n4 Zqxvwk\n4 Gavi\n4 Decree Justice\n4 Sandbar\n40 Swamp"
    with pytest.raises(DeckProblem) as refused:
        await resolver.resolve(read_list(text), "Typos")
    assert str(refused.value).splitlines() == [
        "I couldn't find 4 cards of that list, so nothing was used:",
        "• Bloated Todd: read as **Bloated Toad**",
        "• Zqxvwk: no card has that name",
        "• Gavi: no card has that name; closest: **Gavi, Nest Warden**",
        "• Decree Justice: no card has that name; closest: **Decree of Justice**",
        "• Sandbar: no card has that name; closest: **Sandbar Merfolk** or **Sandbar Serpent**",
        "Check the spelling and try again.",
    ]


async def test_a_typo_alone_is_read_as_its_card_and_the_deck_says_so(resolver):
    text = "4 Bloated Todd\n4 Street Wriath\n4 Rune of Protection: Rd\n28 Swamp"
    deck = await resolver.resolve(read_list(text), "Toads")
    assert deck.entries(MAIN) == (
        (4, "Bloated Toad"),
        (4, "Street Wraith"),
        (4, "Rune of Protection: Red"),
        (28, "Swamp"),
    )
    assert [(r.typed, r.read_as) for r in deck.readings] == [
        ("Bloated Todd", "Bloated Toad"),
        ("Street Wriath", "Street Wraith"),
        ("Rune of Protection: Rd", "Rune of Protection: Red"),
    ]


class Tie:
    """A lookup that finds several cards equally well (a picker's answer), as a fuzzy match of a typo can."""

    def __init__(self, records) -> None:
        self.records = tuple(records)

    async def named(self, name):
        return NameMatch(None, self.records, how="fuzzy")


async def test_of_several_cards_a_lookup_finds_the_one_a_typo_is_a_letter_from_is_read(card_data):
    rannets = (await card_data.collection(["Ridge Rannet", "Valley Rannet"])).values()
    near = await LocalCards(Tie(rannets)).near("Valley Ranet")
    assert near.card["name"] == "Valley Rannet" and near.offered == ("Valley Rannet", "Ridge Rannet")
    both = await LocalCards(Tie(rannets)).near("Rannet")  # as far from one as from the other: offered, not read
    assert both.card is None and set(both.offered) == {"Valley Rannet", "Ridge Rannet"}


async def test_a_printing_is_kept_for_the_picture_and_one_the_copy_lacks_falls_back_to_the_name(resolver):
    deck = await resolver.resolve(read_list("4 Street Wraith (ZZZ) 999\n4 Bloated Toad (HOU) 59\n32 Swamp"), "Prints")
    assert deck.entries(MAIN)[0] == (4, "Street Wraith")
    assert deck.prints == {"Street Wraith": ("zzz", "999"), "Bloated Toad": ("hou", "59")}


async def test_many_missing_names_are_counted_past_the_ones_looked_at(resolver):
    text = "\n".join(f"1 Nonsense Card Number {'x' * n}" for n in range(1, 31))
    with pytest.raises(DeckProblem) as refused:
        await resolver.resolve(parse_decklist(text), "Nonsense")
    said = str(refused.value)
    assert said.startswith("I couldn't find 30 cards") and "… and 10 more lines" in said and len(said) <= 2000


class PrintedNames:
    """A names source of another kind (printed names in another language), added to the resolver."""

    def __init__(self, names: dict[str, str], card_data) -> None:
        self.names, self.card_data = names, card_data

    async def exact(self, names):
        found = await self.card_data.collection([self.names[n] for n in names if n in self.names])
        return {n: found[self.names[n]].scryfall for n in names if n in self.names and found.get(self.names[n])}

    async def near(self, name):
        return Near()


async def test_a_names_source_added_to_the_resolver_finds_what_the_others_do_not(resolver, card_data):
    text = "4 Geflügelter Hirte\n36 Plains"
    with pytest.raises(DeckProblem):
        await resolver.resolve(read_list(text), "Hirten")
    german = resolver.with_source(PrintedNames({"Geflügelter Hirte": "Winged Shepherd"}, card_data))
    deck = await german.resolve(read_list(text), "Hirten")
    assert deck.entries(MAIN) == ((4, "Winged Shepherd"), (36, "Plains"))


# ---------------------------------------------------------------- a round trip of every format


def arena(deck: PlayerDeck) -> bytes:
    parts = ["About", f"Name {deck.name}", ""]
    for header, section in (("Commander", COMMANDER), ("Deck", MAIN), ("Sideboard", SIDEBOARD)):
        if deck.entries(section):
            parts += [header, *(f"{n} {name} (XYZ) 1" for n, name in deck.entries(section)), ""]
    return "\n".join(parts).encode()


def mtgo_text(deck: PlayerDeck) -> bytes:
    main = [f"{n} {name}" for n, name in deck.entries(MAIN)]
    side = [f"{n} {name}" for n, name in deck.entries(SIDEBOARD)]
    return "\r\n".join([*main, "", *side]).encode("utf-16")


def mtgo_dec(deck: PlayerDeck) -> bytes:
    lines = ["// made by a test", *(f"{n} {name}" for n, name in deck.entries(MAIN))]
    return "\n".join(lines + [f"SB: {n} {name}" for n, name in deck.entries(SIDEBOARD)]).encode()


def mtgo_dek(deck: PlayerDeck) -> bytes:
    cards = [
        f'<Cards CatID="1" Quantity="{n}" Sideboard="{str(section == SIDEBOARD).lower()}" Name="{name}" />'
        for section in (MAIN, SIDEBOARD)
        for n, name in deck.entries(section)
    ]
    return ('<?xml version="1.0" encoding="utf-8"?>\n<Deck>' + "".join(cards) + "</Deck>").encode("utf-8-sig")


def moxfield(deck: PlayerDeck) -> bytes:
    main = [f"{n}x {name}" for n, name in deck.entries(COMMANDER) + deck.entries(MAIN)]
    return "\n".join([*main, "", "SIDEBOARD:", *(f"{n}x {name}" for n, name in deck.entries(SIDEBOARD))]).encode()


def one_line(deck: PlayerDeck) -> bytes:
    main = ", ".join(f"{n} {name}" for n, name in deck.entries(MAIN))
    return (
        f"Commander: {deck.entries(COMMANDER)[0][1]}, {main}, Sideboard: "
        + ", ".join(f"{n} {name}" for n, name in deck.entries(SIDEBOARD))
    ).encode()


def csv_export(deck: PlayerDeck) -> bytes:
    out = io.StringIO()
    writer = csv.writer(out, quoting=csv.QUOTE_ALL)
    writer.writerow(["Count", "Name", "Edition", "Board"])
    for section in (COMMANDER, MAIN, SIDEBOARD):
        writer.writerows([n, name, "xyz", section] for n, name in deck.entries(section))
    return out.getvalue().encode()


def tappedout(deck: PlayerDeck) -> bytes:
    lines = [f"{n}x {name} *CMDR*" for n, name in deck.entries(COMMANDER)]
    lines += [f"{n}x {name}" for n, name in deck.entries(MAIN)]
    return "\n".join([*lines, "", "Sideboard:", *(f"{n}x {name}" for n, name in deck.entries(SIDEBOARD))]).encode()


def archidekt(deck: PlayerDeck) -> bytes:
    categories = [
        {"name": "Commander", "isPremier": True, "includedInDeck": True},
        {"name": "Sideboard", "isPremier": False, "includedInDeck": False},
        {"name": "Maybeboard", "isPremier": False, "includedInDeck": False},
        {"name": "Ramp", "isPremier": False, "includedInDeck": True},
    ]
    kinds = {COMMANDER: ["Commander"], MAIN: ["Ramp"], SIDEBOARD: ["Sideboard"]}
    cards = [
        {"quantity": n, "categories": kinds[section], "card": {"oracleCard": {"name": name}, "collectorNumber": "1"}}
        for section in (COMMANDER, MAIN, SIDEBOARD)
        for n, name in deck.entries(section)
    ]
    maybe = {"quantity": 1, "categories": ["Maybeboard"], "card": {"oracleCard": {"name": "Flame Jet"}}}
    return orjson.dumps({"name": deck.name, "categories": categories, "cards": [*cards, maybe]})


FORMATS: dict[str, tuple[Callable[[PlayerDeck], bytes], Callable[[bytes], object], bool]] = {
    "arena": (arena, lambda data: read_file("deck.txt", data), True),
    "mtgo text": (mtgo_text, lambda data: read_file("deck.txt", data), False),
    "mtgo dec": (mtgo_dec, lambda data: read_file("deck.dec", data), False),
    "mtgo dek": (mtgo_dek, lambda data: read_file("deck.dek", data), False),
    "moxfield": (moxfield, lambda data: read_file("deck.txt", data), False),
    "one line": (one_line, lambda data: read_list(data.decode()), True),
    "csv": (csv_export, lambda data: read_file("deck.csv", data), True),
    "tappedout": (tappedout, lambda data: parse_decklist(data.decode()), True),
    "archidekt": (archidekt, archidekt_list, True),
}


@pytest.mark.parametrize("kind", sorted(FORMATS))
async def test_a_round_trip_of_each_format_keeps_every_section(kind, resolver):
    written, read, keeps_commander = FORMATS[kind]
    original = await resolver.resolve(
        read_list(
            "Commander\n1 Gavi, Nest Warden\nDeck\n4 Street Wraith\n2 Troll of Khazad-dûm\n1 Life // Death\n"
            "53 Swamp\nSideboard\n3 Flame Jet\n1 Tangled Florahedron // Tangled Vale"
        ),
        "Round trip",
    )
    again = await resolver.resolve(read(written(original)), "Round trip")
    expected = dict(original.sections)
    if not keeps_commander:  # a format with no commander: the commander's line is in the main deck or left out
        expected.pop(COMMANDER)
        if kind == "moxfield":
            expected[MAIN] = ((1, "Gavi, Nest Warden"), *expected[MAIN])
    assert dict(again.sections) == expected
    Game.new(again.engine_deck(), seed=1)  # and a game is dealt from it
