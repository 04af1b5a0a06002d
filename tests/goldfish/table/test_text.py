"""The table as text, read the way a player reads it: no strikethrough, the reason in words, one citation a line."""

from __future__ import annotations

import re

from bot.goldfish.decks import preset_decks
from bot.goldfish.engine import Game
from bot.goldfish.engine.model import Event
from bot.goldfish.table.text import event_line, hand_lines, table_text


def kept(seed: int = 3) -> Game:
    game = Game.new(preset_decks()["slide"], seed=seed)
    game.keep()
    return game


def test_what_cannot_be_paid_says_what_is_missing_with_the_symbol_and_nothing_is_struck_through():
    game = kept()  # turn 1, no lands yet: nothing can be paid
    lines = hand_lines(game)
    assert lines and not any("~~" in line for line in lines)
    unpaid = [line for line in lines if "needs" in line]
    assert unpaid, lines
    assert all(re.search(r"needs (\{[WUBRGC]\})+|needs \d+ more mana", line) for line in unpaid)


def test_a_line_cites_its_rule_once():
    cited = event_line(Event("cleanup", "Cleanup: discard 1 card down to seven (514.1)", "514.1"))
    uncited = event_line(Event("draw", "Drew Plains", "121.1"))
    assert cited.count("514.1") == 1 and "CR" not in cited
    assert uncited.endswith("(121.1)")


def test_a_whole_table_never_shows_the_store_counter_or_doubled_citations():
    game = kept()
    text = table_text(game, owner_id=1, shared=False, version=57)
    everything = "\n".join([text.description, text.footer, *(value for _, value, _ in text.fields)])
    assert "57" not in text.footer and "version" not in everything
    for line in everything.splitlines():
        assert len(re.findall(r"\b\d{3}\.\d+[a-z]?\b", line)) <= 1, line
