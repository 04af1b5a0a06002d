"""Deck files as the sites and clients write them: encodings, MTGO's .dek XML (hostile XML refused), CSV exports
found by their headers, and what is not a deck file."""

from __future__ import annotations

import codecs

import pytest

from bot.goldfish.decks import MAIN, SIDEBOARD, DeckProblem, read_file

LIST = "4 Street Wraith\r\n2 Vedalken Æthermage\r\n54 Swamp\r\n\r\n3 Flame Jet\r\n"
EXPECTED = [
    (4, "Street Wraith", MAIN),
    (2, "Vedalken Æthermage", MAIN),
    (54, "Swamp", MAIN),
    (3, "Flame Jet", SIDEBOARD),
]


def read(name: str, data: bytes) -> list[tuple[int, str, str]]:
    return [(line.count, line.name, line.section) for line in read_file(name, data).lines]


@pytest.mark.parametrize(
    "data",
    [
        LIST.encode("utf-8"),
        codecs.BOM_UTF8 + LIST.encode("utf-8"),
        LIST.encode("utf-16"),  # with its BOM, as Windows writes it
        codecs.BOM_UTF16_BE + LIST.encode("utf-16-be"),
        LIST.encode("utf-16-le"),  # no BOM at all
        LIST.encode("utf-16-be"),
        LIST.encode("utf-8") + b"\x1a",  # an old editor's end-of-file mark
    ],
    ids=["utf-8", "utf-8 bom", "utf-16", "utf-16-be bom", "utf-16-le", "utf-16-be", "ctrl-z"],
)
def test_text_in_every_encoding_players_export(data):
    assert read("deck.txt", data) == EXPECTED
    assert read("deck.dec", data) == EXPECTED


@pytest.mark.parametrize(
    ("name", "data", "message"),
    [
        ("deck.txt", b"", "empty"),
        ("deck.txt", b"\xef\xbb\xbf \r\n", "empty"),
        ("deck.txt", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "binary"),
        ("deck.txt", b"PK\x03\x04\x14\x00\x06\x00", "binary"),
        ("deck.txt", "4 Æther Vial".encode("cp1252"), "UTF-8"),
        ("deck.png", b"4 Forest", ".txt, .dek, .csv and .dec"),
        ("deck", b"4 Forest", ".txt, .dek, .csv and .dec"),
        ("deck.csv", b"Title,Price\nForest,0.10\n", "columns"),
    ],
)
def test_what_is_not_a_deck_file_is_refused_in_one_line(name, data, message):
    with pytest.raises(DeckProblem, match=message) as refused:
        read_file(name, data)
    assert "\n" not in str(refused.value)


DEK = """<?xml version="1.0" encoding="utf-8"?>
<Deck xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
  <NetDeckID>0</NetDeckID>
  <PreconstructedDeckID>0</PreconstructedDeckID>
  <Cards CatID="22608" Quantity="4" Sideboard="false" Name="Street Wraith" Annotation="0" />
  <Cards CatID="1" Quantity="56" Sideboard="false" Name="Swamp" Annotation="0" />
  <Cards CatID="2" Quantity="3" Sideboard="true" Name="Flame Jet" Annotation="0" />
</Deck>
"""


def test_mtgo_dek_xml_with_its_sideboard():
    expected = [(4, "Street Wraith", MAIN), (56, "Swamp", MAIN), (3, "Flame Jet", SIDEBOARD)]
    assert read("deck.dek", DEK.encode("utf-8")) == expected
    assert read("deck.dek", DEK.replace('encoding="utf-8"', 'encoding="utf-16"').encode("utf-16")) == expected


LAUGHS = """<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>
<Deck><Cards Quantity="4" Sideboard="false" Name="&lol3;" /></Deck>"""
EXTERNAL = """<?xml version="1.0"?>
<!DOCTYPE Deck [<!ENTITY secret SYSTEM "file:///etc/passwd">]>
<Deck><Cards Quantity="4" Sideboard="false" Name="&secret;" /></Deck>"""


@pytest.mark.parametrize("xml", [LAUGHS, EXTERNAL, "<Deck><Cards Quantity='4' Name='Forest'>", "<Other/>"])
def test_hostile_or_broken_xml_is_refused_and_nothing_is_expanded_or_fetched(xml):
    with pytest.raises(DeckProblem) as refused:
        read_file("deck.dek", xml.encode("utf-8"))
    assert "lol" not in str(refused.value) and "root" not in str(refused.value)


@pytest.mark.parametrize(
    "csv",
    [
        # Moxfield's collection export: quoted, the count first.
        '"Count","Tradelist Count","Name","Edition","Condition","Language","Foil","Tags","Collector Number"\n'
        '"4","0","Street Wraith","fut","Near Mint","English","","","88"\n'
        '"56","0","Swamp","m21","Near Mint","English","","","272"\n',
        # Archidekt: the quantity first, a category column.
        "Quantity,Name,Finish,Condition,Date Added,Language,Set Code,Categories\n"
        "4,Street Wraith,Normal,NM,2025-01-01,English,fut,Creature\n"
        "56,Swamp,Normal,NM,2025-01-01,English,m21,Land\n"
        "3,Flame Jet,Normal,NM,2025-01-01,English,tor,Sideboard\n"
        "1,Bloated Toad,Normal,NM,2025-01-01,English,hou,Maybeboard\n",
        # ManaBox: the name first, the quantity later, semicolons.
        "Name;Set code;Set name;Collector number;Foil;Rarity;Quantity\n"
        "Street Wraith;fut;Future Sight;88;normal;uncommon;4\nSwamp;m21;Core Set 2021;272;normal;common;56\n",
        # MTGO's CSV: a Sideboarded column, tab-separated here.
        "Card Name\tQuantity\tID #\tRarity\tSet\tCollector #\tPremium\tSideboarded\n"
        "Street Wraith\t4\t1\tUncommon\tFUT\t88\tNo\tNo\nSwamp\t56\t2\tCommon\tM21\t272\tNo\tNo\n"
        "Flame Jet\t3\t3\tCommon\tTOR\t94\tNo\tYes\n",
    ],
    ids=["moxfield", "archidekt", "manabox", "mtgo"],
)
def test_csv_exports_by_their_header_names(csv):
    lines = read_file("deck.csv", csv.encode("utf-8")).lines
    assert [(line.count, line.name) for line in lines if line.section == MAIN] == [(4, "Street Wraith"), (56, "Swamp")]
    assert all(line.section in (MAIN, SIDEBOARD) for line in lines)  # a maybeboard is no part of the deck
    assert lines[0].card_set == "fut"


def test_a_pasted_csv_with_its_header_is_read_as_one():
    text = "Quantity,Name\n4,Street Wraith\n56,Swamp\n"
    assert read("deck.txt", text.encode()) == [(4, "Street Wraith", MAIN), (56, "Swamp", MAIN)]
