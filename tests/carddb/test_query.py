"""Scryfall's search syntax answered from the local copy: each key's semantics checked against the real
card objects (the fake's 247 real cards and its multi-faced, token, funny and look-alike objects), by
computing the expected cards straight from those objects."""

from __future__ import annotations

import pytest

from bot.carddb import NeedsScryfall, QueryError
from bot.carddb.kinds import KINDS as IMPORT_KINDS
from bot.carddb.names import extra_kind
from bot.carddb.query import warning_sentence
from bot.carddb.store import CardStore
from bot.carddb.update import update_from_scryfall
from bot.cards.query import KINDS, cycling_query
from tests.data import SCRYFALL_CARDS
from tests.support.fake_bulk import FakeBulk

ALL = 10_000


@pytest.fixture(scope="module")
def fake_bulk():
    with FakeBulk(SCRYFALL_CARDS) as fake:
        yield fake


@pytest.fixture(scope="module")
def store(fake_bulk, tmp_path_factory):
    """The fake's cards imported once for this module, the way the bot imports them (searches only read)."""
    path = tmp_path_factory.mktemp("query") / "cards.sqlite3"
    update_from_scryfall(path, fake_bulk.base_url)
    opened = CardStore(path)
    yield opened
    opened.close()


def names(store: CardStore, query: str) -> list[str]:
    return [card.name for card in store.search(query, page_size=ALL).cards]


def faces(card: dict) -> list[dict]:
    return card.get("card_faces") or [card]


def real(fake_bulk) -> list[dict]:
    return [card for card in fake_bulk.cards if extra_kind(card) is None]


def expect(fake_bulk, test) -> list[str]:
    """The names, sorted the way a search sorts them, of the real cards for which ``test`` holds."""
    from bot.text import normalise

    return [card["name"] for card in sorted(real(fake_bulk), key=lambda c: normalise(c["name"])) if test(card)]


def colours(card: dict) -> set[str]:
    if card.get("colors") is not None:
        return set(card["colors"])
    return {colour for face in faces(card) for colour in face.get("colors") or ()}


def number(value) -> float | None:
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


# ---------------------------------------------------------------------- names


def test_bare_words_are_in_the_name_and_all_must_hold(store, fake_bulk):
    assert names(store, "lightning") == ["Lightning Bolt", "Lightning Helix", "Lightning Rift"]
    assert names(store, "fling") == ["Akki Boneflinger", "Fling"]  # never A-Fling or the art card
    assert names(store, "sojourners bant") == ["Bant Sojourners"]
    assert names(store, '"lightning bolt"') == ["Lightning Bolt"]
    assert names(store, "name:wraith") == ["Street Wraith"]


def test_an_exact_name_matches_the_whole_name_or_a_face(store):
    assert names(store, "!fling") == ["Fling"]
    assert names(store, '!"fire // ice"') == ["Fire // Ice"]
    assert names(store, "!stomp") == ["Bonecrusher Giant // Stomp"]
    assert names(store, "!flin") == []


def test_a_regular_expression_on_names(store, fake_bulk):
    assert names(store, "/^gempalm (a|i)/") == ["Gempalm Avenger", "Gempalm Incinerator"]
    assert names(store, "name:/^insectile/") == ["Delver of Secrets // Insectile Aberration"]


# ---------------------------------------------------------------------- text and types


def test_types_match_on_any_face(store, fake_bulk):
    assert names(store, "t:creature t:instant") == ["Bonecrusher Giant // Stomp"]
    assert names(store, "t:legend") == ["Gavi, Nest Warden"]
    assert names(store, "t:land t:sorcery") == expect(
        fake_bulk, lambda c: {"Land", "Sorcery"} <= set(c["type_line"].replace("//", " ").split())
    )


def test_oracle_text_without_reminder_text_and_tilde_for_the_cards_own_name(store, fake_bulk):
    assert names(store, 'o:"discard this card"') == []  # only in cycling's reminder text
    assert names(store, 'fo:"discard this card"') == expect(
        fake_bulk, lambda c: any("discard this card" in (f.get("oracle_text") or "").lower() for f in faces(c))
    )
    own_name = expect(
        fake_bulk,
        lambda c: any(
            f"when you cycle {(f.get('name') or c['name']).lower()}" in (f.get("oracle_text") or "").lower()
            for f in faces(c)
        ),
    )
    assert own_name and names(store, 'o:"when you cycle ~"') == own_name
    # ^ and $ match at each line: each ability of each face.
    # ^ and $ match at each line: each ability of each face.
    assert names(store, "o:/^draw a card/ t:instant") == expect(
        fake_bulk,
        lambda c: (
            "Instant" in c["type_line"]
            and any(
                line.lower().startswith("draw a card")
                for f in faces(c)
                for line in (f.get("oracle_text") or "").splitlines()
            )
        ),
    )


def test_keywords(store, fake_bulk):
    # Older objects without keywords count by their printed cycling abilities.
    assert names(store, "kw:plainscycling") == expect(
        fake_bulk,
        lambda c: (
            "Plainscycling" in c.get("keywords", ())
            or (not c.get("keywords") and "plainscycling {" in (c.get("oracle_text") or "").lower())
        ),
    )
    assert names(store, "keyword:flying t:creature") == expect(
        fake_bulk, lambda c: "Flying" in c.get("keywords", ()) and "Creature" in c["type_line"]
    )


# ---------------------------------------------------------------------- colours


@pytest.mark.parametrize(
    ("query", "test"),
    [
        ("c:azorius", lambda c, i: {"W", "U"} <= c),
        ("c:rg", lambda c, i: {"R", "G"} <= c),
        ("c=r", lambda c, i: c == {"R"}),
        ("c<=ub", lambda c, i: c <= {"U", "B"}),
        ("c>=gw", lambda c, i: c >= {"G", "W"}),
        ("c>g", lambda c, i: c > {"G"}),
        ("c!=u", lambda c, i: c != {"U"}),
        ("c:m", lambda c, i: len(c) >= 2),
        ("c:c", lambda c, i: not c),
        ("c:red", lambda c, i: "R" in c),
        ("id:esper", lambda c, i: i <= {"W", "U", "B"}),
        ("id<=u", lambda c, i: i <= {"U"}),
        ("id=wu", lambda c, i: i == {"W", "U"}),
        ("id>=naya", lambda c, i: i >= {"R", "G", "W"}),
        ("c=2", lambda c, i: len(c) == 2),
        ("c>=3", lambda c, i: len(c) >= 3),
        ("id<2 -c:c", lambda c, i: len(i) < 2 and c),
    ],
)
def test_colours_and_identity(store, fake_bulk, query, test):
    expected = expect(fake_bulk, lambda card: test(colours(card), set(card.get("color_identity") or ())))
    assert expected and names(store, query) == expected


# ---------------------------------------------------------------------- numbers


@pytest.mark.parametrize(
    ("query", "test"),
    [
        ("mv>=7", lambda c: c.get("cmc", 0) >= 7),
        ("cmc=0", lambda c: c.get("cmc", 0) == 0),
        ("mv:odd", lambda c: int(c.get("cmc", 0)) % 2 == 1),
        ("pow>=5", lambda c: any((number(f.get("power")) or -1) >= 5 for f in faces(c))),
        ("tou<2", lambda c: any((number(f.get("toughness")) or 99) < 2 for f in faces(c))),
        (
            "pow>tou",
            lambda c: any(
                number(f.get("power")) is not None and number(f.get("power")) > number(f.get("toughness"))
                for f in faces(c)
            ),
        ),
        ("pow=tou t:creature", lambda c: any(f.get("power") and f["power"] == f.get("toughness") for f in faces(c))),
    ],
)
def test_numbers_and_comparisons_between_them(store, fake_bulk, query, test):
    expected = expect(fake_bulk, test)
    assert expected and names(store, query) == expected


def test_a_back_face_counts(store):
    # Insectile Aberration is a 3/2, its front a 1/1.
    assert "Delver of Secrets // Insectile Aberration" in names(store, "pow>=3 c:u")
    assert "Delver of Secrets // Insectile Aberration" in names(store, "pow=1 c:u")


# ---------------------------------------------------------------------- printings, legality, kinds


def test_rarity_set_and_formats(store, fake_bulk):
    assert names(store, "r:mythic") == expect(fake_bulk, lambda c: c.get("rarity") == "mythic")
    assert names(store, "r>=rare") == expect(fake_bulk, lambda c: c.get("rarity") in ("rare", "mythic"))
    assert names(store, "s:m10") == ["Lightning Bolt"]
    assert names(store, "f:vintage -f:legacy") == expect(
        fake_bulk,
        lambda c: (
            c["legalities"].get("vintage") in ("legal", "restricted")
            and c["legalities"].get("legacy") not in ("legal", "restricted")
        ),
    )
    assert names(store, "banned:legacy") == ["Troll of Khazad-dûm"]
    assert names(store, "banned:pauper") == ["Cloud of Faeries"]
    assert names(store, "restricted:paupercommander") == ["Bloated Toad"]
    assert "Bloated Toad" in names(store, "legal:pdh")


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("is:split", ["Fire // Ice"]),
        ("is:adventure", ["Bonecrusher Giant // Stomp"]),
        ("is:mdfc", ["Agadeem's Awakening // Agadeem, the Undercrypt"]),
        ("is:transform", ["Delver of Secrets // Insectile Aberration"]),
        ("is:funny", ["Blacker Lotus"]),
        ("is:commander", ["Gavi, Nest Warden"]),
        ("is:reserved", ["Black Lotus"]),
    ],
)
def test_is_terms(store, query, expected):
    assert names(store, query) == expected


def test_is_dfc_and_not(store):
    dfc = names(store, "is:dfc")
    assert dfc == ["Agadeem's Awakening // Agadeem, the Undercrypt", "Delver of Secrets // Insectile Aberration"]
    assert not set(dfc) & set(names(store, "not:dfc"))


def test_vanilla_and_french_vanilla(store, fake_bulk):
    assert names(store, "is:vanilla") == []  # every card of the sample has text
    french = names(store, "is:frenchvanilla")
    assert "Hundroog" in french and "Street Wraith" not in french


def test_tokens_and_other_extras_only_when_asked(store):
    assert names(store, "phoenix") == ["Chandra's Phoenix"]
    assert names(store, "is:token") == ["Phoenix", "Snake", "Snake"]
    assert names(store, "t:token") == ["Phoenix", "Snake", "Snake"]
    assert names(store, "phoenix include:extras") == ["Chandra's Phoenix", "Phoenix"]
    assert "Chandra, Torch of Defiance Emblem" in names(store, "t:emblem")


# ---------------------------------------------------------------------- logic and order


def test_negation_or_and_parentheses(store, fake_bulk):
    assert names(store, "lightning -c:w") == ["Lightning Bolt", "Lightning Rift"]
    assert names(store, "lightning -(c:w or t:enchantment)") == ["Lightning Bolt"]
    assert names(store, "(t:goblin or t:elf) c:g") == expect(
        fake_bulk, lambda c: "G" in colours(c) and ("Goblin" in c["type_line"] or "Elf" in c["type_line"])
    )
    assert names(store, "fling or nix") == ["Akki Boneflinger", "Chandra's Phoenix", "Fling", "Nix"]  # phoe-nix
    assert names(store, "fling and boneflinger") == ["Akki Boneflinger"]


def test_order_and_direction(store, fake_bulk):
    by_cmc = names(store, "t:creature c:g order:cmc")
    cmcs = {card["name"]: card["cmc"] for card in fake_bulk.cards}
    assert [cmcs[name] for name in by_cmc] == sorted(cmcs[name] for name in by_cmc)
    down = names(store, "t:creature c:g order:cmc direction:desc")
    assert [cmcs[name] for name in down] == sorted((cmcs[name] for name in down), reverse=True)
    page = store.search("t:creature order:wibble")
    assert "order:wibble isn't an order I know; sorted by name" in page.warnings


def test_pages_and_count(store, fake_bulk):
    total = len(expect(fake_bulk, lambda c: any("cycling" in (f.get("oracle_text") or "").lower() for f in faces(c))))
    first = store.search("o:cycling", page_size=15)
    last = store.search("o:cycling", page=99, page_size=15)
    assert first.total == last.total == total and first.page_count == -(-total // 15)
    assert last.page == first.page_count - 1 and len(last.cards) == total - 15 * last.page


# ---------------------------------------------------------------------- what is warned, refused or sent on


def test_unknown_keys_and_values_are_named_and_the_rest_searched(store):
    page = store.search("wibble:3 c:purple f:notaformat is:wobbly lightning")
    assert [card.name for card in page.cards] == ["Lightning Bolt", "Lightning Helix", "Lightning Rift"]
    assert page.warnings == (
        "wibble:3 isn't a search term I know",
        "“purple” isn't a colour I know, so c:purple was ignored",
        "“notaformat” isn't a format I know, so f:notaformat was ignored",
        "“wobbly” isn't an is: term I know, so is:wobbly was ignored",
    )
    # Read as one sentence, the unknown terms first.
    assert warning_sentence(page.warnings) == (
        "wibble:3 isn't a search term I know, so I searched the rest; “purple” isn't a colour I know, so c:purple "
        "was ignored; “notaformat” isn't a format I know, so f:notaformat was ignored; “wobbly” isn't an is: term "
        "I know, so is:wobbly was ignored."
    )
    with pytest.raises(QueryError, match=r"^wibble:3 and foo:bar aren't search terms I know, so there was nothing"):
        store.search("wibble:3 foo:bar")


@pytest.mark.parametrize(
    ("query", "what"),
    [
        ("a:nielsen", "artists"),
        ("is:foil t:goblin", "printings"),
        ("usd>5", "today's prices"),
        ("bolt unique:prints", "printings"),
    ],
)
def test_what_only_scryfall_knows_is_sent_on(store, query, what):
    with pytest.raises(NeedsScryfall) as raised:
        store.search(query)
    assert raised.value.what == what


@pytest.mark.parametrize(
    "query",
    ["(t:goblin", "t:goblin)", 'o:"open', "c:r or", "-", "x" * 1001, "a (" * 20 + "b" + ")" * 20, "", "order:cmc"],
)
def test_malformed_searches_are_refused_with_a_reason(store, query):
    with pytest.raises(QueryError) as raised:
        store.search(query)
    assert str(raised.value)


def test_values_are_never_sql(store):
    assert names(store, 'o:"\'; DROP TABLE cards; --"') == []
    assert names(store, 'name:"%" or o:"_"') == []
    assert names(store, "s:\"m10' OR '1'='1\"") == []
    assert names(store, "!fling") == ["Fling"]


# ---------------------------------------------------------------------- /cycling on the same engine


@pytest.mark.parametrize("kind", list(KINDS))
def test_each_cycling_kind_lists_what_the_import_decided(store, kind):
    assert kind in IMPORT_KINDS
    by_engine = [card.name for card in store.search_all(cycling_query(kind)).cards]
    by_import = [card.name for card in store.cycling(kind)]
    assert by_engine == by_import


@pytest.mark.parametrize(
    ("query", "test"),
    [
        ("produces:c", lambda p: "C" in p),
        ("produces:r", lambda p: "R" in p),
        ("produces=g", lambda p: p == {"G"}),
        ("produces>=wu", lambda p: {"W", "U"} <= p),
    ],
)
def test_the_mana_a_card_produces(store, fake_bulk, query, test):
    expected = expect(fake_bulk, lambda card: test(set(card.get("produced_mana") or ())))
    assert expected and names(store, query) == expected
