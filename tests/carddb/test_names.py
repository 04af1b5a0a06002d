"""Names users trust: the complaints about other bots, as a regression table."""

from __future__ import annotations

import pytest

from bot.carddb.kinds import KINDS
from bot.carddb.store import CardStore
from bot.cards.query import KINDS as COMMAND_KINDS

# query, the card it must give (its name and set, to tell look-alikes apart), how it was found
TRUSTED = [
    ("Nix", "Nix", "arc", "exact"),
    ("nix", "Nix", "arc", "exact"),
    ("fling", "Fling", "m20", "exact"),
    ("Fling", "Fling", "m20", "exact"),
    ("Black Lotus", "Black Lotus", "lea", "exact"),
    ("black lotus", "Black Lotus", "lea", "exact"),
    ("Blacker Lotus", "Blacker Lotus", "ugl", "exact"),
    ("Lightning Bolt", "Lightning Bolt", "m10", "exact"),
    ("A-Fling", "A-Fling", "ymid", "exact"),
    ("Fire", "Fire // Ice", "apc", "face"),
    ("ice", "Fire // Ice", "apc", "face"),
    ("Fire // Ice", "Fire // Ice", "apc", "exact"),
    ("Stomp", "Bonecrusher Giant // Stomp", "eld", "face"),
    ("Bonecrusher Giant", "Bonecrusher Giant // Stomp", "eld", "face"),
    ("Agadeem, the Undercrypt", "Agadeem's Awakening // Agadeem, the Undercrypt", "znr", "face"),
    ("agadeems awakening", "Agadeem's Awakening // Agadeem, the Undercrypt", "znr", "face"),
    ("Insectile Aberration", "Delver of Secrets // Insectile Aberration", "isd", "face"),
    ("delver", "Delver of Secrets // Insectile Aberration", "isd", "word_prefix"),
    ("Akki", "Akki Boneflinger", "neo", "word_prefix"),
    ("chandras", "Chandra's Phoenix", "m12", "word_prefix"),
    ("Abandoned Sarco", "Abandoned Sarcophagus", "hou", "prefix"),
    ("Abandonned Sarcophagus", "Abandoned Sarcophagus", "hou", "fuzzy"),
    ("  LIGHTNING   bolt!! ", "Lightning Bolt", "m10", "exact"),
]


@pytest.mark.parametrize(("query", "name", "set_code", "how"), TRUSTED)
def test_a_name_gives_the_card_users_mean(store: CardStore, query: str, name: str, set_code: str, how: str):
    match = store.named(query)
    assert match.card is not None, f"{query!r} found nothing (candidates {[c.name for c in match.candidates]})"
    assert (match.card.name, match.card.set_code, match.how) == (name, set_code, how)


def test_nix_is_not_phoenix_even_where_phoenix_is_the_closer_spelling(store: CardStore):
    # Neither the Phoenix token nor Chandra's Phoenix may answer "Nix", at any step.
    assert store.named("Nix").card.name == "Nix"
    assert "Phoenix" not in {card.name for card in store.named("Nix").candidates}
    assert store.named("Phoenix").card.name == "Chandra's Phoenix"


def test_a_token_answers_only_when_asked_for(store: CardStore):
    assert store.named("Phoenix").card.extra is None
    asked = store.named("Phoenix", extras=True)
    assert (asked.card.name, asked.card.extra, asked.how) == ("Phoenix", "token", "exact")


def test_a_token_is_found_by_its_name_and_the_word_token(store: CardStore):
    asked = store.named("snake token")
    assert (asked.card.name, asked.card.extra, asked.how) == ("Snake", "token", "token")
    assert asked.card.oracle_text in ("", None)  # the plainest of the Snake tokens, not a picker of two "Snake"s
    assert store.named("Phoenix Token").card.extra == "token"
    assert store.named("snake").card is None or store.named("snake").card.extra is None  # asked without "token"
    assert store.named("nix token").card is None or store.named("nix token").card.name != "Phoenix"


def test_a_playtest_card_never_beats_the_real_card_even_when_listed_first(store: CardStore):
    card = store.named("Lightning Bolt").card
    assert (card.set_code, card.extra, card.oracle_text) == (
        "m10",
        None,
        "Lightning Bolt deals 3 damage to any target.",
    )
    # Asked for extras, the real card still wins the same step.
    assert store.named("Lightning Bolt", extras=True).card.set_code == "m10"


def test_memorabilia_never_beats_the_real_black_lotus(store: CardStore):
    assert store.named("Black Lotus", extras=True).card.set_code == "lea"


def test_rebalanced_cards_appear_only_when_named_with_their_prefix(store: CardStore):
    assert store.named("fling").card.name == "Fling"
    assert store.named("a-fling").card.name == "A-Fling"
    assert store.named("A-Fling").card.extra == "rebalanced"
    assert "A-Fling" not in store.autocomplete("fl")


def test_art_series_are_not_found_unless_asked_and_an_emblem_only_when_named_in_full(store: CardStore):
    emblem = store.named("Chandra, Torch of Defiance Emblem", extras=True).card
    assert emblem.extra == "emblem"
    # Named in full, with no real card by that name, the emblem is what was meant (not a miss, not another card).
    assert store.named("Chandra, Torch of Defiance Emblem").card.id == emblem.id
    assert store.named("Chandra, Torch of Defiance").card is None  # a part of its name is not enough
    assert store.named("Fling // Fling").card is None


def test_a_close_call_returns_the_candidates_for_a_picker(store: CardStore):
    match = store.named("lightning")
    assert match.card is None
    assert match.how == "word_prefix"
    assert [card.name for card in match.candidates] == ["Lightning Bolt", "Lightning Rift", "Lightning Helix"]


def test_nonsense_and_empty_names_find_nothing(store: CardStore):
    for query in ("", "   ", "!!!", "zzzzqqqq", "x" * 10_000, "<@123> **bold**"):
        match = store.named(query)
        assert (match.card, match.candidates, match.how) == (None, (), "none")


def test_the_card_keeps_scryfalls_object_for_renderers(store: CardStore):
    card = store.named("Delver of Secrets").card
    assert card.scryfall["card_faces"][1]["name"] == "Insectile Aberration"
    assert card.scryfall["id"] == card.id
    assert [face["name"] for face in card.faces] == ["Delver of Secrets", "Insectile Aberration"]
    assert card.image_uris == card.scryfall["card_faces"][0]["image_uris"]
    assert card.colors == ["U"]
    assert card.prices_date == "2026-11-20"


def test_autocomplete_lists_real_names_starting_with_it_then_with_a_word_starting_with_it(store: CardStore):
    # Names starting with it first, then names with a later word starting with it.
    assert store.autocomplete("light") == ["Lightning Bolt", "Lightning Helix", "Lightning Rift", "Gilded Light"]
    # A face's name and a later word of the name count too.
    assert store.autocomplete("stomp") == ["Bonecrusher Giant // Stomp"]
    assert "Fire // Ice" in store.autocomplete("ice")
    assert "Abandoned Sarcophagus" in store.autocomplete("sarcoph")
    assert store.autocomplete("") == []
    assert len(store.autocomplete("a", limit=25)) == 25
    assert store.autocomplete("phoenix") == ["Chandra's Phoenix"]


def test_cycling_kinds_are_those_of_the_cycling_command(store: CardStore):
    assert set(KINDS) == set(COMMAND_KINDS)


def test_cycling_kinds_list_the_right_cards_cr_702_29(store: CardStore):
    every = {card.name for card in store.cycling("any")}
    plain = {card.name for card in store.cycling("plain")}
    basic = {card.name for card in store.cycling("basic")}
    landtype = {card.name for card in store.cycling("landtype")}
    creature = {card.name for card in store.cycling("creature")}
    typecycling = {card.name for card in store.cycling("typecycling")}
    # Old card objects without keywords (Krosan Tusker, Ash Barrens, Wirewood Guardian) and new ones with.
    assert "Krosan Tusker" in plain and "Krosan Tusker" not in typecycling
    assert {"Ash Barrens"} <= basic and "Ash Barrens" not in landtype | creature
    assert {"Eagles of the North", "Oliphaunt", "Wirewood Guardian", "Lórien Revealed"} <= landtype
    assert {"Step Through"} <= creature and "Step Through" not in plain
    assert "Abandoned Sarcophagus" not in every  # it mentions cycling but has none
    assert plain | typecycling == every
    assert basic | landtype <= typecycling
    assert creature <= typecycling and not creature & landtype
    guardian = store.named("Wirewood Guardian").card
    assert [(ability["keyword"], ability["search"]) for ability in guardian.cycling] == [("Forestcycling", "Forest")]
    with pytest.raises(ValueError, match="unknown cycling kind"):
        store.cycling("nonsense")


def test_a_decklist_resolves_exact_and_face_names_only(store: CardStore):
    found = store.collection(["Fling", "Stomp", "Black Lotus", "Lightning", "Not A Card"])
    assert found["Fling"].set_code == "m20"
    assert found["Stomp"].name == "Bonecrusher Giant // Stomp"
    assert found["Black Lotus"].set_code == "lea"
    assert found["Lightning"] is None
    assert found["Not A Card"] is None


def test_by_id_returns_the_card(store: CardStore):
    card = store.named("Fling").card
    assert store.by_id(card.id).name == "Fling"
    assert store.by_id("00000000-0000-0000-0000-000000000000") is None
