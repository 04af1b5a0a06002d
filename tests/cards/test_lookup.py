"""Where an answer came from and how old its prices are, as the footers say it."""

from __future__ import annotations

from datetime import date

from bot.cards.answers import API, LOCAL, origin_text, prices_note


def test_the_footer_names_the_bulk_data_and_its_date_or_the_api():
    assert origin_text(LOCAL, "2026-11-20") == "Scryfall bulk data of 2026-11-20"
    assert origin_text(API, None) == "Scryfall API"


def test_prices_older_than_a_day_carry_their_date_and_fresh_ones_do_not():
    today = date(2026, 11, 22)
    assert prices_note("2026-11-20", today) == "Prices of 2026-11-20"
    assert prices_note("2026-11-21", today) == ""
    assert prices_note("2026-11-22", today) == ""
    assert prices_note(None, today) == ""
    assert prices_note("not a date", today) == ""
