"""The fake Scryfall behaves like Scryfall where the client depends on it."""

from __future__ import annotations

import time

import pytest
import requests

from bot.cycling import cycling_abilities, has_cycling
from tests.support.fake_scryfall import CONSTRUCTED_CARDS
from tests.support.waits import CEILING

HEADERS = {"User-Agent": "Cyclebot-tests/1", "Accept": "application/json"}


def get(fake, path, **params):
    return requests.get(fake.base_url + path, params=params, headers=HEADERS, timeout=CEILING)


def search(fake, query, **params):
    time.sleep(0.5)  # keep to the search-class limit between calls
    return get(fake, "/cards/search", q=query, **params)


def test_missing_user_agent_or_accept_is_a_400_and_a_violation(fake_scryfall):
    response = requests.get(fake_scryfall.base_url + "/cards/autocomplete?q=dr", headers={"User-Agent": ""})
    assert response.status_code == 400 and response.json()["object"] == "error"
    assert "User-Agent" in fake_scryfall.violations[0]
    response = requests.get(fake_scryfall.base_url + "/cards/autocomplete?q=dr", headers={"Accept": ""})
    assert response.status_code == 400 and "Accept" in fake_scryfall.violations[1]


def test_every_scryfall_uri_points_at_the_fake(fake_scryfall):
    response = get(fake_scryfall, "/cards/named", exact="Test Xcycler")
    assert "api.scryfall.com" not in response.text
    card = response.json()
    assert card["uri"] == f"{fake_scryfall.base_url}/cards/{card['id']}"
    assert card["rulings_uri"].startswith(fake_scryfall.base_url)


def test_constructed_fixtures_have_scryfall_shapes():
    by_layout = {card["layout"]: card for card in CONSTRUCTED_CARDS}
    for layout in ("transform", "modal_dfc"):
        card = by_layout[layout]
        assert "image_uris" not in card and "mana_cost" not in card and "oracle_text" not in card
        for face in card["card_faces"]:
            assert {"name", "mana_cost", "type_line", "oracle_text", "image_uris"} <= set(face)
    split = by_layout["split"]
    assert split["mana_cost"] == "{1}{R} // {1}{U}" and split["image_uris"]
    assert all("image_uris" not in face for face in split["card_faces"])
    assert has_cycling(by_layout["modal_dfc"])
    assert cycling_abilities(by_layout["modal_dfc"])[0].face == "Test Cycling Face"
    xcycler = next(card for card in CONSTRUCTED_CARDS if card["name"] == "Test Xcycler")
    assert [str(a) for a in cycling_abilities(xcycler)] == ["Cycling {X}{U}"]
    assert all(card["rulings_uri"].endswith(f"/cards/{card['id']}/rulings") for card in CONSTRUCTED_CARDS)


def test_named_fuzzy_exact_ambiguous_and_not_found(fake_scryfall):
    assert get(fake_scryfall, "/cards/named", fuzzy="lorien revealed").json()["name"] == "Lórien Revealed"
    time.sleep(0.5)
    ambiguous = get(fake_scryfall, "/cards/named", fuzzy="drake")
    assert ambiguous.status_code == 404 and ambiguous.json()["type"] == "ambiguous"
    assert ambiguous.json()["details"].startswith("Too many cards match ambiguous name “drake”")
    time.sleep(0.5)
    missing = get(fake_scryfall, "/cards/named", exact="Lorien")
    assert missing.status_code == 404 and missing.json()["code"] == "not_found"


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("t:drake", {"Pendrell Drake", "Shimmerscale Drake"}),
        ("drake -t:creature", {"Drake Haven"}),
        ('o:"when you cycle" t:drake', set()),
        ("(t:drake or t:wizard) c=u mv>=5", {"Shimmerscale Drake", "Windcaller Aven"}),
        ("(t:drake or t:wizard) c:ub", {"Architects of Will", "Esper Sojourners"}),
        ("kw:wizardcycling", {"Step Through", "Vedalken Aethermage"}),
        ("set:tst kw:cycling", {"Test Cycling Face // Test Far Face", "Test Xcycler"}),
        ("s:tst c=ur", {"Fire // Ice"}),
        ('!"fire // ice"', {"Fire // Ice"}),
    ],
)
def test_search_syntax_subset(fake_scryfall, query, expected):
    response = search(fake_scryfall, query)
    if not expected:
        assert response.status_code == 404 and response.json()["object"] == "error"
        return
    assert response.status_code == 200, response.json()
    assert {card["name"] for card in response.json()["data"]} == expected


def test_unknown_syntax_is_a_400_with_scryfall_style_warnings(fake_scryfall):
    error = search(fake_scryfall, "foo:bar").json()
    assert error["status"] == 400 and error["code"] == "bad_request"
    assert error["warnings"] == ["Invalid expression “foo:bar” was ignored. Unknown keyword “foo”."]


def test_search_pages_175_cards(fake_scryfall):
    first = search(fake_scryfall, "kw:cycling").json()
    assert len(first["data"]) == 175 and first["has_more"] and first["total_cards"] > 175
    assert "page=2" in first["next_page"]


def test_collection_refuses_more_than_75_identifiers(fake_scryfall):
    body = {"identifiers": [{"name": "Pendrell Drake"}] * 76}
    response = requests.post(fake_scryfall.base_url + "/cards/collection", json=body, headers=HEADERS, timeout=CEILING)
    assert response.status_code == 422 and response.json()["object"] == "error"


def test_the_fake_enforces_the_search_class_limit_with_429(fake_scryfall):
    statuses = [get(fake_scryfall, "/cards/random").status_code for _ in range(3)]
    assert statuses == [200, 200, 429]
    assert fake_scryfall.max_rate("search") == 3
    assert fake_scryfall.statuses(429)[0].klass == "search"
    assert any("within 1 s" in violation for violation in fake_scryfall.violations)


def test_scripted_failures_apply_to_matching_paths_only(fake_scryfall):
    fake_scryfall.fail_next(500, count=1, path="^/cards/autocomplete$")
    assert get(fake_scryfall, "/cards/00000000-0000-0000-0000-000000000000").status_code == 404
    assert get(fake_scryfall, "/cards/autocomplete", q="drake").status_code == 500
    assert get(fake_scryfall, "/cards/autocomplete", q="drake").status_code == 200
    fake_scryfall.reset()
    assert fake_scryfall.requests == []
