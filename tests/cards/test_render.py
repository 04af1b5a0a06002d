"""The rendering core on real Scryfall card objects and constructed multi-faced ones (no Discord)."""

from __future__ import annotations

import json

import pytest

from bot.cards import render
from tests.data import SCRYFALL_CARDS

DFC = {
    "object": "card",
    "id": "00000000-0000-4000-8000-00000000d0fc",
    "name": "Desperate Farmer // Depraved Harvester",
    "layout": "transform",
    "type_line": "Creature — Human Peasant // Creature — Human Knight",
    "set": "mid",
    "set_name": "Innistrad: Midnight Hunt",
    "rarity": "common",
    "scryfall_uri": "https://scryfall.com/card/mid/102/desperate-farmer?utm_source=api",
    "legalities": {"modern": "legal", "standard": "not_legal"},
    "card_faces": [
        {
            "name": "Desperate Farmer",
            "mana_cost": "{2}{B}",
            "type_line": "Creature — Human Peasant",
            "oracle_text": "Lifelink\nWhen another creature you control dies, transform Desperate Farmer.",
            "power": "2",
            "toughness": "4",
            "image_uris": {"normal": "https://cards.scryfall.io/normal/front/farmer.jpg"},
        },
        {
            "name": "Depraved Harvester",
            "mana_cost": "",
            "type_line": "Creature — Human Knight",
            "oracle_text": "Lifelink",
            "power": "4",
            "toughness": "3",
            "image_uris": {"normal": "https://cards.scryfall.io/normal/back/farmer.jpg"},
        },
    ],
}

SPLIT = {
    "object": "card",
    "id": "00000000-0000-4000-8000-0000000059a1",
    "name": "Destined // Lead",
    "layout": "split",
    "mana_cost": "{1}{B} // {3}{G}",
    "type_line": "Instant // Sorcery",
    "set": "akh",
    "set_name": "Amonkhet",
    "rarity": "uncommon",
    "image_uris": {"normal": "https://cards.scryfall.io/normal/front/destined.jpg"},
    "card_faces": [
        {
            "name": "Destined",
            "mana_cost": "{1}{B}",
            "type_line": "Instant",
            "oracle_text": "Target creature gets +1/+0 and gains indestructible until end of turn.",
        },
        {
            "name": "Lead",
            "mana_cost": "{3}{G}",
            "type_line": "Sorcery",
            "oracle_text": "Aftermath (Cast this spell only from your graveyard. Then exile it.)\n"
            "All creatures able to block target creature this turn must do so.\nCycling {2}",
        },
    ],
}


@pytest.fixture(scope="module")
def cards() -> dict[str, dict]:
    with SCRYFALL_CARDS.open(encoding="utf-8") as handle:
        return {card["name"]: card for card in map(json.loads, handle)}


def test_street_wraith_shows_its_life_cycling_cost(cards):
    display = render.render_card(cards["Street Wraith"])
    fields = dict(display.fields)
    assert display.title == "Street Wraith {3}{B}{B}"
    assert "Cycling" not in fields and display.description.count("Cycling—Pay 2 life") == 1  # said once
    assert "Swampwalk" in display.description
    assert "3/4" in display.description


def test_sanctum_plowbeast_lists_both_landcyclings(cards):
    display = render.render_card(cards["Sanctum Plowbeast"])
    assert display.description.count("Plainscycling {2}, islandcycling {2}") == 1
    assert "Cycling" not in dict(display.fields)


def test_card_shows_set_rarity_link_and_image(cards):
    card = cards["Abandoned Sarcophagus"]
    display = render.render_card(card)
    assert dict(display.fields)["Set"] == "Hour of Devastation (HOU) · rare"
    assert display.url == "https://scryfall.com/card/hou/158/abandoned-sarcophagus"
    assert display.thumbnail_url == card["image_uris"]["normal"] and display.image_url is None
    # A card that only mentions cycling has no cycling ability to list.
    assert "Cycling" not in dict(display.fields)


def test_double_faced_card_shows_both_faces_and_the_front_image():
    display = render.render_card(DFC)
    assert display.title == "Desperate Farmer // Depraved Harvester {2}{B}"
    assert "**Desperate Farmer** {2}{B}" in display.description
    assert "**Depraved Harvester**" in display.description
    assert "2/4" in display.description and "4/3" in display.description
    assert display.thumbnail_url == "https://cards.scryfall.io/normal/front/farmer.jpg"


def test_each_face_of_a_double_faced_card_has_its_own_image():
    front, back = render.render_faces(DFC)
    assert front.image_url.endswith("front/farmer.jpg")
    assert back.image_url.endswith("back/farmer.jpg")
    assert back.title == "Depraved Harvester"


def test_split_card_shows_both_halves_and_the_cycling_on_its_second_half():
    display = render.render_card(SPLIT)
    assert display.title == "Destined // Lead {1}{B} // {3}{G}"
    assert "**Destined** {1}{B}" in display.description
    assert "**Lead** {3}{G}" in display.description
    assert display.description.count("Cycling {2}") == 1 and "Cycling" not in dict(display.fields)
    assert display.thumbnail_url == SPLIT["image_uris"]["normal"]
    text = render.render_text(SPLIT)
    assert "Destined {1}{B}" in text and "Lead {3}{G}" in text and "Cycling: Cycling {2}" in text


def test_plain_text_has_the_same_parts_without_markdown(cards):
    text = render.render_text(cards["Street Wraith"])
    lines = text.splitlines()
    assert lines[0] == "Street Wraith {3}{B}{B}"
    assert "Cycling: Cycling—Pay 2 life" in lines
    assert "*" not in text
    assert lines[-1].startswith("https://scryfall.com/card/")


def test_stale_card_says_scryfall_is_unreachable_with_the_copy_date(cards):
    display = render.render_card(cards["Street Wraith"], shown=render.Provenance(stale=True, cached_at=0))
    assert display.footer == "Scryfall is unreachable; showing a cached copy from 1970-01-01 00:00 UTC"
    assert "cached copy" in render.render_text(cards["Street Wraith"], shown=render.Provenance(stale=True))


def test_cycling_result_line_names_card_cost_and_cycling_costs(cards):
    assert render.cycling_result_line(cards["Sanctum Plowbeast"]) == (
        "Sanctum Plowbeast {4}{W}{U} — Plainscycling {2}, Islandcycling {2}"
    )
    assert render.cycling_result_line(cards["Ash Barrens"]) == "Ash Barrens — Basic landcycling {1}"


def test_legalities_are_grouped_by_status_in_a_familiar_order(cards):
    lines = render.legality_lines(cards["Abandoned Sarcophagus"])
    assert lines[0] == "Legal: Modern, Legacy, Vintage, Commander, Duel Commander, Frontier"
    assert lines[1].startswith("Not legal: Standard, Pauper")


def test_prices_show_currencies_or_say_there_are_none(cards):
    priced = next(card for card in cards.values() if (card.get("prices") or {}).get("usd"))
    assert f"USD: ${priced['prices']['usd']}" in render.price_lines(priced)
    assert render.price_lines({"set": "hou", "prices": {"usd": None}}) == [
        "Scryfall lists no prices for this printing (HOU)."
    ]


def test_rulings_read_as_dated_lines():
    rulings = [{"published_at": "2017-04-18", "comment": "Cycling is an activated ability."}, {"comment": " "}]
    assert render.ruling_lines(rulings) == ["2017-04-18 — Cycling is an activated ability."]


def test_huge_text_is_clipped_to_embed_limits():
    card = {"name": "x" * 6000, "oracle_text": "y" * 6000, "mana_cost": "{1}"}
    display = render.render_card(card)
    assert len(display.title) <= 256 and display.title.endswith("…")
    assert len(display.description) <= 4096
